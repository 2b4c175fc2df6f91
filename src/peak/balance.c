/* Where compute starts to pay (seed 001, Apple's tuning chapter): the crossover test copies pixels doing k
 * flops each, k = 0 (the plain copy), 3, 6, 12 .. until the pixel rate falls with k (compute-bound), and
 * ends with the balance point the curve shows beside the roofline's own ratio; the chains test times one
 * dependent MAD chain per work-item against 2, 4, 8 and 16 independent ones (balance.cl). Every figure is
 * checked against a host replay. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/clerr.h"
#include "peak/roofline.h"
#include "peak/tests.h"

/* x = r * x * (c - x): the seed's 3.9f * a * (1.0f - a) with r = 3 instead of 3.9. At 3.9 the map is chaotic
 * (a rounding difference doubles every few steps: no host replay can check it); at 3 a float replay stays
 * within about 1e-7 per step of one in double. */
#define CROSS_R         3.0f
#define CROSS_C         1.0f
#define CROSS_MAX_STEPS 1024 /* k = 3072 flops per pixel */
#define CHECK_N         256  /* pixels checked at each of three places */

static bool is_gpu(const cg_peak_env *e)
{
    return e->ctx->dev->type & CL_DEVICE_TYPE_GPU;
}

/* Pixels per launch: 1 GiB per buffer on a GPU, 64 MiB on a CPU (32 MiB with --quick): past the caches. */
static size_t cross_pixels(const cg_peak_env *e)
{
    const cg_device *d = e->ctx->dev;
    size_t b = is_gpu(e) ? (size_t)1 << 30 : (size_t)(e->o->quick ? 32 : 64) << 20;
    while (b > d->max_alloc || b > d->global_mem / 8)
        b /= 2;
    return b / 4;
}

typedef struct cross_run {
    cl_mem in, out;
    size_t n;                  /* pixels */
    float hin[3 * CHECK_N];    /* the input at the checked pixels */
    double plateau, top_gflop; /* best pixel rate (GP/s); best GFLOP/s over the k measured */
    int bend_k, last_k;        /* first k under 90% of the plateau (-1: none); the last k measured */
} cross_run;

static size_t check_at(const cross_run *c, int i)
{
    return i == 0 ? 0 : i == 1 ? c->n / 2 : c->n - CHECK_N;
}

/* Reads the output at the checked pixels and compares each with the host's replay of `steps` steps. */
static cg_status cross_check(cg_peak_env *e, const cross_run *c, int steps, cg_result *row)
{
    cg_status st = CG_OK;
    float got[CHECK_N];
    double tol = 1e-6 + 4e-7 * steps;
    for (int i = 0; i < 3; i++) {
        size_t at = check_at(c, i);
        CG_TRY(clEnqueueReadBuffer(e->ctx->queue, c->out, CL_TRUE, at * 4, sizeof got, got, 0, NULL, NULL));
        for (int j = 0; j < CHECK_N; j++) {
            double x = c->hin[i * CHECK_N + j];
            for (int s = 0; s < steps; s++)
                x = (double)CROSS_R * x * ((double)CROSS_C - x);
            if (!(fabs(got[j] - x) <= tol * fabs(x))) {
                cg_peak_set_status(row, CG_RUNG_WRONG,
                                   "pixel %zu: got %.9g, want %.9g (host replay of %d steps)", at + (size_t)j,
                                   got[j], x, steps);
                return CG_OK;
            }
        }
    }
out:
    return st;
}

