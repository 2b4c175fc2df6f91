/* Global-memory bandwidth: read-only, write-only and copy for float, float2 .. float16, then float reads at
 * strides of 1..64 elements, at random indices, and float4 loads shifted off their alignment. Inputs are
 * random floats made on the device (no compressible pattern). The bytes each figure counts are in its note:
 * read counts bytes read once, as clpeak does. */
#include <stdio.h>
#include "core/clerr.h"
#include "peak/tests.h"

enum { BW_READ, BW_WRITE, BW_COPY };
static const char *const kind_note[] = {
    "bytes read once (as clpeak)",
    "bytes written once",
    "bytes read + bytes written",
};
static const int widths[] = {1, 2, 4, 8, 16};

static bool is_gpu(const cg_peak_env *e)
{
    return e->ctx->dev->type & CL_DEVICE_TYPE_GPU;
}

/* Buffer size: 2 GiB on a GPU (clpeak's size), 64 MiB on a CPU (32 MiB --quick): far past every cache. */
static size_t buffer_bytes(const cg_peak_env *e)
{
    const cg_device *d = e->ctx->dev;
    size_t b = is_gpu(e) ? (size_t)2 << 30 : (size_t)(e->o->quick ? 32 : 64) << 20;
    while (b > d->max_alloc || b > d->global_mem / 8)
        b /= 2;
    return b;
}

/* Work-items of a grid-stride read of n elements: enough to fill the device a few times over, each item
 * reading at least 8 elements; a multiple of 256. */
static size_t read_items(const cg_peak_env *e, size_t n)
{
    size_t g = (size_t)e->ctx->dev->compute_units * 2048;
    if (g > n / 8) g = n / 8;
    g -= g % 256;
    return g < 256 ? 256 : g;
}

static cg_status alloc(cg_peak_env *e, size_t bytes, bool random, cl_mem *m)
{
    cg_status st = CG_OK;
    CG_TRY_OBJ(*m, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, bytes, NULL, CG_ERRP));
    if (random) st = cg_peak_fill_random(e, *m, bytes / 4);
out:
    return st;
}

/* Times kernel `name` of p with args (a, b[, n]) over gsz work-items in groups of lsz (0: cg_peak_local's
 * pick); keeps the best time over calls in *best. A group that does not divide gsz is skipped (nothing
 * timed), and so is one larger than the kernel's CL_KERNEL_WORK_GROUP_SIZE, unless `trial` (the device's
 * largest group, which clpeak launches without asking): then one trial launch decides (NVIDIA reports 256 for
 * these kernels even when they require 1024). */
static cg_status time_lsz(cg_peak_env *e, cl_program p, const char *name, cl_mem a, cl_mem b, cl_uint n,
                          size_t gsz, size_t lsz, bool trial, double *best, int *runs)
{
    cg_status st = CG_OK;
    cl_kernel k = NULL;
    double t;
    int r;
    float v = 1.0f / 1024;
    CG_TRY_OBJ(k, clCreateKernel(p, name, CG_ERRP));
    CG_TRY(clSetKernelArg(k, 0, sizeof a, &a));
    if (b)
        CG_TRY(clSetKernelArg(k, 1, sizeof b, &b));
    else
        CG_TRY(clSetKernelArg(k, 1, sizeof v, &v));
    if (n) CG_TRY(clSetKernelArg(k, 2, sizeof n, &n));
    if (lsz) {
        size_t kmax = 0;
        CG_TRY(clGetKernelWorkGroupInfo(k, e->ctx->dev->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax,
                                        NULL));
        cl_int err = CL_SUCCESS;
        if (trial && lsz > kmax && gsz % lsz == 0) { /* one trial launch */
            err = clEnqueueNDRangeKernel(e->ctx->queue, k, 1, NULL, &gsz, &lsz, 0, NULL, NULL);
            if (err == CL_SUCCESS) err = clFinish(e->ctx->queue);
            CG_DEBUG("peak: %s requires groups of %zu, reported %zu: a trial launch %s", name, lsz, kmax,
                     err == CL_SUCCESS ? "ran" : cg_cl_strerror(err));
        }
        if ((lsz > kmax && (!trial || err != CL_SUCCESS)) || gsz % lsz) {
            CG_DEBUG("peak: %s in groups of %zu skipped: the kernel takes %zu, the grid is %zu", name, lsz,
                     kmax, gsz);
            goto out;
        }
    }
    if (!lsz) lsz = cg_peak_local(e, gsz);
    if ((st = cg_peak_time_kernel(e, k, gsz, lsz, &t, &r)) != CG_OK) goto out;
    CG_DEBUG("peak: %s over %zu work-items, groups of %zu: %.2f us", name, gsz, lsz, t * 1e6);
    if (*best == 0 || t < *best) *best = t;
    *runs += r;
out:
    if (k) clReleaseKernel(k);
    return st;
}

