/* Tensor-core ceilings: TF32 mma.sync.m16n8k8 and fp16 mma.sync.m16n8k16 (fp32 accumulators) through inline
 * PTX (tensor.cl), the instructions of the convolution's tensor-core rungs, in 2, 4 and 8 independent
 * accumulators per warp; the best counts. Only where the device has `nvidia-mma`; elsewhere one unsupported
 * row. A multiply-add counts 2 FLOPs (16 x 8 x 8 of them per TF32 mma, 16 x 8 x 16 per fp16 one), as for the
 * fp32 MADs, so the figures compare. After the timed runs the host replays three work-items' sums. */
#include <stdio.h>
#include "core/clerr.h"
#include "peak/tests.h"

#define AV 0.25f
#define BV 0.25f
static const int nchs[] = {2, 4, 8};

typedef struct replay_arg {
    int nch;
    cl_uint iters;
    int k; /* the mma's K: 8 (TF32) or 16 (fp16) */
} replay_arg;

/* Lane (g, t) = (lane / 4, lane % 4) holds D at columns 2t and 2t + 1 of rows g and g + 8; each mma adds
 * sum_k A[m][k] B[k][n] = AV BV (1 + n % 4) x 20 (K 8: 2 (1 + 2 + 3 + 4); K 16: twice that) to D[m][n]. */
static double replay_item(size_t gid, const void *arg)
{
    const replay_arg *a = arg;
    int t = (int)(gid & 3);
    double per = 20.0 * (a->k / 8) * AV * BV * 2.0 * ((1 + (2 * t) % 4) + (1 + (2 * t + 1) % 4));
    return per * 4.0 * a->iters * a->nch;
}

static cg_status one_nch(cg_peak_env *e, int nch, int k, cl_mem out, size_t gsz, cg_result *row)
{
    cg_status st = CG_OK;
    cl_program p = NULL;
    cl_kernel kr = NULL;
    char opts[32];
    cl_uint iters = 0;
    double best = 0;
    int runs = 0;
    float av = AV, bv = BV;
    snprintf(opts, sizeof opts, "-DNCH=%d%s", nch, k == 16 ? " -DF16=1" : "");
    if ((st = cg_peak_build(e, "tensor.cl", opts, &p)) != CG_OK) goto out;
    CG_TRY_OBJ(kr, clCreateKernel(p, "mma_chains", CG_ERRP));
    CG_TRY(clSetKernelArg(kr, 0, sizeof out, &out));
    CG_TRY(clSetKernelArg(kr, 1, sizeof av, &av));
    CG_TRY(clSetKernelArg(kr, 2, sizeof bv, &bv));
    if ((st = cg_peak_fit_time(e, kr, 3, gsz, 256, &iters, &best, &runs)) != CG_OK) goto out;
    double flops = (double)(gsz / 32) * iters * 4 * nch * (2.0 * 16 * 8 * k), v = cg_peak_rate_g(flops, best);
    if (v > row->value || row->status != CG_RUNG_OK) {
        char note[160];
        snprintf(note, sizeof note,
                 "mma.sync.m16n8k%d %s, %d accumulators a warp; 2 FLOPs per multiply-add; checked", k,
                 k == 16 ? "fp16 (fp32 accumulators)" : "TF32", nch);
        cg_peak_set_rate(row, flops, best, runs, note);
        size_t ids[3] = {0, gsz / 2 + 5, gsz - 1};
        replay_arg a = {nch, iters, k};
        st = cg_peak_check_items(e, out, CG_PEAK_F32, ids, 3, 1e-5, replay_item, &a, row);
    }
out:
    if (kr) clReleaseKernel(kr);
    if (p) clReleaseProgram(p);
    return st;
}

static cg_status mma_row(cg_peak_env *e, const char *variant, int k)
{
    cg_status st = CG_OK;
    cl_mem out = NULL;
    cg_result *row = cg_peak_add(e, variant, "GFLOP/s");
    if (!row) return CG_E_RUNTIME;
    if (!(e->ctx->features & CG_FEAT_NV_MMA) || e->ctx->mma_emulated) {
        cg_peak_set_status(row, CG_RUNG_UNSUPPORTED,
                           "unsupported: needs nvidia-mma (NVIDIA, compute capability 8.0 or above; "
                           "CLGAUGE_EMULATE_MMA's emulation is for the workloads' logic, not for a ceiling)");
        return CG_OK;
    }
    /* 2048 work-items (64 warps) a compute unit: Hopper's and Ampere's most resident. */
    size_t gsz = (size_t)e->ctx->dev->compute_units * 2048;
    row->status = CG_RUNG_CL_ERROR;
    CG_TRY_OBJ(out, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, gsz * 4, NULL, CG_ERRP));
    for (size_t i = 0; i < sizeof nchs / sizeof nchs[0]; i++) {
        if (e->o->quick && nchs[i] != 4) continue;
        st = one_nch(e, nchs[i], k, out, gsz, row);
        if (st != CG_OK || row->status != CG_RUNG_OK) break; /* a wrong sum stays the row's figure */
    }
out:
    if (st != CG_OK) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error or build failure (see the log)");
    if (out) clReleaseMemObject(out);
    return st;
}

cg_status cg_peak_tf32_mma(cg_peak_env *e)
{
    return mma_row(e, "tf32 mma", 8);
}

cg_status cg_peak_f16_mma(cg_peak_env *e)
{
    return mma_row(e, "f16 mma", 16);
}
