/* The rules a programmer should follow (seed 004, the WWDC 2010 talk's NVIDIA part), measured (rules.cl):
 * coalescing (read a float, add 1, write it: coalesced, some work-items idle, permuted within 128-byte
 * segments, misaligned by a float, float3 direct and staged through local memory, each against coalesced)
 * and divergence (a branch of granularity 1 .. 128 work-items; where its cost halves is the SIMD width,
 * shown beside CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE). Outputs are compared with a host replay. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "peak/tests.h"

#define CO_WIN 3072 /* floats checked at each of three places (a multiple of 768) */
#define CO_PAD 32   /* floats past n: the misaligned kernel writes float n */

typedef enum { CO_ALL, CO_IDLE, CO_SHIFT } co_writes; /* which floats a kernel writes */
typedef struct co_case {
    const char *variant, *kernel, *what;
    int per_item; /* floats per work-item: 1, or 3 for float3 */
    co_writes writes;
} co_case;

static const co_case co_cases[] = {
    {"coalesced", "co_coalesced", "work-item i moves float i", 1, CO_ALL},
    {"1 in 16 idle", "co_idle", "as coalesced, but work-items i % 16 == 1 do nothing", 1, CO_IDLE},
    {"permuted in 128 B", "co_permuted", "float (7i + 3) mod 32 of each 32-float segment", 1, CO_ALL},
    {"misaligned by 1 float", "co_misaligned", "work-item i moves float i + 1", 1, CO_SHIFT},
    {"float3 direct", "co_float3", "one packed float3 per work-item (vload3/vstore3)", 3, CO_ALL},
    {"float3 via local", "co_float3_local", "the float3s staged through local memory", 3, CO_ALL},
};

typedef struct co_run {
    cl_program p;
    cl_mem in, out;
    size_t n, lsz; /* floats moved; the work-group size */
    float hin[3 * CO_WIN + CO_PAD], hout[3 * CO_WIN + CO_PAD];
    double coalesced_gbps;
} co_run;

static bool is_gpu(const cg_peak_env *e)
{
    return e->ctx->dev->type & CL_DEVICE_TYPE_GPU;
}

/* The work-group size of the kernels with a local array: 256, or the device's largest power of two under it.
 */
static size_t group_size(const cg_peak_env *e)
{
    size_t l = 256;
    while (l > e->ctx->dev->max_wg)
        l /= 2;
    return l;
}

static size_t co_floats(const cg_peak_env *e)
{
    const cg_device *d = e->ctx->dev;
    size_t b = is_gpu(e) ? (size_t)256 << 20 : (size_t)(e->o->quick ? 32 : 64) << 20;
    while (b > d->max_alloc || b > d->global_mem / 8)
        b /= 2;
    size_t n = b / 4 / 768 * 768;
    return n < 3 * CO_WIN ? 3 * CO_WIN : n;
}

static size_t co_window(const co_run *r, int w)
{
    return w == 0 ? 0 : w == 1 ? r->n / 2 / 768 * 768 : r->n - CO_WIN;
}

static bool co_written(co_writes w, size_t j, size_t n)
{
    return w == CO_SHIFT ? j >= 1 && j <= n : j < n && (w != CO_IDLE || (j & 15) != 1);
}

/* Reads three windows of in and out and compares every float of out with in + 1, or with the poison where
 * the kernel writes nothing. */
static cg_status co_check(cg_peak_env *e, co_run *r, const co_case *c, cg_result *row)
{
    cg_status st = CG_OK;
    const uint32_t poison = 0xffffffffu;
    for (int w = 0; w < 3; w++) {
        size_t at = co_window(r, w), len = w == 2 ? CO_WIN + CO_PAD : CO_WIN;
        float *hi = r->hin + w * CO_WIN, *ho = r->hout + w * CO_WIN;
        CG_TRY(clEnqueueReadBuffer(e->ctx->queue, r->in, CL_TRUE, at * 4, len * 4, hi, 0, NULL, NULL));
        CG_TRY(clEnqueueReadBuffer(e->ctx->queue, r->out, CL_TRUE, at * 4, len * 4, ho, 0, NULL, NULL));
        for (size_t j = 0; j < len; j++) {
            bool wr = co_written(c->writes, at + j, r->n);
            float want = hi[j] + 1.0f;
            if (wr ? ho[j] != want : memcmp(&ho[j], &poison, 4) != 0) {
                cg_peak_set_status(row, CG_RUNG_WRONG, "float %zu: got %.9g, want %.9g%s", at + j, ho[j],
                                   wr ? want : NAN, wr ? "" : " (not written: the poison)");
                return CG_OK;
            }
        }
    }
out:
    return st;
}