static cg_status time_one(cg_peak_env *e, cl_program p, const char *name, cl_mem a, cl_mem b, cl_uint n,
                          size_t gsz, double *best, int *runs)
{
    return time_lsz(e, p, name, a, b, n, gsz, 0, false, best, runs);
}

/* The one-pass layouts on a GPU (clpeak's): n / UNR work-items read UNR elements each, a grid apart
 * (read_pass) or each group one contiguous block (read_block; read_block_int with clpeak's signed running
 * index), in groups of 256 and of the device's largest
 * (clpeak launches its largest), with const restrict pointers and with clpeak's plain ones; UNR 16 (clpeak's
 * count) and 4 (16 float16 loads in flight are 1 KiB of registers a work-item: on the H200 the 16-load pass
 * took 1.87 ms against read_grid's 0.52 at float16). The largest groups are tried twice: as the compiler
 * builds the kernels, and built with reqd_work_group_size of that size (-DREQD), which makes it fit them;
 * either way launched on trial where the kernel reports less (time_lsz). The best time of all into *best. */
static cg_status one_pass_layouts(cg_peak_env *e, const char *variant, int vw, cl_mem a, cl_mem b, cl_uint n,
                                  double *best, int *runs)
{
    cg_status st = CG_OK;
    static const int unrs[] = {16, 4};
    size_t big = e->ctx->dev->max_wg;
    for (size_t u = 0; u < sizeof unrs / sizeof unrs[0] && st == CG_OK; u++) {
        cl_uint unr = (cl_uint)unrs[u];
        bool big_ok = big > 256 && n % (unr * big) == 0;
        for (int reqd = 0; reqd < 2 && st == CG_OK; reqd++) {
            cl_program p = NULL;
            char opts[96];
            if (reqd && !big_ok) break;
            int k = snprintf(opts, sizeof opts, "-DVT=%s -DVW=%d -DUNR=%u", variant, vw, unr);
            if (reqd) snprintf(opts + k, sizeof opts - (size_t)k, " -DREQD=%zu", big);
            if (n % (unr * 256) || (st = cg_peak_build(e, "bandwidth.cl", opts, &p)) != CG_OK) continue;
            /* unrequired: groups of 256 and of the largest; required: the largest only */
            const size_t groups[2] = {reqd ? big : 0, reqd || !big_ok ? 0 : big};
            for (int g = 0; g < 2 && st == CG_OK; g++) {
                if (g && !groups[g]) break;
                /* each kernel, and whether it takes the count (read_block_int does not: n 0, not set) */
                static const struct {
                    const char *name;
                    bool count;
                } ks[] = {{"read_pass", true},
                          {"read_block", true},
                          {"read_pass_plain", true},
                          {"read_block_plain", true},
                          {"read_block_int", false}};
                for (size_t j = 0; j < sizeof ks / sizeof ks[0] && st == CG_OK; j++)
                    st = time_lsz(e, p, ks[j].name, a, b, ks[j].count ? n : 0, n / unr, groups[g],
                                  groups[g] == big, best, runs);
            }
            clReleaseProgram(p);
        }
    }
    return st;
}

