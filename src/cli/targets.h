/* The run command's target list: "all" or "workload[:rung][,...]" into one selection mask per workload. */
#ifndef CG_CLI_TARGETS_H
#define CG_CLI_TARGETS_H
#include <stdbool.h>
#include "core/status.h"
#include "workloads/registry.h"

/* The most rungs one workload may have: the selection below holds that many per workload. A workload with
 * more makes cg_targets_parse fail (CG_E_RUNTIME, one line naming this constant) and
 * tests/unit/test_capacity.c fail: raise it here. The registry's own limit, CG_MAX_WORKLOADS, is a
 * compile-time check in registry.c. */
#define CG_MAX_RUNGS 64

typedef struct cg_targets {
    bool any[CG_MAX_WORKLOADS];                /* per registry index: something of it is selected */
    bool rung[CG_MAX_WORKLOADS][CG_MAX_RUNGS]; /* per registry index, per rung */
} cg_targets;

/* CG_OK when every registered workload fits the capacities above; else one logged line naming the workload
 * and the constant to raise, CG_E_RUNTIME. */
cg_status cg_targets_check_capacity(void);

/* Parses spec against the registry. Unknown workload or rung: one logged line listing what exists,
 * CG_E_USAGE. A registry past the capacities: as cg_targets_check_capacity. */
cg_status cg_targets_parse(const char *spec, cg_targets *t);

#endif
