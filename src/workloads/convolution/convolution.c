/* The convolution workload: a general 2D float filter (--filter N or WxH, 1 to 32 taps each way, default
 * 32x32) over a seeded random picture, the AMD tutorial's ladder (naive, unrolled, -D invariants, float4,
 * constant and local memory) carried on to register blocking. The output is W x H ("valid" filtering of an
 * input padded by the filter size, as torch.nn.functional.conv2d without padding computes it). This file
 * owns the inputs, the CPU reference (convolution_ref.c, computed once), the device buffers (created once),
 * the rung table and each rung's launch; convolution_mma.c the tensor-core rungs' local memory, limits and
 * error bound. A rung's shape is data in p[]: outputs per work-item (BX x BY), the
 * work-group (LX x LY) and flags (filter size as -D, filter padded to float4 rows); nothing here looks at
 * rung names. The register-blocked rungs' block and group are tunable (`clgauge tune`, the space below the
 * table): the input's padding covers every candidate of the space, local memory follows from the filter
 * (conv_local_need) and conv_unsupported refuses a shape the kernel cannot take, with the reason. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clerr.h"
#include "core/log.h"
#include "core/rng.h"
#include "core/workload.h"
#include "workloads/convolution/convolution_mma.h"
#include "workloads/convolution/convolution_ref.h"

/* The meaning of cg_rung.p[] here; (tunable) marks the entries the tuning space searches. */
enum {
    P_BX, /* (tunable) outputs per work-item along x (block kernel: a multiple of 4; 1 elsewhere; the tensor-
             core kernel: per warp, a multiple of 8) */
    P_BY, /* (tunable) outputs per work-item along y (block kernel; 1 elsewhere; tensor cores: per warp, a
             multiple of 16) */
    P_LX, /* (tunable) the work-group's width (the tensor-core kernel: 32, one warp) */
    P_LY, /* (tunable) the work-group's height (a table row's is halved until the group fits the device) */
    P_FLAGS, /* F_* bits */
};
#define CONV_MAX_FILTER    32
#define CONV_DEFAULT_GPU   8192
#define CONV_DEFAULT_OTHER 512
#define FILTER_BYTES       ((size_t)CONV_MAX_FILTER * CONV_MAX_FILTER * 4)
#define TILE_BYTES(lx, ly)                                                                                   \
    ((size_t)((lx) + CONV_MAX_FILTER - 1) * ((ly) + CONV_MAX_FILTER - 1) * 4 + FILTER_BYTES)
/* The seed's kernels read the filter from __constant memory. */
#define CONSTF "-DFILT_SPACE=__constant"