static cg_status one_width(cg_peak_env *e, int kind, int vw, cl_mem a, cl_mem b, size_t bytes)
{
    cg_status st = CG_OK;
    cl_program p = NULL;
    char opts[48], variant[16];
    snprintf(variant, sizeof variant, vw == 1 ? "float" : "float%d", vw);
    snprintf(opts, sizeof opts, "-DVT=%s -DVW=%d -DUNR=16", variant, vw);
    cl_uint n = (cl_uint)(bytes / (4 * (size_t)vw));
    double best = 0;
    int runs = 0;
    cg_result *row = cg_peak_add(e, variant, "GB/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    if ((st = cg_peak_build(e, "bandwidth.cl", opts, &p)) != CG_OK) goto out;
    if (kind == BW_READ) {
        st = time_one(e, p, "read_grid", a, b, n, read_items(e, n), &best, &runs);
        if (st == CG_OK && is_gpu(e)) /* a 4x larger grid: more loads in flight where registers allow */
            st = time_one(e, p, "read_grid", a, b, n, 4 * read_items(e, n / 4), &best, &runs);
        if (st == CG_OK && is_gpu(e)) st = one_pass_layouts(e, variant, vw, a, b, n, &best, &runs);
        if (st == CG_OK && !is_gpu(e))
            st = time_one(e, p, "read_chunked", a, b, n, read_items(e, n), &best, &runs);
    } else if (kind == BW_WRITE) {
        st = time_one(e, p, "write_flat", b, NULL, 0, n, &best, &runs);
    } else {
        st = time_one(e, p, "copy_flat", a, b, 0, n, &best, &runs);
    }
    if (st == CG_OK)
        cg_peak_set_rate(row, (double)bytes * (kind == BW_COPY ? 2 : 1), best, runs, kind_note[kind]);
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    cg_peak_timer_row(e, row); /* last: it may move the rows */
    if (p) clReleaseProgram(p);
    return st;
}

static cg_status sweep_widths(cg_peak_env *e, int kind)
{
    cg_status st = CG_OK;
    cl_mem a = NULL, b = NULL;
    size_t bytes = buffer_bytes(e);
    e->host_ok = true; /* read, write and copy honour --timer */
    if ((st = alloc(e, bytes, kind != BW_WRITE, &a)) != CG_OK) goto out;
    if ((st = alloc(e, bytes, false, &b)) != CG_OK) goto out;
    for (size_t i = 0; i < sizeof widths / sizeof widths[0] && st == CG_OK; i++)
        if (!e->o->quick || widths[i] == 4) st = one_width(e, kind, widths[i], a, b, bytes);
out:
    if (b) clReleaseMemObject(b);
    if (a) clReleaseMemObject(a);
    return st;
}

cg_status cg_peak_bw_read(cg_peak_env *e)
{
    return sweep_widths(e, BW_READ);
}

cg_status cg_peak_bw_write(cg_peak_env *e)
{
    return sweep_widths(e, BW_WRITE);
}

cg_status cg_peak_bw_copy(cg_peak_env *e)
{
    return sweep_widths(e, BW_COPY);
}

/* The pattern tests (stride, gather, offset) share one float program and one random input. */
typedef enum { PAT_STRIDE, PAT_GATHER, PAT_OFFSET } pattern;

static cg_status pattern_row(cg_peak_env *e, cl_program p, pattern pt, unsigned arg, cl_mem a, cl_mem b,
                             size_t words)
{
    static const char *const kernels[] = {"read_stride", "read_gather", "read_offset"};
    cg_status st = CG_OK;
    cl_kernel k = NULL;
    char variant[32];
    cl_uint m = pt == PAT_STRIDE   ? (cl_uint)(words / arg)
                : pt == PAT_GATHER ? (cl_uint)(words / 4)
                                   : (cl_uint)(words / 4 - 1);
    double best = 0, used = pt == PAT_OFFSET ? 16.0 * m : 4.0 * m;
    int runs = 0;
    if (pt == PAT_STRIDE)
        snprintf(variant, sizeof variant, "stride %u", arg);
    else if (pt == PAT_GATHER)
        snprintf(variant, sizeof variant, "random gather");
    else
        snprintf(variant, sizeof variant, "float4 offset %u", arg);
    cg_result *row = cg_peak_add(e, variant, "GB/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    cl_uint extra = pt == PAT_GATHER ? (cl_uint)(words - 1) : arg;
    CG_TRY_OBJ(k, clCreateKernel(p, kernels[pt], CG_ERRP));
    CG_TRY(clSetKernelArg(k, 0, sizeof a, &a));
    CG_TRY(clSetKernelArg(k, 1, sizeof b, &b));
    CG_TRY(clSetKernelArg(k, 2, sizeof m, &m));
    CG_TRY(clSetKernelArg(k, 3, sizeof extra, &extra));
    size_t g = read_items(e, m);
    if ((st = cg_peak_time_kernel(e, k, g, cg_peak_local(e, g), &best, &runs)) == CG_OK)
        cg_peak_set_rate(row, used, best, runs,
                         pt == PAT_OFFSET ? "bytes loaded (16 per float4)"
                                          : "bytes of the floats used (the memory moves whole sectors)");
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    if (k) clReleaseKernel(k);
    return st;
}

static cg_status patterns(cg_peak_env *e, pattern pt)
{
    static const unsigned strides[] = {1, 2, 4, 8, 16, 32, 64}, offsets[] = {0, 1, 2, 3}, once[] = {0};
    const unsigned *args = pt == PAT_STRIDE ? strides : pt == PAT_OFFSET ? offsets : once;
    size_t nargs = pt == PAT_STRIDE ? 7 : pt == PAT_OFFSET ? 4 : 1;
    cg_status st = CG_OK;
    cl_program p = NULL;
    cl_mem a = NULL, b = NULL;
    size_t bytes = buffer_bytes(e) / 2, words = bytes / 4;
    if ((st = alloc(e, bytes, true, &a)) != CG_OK || (st = alloc(e, bytes, false, &b)) != CG_OK) goto out;
    if ((st = cg_peak_build(e, "bandwidth.cl", "-DVT=float -DVW=1", &p)) != CG_OK) goto out;
    for (size_t i = 0; i < nargs && st == CG_OK; i++)
        st = pattern_row(e, p, pt, args[i], a, b, words);
out:
    if (p) clReleaseProgram(p);
    if (b) clReleaseMemObject(b);
    if (a) clReleaseMemObject(a);
    return st;
}

cg_status cg_peak_bw_stride(cg_peak_env *e)
{
    return patterns(e, PAT_STRIDE);
}

cg_status cg_peak_bw_gather(cg_peak_env *e)
{
    return patterns(e, PAT_GATHER);
}

cg_status cg_peak_bw_offset(cg_peak_env *e)
{
    return patterns(e, PAT_OFFSET);
}
