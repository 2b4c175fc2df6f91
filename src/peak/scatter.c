/* Random scatter against random gather (seed 000: a CPU writes to random indices about as fast as it reads
 * from them; a GPU wants its writes coalesced), and channel camping (seed 002: address bits above the lowest
 * few pick the memory channel): a matrix read down its columns at a row pitch of 1 .. 64 KiB against a pitch
 * one float longer (scatter.cl). Every work-item reads a float, adds 1 and writes it; the host knows the
 * random input (the fill's hash, replayed) and checks windows of the output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "peak/tests.h"

#define SC_WIN 4096 /* floats checked at the start and at the end */

typedef enum { SC_LINEAR, SC_GATHER, SC_SCATTER, SC_COLUMNS } sc_map;

typedef struct sc_run {
    cl_program p;
    cl_mem in, out;
    unsigned m;    /* n = 2^m floats */
    size_t n;      /* work-items of every kernel */
    uint32_t seed; /* the fill's seed, as cg_peak_fill_random derives it */
    double base;   /* GB/s of the row the next rows are compared with */
} sc_run;

static bool is_gpu(const cg_peak_env *e)
{
    return e->ctx->dev->type & CL_DEVICE_TYPE_GPU;
}

/* ---- the host's copy of the kernels' arithmetic */
static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* The float cg_peak_fill_random writes at index j. */
static float fill_at(const sc_run *r, uint32_t j)
{
    uint32_t u = 0x3f800000u | (hash32(j * 0x9e3779b9u ^ r->seed) >> 9);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t mul_inverse(uint32_t a) /* a odd: a * inverse == 1 mod 2^32 (Newton) */
{
    uint32_t y = a;
    for (int i = 0; i < 5; i++)
        y *= 2 - a * y;
    return y;
}

static uint32_t unxorshift(uint32_t x, unsigned s, unsigned m)
{
    uint32_t y = x;
    for (unsigned k = 0; k <= m / s; k++)
        y = x ^ (y >> s);
    return y;
}

/* scatter.cl's perm and its inverse on [0, 2^m). */
static uint32_t perm(uint32_t x, unsigned m, bool inverse)
{
    uint32_t mask = m >= 32 ? 0xffffffffu : (1u << m) - 1u;
    unsigned s = m / 2 > 0 ? m / 2 : 1;
    if (!inverse) {
        x = (x * 0x2545f491u) & mask;
        x ^= x >> s;
        x = (x * 0x9e3779b1u) & mask;
        return x ^ (x >> s);
    }
    x = (unxorshift(x, s, m) * mul_inverse(0x9e3779b1u)) & mask;
    return (unxorshift(x, s, m) * mul_inverse(0x2545f491u)) & mask;
}

/* The input index whose float + 1 lands in out[j]. */
static uint32_t source_of(const sc_run *r, sc_map map, uint32_t j, cl_uint rows, cl_uint pitch)
{
    switch (map) {
    case SC_GATHER:
        return perm(j, r->m, false);
    case SC_SCATTER:
        return perm(j, r->m, true);
    case SC_COLUMNS:
        return (j % rows) * pitch + j / rows;
    default:
        return j;
    }
}

static cg_status sc_check(cg_peak_env *e, const sc_run *r, sc_map map, cl_uint rows, cl_uint pitch,
                          cg_result *row)
{
    cg_status st = CG_OK;
    float got[SC_WIN];
    for (int w = 0; w < 2; w++) {
        size_t at = w ? r->n - SC_WIN : 0;
        CG_TRY(clEnqueueReadBuffer(e->ctx->queue, r->out, CL_TRUE, at * 4, sizeof got, got, 0, NULL, NULL));
        for (size_t j = 0; j < SC_WIN; j++) {
            float want = fill_at(r, source_of(r, map, (uint32_t)(at + j), rows, pitch)) + 1.0f;
            if (got[j] != want) {
                cg_peak_set_status(row, CG_RUNG_WRONG, "float %zu: got %.9g, want %.9g", at + j, got[j],
                                   want);
                return CG_OK;
            }
        }
    }
out:
    return st;
}

/* One kernel: poison the output, time, check; the note compares with r->base (set by the first row). */
static cg_status sc_row(cg_peak_env *e, sc_run *r, sc_map map, const char *variant, cl_uint a, cl_uint b,
                        const char *vs)
{
    static const char *const kernels[] = {"sc_linear", "sc_gather", "sc_scatter", "sc_columns"};
    cg_status st = CG_OK;
    cl_kernel k = NULL;
    cl_uint poison = 0xffffffffu, m = r->m;
    double best = 0;
    int runs = 0;
    char note[160];
    cg_result *row = cg_peak_add(e, variant, "GB/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    CG_TRY_OBJ(k, clCreateKernel(r->p, kernels[map], CG_ERRP));
    CG_TRY(clSetKernelArg(k, 0, sizeof r->in, &r->in));
    CG_TRY(clSetKernelArg(k, 1, sizeof r->out, &r->out));
    CG_TRY(clSetKernelArg(k, 2, sizeof m, map == SC_COLUMNS ? &a : &m));
    if (map == SC_COLUMNS) CG_TRY(clSetKernelArg(k, 3, sizeof b, &b));
    CG_TRY(clEnqueueFillBuffer(e->ctx->queue, r->out, &poison, 4, 0, r->n * 4, 0, NULL, NULL));
    if ((st = cg_peak_time_kernel(e, k, r->n, cg_peak_local(e, r->n), &best, &runs)) != CG_OK) goto out;
    double gbps = cg_peak_rate_g(8.0 * (double)r->n, best);
    if (!vs) r->base = gbps;
    snprintf(note, sizeof note, "bytes read + written, 4 + 4 per float; checked");
    if (vs)
        snprintf(note, sizeof note, "bytes read + written, 4 + 4 per float; x%.2f the time of %s; checked",
                 gbps > 0 ? r->base / gbps : 0, vs);
    cg_peak_set_rate(row, 8.0 * (double)r->n, best, runs, note);
    st = sc_check(e, r, map, a, map == SC_COLUMNS ? b : 0, row);
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    if (k) clReleaseKernel(k);
    return st;
}

static cg_status scatter_rows(cg_peak_env *e, sc_run *r)
{
    cg_status st = sc_row(e, r, SC_LINEAR, "linear", 0, 0, NULL);
    if (st == CG_OK) st = sc_row(e, r, SC_GATHER, "random gather", 0, 0, "linear");
    if (st == CG_OK) st = sc_row(e, r, SC_SCATTER, "random scatter", 0, 0, "linear");
    return st;
}

/* Column reads at pitches of 1 KiB .. 64 KiB (4 and 16 KiB with --quick), each then one float longer. */
static cg_status channel_rows(cg_peak_env *e, sc_run *r)
{
    cg_status st = CG_OK;
    char variant[48], vs[32];
    for (cl_uint kib = 1; kib <= 64 && st == CG_OK; kib *= 2) {
        if (e->o->quick && kib != 4 && kib != 16) continue;
        cl_uint cols = kib * 256, rows = (cl_uint)(r->n / cols);
        snprintf(variant, sizeof variant, "pitch %u KiB", kib);
        snprintf(vs, sizeof vs, "pitch %u KiB", kib);
        st = sc_row(e, r, SC_COLUMNS, variant, rows, cols, NULL);
        snprintf(variant, sizeof variant, "pitch %u KiB + 4 B", kib);
        if (st == CG_OK) st = sc_row(e, r, SC_COLUMNS, variant, rows, cols + 1, vs);
    }
    return st;
}

static cg_status with_buffers(cg_peak_env *e, bool channels)
{
    cg_status st = CG_OK;
    const cg_device *d = e->ctx->dev;
    sc_run r = {NULL, NULL, NULL, is_gpu(e) ? 26 : e->o->quick ? 22 : 23, 0, 0, 0};
    while (r.m > 16 && ((size_t)4 << r.m) * 2 > d->max_alloc)
        r.m--;
    r.n = (size_t)1 << r.m;
    r.seed = (uint32_t)(e->o->seed * 0x9E3779B97F4A7C15ull >> 32);
    size_t in_words = r.n + r.n / 256 + 64; /* a column pitch one float longer reads up to n + rows */
    CG_TRY_OBJ(r.in, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, in_words * 4, NULL, CG_ERRP));
    CG_TRY_OBJ(r.out, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, r.n * 4, NULL, CG_ERRP));
    if ((st = cg_peak_fill_random(e, r.in, in_words)) != CG_OK) goto out;
    if ((st = cg_peak_build(e, "scatter.cl", "", &r.p)) != CG_OK) goto out;
    st = channels ? channel_rows(e, &r) : scatter_rows(e, &r);
out:
    if (r.p) clReleaseProgram(r.p);
    if (r.out) clReleaseMemObject(r.out);
    if (r.in) clReleaseMemObject(r.in);
    return st;
}

cg_status cg_peak_scatter(cg_peak_env *e)
{
    return with_buffers(e, false);
}

cg_status cg_peak_channels(cg_peak_env *e)
{
    return with_buffers(e, true);
}