/* clang-format off */
static const cg_rung rungs[] = {
    /* name, why (one line, shown in every report), kernel, options, needs, local bytes,
       {P_BX, P_BY, P_LX, P_LY, P_FLAGS} */
    {"naive", "the seed's Convolve: one work-item per output, two loops over the taps, size at run time, __constant filter",
     "conv_naive", CONSTF, 0, 0, {1, 1, 16, 16, 0}},
    {"global-filter", "vs naive (not in the seed): the filter read from __global instead of __constant memory",
     "conv_naive", NULL, 0, 0, {1, 1, 16, 16, 0}},
    {"unroll4", "the seed's ConvolveUnroll (vs naive): inner loop unrolled by 4 by hand, a loop for the FW % 4 left",
     "conv_unroll4", CONSTF, 0, 0, {1, 1, 16, 16, 0}},
    {"unroll4-if", "the seed's Unroll_If (vs unroll4): the FW % 4 taps left as an if-else on their count, no loop",
     "conv_unroll4", CONSTF " -DTAIL_IF=1", 0, 0, {1, 1, 16, 16, 0}},
    {"define", "the seed's DefConvolve (vs naive): the filter size as -D, constant trip counts",
     "conv_naive", CONSTF, 0, 0, {1, 1, 16, 16, F_DEFINE}},
    {"define-unroll4-if", "the seed's DefUnroll_If (vs unroll4-if): the filter size as -D",
     "conv_unroll4", CONSTF " -DTAIL_IF=1", 0, 0, {1, 1, 16, 16, F_DEFINE}},
    {"float4", "the seed's ConvolveFloat4 (vs unroll4): vload4 of 4 taps and 4 inputs, one float4 MAD, size at run time",
     "conv_float4", CONSTF, 0, 0, {1, 1, 16, 16, 0}},
    {"float4-if", "the seed's ConvolveFloat4_If (vs float4): the FW % 4 taps left as an if-else, no loop",
     "conv_float4", CONSTF " -DTAIL_IF=1", 0, 0, {1, 1, 16, 16, 0}},
    {"define-float4", "the seed's DefFloat4 (vs float4): the filter size as -D",
     "conv_float4", CONSTF, 0, 0, {1, 1, 16, 16, F_DEFINE}},
    {"define-float4-if", "the seed's DefFloat4_If (vs float4-if): the filter size as -D",
     "conv_float4", CONSTF " -DTAIL_IF=1", 0, 0, {1, 1, 16, 16, F_DEFINE}},
    {"unroll-full", "vs define (from here on beyond the seed): #pragma unroll, tap offsets become immediates",
     "conv_unroll_full", CONSTF, 0, 0, {1, 1, 16, 16, F_DEFINE}},
    {"vec4-pad", "vs define-float4: filter rows padded to a multiple of 4 with zeros, so no taps are left over",
     "conv_vec4", CONSTF, 0, 0, {1, 1, 16, 16, F_DEFINE | F_PAD4}},
    {"local", "vs unroll-full: the 16x16 group copies its input tile and the filter to local memory once",
     "conv_local", NULL, 0, TILE_BYTES(16, 16), {1, 1, 16, 16, F_DEFINE}},
    {"regblock", "vs local: 4 outputs per work-item, input rows in registers, one local float4 of taps feeds 16 MADs",
     "conv_block", NULL, 0, FILTER_BYTES, {4, 1, 16, 16, F_DEFINE}},
    {"slide", "vs regblock: 4x8 outputs per work-item walking down the rows, each input row loaded once for 8",
     "conv_block", NULL, 0, FILTER_BYTES, {4, 8, 16, 16, F_DEFINE}},
    {"slide4x4", "vs slide: 4x4 outputs per work-item, fewer registers and more warps in flight (small filters)",
     "conv_block", NULL, 0, FILTER_BYTES, {4, 4, 16, 16, F_DEFINE}},
    {"best", "vs slide4x4: 8x4 outputs per work-item in 16x8 groups, one local float4 read feeds 32 MADs",
     "conv_block", NULL, 0, FILTER_BYTES, {8, 4, 16, 8, F_DEFINE}},
    {"tf32", "vs best: tensor cores (inline-PTX mma.sync, each filter row a Toeplitz matrix product), inputs and taps rounded to TF32: a looser tolerance",
     "conv_mma", NULL, CG_FEAT_NV_MMA, MMA_BYTES(64, 32, 2, 32, 32), {64, 32, 32, 2, F_DEFINE | F_MMA1}},
    {"tf32x3", "vs tf32: the 3xTF32 split, each value a TF32 pair hi + lo and three products: fp32 accuracy on tensor cores",
     "conv_mma", NULL, CG_FEAT_NV_MMA, MMA_BYTES(32, 32, 2, 32, 32), {32, 32, 32, 2, F_DEFINE | F_MMA3}},
    {"tf32x3-rows", "vs tf32x3: each input row times the dense filter (taps x filter rows: no Toeplitz zeros), the rows' products summed along diagonals in fp32",
     "conv_mma_rows", NULL, CG_FEAT_NV_MMA, 0, {16, 512, 32, 1, F_DEFINE | F_MMA3 | F_ROWS}},
    {"f16x3", "vs tf32x3: the same split with fp16 pieces (11 bits as TF32's, scaled by powers of two) on mma.sync m16n8k16: 16 taps an instruction instead of 8",
     "conv_mma16", NULL, CG_FEAT_NV_MMA, MMA16_BYTES(32, 32, 2, 32, 32), {32, 32, 32, 2, F_DEFINE | F_MMA3 | F_F16}},
    {"f16x3-split", "vs f16x3: inputs and taps split once, as they go into local memory (an fp16 hi, lo pair of words), not at every use",
     "conv_mma16", NULL, CG_FEAT_NV_MMA, MMA16_BYTES(32, 32, 2, 32, 32), {32, 32, 32, 2, F_DEFINE | F_MMA3 | F_F16 | F_SPLIT}},
    {"f16x3-halves", "vs f16x3-split: a 16-tap chunk whose first or last 8 rows of the Toeplitz block hold no tap is an 8-tap product (m16n8k8), not a 16-tap one",
     "conv_mma16", NULL, CG_FEAT_NV_MMA, MMA16_BYTES(32, 32, 2, 32, 32), {32, 32, 32, 2, F_DEFINE | F_MMA3 | F_F16 | F_SPLIT | F_HALVES}},
    {"f16x3-order", "vs f16x3-halves: a chunk's three products issued in three passes over the column blocks, so none waits on the product just before it into the same accumulator",
     "conv_mma16", NULL, CG_FEAT_NV_MMA, MMA16_BYTES(32, 32, 2, 32, 32), {32, 32, 32, 2, F_DEFINE | F_MMA3 | F_F16 | F_SPLIT | F_HALVES | F_ORDER}},
};
/* The tuning space of the register-blocked rungs (core/tune.h): the block of outputs per work-item and the
 * work-group, which conv_block fixes with reqd_work_group_size (no NULL). It holds each rung's own values
 * and the H100 sweep's range (docs/workloads/convolution.md, `best`): 54 candidates. */