/* Times the kernel with STEPS = steps (k = 3 * steps flops per pixel) and adds its row. */
static cg_status cross_row(cg_peak_env *e, cross_run *c, int steps, double *gps)
{
    cg_status st = CG_OK;
    cl_program p = NULL;
    cl_kernel k = NULL;
    char opts[32], variant[32], note[160];
    float r = CROSS_R, cc = CROSS_C, poison = NAN;
    int flops = 3 * steps, runs = 0;
    double best = 0;
    snprintf(opts, sizeof opts, "-DSTEPS=%d", steps);
    snprintf(variant, sizeof variant, steps ? "k %d flops" : "k 0 (copy)", flops);
    cg_result *row = cg_peak_add(e, variant, "GP/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    if ((st = cg_peak_build(e, "balance.cl", opts, &p)) != CG_OK) goto out;
    CG_TRY_OBJ(k, clCreateKernel(p, "crossover", CG_ERRP));
    CG_TRY(clSetKernelArg(k, 0, sizeof c->in, &c->in));
    CG_TRY(clSetKernelArg(k, 1, sizeof c->out, &c->out));
    CG_TRY(clSetKernelArg(k, 2, sizeof r, &r));
    CG_TRY(clSetKernelArg(k, 3, sizeof cc, &cc));
    CG_TRY(clEnqueueFillBuffer(e->ctx->queue, c->out, &poison, sizeof poison, 0, c->n * 4, 0, NULL, NULL));
    if ((st = cg_peak_time_kernel(e, k, c->n, cg_peak_local(e, c->n), &best, &runs)) != CG_OK) goto out;
    *gps = cg_peak_rate_g((double)c->n, best);
    if (steps)
        snprintf(note, sizeof note,
                 "pixels (4 B read + 4 B written); %d flops each = %.3g flop/B, %.3g GFLOP/s; checked", flops,
                 flops / 8.0, *gps * flops);
    else
        snprintf(note, sizeof note, "pixels (4 B read + 4 B written): the seed's copy kernel; checked");
    cg_peak_set_rate(row, (double)c->n, best, runs, note);
    st = cross_check(e, c, steps, row);
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    if (k) clReleaseKernel(k);
    if (p) clReleaseProgram(p);
    return st;
}

/* The closing rows: the balance point, where the measured plateau (GP/s) meets the best measured GFLOP/s,
 * and the roofline's own ratio: this run's fp32 and copy rows, else the cached roofline, else no row. */
static void balance_rows(cg_peak_env *e, const cross_run *c, bool compute_bound)
{
    double copy, read, mad;
    cg_peak_ceilings(e->rep, &copy, &read, &mad);
    cg_result *row = cg_peak_add(e, "balance point", "flop/B");
    if (!row) return;
    double kstar = c->plateau > 0 ? c->top_gflop / c->plateau : 0;
    snprintf(row->bytes_note, sizeof row->bytes_note,
             "%s%.0f flops/pixel: plateau %.3g GP/s meets the best %.3g GFLOP/s (k up to %d); first k under "
             "90%%: %d",
             compute_bound ? "" : "not compute-bound: over ", kstar, c->plateau, c->top_gflop, c->last_k,
             c->bend_k);
    row->amount = kstar;
    row->value = kstar / 8;
    row->status = row->value > 0 ? CG_RUNG_OK : CG_RUNG_CL_ERROR;
    if (row->status != CG_RUNG_OK) snprintf(row->reason, sizeof row->reason, "no rate was measured");
    const char *from = "this run's";
    cg_roofline roof;
    if (!(copy > 0 && mad > 0) && cg_roofline_cached(e->ctx, &roof)) {
        copy = roof.copy_gbps;
        mad = roof.mad_gflops;
        from = roof.full ? "the cached peak's" : "the cached peak --quick's";
    }
    if (!(copy > 0 && mad > 0)) return; /* neither measured nor cached: docs/peak.md says how */
    if (!(row = cg_peak_add(e, "roofline fp32/copy", "flop/B"))) return;
    snprintf(row->bytes_note, sizeof row->bytes_note,
             "%s fp32 %.0f GFLOP/s / copy %.0f GB/s (an FMA counts 2 flops; the steps above fuse none)", from,
             mad, copy);
    row->value = mad / copy;
    row->status = CG_RUNG_OK;
}

/* k = 0, 3, 6, 12 .. doubling until, twice in a row, the pixel rate is under half the plateau and doubling k
 * added no GFLOP/s (on the compute line: twice, so one noisy run does not end the curve), or k = 3072, or one
 * launch took half the watchdog's time. The balance point: the best GFLOP/s over the plateau's GP/s. */
static cg_status cross_sweep(cg_peak_env *e, cross_run *c)
{
    cg_status st = CG_OK;
    double gps = 0, prev = 0;
    bool bound = false, flat = false;
    c->bend_k = -1;
    for (int steps = 0; steps <= CROSS_MAX_STEPS && st == CG_OK && !bound; steps = steps ? 2 * steps : 1) {
        if ((st = cross_row(e, c, steps, &gps)) != CG_OK) return st;
        const cg_result *row = &e->rep->rows[e->rep->n - 1];
        if (row->status != CG_RUNG_OK) return st; /* wrong: where it bends is not known, so stop here */
        if (gps > c->plateau) c->plateau = gps;
        if (c->bend_k < 0 && gps < 0.9 * c->plateau) c->bend_k = 3 * steps;
        bool was_flat = flat;
        flat = steps >= 2 && gps < 0.5 * c->plateau && gps < 0.575 * prev; /* GFLOP/s stopped growing */
        bound = flat && was_flat;
        prev = gps;
        c->last_k = 3 * steps;
        if (gps * 3 * steps > c->top_gflop) c->top_gflop = gps * 3 * steps;
        if (row->t_min > CG_PEAK_WATCHDOG_S / 2) break; /* twice the flops would pass the watchdog */
    }
    balance_rows(e, c, bound);
    return st;
}

cg_status cg_peak_crossover(cg_peak_env *e)
{
    cg_status st = CG_OK;
    cl_program p = NULL;
    cl_kernel fill = NULL;
    cross_run *c = calloc(1, sizeof *c);
    cl_uint seed = (cl_uint)(e->o->seed * 0x9E3779B97F4A7C15ull >> 32);
    CG_FAIL_IF(!c, CG_E_RUNTIME, "out of host memory");
    c->n = cross_pixels(e);
    CG_TRY_OBJ(c->in, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, c->n * 4, NULL, CG_ERRP));
    CG_TRY_OBJ(c->out, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, c->n * 4, NULL, CG_ERRP));
    if ((st = cg_peak_build(e, "balance.cl", "-DSTEPS=0", &p)) != CG_OK) goto out;
    CG_TRY_OBJ(fill, clCreateKernel(p, "fill_unit", CG_ERRP));
    CG_TRY(clSetKernelArg(fill, 0, sizeof c->in, &c->in));
    CG_TRY(clSetKernelArg(fill, 1, sizeof seed, &seed));
    CG_TRY(clEnqueueNDRangeKernel(e->ctx->queue, fill, 1, NULL, &c->n, NULL, 0, NULL, NULL));
    for (int i = 0; i < 3; i++)
        CG_TRY(clEnqueueReadBuffer(e->ctx->queue, c->in, CL_TRUE, check_at(c, i) * 4, CHECK_N * 4,
                                   c->hin + i * CHECK_N, 0, NULL, NULL));
    st = cross_sweep(e, c);
