/* Parsing of run targets against the workload registry. */
#include "cli/targets.h"
#include <stdio.h>
#include <string.h>
#include "core/log.h"

static void join_names(char *buf, size_t len, const cg_workload *w)
{
    size_t used = 0;
    buf[0] = 0;
    size_t n = w ? w->n_rungs : cg_nworkloads;
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                                 w ? w->rungs[i].name : cg_workloads[i]->name);
}

static cg_status add_one(const char *item, size_t len, cg_targets *t)
{
    char name[128], names[512];
    snprintf(name, sizeof name, "%.*s", (int)len, item);
    char *colon = strchr(name, ':');
    if (colon) *colon++ = 0;
    if (!strcmp(name, "all") && !colon) {
        for (size_t w = 0; w < cg_nworkloads; w++) {
            t->any[w] = true;
            for (size_t r = 0; r < cg_workloads[w]->n_rungs; r++)
                t->rung[w][r] = true;
        }
        return CG_OK;
    }
    size_t w = 0;
    while (w < cg_nworkloads && strcmp(cg_workloads[w]->name, name))
        w++;
    if (w == cg_nworkloads) {
        join_names(names, sizeof names, NULL);
        CG_ERROR("unknown workload '%s'; workloads: %s, or all (see `clgauge list`)", name, names);
        return CG_E_USAGE;
    }
    const cg_workload *wl = cg_workloads[w];
    t->any[w] = true;
    for (size_t r = 0; r < wl->n_rungs; r++)
        if (!colon || !strcmp(wl->rungs[r].name, colon)) t->rung[w][r] = true;
    if (colon && !cg_workload_rung(wl, colon)) {
        join_names(names, sizeof names, wl);
        CG_ERROR("unknown rung '%s' of %s; its rungs: %s", colon, name, names);
        return CG_E_USAGE;
    }
    return CG_OK;
}

cg_status cg_targets_check_capacity(void)
{
    if (cg_nworkloads > CG_MAX_WORKLOADS) {
        CG_ERROR("internal: %zu workloads registered, more than CG_MAX_WORKLOADS (%d): raise it in "
                 "src/workloads/registry.h",
                 cg_nworkloads, CG_MAX_WORKLOADS);
        return CG_E_RUNTIME;
    }
    for (size_t w = 0; w < cg_nworkloads; w++)
        if (cg_workloads[w]->n_rungs > CG_MAX_RUNGS) {
            CG_ERROR("internal: workload %s has %zu rungs, more than CG_MAX_RUNGS (%d): raise it in "
                     "src/cli/targets.h",
                     cg_workloads[w]->name, cg_workloads[w]->n_rungs, CG_MAX_RUNGS);
            return CG_E_RUNTIME;
        }
    return CG_OK;
}

cg_status cg_targets_parse(const char *spec, cg_targets *t)
{
    memset(t, 0, sizeof *t);
    if (cg_targets_check_capacity() != CG_OK) return CG_E_RUNTIME;
    const char *p = spec;
    if (!*p) {
        CG_ERROR("empty workload list; try `clgauge run all`");
        return CG_E_USAGE;
    }
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len == 0) {
            CG_ERROR("empty item in workload list '%s'", spec);
            return CG_E_USAGE;
        }
        cg_status st = add_one(p, len, t);
        if (st != CG_OK) return st;
        if (p[len] == ',' && !p[len + 1]) { /* "saxpy,": a forgotten item, not a list of one */
            CG_ERROR("empty item at the end of workload list '%s'; drop the last comma", spec);
            return CG_E_USAGE;
        }
        p += len + (p[len] == ',');
    }
    return CG_OK;
}