static const cg_tspace spaces[] = {
    {"regblock,slide,slide4x4,best", 4,
     {{"bx", P_BX, CG_TR_OTHER, 2, {4, 8}},
      {"by", P_BY, CG_TR_OTHER, 3, {1, 4, 8}},
      {"lx", P_LX, CG_TR_WG_X, 3, {8, 16, 32}},
      {"ly", P_LY, CG_TR_WG_Y, 3, {4, 8, 16}}}},
    {"tf32,tf32x3,f16x3,f16x3-split,f16x3-halves,f16x3-order", 3,
     {{"bx", P_BX, CG_TR_OTHER, 3, {16, 32, 64}},
      {"by", P_BY, CG_TR_OTHER, 2, {16, 32}},
      {"ly", P_LY, CG_TR_WG_Y, 3, {1, 2, 4}}}},
    {"tf32x3-rows", 2,
     {{"by", P_BY, CG_TR_OTHER, 4, {128, 256, 512, 1024}},
      {"ly", P_LY, CG_TR_WG_Y, 3, {1, 2, 4}}}},
};
/* clang-format on */
#define NRUNGS  (sizeof rungs / sizeof rungs[0])
#define NSPACES (sizeof spaces / sizeof spaces[0])

typedef struct conv_state {
    size_t w, h;     /* output size */
    size_t ip, rows; /* input pitch (floats, a multiple of 32) and rows, zero beyond the valid region */
    int fw, fh, fw4; /* filter size; fw rounded up to 4 */
    size_t max_wg;
    bool exact; /* --check exact: integer pixels, dyadic taps: the float reference is exact */
    float *in, *f, *fpad, *ref, *got;
    cl_mem in_buf, f_buf, fpad_buf, out_buf;
} conv_state;

typedef struct conv_rung {
    cl_kernel k;
    size_t global[2], local[2];
    int flags; /* the rung's F_* bits (the tensor-core rungs' error bound) */
} conv_rung;

static size_t div_up(size_t a, size_t b)
{
    return (a + b - 1) / b;
}

/* ---- setup ------------------------------------------------------------------------------------------ */

/* The rung's work-group: LX x LY, LY halved until the group fits the device (a table row's; the tuner refuses
 * a candidate over the device's limit before it gets here, so a candidate's group is never changed). */
static void rung_group(const conv_state *s, const cg_rung *r, size_t *lx, size_t *ly)
{
    *lx = (size_t)r->p[P_LX];
    *ly = (size_t)r->p[P_LY];
    while (*ly > 1 && *lx * *ly > s->max_wg)
        *ly /= 2;
}

/* The outputs a work-group covers: BX x BY per work-item, or per warp (32 work-items) for tensor cores. */
static void group_block(const conv_state *s, const cg_rung *r, size_t *bw, size_t *bh)
{
    size_t lx, ly;
    rung_group(s, r, &lx, &ly);
    *bw = (size_t)r->p[P_BX] * ((r->p[P_FLAGS] & F_MMA) ? 1 : lx);
    *bh = (size_t)r->p[P_BY] * ((r->p[P_FLAGS] & F_ROWS) ? 1 : ly); /* ROWS: the warps share one strip */
}

/* n rounded up to whole blocks of b. */
static size_t cover(size_t n, size_t b)
{
    return div_up(n, b) * b;
}

static size_t max_z(size_t a, size_t b)
{
    return a > b ? a : b;
}

/* The values of p[index] a space searches (NULL, 0 when it has none such). */
static const int *space_values(const cg_tspace *sp, int index, int *n)
{
    for (int k = 0; k < sp->n; k++)
        if (sp->p[k].index == index) {
            *n = sp->p[k].n;
            return sp->p[k].v;
        }
    *n = 0;
    return NULL;
}

/* The input's pitch and rows: every rung's grid covers the output in whole blocks of BX x LX by BY x LY
 * outputs, and reads up to FW + 13 floats right of (conv_mma16's tile; the others FW + 3) and FH - 1 rows
 * below its block; so must every candidate of the tuning space and the seeds' rules' work-groups (x 64 at
 * most, y 4: core/tune.c) with the space's blocks. Bottom rows are cheap (rows covers any block up to the
 * largest BY x LY of the space); the pitch is the widest exact cover, which is the table's for widths that
 * are multiples of the space's blocks. */
