/* Helpers every ladder shares: rung lookup, work-group sizing, output poisoning, timed kernel launches, and
 * the lookup of the run options a workload declares (its descriptor) and of their given values. */
#include "core/workload.h"
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "core/kfacts.h"

const cg_rung *cg_workload_rung(const cg_workload *w, const char *name)
{
    for (size_t i = 0; i < w->n_rungs; i++)
        if (!strcmp(w->rungs[i].name, name)) return &w->rungs[i];
    return NULL;
}

const char *cg_rung_cl_file(const cg_workload *w, const cg_rung *r)
{
    const char *f = w->rung_cl_file ? w->rung_cl_file(r) : NULL;
    return f ? f : w->cl_file;
}

bool cg_rung_has_option(const cg_rung *r, const char *opt)
{
    return r->options && strstr(r->options, opt) != NULL;
}

int cg_rung_option_int(const cg_rung *r, const char *opt)
{
    const char *o = r->options ? strstr(r->options, opt) : NULL;
    return o ? atoi(o + strlen(opt)) : 0;
}

size_t cg_rung_pow2_wg(int want, size_t dflt, size_t max_wg)
{
    size_t w = want > 0 ? (size_t)want : dflt;
    size_t lim = w < max_wg ? w : max_wg;
    size_t wg = 1;
    while (wg * 2 <= lim)
        wg *= 2;
    return wg;
}

cg_status cg_enqueue_kernel(cg_ctx *ctx, cg_events *ev, cl_kernel k, cl_uint dims, const size_t *global,
                            const size_t *local)
{
    return cg_enqueue_kernel_at(ctx, ev, k, dims, NULL, global, local);
}

cg_status cg_enqueue_kernel_at(cg_ctx *ctx, cg_events *ev, cl_kernel k, cl_uint dims, const size_t *offset,
                               const size_t *global, const size_t *local)
{
    cg_status st = CG_OK;
    cl_event *e = cg_events_next(ev);
    CG_FAIL_IF(!e, CG_E_RUNTIME, "out of host memory for an event");
    CG_TRY(clEnqueueNDRangeKernel(ctx->queue, k, dims, offset, global, local, 0, NULL, e));
    if (ev->launches) cg_launches_note(ev->launches, k, dims, local, ev->n - 1);
out:
    return st;
}

cg_status cg_enqueue_groups(cg_ctx *ctx, cg_events *ev, cl_kernel k, size_t groups, size_t wg)
{
    size_t global = groups * wg;
    return cg_enqueue_kernel(ctx, ev, k, 1, &global, &wg);
}

cg_status cg_poison_buffer(cg_ctx *ctx, cl_mem mem, const void *pattern, size_t pattern_size, size_t bytes)
{
    cg_status st = CG_OK;
    CG_TRY(clEnqueueFillBuffer(ctx->queue, mem, pattern, pattern_size, 0, bytes, 0, NULL, NULL));
    CG_TRY(clFinish(ctx->queue));
out:
    return st;
}

const cg_wopt *cg_workload_option(const cg_workload *w, const char *name)
{
    for (size_t i = 0; i < w->n_wopts; i++)
        if (!strcmp(w->wopts[i].name, name)) return &w->wopts[i];
    return NULL;
}

const cg_wopt *cg_workload_sweep(const cg_workload *w)
{
    for (size_t i = 0; i < w->n_wopts; i++)
        if (w->wopts[i].kind == CG_WOPT_EXTENTS) return &w->wopts[i];
    return NULL;
}

const cg_wopt_value *cg_wopts_find(const cg_wopts *s, const char *name)
{
    for (size_t i = 0; s && i < s->n; i++)
        if (!strcmp(s->v[i].name, name)) return &s->v[i];
    return NULL;
}

cg_wopt_value *cg_wopts_set(cg_wopts *s, const char *name)
{
    cg_wopt_value *v = (cg_wopt_value *)cg_wopts_find(s, name);
    if (v) return v;
    if (s->n == CG_WOPTS_MAX) return NULL;
    v = &s->v[s->n++];
    *v = (cg_wopt_value){.name = name};
    return v;
}

double cg_wopts_number(const cg_wopts *s, const char *name, double dflt)
{
    const cg_wopt_value *v = cg_wopts_find(s, name);
    return v ? v->num : dflt;
}

void cg_rungs_each_candidate(const cg_rung *rungs, size_t n, const cg_tspace *spaces, size_t n_spaces,
                             void (*fn)(const cg_rung *r, void *user), void *user)
{
    for (size_t i = 0; i < n; i++) {
        fn(&rungs[i], user);
        const cg_tspace *t = cg_tune_space_of(spaces, n_spaces, rungs[i].name);
        for (size_t c = 0, m = t ? cg_tune_space_size(t) : 0; c < m; c++) {
            cg_rung cand = rungs[i];
            int v[CG_TUNE_MAXP];
            cg_tune_candidate(t, c, v);
            cg_tune_apply(t, v, cand.p);
            fn(&cand, user);
        }
    }
}
