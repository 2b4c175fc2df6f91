/* Bandwidth against the buffer size (seed 001's copy-speed-vs-image-size figure, seed 002's memory levels):
 * float4 read and copy of 4 KiB .. min(max allocation, 1 GiB; 256 MiB on a CPU) in powers of 2 (of 4 with
 * --quick), one buffer pair sized for the largest and used by prefix. Where the rate falls as the size grows,
 * a cache ends. The copy's output is compared with its input and the read's sums with the host's sum. Between
 * the read and copy rows, sizes_rep.c reads each size many times within one launch (the "read-rep" rows). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "peak/tests.h"

typedef struct size_run {
    cl_program p;
    cl_mem in, out;
    size_t top;  /* bytes of the largest size */
    float *hin;  /* the input, read back once */
    float *hout; /* a read-back buffer as large */
} size_run;

static bool is_gpu(const cg_peak_env *e)
{
    return e->ctx->dev->type & CL_DEVICE_TYPE_GPU;
}

static size_t top_size(const cg_peak_env *e)
{
    const cg_device *d = e->ctx->dev;
    size_t b = is_gpu(e) ? (size_t)1 << 30 : (size_t)(e->o->quick ? 64 : 256) << 20;
    while (b > CG_PEAK_SIZE_MIN && (b > d->max_alloc || b > d->global_mem / 8))
        b /= 2;
    return b;
}

void cg_peak_size_label(const char *op, size_t n, char *buf, size_t len)
{
    if (n >= (size_t)1 << 30)
        snprintf(buf, len, "%s %zu GiB", op, n >> 30);
    else if (n >= (size_t)1 << 20)
        snprintf(buf, len, "%s %zu MiB", op, n >> 20);
    else
        snprintf(buf, len, "%s %zu KiB", op, n >> 10);
}

/* Work-items of the grid-stride read of n4 float4s: as in bandwidth.c, CUs x 2048 at most, each reading at
 * least 8, a multiple of 256. */
static size_t read_items(const cg_peak_env *e, size_t n4)
{
    size_t g = (size_t)e->ctx->dev->compute_units * 2048;
    if (g > n4 / 8) g = n4 / 8;
    g -= g % 256;
    return g < 256 ? 256 : g;
}

/* The read's sums against the host's sum of the same floats (in double; the kernel adds in float). */
static void check_read(const size_run *s, size_t n, size_t g, cg_result *row)
{
    double want = 0, got = 0;
    for (size_t i = 0; i < n / 4; i++)
        want += s->hin[i];
    for (size_t i = 0; i < g; i++)
        got += s->hout[i];
    if (!(fabs(got - want) <= 1e-4 * want))
        cg_peak_set_status(row, CG_RUNG_WRONG, "the work-items' sums add up to %.9g, the input to %.9g", got,
                           want);
}

static void check_copy(const size_run *s, size_t n, cg_result *row)
{
    if (!memcmp(s->hout, s->hin, n)) return;
    for (size_t i = 0; i < n / 4; i++)
        if (memcmp(&s->hout[i], &s->hin[i], 4)) {
            cg_peak_set_status(row, CG_RUNG_WRONG, "float %zu: copied %.9g, the input holds %.9g", i,
                               s->hout[i], s->hin[i]);
            return;
        }
}

/* One size of one kernel: poison the output, time, read the output back, check. */
static cg_status one_size(cg_peak_env *e, size_run *s, bool copy, size_t n)
{
    cg_status st = CG_OK;
    cl_kernel k = NULL;
    cl_uint n4 = (cl_uint)(n / 16);
    size_t g = copy ? n4 : read_items(e, n4), out_bytes = copy ? n : g * 4;
    cl_uint poison = 0xffffffffu;
    double best = 0;
    int runs = 0;
    char variant[32];
    cg_peak_size_label(copy ? "copy" : "read", n, variant, sizeof variant);
    cg_result *row = cg_peak_add(e, variant, "GB/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    /* reads: the layout bandwidth.c finds best, grid-stride on a GPU, contiguous chunks on a CPU */
    const char *name = copy ? "copy_flat" : is_gpu(e) ? "read_grid" : "read_chunked";
    CG_TRY_OBJ(k, clCreateKernel(s->p, name, CG_ERRP));
    CG_TRY(clSetKernelArg(k, 0, sizeof s->in, &s->in));
    CG_TRY(clSetKernelArg(k, 1, sizeof s->out, &s->out));
    if (!copy) CG_TRY(clSetKernelArg(k, 2, sizeof n4, &n4));
    CG_TRY(clEnqueueFillBuffer(e->ctx->queue, s->out, &poison, sizeof poison, 0, out_bytes, 0, NULL, NULL));
    if ((st = cg_peak_time_kernel(e, k, g, cg_peak_local(e, g), &best, &runs)) != CG_OK) goto out;
    cg_peak_set_rate(row, (double)n * (copy ? 2 : 1), best, runs,
                     copy ? "bytes read + bytes written; checked" : "bytes read once; checked");
    CG_TRY(clEnqueueReadBuffer(e->ctx->queue, s->out, CL_TRUE, 0, out_bytes, s->hout, 0, NULL, NULL));
    if (copy)
        check_copy(s, n, row);
    else
        check_read(s, n, g, row);
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    if (k) clReleaseKernel(k);
    return st;
}

static cg_status sweep(cg_peak_env *e, size_run *s)
{
    cg_status st = CG_OK;
    size_t step = e->o->quick ? 4 : 2;
    for (int copy = 0; copy < 2 && st == CG_OK; copy++) {
        for (size_t n = CG_PEAK_SIZE_MIN; n <= s->top && st == CG_OK; n *= step)
            st = one_size(e, s, copy, n);
        if (!copy && st == CG_OK) st = cg_peak_sizes_rep(e, s->in, s->hin, s->top); /* sizes_rep.c */
    }
    return st;
}

cg_status cg_peak_sizes(cg_peak_env *e)
{
    cg_status st = CG_OK;
    size_run s = {NULL, NULL, NULL, top_size(e), NULL, NULL};
    s.hin = malloc(s.top);
    s.hout = malloc(s.top);
    CG_FAIL_IF(!s.hin || !s.hout, CG_E_RUNTIME, "out of host memory (2 x %zu bytes)", s.top);
    CG_TRY_OBJ(s.in, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, s.top, NULL, CG_ERRP));
    CG_TRY_OBJ(s.out, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, s.top, NULL, CG_ERRP));
    if ((st = cg_peak_fill_random(e, s.in, s.top / 4)) != CG_OK) goto out;
    CG_TRY(clEnqueueReadBuffer(e->ctx->queue, s.in, CL_TRUE, 0, s.top, s.hin, 0, NULL, NULL));
    if ((st = cg_peak_build(e, "bandwidth.cl", "-DVT=float4 -DVW=4 -DUNR=16", &s.p)) != CG_OK) goto out;
    st = sweep(e, &s);
out:
    if (s.p) clReleaseProgram(s.p);
    if (s.out) clReleaseMemObject(s.out);
    if (s.in) clReleaseMemObject(s.in);
    free(s.hout);
    free(s.hin);
    return st;
}