static void input_shape(conv_state *s)
{
    size_t cw = 1, ch = 1;
    for (size_t k = 0; k < NRUNGS; k++) {
        size_t bw, bh;
        group_block(s, &rungs[k], &bw, &bh);
        cw = max_z(cw, cover(s->w, bw));
        ch = max_z(ch, cover(s->h, bh));
    }
    for (size_t k = 0; k < NSPACES; k++) {
        int nbx, nlx, nby, nly;
        const int *bx = space_values(&spaces[k], P_BX, &nbx), *lx = space_values(&spaces[k], P_LX, &nlx);
        const int *by = space_values(&spaces[k], P_BY, &nby), *ly = space_values(&spaces[k], P_LY, &nly);
        for (int i = 0; i < nbx; i++)
            for (int j = 0; j <= nlx; j++) /* j == nlx: the rules' widest group, 64 (none: a warp's block) */
                cw = max_z(cw, cover(s->w, (size_t)bx[i] * (size_t)(j < nlx ? lx[j] : nlx ? 64 : 1)));
        for (int i = 0; i < nby; i++)
            for (int j = 0; j < nly; j++)
                ch = max_z(ch, s->h + (size_t)by[i] * (size_t)ly[j] - 1);
    }
    s->ip = div_up(max_z(cw + READ_PAST(s->fw), cover(s->w, 16) + ROWS_READ((size_t)s->fw)), 32) * 32;
    s->rows = ch + (size_t)s->fh;
}

/* The output WxH from --size (N: NxN), else the default per device type; input and output in global memory
 * (check_fit then checks the padded input). */
static const cg_size_rule size_rule = {
    .workload = "convolution",
    .unit = "pixels",
    .dims = 2,
    .dflt_gpu = CONV_DEFAULT_GPU,
    .dflt_other = CONV_DEFAULT_OTHER,
    .dflt_floor = 256,
    .elem_bytes = sizeof(float),
    .buffers = 2,
    .max_count = INT_MAX,
    .max_side = INT_MAX / 2,
};

/* --filter: the CLI parses the list (each side 1 to max), runs the ladder once per size and hands setup one.
 */
static const cg_wopt wopts[] = {
    {"filter", "LIST",
     "filter sizes, N (NxN), WxH or a range A-B (every NxN from A to B), comma-separated for a sweep, 1 to "
     "32 "
     "each way (default 32)",
     CG_WOPT_EXTENTS, NULL, "32", CONV_MAX_FILTER},
};

static cg_status pick_filter(const cg_run_opts *o, conv_state *s)
{
    const cg_wopt_value *f = cg_wopts_find(o->wopts, "filter"); /* one size of the CLI's sweep */
    s->fw = f ? f->w : CONV_MAX_FILTER;
    s->fh = f ? f->h : CONV_MAX_FILTER;
    if (s->fw > CONV_MAX_FILTER || s->fh > CONV_MAX_FILTER) {
        CG_ERROR(
            "convolution: a %dx%d filter is above the largest the kernels take (%dx%d): use --filter 1 to "
            "%d each way",
            s->fw, s->fh, CONV_MAX_FILTER, CONV_MAX_FILTER, CONV_MAX_FILTER);
        return CG_E_USAGE;
    }
    if ((size_t)s->fw > s->w || (size_t)s->fh > s->h) {
        CG_ERROR(
            "convolution: the %dx%d filter is larger than the %zux%zu image: use a smaller --filter or a "
            "larger --size",
            s->fw, s->fh, s->w, s->h);
        return CG_E_USAGE;
    }
    s->fw4 = (s->fw + 3) / 4 * 4;
    return CG_OK;
}

static cg_status pick_size(const cg_ctx *ctx, const cg_run_opts *o, conv_state *s)
{
    return cg_size_pick(ctx, &size_rule, o, &s->w, &s->h);
}

/* The refusal of a size, or CG_OK: the kernels index with int, the input is one buffer, and input and output
 * must fit in global memory together. */
static cg_status check_fit(const cg_device *d, const conv_state *s)
{
    cg_status st = CG_OK;
    char need[32], have[32];
    double in_bytes = (double)s->ip * (double)s->rows * 4.0, out_bytes = (double)s->w * (double)s->h * 4.0;
    CG_FAIL_IF(
        (double)s->ip * (double)s->rows > INT_MAX, CG_E_USAGE,
        "convolution: a %zux%zu picture needs an input of %zux%zu floats, above 2^31 (the kernels index "
        "with int): use a smaller --size",
        s->w, s->h, s->ip, s->rows);
    cg_format_bytes(in_bytes, need, sizeof need);
    cg_format_bytes((double)d->max_alloc, have, sizeof have);
    CG_FAIL_IF(
        in_bytes > (double)d->max_alloc, CG_E_USAGE,
        "convolution: the padded input needs a %s buffer, above this device's largest allocation (%s): "
        "use a smaller --size",
        need, have);
    cg_format_bytes(in_bytes + out_bytes, need, sizeof need);
    cg_format_bytes((double)d->global_mem, have, sizeof have);
    CG_FAIL_IF(in_bytes + out_bytes > (double)d->global_mem, CG_E_USAGE,
               "convolution: input and output (%s) do not fit in this device's %s of global memory: use a "
               "smaller --size",
               need, have);
out:
    return st;
}

