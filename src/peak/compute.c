/* Compute ceilings: fp32, fp64, fp16, int32 and 24-bit int multiply-adds for widths 1..16 (compute.cl). The
 * work per launch is fitted to a target time (never past the watchdog); a MAD counts 2 operations, as in
 * clpeak. After the timed runs the host replays three work-items and compares: a kernel whose work the
 * compiler removed gives another sum. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "core/clerr.h"
#include "peak/tests.h"

typedef struct kind_def {
    const char *scalar; /* OpenCL scalar type */
    const char *unit;
    const char *opts; /* extra build options */
    unsigned needs;   /* cg_feature bits */
    bool integer;
    double tol;        /* relative tolerance of the check; < 0: no check */
    double a, b, s, t; /* x = x * a + b; lane l of chain c starts at ((gid & 63) + l) * s + c * t */
    bool same_too;     /* also time x = x * a + a (-DSAME_ADDEND) and the a = 1, b = 0 data (not --quick) */
} kind_def;

static const kind_def fp32 = {"float", "GFLOP/s", "-DAT=float -DOT=float", 0, false, 1e-4, 0.999, 0.001, 0.01,
                              0.1,     true};
static const kind_def fp64 = {
    "double", "GFLOP/s", "-DFP64 -DAT=float -DOT=double", CG_FEAT_FP64, false, 1e-9, 0.999, 0.001, 0.01,
    0.1,      true};
static const kind_def fp16 = {
    "half", "GFLOP/s", "-DFP16 -DAT=float -DOT=float", CG_FEAT_FP16, false, 3e-2, 0.75, 0.25, 0.01,
    0.1,    false};
static const kind_def int32 = {
    "uint", "GIOP/s", "-DINTMAD -DAT=uint -DOT=uint", 0, true, 0, 1664525, 1013904223, 1, 7919, false};
static const kind_def int24 = {"uint", "GIOP/s", "-DINT24 -DAT=uint -DOT=uint", 0, true, -1, 40503, 12345, 1,
                               7,      false};
static const int widths[] = {1, 2, 4, 8, 16};

/* The sum one work-item writes, replayed on the host (floats in double, integers wrapping like uint). */
static double replay(const kind_def *k, size_t gid, int vw, int nch, uint64_t iters)
{
    double sum = 0;
    uint32_t isum = 0;
    for (int c = 0; c < nch; c++)
        for (int l = 0; l < vw; l++) {
            if (k->integer) {
                uint32_t x =
                    ((uint32_t)(gid & 63) + (uint32_t)l) * (uint32_t)k->s + (uint32_t)c * (uint32_t)k->t;
                for (uint64_t i = 0; i < iters * 4; i++)
                    x = x * (uint32_t)k->a + (uint32_t)k->b;
                isum += x;
            } else {
                /* the kernel gets float arguments and forms c * t in float before widening */
                double a = (float)k->a, b = (float)k->b,
                       x = (double)((gid & 63) + (size_t)l) * (float)k->s + (double)((float)c * (float)k->t);
                for (uint64_t i = 0; i < iters * 4; i++)
                    x = x * a + b;
                sum += x;
            }
        }
    return k->integer ? (double)isum : sum;
}

typedef struct replay_arg {
    const kind_def *k;
    int vw, nch;
    cl_uint iters;
} replay_arg;

static double replay_item(size_t gid, const void *arg)
{
    const replay_arg *a = arg;
    return replay(a->k, gid, a->vw, a->nch, a->iters);
}

/* Reads back out[gid] for three work-items and compares with the replay; sets the row wrong on a mismatch. */
static cg_status check(cg_peak_env *e, const kind_def *k, cl_mem out, size_t gsz, int vw, int nch,
                       cl_uint iters, cg_result *row)
{
    if (k->tol < 0) return CG_OK;
    size_t ids[3] = {0, gsz / 2 + 5, gsz - 1};
    replay_arg a = {k, vw, nch, iters};
    cg_peak_elem t = k->integer ? CG_PEAK_U32 : !strcmp(k->scalar, "double") ? CG_PEAK_F64 : CG_PEAK_F32;
    return cg_peak_check_items(e, out, t, ids, 3, k->tol, replay_item, &a, row);
}

static cg_status set_args(const kind_def *k, cl_kernel kr, cl_mem out, cl_uint iters)
{
    cg_status st = CG_OK;
    double v[4] = {k->a, k->b, k->s, k->t};
    CG_TRY(clSetKernelArg(kr, 0, sizeof out, &out));
    for (cl_uint i = 0; i < 4; i++) {
        cl_float f = (cl_float)v[i];
        cl_uint u = (cl_uint)v[i];
        if (k->integer)
            CG_TRY(clSetKernelArg(kr, i + 1, sizeof u, &u));
        else
            CG_TRY(clSetKernelArg(kr, i + 1, sizeof f, &f));
    }
    CG_TRY(clSetKernelArg(kr, 5, sizeof iters, &iters));
out:
    return st;
}

/* Chains per work-item: 8, or 4 where 8 vectors of this width would pass 512 bytes of registers. */
static int chains(const kind_def *k, int vw)
{
    int bytes = !strcmp(k->scalar, "double") ? 8 : 4;
    return vw * bytes * 8 > 512 ? 4 : 8;
}

