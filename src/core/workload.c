/* Lookups over a workload's rung table. */
#include "core/workload.h"
#include <string.h>

const cg_rung *cg_workload_rung(const cg_workload *w, const char *name)
{
    for (size_t i = 0; i < w->n_rungs; i++)
        if (!strcmp(w->rungs[i].name, name)) return &w->rungs[i];
    return NULL;
}