/* The size and --filter checks of setup, before any device work (cg_workload.validate). */
static cg_status conv_validate(const cg_ctx *ctx, const cg_run_opts *o)
{
    conv_state s = {0};
    s.max_wg = ctx->dev->max_wg ? ctx->dev->max_wg : 1;
    cg_status st = pick_size(ctx, o, &s);
    if (st == CG_OK) st = pick_filter(o, &s);
    if (st != CG_OK) return st;
    input_shape(&s);
    return check_fit(ctx->dev, &s);
}

static void conv_teardown(void *state)
{
    conv_state *s = state;
    if (!s) return;
    cl_mem m[] = {s->in_buf, s->f_buf, s->fpad_buf, s->out_buf};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (m[i]) clReleaseMemObject(m[i]);
    free(s->in);
    free(s->f);
    free(s->fpad);
    free(s->ref);
    free(s->got);
    free(s);
}

/* The taps: random, uniform in [0.5, 1.5) scaled to sum to 1 (no tap is less than a third of another, so
 * dropping any one moves outputs by at least 1 / (3 taps) of their size); or for --check exact the integers
 * 1 + (3i + 5j + 1) % 4 (1 to 4, no symmetry) over the power of two at or above their sum. */
static void make_taps(cg_rng *rng, conv_state *s, size_t taps)
{
    double sum = 0;
    if (s->exact) {
        int e = 0;
        for (size_t k = 0; k < taps; k++)
            sum += (s->f[k] = (float)(1 + (3 * (k % (size_t)s->fw) + 5 * (k / (size_t)s->fw) + 1) % 4));
        while (ldexp(1.0, e) < sum)
            e++;
        for (size_t k = 0; k < taps; k++)
            s->f[k] = ldexpf(s->f[k], -e);
        return;
    }
    cg_rng_fill_float(rng, s->f, taps, 0.5f, 1.5f);
    for (size_t i = 0; i < taps; i++)
        sum += s->f[i];
    for (size_t i = 0; i < taps; i++)
        s->f[i] = (float)(s->f[i] / sum);
}

/* Seeded inputs: pixels uniform in [0, 1) (--check exact: integers 1 to 15) in the valid (W + FW - 1) x
 * (H + FH - 1) region, zeros in the padding; the taps (make_taps), so outputs stay in the input's range.
 * Exact mode: every partial sum is an integer below 32 x 32 x 4 x 15 < 2^24 over a power of two, exact in
 * float in any order. Then the reference. */
static cg_status make_host_data(const cg_run_opts *o, conv_state *s)
{
    size_t n = s->w * s->h, taps = (size_t)s->fw * (size_t)s->fh;
    s->in = calloc(s->ip * s->rows, sizeof(float));
    s->f = malloc(taps * sizeof(float));
    s->fpad = calloc((size_t)s->fw4 * (size_t)s->fh, sizeof(float));
    s->ref = malloc(n * sizeof(float));
    s->got = malloc(n * sizeof(float));
    if (!s->in || !s->f || !s->fpad || !s->ref || !s->got) {
        CG_ERROR("convolution: out of host memory for a %zux%zu picture: use a smaller --size", s->w, s->h);
        return CG_E_RUNTIME;
    }
    cg_rng rng;
    cg_rng_init(&rng, o->seed);
    size_t vw = s->w + (size_t)s->fw - 1, vh = s->h + (size_t)s->fh - 1;
    for (size_t y = 0; y < vh; y++) {
        float *row = s->in + y * s->ip;
        cg_rng_fill_float(&rng, row, vw, 0.0f, 1.0f);
        for (size_t x = 0; s->exact && x < vw; x++)
            row[x] = (float)(1 + (int)(row[x] * 15.0f) % 15);
    }
    make_taps(&rng, s, taps);
    for (int j = 0; j < s->fh; j++)
        memcpy(s->fpad + (size_t)j * (size_t)s->fw4, s->f + (size_t)j * (size_t)s->fw,
               (size_t)s->fw * sizeof(float));
    conv_ref_in a = {s->in, s->ip, s->f, s->fw, s->fh, s->w, s->h};
    conv_reference(&a, s->ref);
    return CG_OK;
}