out:
    if (fill) clReleaseKernel(fill);
    if (p) clReleaseProgram(p);
    if (c && c->out) clReleaseMemObject(c->out);
    if (c && c->in) clReleaseMemObject(c->in);
    free(c);
    return st;
}

/* ---- chains: x = mad(x, a, b), a = 0.999, b = 0.001, chain j of work-item i from (i & 63) * s + j * t */
static const float chain_arg[4] = {0.999f, 0.001f, 0.01f, 0.1f};

/* The sum work-item gid writes, replayed in double from the kernel's float starting values. */
static double chain_replay(size_t gid, int nch, cl_uint iters)
{
    double sum = 0;
    for (int j = 0; j < nch; j++) {
        double x = (double)((float)(gid & 63) * chain_arg[2] + (float)j * chain_arg[3]);
        for (uint64_t i = 0; i < (uint64_t)iters * 8; i++)
            x = x * chain_arg[0] + chain_arg[1];
        sum += x;
    }
    return sum;
}

typedef struct chain_args {
    int nch;
    cl_uint iters;
} chain_args;

static double chain_item(size_t gid, const void *arg)
{
    const chain_args *a = arg;
    return chain_replay(gid, a->nch, a->iters);
}

static cg_status chain_check(cg_peak_env *e, cl_mem out, size_t gsz, int nch, cl_uint iters, cg_result *row)
{
    size_t ids[3] = {0, gsz / 2 + 5, gsz - 1};
    chain_args a = {nch, iters};
    return cg_peak_check_items(e, out, CG_PEAK_F32, ids, 3, 1e-4, chain_item, &a, row);
}

static cg_status chain_row(cg_peak_env *e, cl_mem out, size_t gsz, int nch, double *one)
{
    cg_status st = CG_OK;
    cl_program p = NULL;
    cl_kernel k = NULL;
    char opts[32], variant[32], note[128];
    cl_uint iters = 0;
    double best = 0;
    int runs = 0;
    snprintf(opts, sizeof opts, "-DNCH=%d", nch);
    snprintf(variant, sizeof variant, "%d chain%s", nch, nch > 1 ? "s" : "");
    cg_result *row = cg_peak_add(e, variant, "GFLOP/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    if ((st = cg_peak_build(e, "balance.cl", opts, &p)) != CG_OK) goto out;
    CG_TRY_OBJ(k, clCreateKernel(p, "chains", CG_ERRP));
    CG_TRY(clSetKernelArg(k, 0, sizeof out, &out));
    for (cl_uint i = 0; i < 4; i++)
        CG_TRY(clSetKernelArg(k, i + 1, sizeof(float), &chain_arg[i]));
    if ((st = cg_peak_fit_time(e, k, 5, gsz, cg_peak_local(e, gsz), &iters, &best, &runs)) != CG_OK) goto out;
    double flops = (double)gsz * iters * 8 * nch * 2, v = cg_peak_rate_g(flops, best);
    if (nch == 1) *one = v;
    snprintf(note, sizeof note,
             "2 FLOPs per mad, %d independent chain%s per work-item; x%.2f the rate of 1; checked", nch,
             nch > 1 ? "s" : "", *one > 0 ? v / *one : 0);
    cg_peak_set_rate(row, flops, best, runs, note);
    st = chain_check(e, out, gsz, nch, iters, row);
out:
    if (st != CG_OK && row)
        cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error or build failure (see the log)");
    if (k) clReleaseKernel(k);
    if (p) clReleaseProgram(p);
    return st;
}

cg_status cg_peak_chains(cg_peak_env *e)
{
    static const int counts[] = {1, 2, 4, 8, 16};
    cg_status st = CG_OK;
    cl_mem out = NULL;
    size_t gsz = (size_t)e->ctx->dev->compute_units * (is_gpu(e) ? 16384 : 256);
    double one = 0;
    CG_TRY_OBJ(out, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, gsz * 4, NULL, CG_ERRP));
    for (size_t i = 0; i < sizeof counts / sizeof counts[0] && st == CG_OK; i++)
        st = chain_row(e, out, gsz, counts[i], &one);
out:
    if (out) clReleaseMemObject(out);
    return st;
}
