/* Local memory: float4 read bandwidth, and a bank-conflict sweep (float reads at a stride of 1..64 words)
 * whose rows say the slowdown against stride 1. Bytes counted: bytes read from local memory. */
#include <stdio.h>
#include "core/clerr.h"
#include "peak/tests.h"

static size_t group_size(const cg_peak_env *e)
{
    size_t l = 256;
    while (l > e->ctx->dev->max_wg)
        l /= 2;
    return l;
}

static size_t items(const cg_peak_env *e)
{
    bool gpu = e->ctx->dev->type & CL_DEVICE_TYPE_GPU;
    return (size_t)e->ctx->dev->compute_units * (gpu ? 8192 : 256);
}

/* Times kernel `name` (args: out, iters[, stride]) and adds its row; *gbps gets the figure. */
static cg_status one(cg_peak_env *e, cl_program p, const char *name, cl_uint stride, const char *variant,
                     double per_step, double *gbps)
{
    cg_status st = CG_OK;
    cl_kernel k = NULL;
    cl_mem out = NULL;
    size_t g = items(e), l = group_size(e);
    cl_uint iters = 16;
    double best = 0;
    int runs = 0;
    cg_result *row = cg_peak_add(e, variant, "GB/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    CG_TRY_OBJ(out, clCreateBuffer(e->ctx->context, CL_MEM_WRITE_ONLY, g * 4, NULL, CG_ERRP));
    CG_TRY_OBJ(k, clCreateKernel(p, name, CG_ERRP));
    CG_TRY(clSetKernelArg(k, 0, sizeof out, &out));
    if (stride) CG_TRY(clSetKernelArg(k, 2, sizeof stride, &stride));
    if ((st = cg_peak_fit_time(e, k, 1, g, l, &iters, &best, &runs)) != CG_OK) goto out;
    cg_peak_set_rate(row, (double)g * iters * per_step, best, runs, "bytes read from local memory");
    *gbps = row->value;
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    if (k) clReleaseKernel(k);
    if (out) clReleaseMemObject(out);
    return st;
}

static cg_status with_program(cg_peak_env *e, bool bank)
{
    static const cl_uint strides[] = {1, 2, 4, 8, 16, 32, 64};
    cg_status st = CG_OK;
    cl_program p = NULL;
    char opts[32], variant[48];
    double gbps = 0, base = 0;
    snprintf(opts, sizeof opts, "-DLSZ=%zu", group_size(e));
    if ((st = cg_peak_build(e, "local.cl", opts, &p)) != CG_OK) return st;
    if (!bank) {
        st = one(e, p, "local_read", 0, "float4 reads", 4 * 16, &gbps);
    } else {
        for (size_t i = 0; i < sizeof strides / sizeof strides[0] && st == CG_OK; i++) {
            snprintf(variant, sizeof variant, "stride %u words", strides[i]);
            st = one(e, p, "local_bank", strides[i], variant, 4 * 4, &gbps);
            if (i == 0) base = gbps;
            if (st == CG_OK && gbps > 0) {
                cg_result *row = &e->rep->rows[e->rep->n - 1];
                snprintf(row->bytes_note, sizeof row->bytes_note,
                         "bytes read from local memory; x%.2f the time of stride 1", base / gbps);
            }
        }
    }
    clReleaseProgram(p);
    return st;
}

cg_status cg_peak_local_bw(cg_peak_env *e)
{
    return with_program(e, false);
}

cg_status cg_peak_local_bank(cg_peak_env *e)
{
    return with_program(e, true);
}