static cg_status make_buffers(cg_ctx *ctx, conv_state *s)
{
    cg_status st = CG_OK;
    cl_mem_flags ro = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    size_t taps = (size_t)s->fw * (size_t)s->fh;
    CG_TRY_BUF(ctx, ro, s->ip * s->rows * sizeof(float), s->in, CG_BUF_INPUT, &s->in_buf);
    CG_TRY_BUF(ctx, ro, taps * sizeof(float), s->f, CG_BUF_INPUT, &s->f_buf);
    CG_TRY_BUF(ctx, ro, (size_t)s->fw4 * (size_t)s->fh * sizeof(float), s->fpad, CG_BUF_INPUT, &s->fpad_buf);
    CG_TRY_BUF(ctx, CL_MEM_WRITE_ONLY, s->w * s->h * sizeof(float), NULL, CG_BUF_WRITTEN, &s->out_buf);
out:
    return st;
}

static cg_status conv_setup(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len)
{
    cg_status st = CG_OK;
    conv_state *s = calloc(1, sizeof *s);
    CG_FAIL_IF(!s, CG_E_RUNTIME, "convolution: out of host memory");
    if (o->input || o->output)
        CG_WARN("convolution: --input/--output are for picture workloads; convolution ignores them");
    s->max_wg = ctx->dev->max_wg ? ctx->dev->max_wg : 1;
    s->exact = o->check_exact;
    if ((st = pick_size(ctx, o, s)) != CG_OK || (st = pick_filter(o, s)) != CG_OK) goto out;
    input_shape(s);
    if ((st = check_fit(ctx->dev, s)) != CG_OK || (st = make_host_data(o, s)) != CG_OK) goto out;
    st = make_buffers(ctx, s);
    if (st == CG_OK) snprintf(size_desc, len, "%zux%zu px", s->w, s->h);
out:
    if (st != CG_OK) {
        conv_teardown(s);
        s = NULL;
    }
    *state = s;
    return st;
}

/* ---- rungs ------------------------------------------------------------------------------------------ */

/* The padded input read once and the output written once; 2 FLOPs per tap per output (taps padded to 4 by
 * vec4 are not counted: every rung is measured on the same useful work). */
static void conv_model(const void *state, const cg_rung *r, cg_model *m)
{
    const conv_state *s = state;
    double in = (double)(s->w + (size_t)s->fw - 1) * (double)(s->h + (size_t)s->fh - 1);
    m->bytes = (in + (double)s->w * (double)s->h) * 4.0;
    m->flops = 2.0 * (double)s->w * (double)s->h * s->fw * s->fh;
    m->items = (double)s->w * (double)s->h;
    m->item_unit = "px";
    m->bytes_note = "R+W: (W+FW-1)x(H+FH-1) input floats read once + WxH output floats written";
    m->ceiling = CG_CEIL_COPY;
    m->tensor = (r->p[P_FLAGS] & F_MMA) != 0; /* against the fp32 MAD ceiling, which tensor cores pass */
}

static void conv_options(const void *state, const cg_rung *r, char *buf, size_t len)
{
    const conv_state *s = state;
    size_t lx, ly;
    rung_group(s, r, &lx, &ly);
    int n = snprintf(buf, len, "-DLX=%zu -DLY=%zu -DBX=%d -DBY=%d -DOUT4=%d", lx, ly, r->p[P_BX], r->p[P_BY],
                     s->w % 4 == 0);
    if (n > 0 && (size_t)n < len && (r->p[P_FLAGS] & F_DEFINE))
        n += snprintf(buf + n, len - (size_t)n, " -DFW=%d -DFH=%d -DFW4=%d", s->fw, s->fh, s->fw4);
    if (n > 0 && (size_t)n < len && (r->p[P_FLAGS] & F_MMA))
        n += snprintf(buf + n, len - (size_t)n, " -DMMA=%d", (r->p[P_FLAGS] & F_MMA3) ? 3 : 1);
    if (n > 0 && (size_t)n < len && (r->p[P_FLAGS] & F_ROWS))
        n += snprintf(buf + n, len - (size_t)n, " -DROWS=1");
    if (n > 0 && (size_t)n < len && (r->p[P_FLAGS] & F_F16))
        n += snprintf(buf + n, len - (size_t)n, " -DF16=1");
    if (n > 0 && (size_t)n < len && (r->p[P_FLAGS] & F_SPLIT))
        n += snprintf(buf + n, len - (size_t)n, " -DPRESPLIT=1");
    if (n > 0 && (size_t)n < len && (r->p[P_FLAGS] & F_HALVES))
        n += snprintf(buf + n, len - (size_t)n, " -DHALVES=1");
    if (n > 0 && (size_t)n < len && (r->p[P_FLAGS] & F_ORDER))
        snprintf(buf + n, len - (size_t)n, " -DORDER=1");
}

