/* Every workload clgauge knows, in the order `clgauge list` and `run all` use. */
#include "workloads/registry.h"
#include <string.h>

extern const cg_workload cg_workload_reduction;
extern const cg_workload cg_workload_filter3x3;
extern const cg_workload cg_workload_transpose;
extern const cg_workload cg_workload_blur;
extern const cg_workload cg_workload_histogram;
extern const cg_workload cg_workload_convolution;

/* clang-format off */
const cg_workload *const cg_workloads[] = {
    &cg_workload_reduction,
    &cg_workload_filter3x3,
    &cg_workload_transpose,
    &cg_workload_blur,
    &cg_workload_histogram,
    &cg_workload_convolution,
};
/* clang-format on */
const size_t cg_nworkloads = sizeof cg_workloads / sizeof cg_workloads[0];
_Static_assert(sizeof cg_workloads / sizeof cg_workloads[0] <= CG_MAX_WORKLOADS,
               "more workloads than CG_MAX_WORKLOADS: raise it in workloads/registry.h");

const cg_workload *cg_registry_find(const char *name)
{
    for (size_t i = 0; i < cg_nworkloads; i++)
        if (!strcmp(cg_workloads[i]->name, name)) return cg_workloads[i];
    return NULL;
}
