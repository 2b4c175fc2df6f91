/* The run command's target list: "all" or "workload[:rung][,...]" into one selection mask per workload. */
#ifndef CG_CLI_TARGETS_H
#define CG_CLI_TARGETS_H
#include <stdbool.h>
#include "core/status.h"

#define CG_MAX_RUNGS 64

typedef struct cg_targets {
    bool any[16];                /* per registry index: something of it is selected */
    bool rung[16][CG_MAX_RUNGS]; /* per registry index, per rung */
} cg_targets;

/* Parses spec against the registry. Unknown workload or rung: one logged line listing what exists,
 * CG_E_USAGE. */
cg_status cg_targets_parse(const char *spec, cg_targets *t);

#endif