static void conv_release(void *rs)
{
    conv_rung *q = rs;
    if (!q) return;
    if (q->k) clReleaseKernel(q->k);
    free(q);
}

static cg_status conv_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs)
{
    cg_status st = CG_OK;
    conv_state *s = state;
    cl_int ip = (cl_int)s->ip, w = (cl_int)s->w, h = (cl_int)s->h, fw = s->fw, fh = s->fh;
    cl_mem filt = (r->p[P_FLAGS] & F_PAD4) ? s->fpad_buf : s->f_buf;
    (void)ctx;
    conv_rung *q = calloc(1, sizeof *q);
    CG_FAIL_IF(!q, CG_E_RUNTIME, "convolution: out of host memory");
    size_t bw, bh;
    rung_group(s, r, &q->local[0], &q->local[1]);
    group_block(s, r, &bw, &bh);
    q->global[0] = div_up(s->w, bw) * q->local[0];
    q->global[1] = div_up(s->h, bh) * q->local[1];
    q->flags = r->p[P_FLAGS];
    CG_TRY_OBJ(q->k, clCreateKernel(prog, r->kernel, CG_ERRP));
    CG_TRY(clSetKernelArg(q->k, 0, sizeof s->in_buf, &s->in_buf));
    CG_TRY(clSetKernelArg(q->k, 1, sizeof ip, &ip));
    CG_TRY(clSetKernelArg(q->k, 2, sizeof filt, &filt));
    CG_TRY(clSetKernelArg(q->k, 3, sizeof s->out_buf, &s->out_buf));
    CG_TRY(clSetKernelArg(q->k, 4, sizeof w, &w));
    CG_TRY(clSetKernelArg(q->k, 5, sizeof h, &h));
    CG_TRY(clSetKernelArg(q->k, 6, sizeof fw, &fw));
    CG_TRY(clSetKernelArg(q->k, 7, sizeof fh, &fh));
out:
    if (st != CG_OK) {
        conv_release(q);
        q = NULL;
    }
    *rs = q;
    return st;
}

static bool is_kernel(const cg_rung *r, const char *name)
{
    return r->kernel && strcmp(r->kernel, name) == 0;
}

/* Local memory at this filter size: the block kernel's float4 filter rows (FH x FW4 floats), the local
 * kernel's input tile and filter. The table's local bytes are these at the largest filter; a tuning
 * candidate (local bytes 0) needs them from here. */
static size_t conv_local_need(const void *state, const cg_rung *r)
{
    const conv_state *s = state;
    size_t lx, ly, fw = (size_t)s->fw, fh = (size_t)s->fh;
    if (is_kernel(r, "conv_block")) return fh * (size_t)s->fw4 * sizeof(float);
    rung_group(s, r, &lx, &ly);
    if (r->p[P_FLAGS] & F_MMA) return conv_mma_local_need(r->p[P_FLAGS], r->p[P_BX], r->p[P_BY], ly, fw, fh);
    if (!is_kernel(r, "conv_local")) return 0;
    return ((lx + fw - 1) * (ly + fh - 1) + fw * fh) * sizeof(float);
}

/* The shapes the kernels cannot take (a tuning candidate's; every table row passes): sides below 1; more
 * than one output per work-item outside the block kernel; a block width that is not a multiple of 4 (the
 * block kernel loads and stores float4s); a grid whose reads pass the input's padding (input_shape pads for
 * every candidate of the tuning space and the seeds' rules' groups, not for any shape). */
static bool conv_unsupported(const void *state, const cg_rung *r, char *why, size_t len)
{
    const conv_state *s = state;
    int bx = r->p[P_BX], by = r->p[P_BY];
    if (bx < 1 || by < 1 || r->p[P_LX] < 1 || r->p[P_LY] < 1) {
        snprintf(why, len,
                 "bx=%d, by=%d, lx=%d, ly=%d: each must be at least 1 (no local size NULL: the "
                 "kernels fix their work-group)",
                 bx, by, r->p[P_LX], r->p[P_LY]);
        return true;
    }
    bool block = is_kernel(r, "conv_block"), mma = (r->p[P_FLAGS] & F_MMA) != 0;
    if (mma && conv_mma_unsupported(r->p[P_FLAGS], bx, by, r->p[P_LX], r->p[P_LY], s->fh, why, len))
        return true;
    if (!block && !mma && (bx != 1 || by != 1)) {
        snprintf(why, len, "bx=%d, by=%d: %s writes one output per work-item (1x1)", bx, by, r->kernel);
        return true;
    }
    if (block && bx % 4) {
        snprintf(why, len, "bx=%d is not a multiple of 4: the block kernel moves float4s", bx);
        return true;
    }
    size_t bw, bh;
    group_block(s, r, &bw, &bh);
    size_t cw = cover(s->w, bw), ch = cover(s->h, bh);
    if (cw + READ_PAST(s->fw) > s->ip || ch + (size_t)s->fh > s->rows) {
        snprintf(why, len,
                 "%zux%zu outputs per work-group read past the input's padding (%zux%zu floats, "
                 "made for the tuning space's shapes)",
                 bw, bh, s->ip, s->rows);
        return true;
    }
    return false;
}

