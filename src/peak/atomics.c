/* Atomic-add throughput, global and local: every work-item on one address, on 64 addresses, and one address
 * per work-item. The figure counts atomic adds (GIOP/s). After timing, one more launch on zeroed counters is
 * checked: the counters must add up to work-items x iterations. */
#include <stdio.h>
#include <stdlib.h>
#include "core/clerr.h"
#include "peak/tests.h"

static size_t group_size(const cg_peak_env *e)
{
    size_t l = 256;
    while (l > e->ctx->dev->max_wg)
        l /= 2;
    return l;
}

/* Work-items: a power of two near 2048 per compute unit, so that i & (g - 1) gives each its own counter. */
static size_t items(const cg_peak_env *e)
{
    size_t g = 256;
    while (g * 2 <= (size_t)e->ctx->dev->compute_units * 2048)
        g *= 2;
    return g;
}

/* Zeroes ctr, launches once, and sums the n counters read back. */
static cg_status checked_sum(cg_peak_env *e, cl_kernel k, cl_mem ctr, size_t n, size_t g, size_t l,
                             uint32_t *sum)
{
    cg_status st = CG_OK;
    cl_uint zero = 0;
    uint32_t *h = malloc(n * 4);
    double t;
    CG_FAIL_IF(!h, CG_E_RUNTIME, "out of host memory");
    CG_TRY(clEnqueueFillBuffer(e->ctx->queue, ctr, &zero, 4, 0, n * 4, 0, NULL, NULL));
    if ((st = cg_peak_launch(e, k, g, l, &t)) != CG_OK) goto out;
    CG_TRY(clEnqueueReadBuffer(e->ctx->queue, ctr, CL_TRUE, 0, n * 4, h, 0, NULL, NULL));
    *sum = 0;
    for (size_t i = 0; i < n; i++)
        *sum += h[i];
out:
    free(h);
    return st;
}

static cg_status one(cg_peak_env *e, cl_program p, bool local, cl_uint mask, const char *variant)
{
    cg_status st = CG_OK;
    cl_kernel k = NULL;
    cl_mem ctr = NULL;
    size_t l = group_size(e), g = items(e);
    size_t n = local ? g / l : (size_t)mask + 1;
    cl_uint iters = 16;
    uint32_t sum = 0;
    double best = 0;
    int runs = 0;
    cg_result *row = cg_peak_add(e, variant, "GIOP/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    CG_TRY_OBJ(ctr, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, n * 4, NULL, CG_ERRP));
    CG_TRY_OBJ(k, clCreateKernel(p, local ? "atomic_local" : "atomic_global", CG_ERRP));
    CG_TRY(clSetKernelArg(k, 0, sizeof ctr, &ctr));
    CG_TRY(clSetKernelArg(k, 1, sizeof mask, &mask));
    if ((st = cg_peak_fit_time(e, k, 2, g, l, &iters, &best, &runs)) != CG_OK) goto out;
    cg_peak_set_rate(row, (double)g * iters, best, runs, "atomic adds; counters checked");
    if ((st = checked_sum(e, k, ctr, n, g, l, &sum)) == CG_OK && sum != (uint32_t)(g * iters))
        cg_peak_set_status(row, CG_RUNG_WRONG, "counters add up to %u, want %u", sum, (unsigned)(g * iters));
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    if (k) clReleaseKernel(k);
    if (ctr) clReleaseMemObject(ctr);
    return st;
}

static cg_status family(cg_peak_env *e, bool local)
{
    cg_status st = CG_OK;
    cl_program p = NULL;
    char opts[32];
    size_t l = group_size(e), g = items(e);
    snprintf(opts, sizeof opts, "-DLSZ=%zu", l);
    if ((st = cg_peak_build(e, "atomics.cl", opts, &p)) != CG_OK) return st;
    /* one address per work-item: g for global, the group's own counters for local */
    cl_uint spread = local ? (cl_uint)(l - 1) : (cl_uint)(g - 1);
    st = one(e, p, local, 0, "one address");
    if (st == CG_OK) st = one(e, p, local, 63, "64 addresses");
    if (st == CG_OK) st = one(e, p, local, spread, "one address per work-item");
    clReleaseProgram(p);
    return st;
}

cg_status cg_peak_atomic_global(cg_peak_env *e)
{
    return family(e, false);
}

cg_status cg_peak_atomic_local(cg_peak_env *e)
{
    return family(e, true);
}
