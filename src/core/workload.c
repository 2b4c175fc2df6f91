/* Helpers every ladder shares: rung lookup, work-group sizing, output poisoning, timed kernel launches. */
#include "core/workload.h"
#include <string.h>
#include "core/clerr.h"

const cg_rung *cg_workload_rung(const cg_workload *w, const char *name)
{
    for (size_t i = 0; i < w->n_rungs; i++)
        if (!strcmp(w->rungs[i].name, name)) return &w->rungs[i];
    return NULL;
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
    cg_status st = CG_OK;
    cl_event *e = cg_events_next(ev);
    CG_FAIL_IF(!e, CG_E_RUNTIME, "out of host memory for an event");
    CG_TRY(clEnqueueNDRangeKernel(ctx->queue, k, dims, NULL, global, local, 0, NULL, e));
out:
    return st;
}

cg_status cg_poison_buffer(cg_ctx *ctx, cl_mem mem, const void *pattern, size_t pattern_size, size_t bytes)
{
    cg_status st = CG_OK;
    CG_TRY(clEnqueueFillBuffer(ctx->queue, mem, pattern, pattern_size, 0, bytes, 0, NULL, NULL));
    CG_TRY(clFinish(ctx->queue));
out:
    return st;
}