/* A quiet NaN in every output element: it never passes the check. */
static cg_status conv_poison(cg_ctx *ctx, void *state, void *rs)
{
    conv_state *s = state;
    (void)rs;
    cl_uint nan_bits = 0x7fc00000u;
    return cg_poison_buffer(ctx, s->out_buf, &nan_bits, sizeof nan_bits, s->w * s->h * sizeof(float));
}

static cg_status conv_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev)
{
    (void)state;
    conv_rung *q = rs;
    return cg_enqueue_kernel(ctx, ev, q->k, 2, q->global, q->local);
}

/* The reference is a float sum in another order than the kernels': each is within gamma_k (k = taps) of
 * the exact sum relative to the sum of |terms|, which is |output| here (pixels and taps are never negative),
 * so |got - want| <= 2 gamma_(taps+2) |want| (c = 2; the +2 covers |want| against the exact sum). One
 * dropped tap moves an output by at least 1 / (3 taps) of the output's size, 2.7x the bound at 32x32 and more
 * below. The tensor-core rungs: the reference's gamma_(taps+2) plus conv_mma_bound's (convolution_mma.c).
 * Exact mode: zero tolerance (integers over a power of two are TF32 values, their products and sums exact:
 * docs/workloads/convolution.md).
 */
static cg_status conv_verify(cg_ctx *ctx, void *state, void *rs, cg_check *c)
{
    cg_status st = CG_OK;
    conv_state *s = state;
    size_t n = s->w * s->h;
    CG_TRY(clEnqueueReadBuffer(ctx->queue, s->out_buf, CL_TRUE, 0, n * sizeof(float), s->got, 0, NULL, NULL));
    double taps = (double)s->fw * s->fh;
    conv_rung *q = rs;
    double tol = (q->flags & F_MMA) ? cg_gamma(taps + 2) + conv_mma_bound(s->fw, s->fh, q->flags)
                                    : 2.0 * cg_gamma(taps + 2);
    /* conv_mma16's lo pieces below fp16's normal range: each within 2^-50 of its value (an input's or a
     * tap's), times a tap (sum 1) or an input (below 1) over the taps */
    double floor = (q->flags & F_F16) ? ldexp(1.0, -50) * (1.0 + taps) : 0.0;
    cg_check_bound(c, s->got, s->ref, NULL, n, s->exact ? 0.0 : tol, s->exact ? 0.0 : floor);
    if (!c->ok) cg_check_locate_2d(c, s->w);
out:
    return st;
}

/* The tensor-core kernels are in convolution_mma.cl, the others in convolution.cl. */
static const char *conv_rung_cl_file(const cg_rung *r)
{
    return (r->p[P_FLAGS] & F_MMA) ? "convolution_mma.cl" : NULL;
}
static const char *const conv_more_cl_files[] = {"convolution_mma.cl", NULL};

const cg_workload cg_workload_convolution = {
    .name = "convolution",
    .summary = "general 2D float filter, 1..32 taps each way: naive, unrolled, -D, float4, constant, local, "
               "register blocks",
    .size_help = "output WxH (8192x8192) or N for NxN; default 8192^2 on GPUs, 512^2 elsewhere; the input is "
                 "(W+FW-1)x(H+FH-1)",
    .cl_file = "convolution.cl",
    .rung_cl_file = conv_rung_cl_file,
    .more_cl_files = conv_more_cl_files,
    .takes_images_io = false,
    .wopts = wopts,
    .n_wopts = sizeof wopts / sizeof wopts[0],
    .rungs = rungs,
    .n_rungs = NRUNGS,
    .tune = spaces,
    .n_tune = NSPACES,
    .setup = conv_setup,
    .teardown = conv_teardown,
    .model = conv_model,
    .options = conv_options,
    .prepare = conv_prepare,
    .poison = conv_poison,
    .enqueue = conv_enqueue,
    .verify = conv_verify,
    .release = conv_release,
    .save_output = NULL,
    .validate = conv_validate,
    .local_need = conv_local_need,
    .unsupported = conv_unsupported,
};
