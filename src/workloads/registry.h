/* The list of workloads: adding one is one folder plus one line in registry.c. */
#ifndef CG_WORKLOADS_REGISTRY_H
#define CG_WORKLOADS_REGISTRY_H
#include <stddef.h>
#include "core/workload.h"

/* The most workloads the registry may hold: the CLI's per-workload selection (cli/targets.h) has this many
 * slots. registry.c refuses to compile past it: raise it here. */
#define CG_MAX_WORKLOADS 16
/* The most .cl files all workloads together may have (cg_workload.cl_file and more_cl_files): --kernel-dir's
 * check lists them; past it, the files beyond are not checked up front (a build still names a missing one).
 */
#define CG_MAX_CL_FILES 64

extern const cg_workload *const cg_workloads[];
extern const size_t cg_nworkloads;
const cg_workload *cg_registry_find(const char *name);

#endif