static cg_status co_row(cg_peak_env *e, co_run *r, const co_case *c)
{
    cg_status st = CG_OK;
    cl_kernel k = NULL;
    cl_uint poison = 0xffffffffu;
    size_t items = r->n / (size_t)c->per_item;
    size_t lsz = c->per_item == 3 ? r->lsz : cg_peak_local(e, items);
    double best = 0, moved = c->writes == CO_IDLE ? (double)r->n * 15 / 16 : (double)r->n;
    int runs = 0;
    char note[160];
    cg_result *row = cg_peak_add(e, c->variant, "GB/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    CG_TRY_OBJ(k, clCreateKernel(r->p, c->kernel, CG_ERRP));
    CG_TRY(clSetKernelArg(k, 0, sizeof r->in, &r->in));
    CG_TRY(clSetKernelArg(k, 1, sizeof r->out, &r->out));
    CG_TRY(clEnqueueFillBuffer(e->ctx->queue, r->out, &poison, 4, 0, (r->n + CO_PAD) * 4, 0, NULL, NULL));
    if ((st = cg_peak_time_kernel(e, k, items, lsz, &best, &runs)) != CG_OK) goto out;
    double gbps = cg_peak_rate_g(moved * 8, best);
    if (c == co_cases) r->coalesced_gbps = gbps;
    snprintf(note, sizeof note, "bytes read + written; %s; x%.2f the time per byte of coalesced; checked",
             c->what, gbps > 0 ? r->coalesced_gbps / gbps : 0);
    cg_peak_set_rate(row, moved * 8, best, runs, note);
    st = co_check(e, r, c, row);
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    if (k) clReleaseKernel(k);
    return st;
}

cg_status cg_peak_coalescing(cg_peak_env *e)
{
    cg_status st = CG_OK;
    co_run *r = calloc(1, sizeof *r);
    char opts[32];
    CG_FAIL_IF(!r, CG_E_RUNTIME, "out of host memory");
    r->n = co_floats(e);
    r->lsz = group_size(e);
    snprintf(opts, sizeof opts, "-DLSZ=%zu", r->lsz);
    CG_TRY_OBJ(r->in, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, (r->n + CO_PAD) * 4, NULL, CG_ERRP));
    CG_TRY_OBJ(r->out,
               clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, (r->n + CO_PAD) * 4, NULL, CG_ERRP));
    if ((st = cg_peak_fill_random(e, r->in, r->n + CO_PAD)) != CG_OK) goto out;
    if ((st = cg_peak_build(e, "rules.cl", opts, &r->p)) != CG_OK) goto out;
    for (size_t i = 0; i < sizeof co_cases / sizeof co_cases[0] && st == CG_OK; i++)
        st = co_row(e, r, &co_cases[i]);
out:
    if (r && r->p) clReleaseProgram(r->p);
    if (r && r->out) clReleaseMemObject(r->out);
    if (r && r->in) clReleaseMemObject(r->in);
    free(r);
    return st;
}

/* ---- divergence */
static const float dv_a = 0.999f, dv_b = 0.001f;

/* What work-item gid writes after iters x 4 steps of its path (granularity g), replayed on the host. */
static double dv_replay(size_t gid, cl_uint g, cl_uint iters)
{
    if ((gid / g) & 1) {
        uint32_t u = (uint32_t)gid;
        for (uint64_t i = 0; i < (uint64_t)iters * 4; i++)
            u = u * 1664525u + 1013904223u;
        return -(double)(u >> 8);
    }
    double x = (double)((float)(gid & 63) * 0.01f);
    for (uint64_t i = 0; i < (uint64_t)iters * 4; i++)
        x = x * dv_a + dv_b;
    return x;
}

typedef struct dv_arg {
    cl_uint g, iters;
} dv_arg;

static double dv_item(size_t gid, const void *arg)
{
    const dv_arg *a = arg;
    return dv_replay(gid, a->g, a->iters);
}

static cg_status dv_check(cg_peak_env *e, cl_mem out, size_t gsz, cl_uint g, cl_uint iters, cg_result *row)
{
    size_t ids[4] = {0, g, gsz / 2 + g, gsz - 1};
    dv_arg a = {g, iters};
    return cg_peak_check_items(e, out, CG_PEAK_F32, ids, 4, 1e-4, dv_item, &a, row);
}

typedef struct dv_run {
    cl_kernel k;
    cl_mem out;
    size_t gsz, lsz;
    cl_uint iters;
    double t[8]; /* seconds at granularity 1, 2, 4 .. 128 */
    bool wrong;  /* a row was wrong: no width inferred */
} dv_run;

