/* Every workload clgauge knows, in the order `clgauge list` and `run all` use. */
#include "workloads/registry.h"
#include <string.h>

/* The list: one line per workload, in `clgauge list` and `run all` order; X(name) names the descriptor
 * cg_workload_<name> that src/workloads/<name>/<name>.c defines. */
/* clang-format off */
#define CG_WORKLOAD_LIST(X) \
    X(reduction)            \
    X(filter3x3)            \
    X(transpose)            \
    X(blur)                 \
    X(histogram)            \
    X(convolution)          \
    X(saxpy)                \
    X(scan)                 \
    X(lcs)                  \
    X(cloth)                \
    X(opticalflow)
/* clang-format on */

#define DECLARE(name) extern const cg_workload cg_workload_##name;
#define ENTRY(name)   &cg_workload_##name,
CG_WORKLOAD_LIST(DECLARE)
const cg_workload *const cg_workloads[] = {CG_WORKLOAD_LIST(ENTRY)};
#undef DECLARE
#undef ENTRY
const size_t cg_nworkloads = sizeof cg_workloads / sizeof cg_workloads[0];
_Static_assert(sizeof cg_workloads / sizeof cg_workloads[0] <= CG_MAX_WORKLOADS,
               "more workloads than CG_MAX_WORKLOADS: raise it in workloads/registry.h");

const cg_workload *cg_registry_find(const char *name)
{
    for (size_t i = 0; i < cg_nworkloads; i++)
        if (!strcmp(cg_workloads[i]->name, name)) return cg_workloads[i];
    return NULL;
}