static void form_note(const kind_def *k, char *note, size_t len)
{
    const char *form = strstr(k->opts, "INT24") ? "mad24(x, a, b)"
                       : k->a == 1 && k->b == 0
                           ? "x * a + b, a = 1, b = 0: few bits toggle (the binary of the checked run)"
                       : k->a == k->b ? "x * a + a"
                                      : "x * a + b";
    snprintf(note, len, "2 ops per multiply-add (as clpeak), x = %s; %s", form,
             k->tol >= 0 ? "checked" : "not checked");
}

/* Times one form of one width: build, fit the iterations, best of the runs, check; the row keeps the best. */
static cg_status one_form(cg_peak_env *e, const kind_def *k, int vw, cl_mem out, size_t gsz, cg_result *row)
{
    cg_status st = CG_OK;
    cl_program p = NULL;
    cl_kernel kr = NULL;
    char opts[192];
    cl_uint iters = 0;
    double best = 0;
    int runs = 0, nch = chains(k, vw);
    snprintf(opts, sizeof opts, "-DST=%s -DVT=%s -DVW=%d -DNCH=%d %s%s", k->scalar, row->variant, vw, nch,
             k->opts, k->a == k->b && !k->integer ? " -DSAME_ADDEND" : "");
    if ((st = cg_peak_build(e, "compute.cl", opts, &p)) != CG_OK) goto out;
    CG_TRY_OBJ(kr, clCreateKernel(p, "mad_chains", CG_ERRP));
    if ((st = set_args(k, kr, out, 16)) != CG_OK) goto out;
    if ((st = cg_peak_fit_time(e, kr, 5, gsz, cg_peak_local(e, gsz), &iters, &best, &runs)) != CG_OK)
        goto out;
    double ops = (double)gsz * iters * 4 * nch * vw * 2, v = cg_peak_rate_g(ops, best);
    if (v > row->value || row->status != CG_RUNG_OK) {
        char note[160];
        form_note(k, note, sizeof note);
        cg_peak_set_rate(row, ops, best, runs, note);
        st = check(e, k, out, gsz, vw, nch, iters, row);
    }
out:
    if (kr) clReleaseKernel(kr);
    if (p) clReleaseProgram(p);
    return st;
}

static cg_status one_width(cg_peak_env *e, const kind_def *k, int vw, cl_mem out, size_t gsz)
{
    char vt[16];
    snprintf(vt, sizeof vt, vw == 1 ? "%s" : "%s%d", k->scalar, vw);
    cg_result *row = cg_peak_add(e, vt, k->unit);
    if (!row) return CG_E_RUNTIME;
    row->status = CG_RUNG_CL_ERROR;
    cg_status st = one_form(e, k, vw, out, gsz, row);
    if (st == CG_OK && row->status == CG_RUNG_OK && k->same_too && !e->o->quick) {
        kind_def same = *k, idle = *k;
        same.b = same.a;
        idle.a = 1;
        idle.b = 0;
        st = one_form(e, &same, vw, out, gsz, row);
        if (st == CG_OK) st = one_form(e, &idle, vw, out, gsz, row);
    }
    if (st != CG_OK) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error or build failure (see the log)");
    cg_peak_timer_row(e, row); /* last: it may move the rows */
    return st;
}

static cg_status sweep(cg_peak_env *e, const kind_def *k, const char *missing)
{
    cg_status st = CG_OK;
    cl_mem out = NULL;
    if ((e->ctx->features & k->needs) != k->needs) {
        cg_result *row = cg_peak_add(e, k->scalar, k->unit);
        if (row) cg_peak_set_status(row, CG_RUNG_UNSUPPORTED, "unsupported: %s", missing);
        return row ? CG_OK : CG_E_RUNTIME;
    }
    bool gpu = e->ctx->dev->type & CL_DEVICE_TYPE_GPU;
    e->host_ok = true; /* every compute test honours --timer */
    size_t gsz = (size_t)e->ctx->dev->compute_units * (gpu ? 16384 : 256);
    CG_TRY_OBJ(out, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, gsz * 8, NULL, CG_ERRP));
    for (size_t i = 0; i < sizeof widths / sizeof widths[0] && st == CG_OK; i++)
        if (!e->o->quick || widths[i] == (gpu ? 1 : 16)) st = one_width(e, k, widths[i], out, gsz);
out:
    if (out) clReleaseMemObject(out);
    return st;
}

cg_status cg_peak_fp32(cg_peak_env *e)
{
    return sweep(e, &fp32, "");
}

cg_status cg_peak_fp64(cg_peak_env *e)
{
    return sweep(e, &fp64, "no fp64 (cl_khr_fp64)");
}

cg_status cg_peak_fp16(cg_peak_env *e)
{
    return sweep(e, &fp16, "no fp16 (a half-arithmetic kernel does not compile)");
}

cg_status cg_peak_int32(cg_peak_env *e)
{
    return sweep(e, &int32, "");
}

cg_status cg_peak_int24(cg_peak_env *e)
{
    return sweep(e, &int24, "");
}