static cg_status dv_row(cg_peak_env *e, dv_run *d, cl_uint g)
{
    cg_status st = CG_OK;
    double best = 0;
    int runs = 0;
    float poison = NAN;
    char variant[32], note[128];
    snprintf(variant, sizeof variant, "granularity %u", g);
    cg_result *row = cg_peak_add(e, variant, "GOP/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    CG_TRY(clSetKernelArg(d->k, 1, sizeof g, &g));
    CG_TRY(clEnqueueFillBuffer(e->ctx->queue, d->out, &poison, sizeof poison, 0, d->gsz * 4, 0, NULL, NULL));
    if (g == 1)
        st = cg_peak_fit_time(e, d->k, 4, d->gsz, d->lsz, &d->iters, &best, &runs);
    else
        st = cg_peak_time_kernel(e, d->k, d->gsz, d->lsz, &best, &runs);
    if (st != CG_OK) goto out;
    for (int i = 0; i < 8; i++)
        if (g == 1u << i) d->t[i] = best;
    snprintf(note, sizeof note,
             "2 ops per multiply-add (float MAD or integer LCG); x%.2f the time of granularity 1; checked",
             best / d->t[0]);
    cg_peak_set_rate(row, (double)d->gsz * d->iters * 4 * 2, best, runs, note);
    if ((st = dv_check(e, d->out, d->gsz, g, d->iters, row)) == CG_OK && row->status != CG_RUNG_OK)
        d->wrong = true;
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    return st;
}

/* The SIMD width: the smallest granularity w (2 .. 64) such that every granularity from w on is at least 25%
 * faster than every granularity under w; 0 when none is (both paths always run, or noise hides the step). */
static int dv_width(const dv_run *d)
{
    for (int w = 1; w <= 6; w++) {
        double slow_min = d->t[0], fast_max = 0;
        for (int i = 0; i < 8; i++) {
            if (i < w && d->t[i] < slow_min) slow_min = d->t[i];
            if (i >= w && d->t[i] > fast_max) fast_max = d->t[i];
        }
        if (fast_max < 0.75 * slow_min) return 1 << w;
    }
    return 0;
}

/* The closing row: the inferred SIMD width beside what the runtime says of the kernel. */
static void dv_width_row(cg_peak_env *e, const dv_run *d)
{
    size_t mult = 0;
    clGetKernelWorkGroupInfo(d->k, e->ctx->dev->id, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof mult,
                             &mult, NULL);
    cg_result *row = cg_peak_add(e, "SIMD width", "items");
    if (!row) return;
    snprintf(
        row->bytes_note, sizeof row->bytes_note,
        "from it on every granularity costs under 75%% of any below; CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_"
        "MULTIPLE = %zu",
        mult);
    int width = dv_width(d);
    if (width) {
        row->value = width;
        row->status = CG_RUNG_OK;
    } else {
        cg_peak_set_status(row, CG_RUNG_UNSUPPORTED,
                           "no step in cost from granularity 2 to 64: both paths always run (a CPU's "
                           "vectorized work-items are predicated), or noise hid it; preferred multiple %zu",
                           mult);
    }
}

cg_status cg_peak_divergence(cg_peak_env *e)
{
    cg_status st = CG_OK;
    cl_program p = NULL;
    dv_run d = {.gsz = (size_t)e->ctx->dev->compute_units * (is_gpu(e) ? 16384 : 256),
                .lsz = group_size(e),
                .iters = 16};
    char opts[32];
    snprintf(opts, sizeof opts, "-DLSZ=%zu", d.lsz);
    if ((st = cg_peak_build(e, "rules.cl", opts, &p)) != CG_OK) goto out;
    CG_TRY_OBJ(d.out, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, d.gsz * 4, NULL, CG_ERRP));
    CG_TRY_OBJ(d.k, clCreateKernel(p, "diverge", CG_ERRP));
    CG_TRY(clSetKernelArg(d.k, 0, sizeof d.out, &d.out));
    CG_TRY(clSetKernelArg(d.k, 2, sizeof dv_a, &dv_a));
    CG_TRY(clSetKernelArg(d.k, 3, sizeof dv_b, &dv_b));
    for (cl_uint g = 1; g <= 128 && st == CG_OK; g *= 2)
        st = dv_row(e, &d, g);
    if (st == CG_OK && !d.wrong) dv_width_row(e, &d);
out:
    if (d.k) clReleaseKernel(d.k);
    if (d.out) clReleaseMemObject(d.out);
    if (p) clReleaseProgram(p);
    return st;
}
