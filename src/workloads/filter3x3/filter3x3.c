/* The filter3x3 workload: a 3x3 Gaussian [1 2 1; 2 4 2; 1 2 1] / 16 with clamp-to-edge borders on an 8-bit
 * picture (u8 in, u8 out, rounded as (sum + 8) >> 4) and on the same picture as floats (pixel / 255, float
 * out). It owns the inputs (a PNG given with --input, else seeded random bytes), the device buffers and
 * images (created once), the exact CPU references, and the rung table: the seed study of buffers against
 * images, of local-memory tiles and of several pixels per work-item. A rung's parameters say which input it
 * reads, how many pixels a work-item writes and the work-group (= local tile) shape; nothing here looks at
 * rung names. The work-group and the pixels per work-item of the vec, image and local rungs are tunable
 * (`clgauge tune`, the spaces below the table): a local tile's memory follows from them (f3_local_need)
 * and f3_unsupported refuses a shape the kernels cannot take, with the reason. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clerr.h"
#include "core/log.h"
#include "core/pngio.h"
#include "core/rng.h"
#include "core/workload.h"

/* The input a rung's kernel reads (p[P_INPUT]); the float inputs are the u8 picture / 255. */
enum { IN_U8_BUF, IN_U8_IMG, IN_F32_BUF, IN_F32_IMG };
/* The meaning of cg_rung.p[] in this ladder; (tunable) marks the entries the tuning spaces search. */
enum {
    P_INPUT,  /* IN_*: what the kernel reads; the output is a buffer of the same element type */
    P_PX,     /* (tunable) output pixels per work-item along x (1, or 4/8/16 for the vec kernels) */
    P_WGX,    /* (tunable) work-group width = local tile width (-DTX); 0 (with P_WGY 0): local size NULL */
    P_WGY,    /* (tunable) work-group height = local tile height (-DTY) */
    P_NATIVE, /* 1: the kernel divides with native_divide, whose accuracy OpenCL leaves to the device */
};

#define TILE_BYTES(tx, ty, elem) ((size_t)((tx) + 2) * ((ty) + 2) * (elem))
#define IMG8                     (CG_FEAT_IMAGES | CG_FEAT_IMAGE_R8)
#define IMGF                     (CG_FEAT_IMAGES | CG_FEAT_IMAGE_RF)

/* The seed's (003) path first, for u8 then float, buffer and image twins, each rung one change over the rung
 * its why-line names: the baselines with local size NULL (as the seed started), the image kernel's four
 * divisions cut to one, the division made a shift (u8) or native_divide (float), nine statements folded into
 * one expression, the centre tap fetched first, a manual 32x4 work-group. Then what the seed did not try:
 * local tiles and vectors. */
/* clang-format off */
static const cg_rung rungs[] = {
    /* name, why (one line, shown in every report), kernel, options, needs, local bytes,
       {P_INPUT, P_PX, P_WGX, P_WGY, P_NATIVE} */
    {"u8-buf-div", "seed baseline, buffer: one work-item per pixel, taps clamped with min/max, signed sum / 16, local size NULL",
     "f3_u8_buf_div", NULL, 0, 0, {IN_U8_BUF, 1, 0, 0, 0}},
    {"u8-img-div4", "seed baseline, image (vs u8-buf-div): R8 image + clamp sampler, uint4 summed by 9 statements, 4 divisions",
     "f3_u8_img_div4", NULL, IMG8, 0, {IN_U8_IMG, 1, 0, 0, 0}},
    {"u8-img-div1", "seed step 1 (vs u8-img-div4): one division, of the one channel, instead of four",
     "f3_u8_img_div1", NULL, IMG8, 0, {IN_U8_IMG, 1, 0, 0, 0}},
    {"u8-buf-shift", "seed step 2 (vs u8-buf-div): (sum + 8) >> 4 instead of / 16, no sign fix-up for signed /",
     "f3_u8_buf_shift", NULL, 0, 0, {IN_U8_BUF, 1, 0, 0, 0}},
    {"u8-img-shift", "seed step 2 (vs u8-img-div1): >> 4 instead of / 16 (unsigned: a compiler may do it already)",
     "f3_u8_img_shift", NULL, IMG8, 0, {IN_U8_IMG, 1, 0, 0, 0}},
    {"u8-img-expr", "seed step 3 (vs u8-img-shift): the nine accumulating statements folded into one expression",
     "f3_u8_img", NULL, IMG8, 0, {IN_U8_IMG, 1, 0, 0, 0}},
    {"u8-img-centre", "seed step 4 (vs u8-img-expr): the centre tap fetched first, then its neighbours (texture cache)",
     "f3_u8_img_centre", NULL, IMG8, 0, {IN_U8_IMG, 1, 0, 0, 0}},
    {"u8-buf-32x4", "seed step 5 (vs u8-buf-shift): a manual 32x4 work-group instead of local size NULL",
     "f3_u8_buf_shift", NULL, 0, 0, {IN_U8_BUF, 1, 32, 4, 0}},
    {"u8-img-32x4", "seed step 5 (vs u8-img-centre): a manual 32x4 work-group instead of local size NULL",
     "f3_u8_img_centre", NULL, IMG8, 0, {IN_U8_IMG, 1, 32, 4, 0}},
    {"u8-local", "vs u8-buf-32x4: the 32x4 tile + halo in local memory, each input byte read from global once per group",
     "f3_u8_local", NULL, 0, TILE_BYTES(32, 4, 1), {IN_U8_BUF, 1, 32, 4, 0}},
    {"u8-vec", "vs u8-buf-32x4: 8 px per work-item, 8-byte loads/stores, column sums shared, no clamps inside",
     "f3_u8_vec", NULL, 0, 0, {IN_U8_BUF, 8, 32, 4, 0}},
    {"u8-vec-16x16", "vs u8-vec: 16x16 work-groups instead of 32x4 (the fastest of 32x8, 64x4, 16x16 on an H100)",
     "f3_u8_vec", NULL, 0, 0, {IN_U8_BUF, 8, 16, 16, 0}},
    {"f32-buf-div", "seed baseline, float buffer: one work-item per pixel, clamped taps, sum / 16.0f, local size NULL",
     "f3_f32_buf", NULL, 0, 0, {IN_F32_BUF, 1, 0, 0, 0}},
    {"f32-img-div4", "seed baseline, image (vs f32-buf-div): R float image, float4 summed by 9 statements, 4 divisions",
     "f3_f32_img_div4", NULL, IMGF, 0, {IN_F32_IMG, 1, 0, 0, 0}},
    {"f32-img-div1", "seed step 1 (vs f32-img-div4): one division, of the one channel, instead of four",
     "f3_f32_img_div1", NULL, IMGF, 0, {IN_F32_IMG, 1, 0, 0, 0}},
    {"f32-buf-native", "seed step 2 (vs f32-buf-div): native_divide(sum, 16.0f) instead of sum / 16.0f",
     "f3_f32_buf_native", NULL, 0, 0, {IN_F32_BUF, 1, 0, 0, 1}},
    {"f32-buf-mul", "not in the seed (vs f32-buf-div): sum * 0.0625f, a multiply, instead of sum / 16.0f",
     "f3_f32_buf_mul", NULL, 0, 0, {IN_F32_BUF, 1, 0, 0, 0}},
    {"f32-img-native", "seed step 2 (vs f32-img-div1): native_divide instead of / 16.0f",
     "f3_f32_img_native", NULL, IMGF, 0, {IN_F32_IMG, 1, 0, 0, 1}},
    {"f32-img-expr", "seed step 3 (vs f32-img-native): the nine accumulating statements folded into one expression",
     "f3_f32_img", NULL, IMGF, 0, {IN_F32_IMG, 1, 0, 0, 1}},
    {"f32-img-centre", "seed step 4 (vs f32-img-expr): the centre tap fetched first, then its neighbours (texture cache)",
     "f3_f32_img_centre", NULL, IMGF, 0, {IN_F32_IMG, 1, 0, 0, 1}},
    {"f32-buf-32x4", "seed step 5 (vs f32-buf-native): a manual 32x4 work-group instead of local size NULL",
     "f3_f32_buf_native", NULL, 0, 0, {IN_F32_BUF, 1, 32, 4, 1}},
    {"f32-img-32x4", "seed step 5 (vs f32-img-centre): a manual 32x4 work-group instead of local size NULL",
     "f3_f32_img_centre", NULL, IMGF, 0, {IN_F32_IMG, 1, 32, 4, 1}},
    {"f32-local", "vs f32-buf-32x4: the 32x4 tile + halo in local memory, each input float read from global once per group",
     "f3_f32_local", NULL, 0, TILE_BYTES(32, 4, 4), {IN_F32_BUF, 1, 32, 4, 1}},
    {"f32-vec", "vs f32-buf-32x4: 4 px per work-item, float4 loads/stores, column sums shared, no clamps inside",
     "f3_f32_vec", NULL, 0, 0, {IN_F32_BUF, 4, 32, 4, 1}},
};
/* The tuning spaces (core/tune.h). The per-pixel kernels (image, vec) take any work-group or NULL (0 for
 * both sides together: the seed's step 5 is NULL against 32x4); the local kernels size their tile by it, so
 * not NULL. The vec kernels exist for 4, 8 and 16 pixels per work-item. Each holds its rungs' own values. */
static const cg_tspace spaces[] = {
    {"u8-vec,u8-vec-16x16,f32-vec", 3,
     {{"wgx", P_WGX, CG_TR_WG_X, 4, {0, 16, 32, 64}},
      {"wgy", P_WGY, CG_TR_WG_Y, 5, {0, 2, 4, 8, 16}},
      {"px", P_PX, CG_TR_OTHER, 3, {4, 8, 16}}}},
    {"u8-img-centre,u8-img-32x4,f32-img-centre,f32-img-32x4", 2,
     {{"wgx", P_WGX, CG_TR_WG_X, 6, {0, 16, 32, 64, 128, 256}},
      {"wgy", P_WGY, CG_TR_WG_Y, 6, {0, 1, 2, 4, 8, 16}}}},
    {"u8-local,f32-local", 2,
     {{"wgx", P_WGX, CG_TR_WG_X, 5, {8, 16, 32, 64, 128}},
      {"wgy", P_WGY, CG_TR_WG_Y, 5, {1, 2, 4, 8, 16}}}},
};
/* clang-format on */

typedef struct f3_state {
    size_t w, h, n;
    uint8_t *in8, *ref8, *got8, *saved; /* saved: the last verified output as grey, for --output */
    float *inf, *reff, *gotf;
    bool have_saved;
    bool exact;       /* --check exact: u8 pixels 16k, float pixels the same integers (reference exact) */
    unsigned poisons; /* alternates the u8 poison byte so that an unwritten pixel fails one of two runs */
    cl_mem in8_buf, out8_buf, inf_buf, outf_buf;
    cl_mem in8_img, inf_img; /* NULL when images are masked or the format is unsupported */
} f3_state;

typedef struct f3_rung_state {
    cl_kernel k;
    bool is_float, native;
    cl_mem out;
    size_t global[2], local[2];
} f3_rung_state;

static bool rung_is_float(const cg_rung *r)
{
    return r->p[P_INPUT] == IN_F32_BUF || r->p[P_INPUT] == IN_F32_IMG;
}

/* ---- CPU references --------------------------------------------------------------------------------- */

/* The unnormalised weighted sum around (x, y), clamped to the picture, each tap converted to A before any
 * arithmetic (unsigned for u8, double for f32: exact): the definition every kernel meets. */
#define REF_SUM(T, A, p, x, y, w, h)                                                                         \
    do {                                                                                                     \
        size_t xl_ = (x) ? (x)-1 : 0, xr_ = (x) + 1 < (w) ? (x) + 1 : (x);                                   \
        const T *t_ = (p) + ((y) ? (y)-1 : 0) * (w), *m_ = (p) + (y) * (w);                                  \
        const T *b_ = (p) + ((y) + 1 < (h) ? (y) + 1 : (y)) * (w);                                           \
        sum = (A)t_[xl_] + 2 * (A)t_[x] + (A)t_[xr_] + 2 * (A)m_[xl_] + 4 * (A)m_[x] + 2 * (A)m_[xr_] +      \
              (A)b_[xl_] + 2 * (A)b_[x] + (A)b_[xr_];                                                        \
    } while (0)

static void reference_u8(const uint8_t *in, uint8_t *out, size_t w, size_t h)
{
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            unsigned sum;
            REF_SUM(uint8_t, unsigned, in, x, y, w, h);
            out[y * w + x] = (uint8_t)((sum + 8) >> 4);
        }
}

static void reference_f32(const float *in, float *out, size_t w, size_t h)
{
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            double sum;
            REF_SUM(float, double, in, x, y, w, h);
            out[y * w + x] = (float)(sum / 16.0);
        }
}

/* ---- setup ------------------------------------------------------------------------------------------ */

/* The picture: --input's size, else WxH from --size (N: NxN), else the default per device type. Float and u8
 * buffers in and out plus a u8 and a float image, about 15 B per pixel: counted as four float buffers of
 * global memory; within the largest 2D image when the image rungs run; the kernels index with int. */
static const cg_size_rule size_rule = {
    .workload = "filter3x3",
    .unit = "pixels",
    .dims = 2,
    .dflt_gpu = 4096,
    .dflt_other = 2048,
    .dflt_floor = 256,
    .elem_bytes = sizeof(float),
    .buffers = 4,
    .max_count = INT_MAX,
    .image2d = true,
    .picture = true,
};

/* The size, then with --input the picture itself (its size checked again: the file may have changed). */
static cg_status pick_size(const cg_ctx *ctx, const cg_run_opts *o, f3_state *s)
{
    cg_status st = cg_size_pick(ctx, &size_rule, o, &s->w, &s->h);
    if (st != CG_OK || !o->input) return st;
    st = cg_png_read_grey(o->input, &s->in8, &s->w, &s->h);
    return st == CG_OK ? cg_size_check(ctx, &size_rule, s->w, s->h) : st;
}

/* The size checks of setup, before any device work (cg_workload.validate): with --input only the picture's
 * header is read. */
static cg_status f3_validate(const cg_ctx *ctx, const cg_run_opts *o)
{
    size_t w, h;
    return cg_size_pick(ctx, &size_rule, o, &w, &h);
}

/* Host inputs, outputs and references. */
static cg_status make_host_data(const cg_run_opts *o, f3_state *s)
{
    size_t n = s->n;
    bool have_input = s->in8 != NULL;
    if (!have_input) s->in8 = malloc(n);
    s->ref8 = malloc(n);
    s->got8 = malloc(n);
    s->saved = malloc(n);
    s->inf = malloc(n * sizeof(float));
    s->reff = malloc(n * sizeof(float));
    s->gotf = malloc(n * sizeof(float));
    if (!s->in8 || !s->ref8 || !s->got8 || !s->saved || !s->inf || !s->reff || !s->gotf) {
        CG_ERROR("filter3x3: out of host memory for a %zux%zu picture: use a smaller --size", s->w, s->h);
        return CG_E_RUNTIME;
    }
    if (!have_input) {
        cg_rng rng;
        cg_rng_init(&rng, o->seed);
        cg_rng_fill_bytes(&rng, s->in8, n);
        if (s->exact) /* 16, 32 .. 240: no rounding in (sum + 8) >> 4, no zero tap */
            for (size_t i = 0; i < n; i++)
                s->in8[i] = (uint8_t)(16 * (1 + s->in8[i] % 15));
    }
    for (size_t i = 0; i < n; i++) /* exact: the bytes themselves, so every float sum is an exact integer */
        s->inf[i] = s->exact ? (float)s->in8[i] : s->in8[i] / 255.0f;
    reference_u8(s->in8, s->ref8, s->w, s->h);
    reference_f32(s->inf, s->reff, s->w, s->h);
    return CG_OK;
}

/* A read-only 2D image of w x h single-channel pixels from host data. */
static cg_status make_image(cg_ctx *ctx, const f3_state *s, cl_channel_type type, const void *data,
                            cl_mem *img)
{
    cg_status st = CG_OK;
    cl_image_format f = {CL_R, type};
    cl_image_desc d;
    memset(&d, 0, sizeof d);
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = s->w;
    d.image_height = s->h;
    CG_TRY_OBJ(*img, clCreateImage(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d,
                                   (void *)data, CG_ERRP));
out:
    return st;
}

static cg_status make_device_data(cg_ctx *ctx, f3_state *s)
{
    cg_status st = CG_OK;
    cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    size_t n = s->n, nf = s->n * sizeof(float);
    CG_TRY_BUF(ctx, in, n, s->in8, CG_BUF_INPUT, &s->in8_buf);
    CG_TRY_BUF(ctx, in, nf, s->inf, CG_BUF_INPUT, &s->inf_buf);
    CG_TRY_BUF(ctx, CL_MEM_WRITE_ONLY, n, NULL, CG_BUF_WRITTEN, &s->out8_buf);
    CG_TRY_BUF(ctx, CL_MEM_WRITE_ONLY, nf, NULL, CG_BUF_WRITTEN, &s->outf_buf);
    /* Only the formats the rungs may use: a rung whose format is missing or masked is reported unsupported.
     */
    if ((ctx->features & CG_FEAT_IMAGES) && (ctx->features & CG_FEAT_IMAGE_R8))
        st = make_image(ctx, s, CL_UNSIGNED_INT8, s->in8, &s->in8_img);
    if (st == CG_OK && (ctx->features & CG_FEAT_IMAGES) && (ctx->features & CG_FEAT_IMAGE_RF))
        st = make_image(ctx, s, CL_FLOAT, s->inf, &s->inf_img);
out:
    return st;
}

static void f3_teardown(void *state)
{
    f3_state *s = state;
    if (!s) return;
    cl_mem mems[] = {s->in8_buf, s->out8_buf, s->inf_buf, s->outf_buf, s->in8_img, s->inf_img};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++)
        if (mems[i]) clReleaseMemObject(mems[i]);
    free(s->in8);
    free(s->ref8);
    free(s->got8);
    free(s->saved);
    free(s->inf);
    free(s->reff);
    free(s->gotf);
    free(s);
}

static cg_status f3_setup(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len)
{
    f3_state *s = calloc(1, sizeof *s);
    if (!s) {
        CG_ERROR("filter3x3: out of host memory");
        return CG_E_RUNTIME;
    }
    s->exact = o->check_exact;
    cg_status st = pick_size(ctx, o, s);
    if (st == CG_OK) {
        s->n = s->w * s->h;
        st = make_host_data(o, s);
    }
    if (st == CG_OK) st = make_device_data(ctx, s);
    if (st != CG_OK) {
        f3_teardown(s);
        return st;
    }
    snprintf(size_desc, len, "%zux%zu px", s->w, s->h);
    *state = s;
    return CG_OK;
}

/* ---- rungs ------------------------------------------------------------------------------------------ */

/* Bytes: each input pixel read once and each output pixel written once (1+1 B for u8, 4+4 B for float).
 * FLOPs: 13 per float pixel, what the per-pixel kernels do: the 5 multiplies by 2 or 4 and the 8 adds of the
 * 3x3 weighted sum (the normalising multiply by 1/16 is not counted; the vec kernels share column sums and
 * do fewer). The u8 rungs do integer work, which no fp32 ceiling bounds: they count bytes only (0 FLOPs),
 * so their roofline is the memory one. */
static void f3_model(const void *state, const cg_rung *r, cg_model *m)
{
    const f3_state *s = state;
    bool f = rung_is_float(r);
    double px = (double)s->n;
    m->bytes = px * (f ? 8.0 : 2.0);
    m->flops = f ? px * 13.0 : 0.0;
    m->items = px;
    m->item_unit = "px";
    m->bytes_note = f ? "R+W: 4 B/px read + 4 B/px written; 13 FLOP/px"
                      : "R+W: 1 B/px read + 1 B/px written; integer work, bytes only (no FLOPs counted)";
    m->ceiling = CG_CEIL_COPY;
}

/* -DTX/-DTY: work-group and tile shape; -DPX: pixels per work-item; -DROW_ALIGNED=1 when every row starts on
 * a PX-element boundary, so the vec kernels may use aligned vector loads. */
static void f3_options(const void *state, const cg_rung *r, char *buf, size_t len)
{
    const f3_state *s = state;
    int px = r->p[P_PX];
    int n = r->p[P_WGX] ? snprintf(buf, len, "-DTX=%d -DTY=%d -DPX=%d", r->p[P_WGX], r->p[P_WGY], px)
                        : snprintf(buf, len, "-DPX=%d", px);
    if (px > 1 && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " -DROW_ALIGNED=%d", s->w % (size_t)px == 0);
}

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

static cg_status f3_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rsp)
{
    (void)ctx;
    f3_state *s = state;
    cg_status st = CG_OK;
    cl_mem ins[] = {s->in8_buf, s->in8_img, s->inf_buf, s->inf_img};
    cl_mem in = ins[r->p[P_INPUT]];
    cl_int w = (cl_int)s->w, h = (cl_int)s->h;
    f3_rung_state *rs = calloc(1, sizeof *rs);
    CG_FAIL_IF(!rs, CG_E_RUNTIME, "filter3x3: out of host memory");
    CG_FAIL_IF(!in, CG_E_RUNTIME, "filter3x3: rung %s needs a single-channel image this device cannot make",
               r->name);
    rs->is_float = rung_is_float(r);
    rs->out = rs->is_float ? s->outf_buf : s->out8_buf;
    rs->native = r->p[P_NATIVE] != 0;
    rs->local[0] = (size_t)r->p[P_WGX]; /* 0: local size NULL */
    rs->local[1] = (size_t)r->p[P_WGY];
    rs->global[0] = (s->w + (size_t)r->p[P_PX] - 1) / (size_t)r->p[P_PX];
    rs->global[1] = s->h;
    if (rs->local[0]) {
        rs->global[0] = round_up(rs->global[0], rs->local[0]);
        rs->global[1] = round_up(rs->global[1], rs->local[1]);
    }
    CG_TRY_OBJ(rs->k, clCreateKernel(prog, r->kernel, CG_ERRP));
    CG_TRY(clSetKernelArg(rs->k, 0, sizeof in, &in));
    CG_TRY(clSetKernelArg(rs->k, 1, sizeof rs->out, &rs->out));
    CG_TRY(clSetKernelArg(rs->k, 2, sizeof w, &w));
    CG_TRY(clSetKernelArg(rs->k, 3, sizeof h, &h));
    *rsp = rs;
    rs = NULL;
out:
    if (rs && rs->k) clReleaseKernel(rs->k);
    free(rs);
    return st;
}

/* u8 outputs get 0xA5 and 0x5A in turn (an unwritten pixel equals the reference in at most one of two runs);
 * float outputs get a quiet NaN, which never passes the check. */
static cg_status f3_poison(cg_ctx *ctx, void *state, void *rsp)
{
    f3_state *s = state;
    f3_rung_state *rs = rsp;
    if (rs->is_float) {
        cl_uint nan_bits = 0x7fc00000u;
        return cg_poison_buffer(ctx, rs->out, &nan_bits, sizeof nan_bits, s->n * sizeof(float));
    }
    cl_uchar byte = (s->poisons++ & 1) ? 0x5A : 0xA5;
    return cg_poison_buffer(ctx, rs->out, &byte, 1, s->n);
}

static cg_status f3_enqueue(cg_ctx *ctx, void *state, void *rsp, cg_events *ev)
{
    (void)state;
    f3_rung_state *rs = rsp;
    return cg_enqueue_kernel(ctx, ev, rs->k, 2, rs->global, rs->local[0] ? rs->local : NULL);
}

static uint8_t to_grey(float v)
{
    return (uint8_t)lrintf((v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v) * 255.0f);
}

static cg_status f3_verify(cg_ctx *ctx, void *state, void *rsp, cg_check *c)
{
    f3_state *s = state;
    f3_rung_state *rs = rsp;
    cg_status st = CG_OK;
    if (rs->is_float) {
        CG_TRY(clEnqueueReadBuffer(ctx->queue, rs->out, CL_TRUE, 0, s->n * sizeof(float), s->gotf, 0, NULL,
                                   NULL));
        /* The reference is exact (double, then rounded to float: u |want|); a kernel's 9-term sum is within
         * gamma_8 of |want| in any order (the taps 1, 2, 4 and the 1/16 are exact, inputs never negative, so
         * |want| is the sum of |terms|): gamma_9 in all, c = 1. Exact mode: integer sums, zero tolerance.
         * native_divide's accuracy is the device's (OpenCL sets none; NVIDIA documents 2 ulp for its
         * approximate division): its rungs get 4 ulp (2^-21 relative) more, in exact mode too. */
        double nat = rs->native ? 0x1p-21 : 0.0;
        cg_check_bound(c, s->gotf, s->reff, NULL, s->n, (s->exact ? 0.0 : cg_gamma(9)) + nat, 0.0);
    } else {
        CG_TRY(clEnqueueReadBuffer(ctx->queue, rs->out, CL_TRUE, 0, s->n, s->got8, 0, NULL, NULL));
        cg_check_u8(c, s->got8, s->ref8, s->n);
    }
    if (!c->ok) {
        cg_check_locate_2d(c, s->w);
        goto out;
    }
    if (rs->is_float)
        for (size_t i = 0; i < s->n; i++)
            s->saved[i] = to_grey(s->exact ? s->gotf[i] / 255.0f : s->gotf[i]);
    else
        memcpy(s->saved, s->got8, s->n);
    s->have_saved = true;
out:
    return st;
}

/* The kernel's name ends with suffix ("_vec", "_local"). */
static bool kernel_is(const cg_rung *r, const char *suffix)
{
    size_t n = strlen(r->kernel), k = strlen(suffix);
    return n >= k && strcmp(r->kernel + n - k, suffix) == 0;
}

/* The local kernels' tile: (TX + 2) x (TY + 2) pixels (the table's local bytes; a tuning candidate's tile
 * needs it from here). */
static size_t f3_local_need(const void *state, const cg_rung *r)
{
    (void)state;
    if (!kernel_is(r, "_local") || r->p[P_WGX] <= 0 || r->p[P_WGY] <= 0) return 0;
    return TILE_BYTES(r->p[P_WGX], r->p[P_WGY], rung_is_float(r) ? sizeof(float) : 1);
}

/* The shapes the kernels cannot take (a tuning candidate's; every table row passes): one side of the
 * work-group 0 and not the other (0 means local size NULL, for both); NULL or a side below 1 for the local
 * kernels, whose tile is the work-group; pixels per work-item other than 4, 8 or 16 for the vec kernels
 * (the only vector widths they are built for) and other than 1 for the per-pixel ones. */
static bool f3_unsupported(const void *state, const cg_rung *r, char *why, size_t len)
{
    (void)state;
    int x = r->p[P_WGX], y = r->p[P_WGY], px = r->p[P_PX];
    bool vec = kernel_is(r, "_vec");
    if ((x == 0) != (y == 0) || x < 0 || y < 0) {
        snprintf(why, len, "wgx=%d, wgy=%d: local size NULL needs both 0, a work-group both positive", x, y);
        return true;
    }
    if (x == 0 && kernel_is(r, "_local")) {
        snprintf(why, len, "wgx=0, wgy=0: %s sizes its local tile by the work-group, so needs one",
                 r->kernel);
        return true;
    }
    if (vec && px != 4 && px != 8 && px != 16) {
        snprintf(why, len, "px=%d: %s is built for 4, 8 or 16 pixels per work-item", px, r->kernel);
        return true;
    }
    if (!vec && px != 1) {
        snprintf(why, len, "px=%d: %s writes one pixel per work-item", px, r->kernel);
        return true;
    }
    return false;
}

static void f3_release(void *rsp)
{
    f3_rung_state *rs = rsp;
    if (!rs) return;
    if (rs->k) clReleaseKernel(rs->k);
    free(rs);
}

static cg_status f3_save_output(cg_ctx *ctx, void *state, const char *path)
{
    (void)ctx;
    const f3_state *s = state;
    if (!s->have_saved) {
        CG_ERROR("cannot write %s: no filter3x3 rung produced a verified output", path);
        return CG_E_IO;
    }
    return cg_png_write_grey(path, s->saved, s->w, s->h);
}

const cg_workload cg_workload_filter3x3 = {
    .name = "filter3x3",
    .summary = "3x3 Gaussian blur, clamp-to-edge: u8 and float, buffers vs images, local tiles, vectors",
    .size_help = "picture WxH (4096x4096) or N for NxN; default 4096x4096 on GPUs, 2048x2048 elsewhere",
    .cl_file = "filter3x3.cl",
    .takes_images_io = true,
    .rungs = rungs,
    .n_rungs = sizeof rungs / sizeof rungs[0],
    .tune = spaces,
    .n_tune = sizeof spaces / sizeof spaces[0],
    .setup = f3_setup,
    .teardown = f3_teardown,
    .model = f3_model,
    .options = f3_options,
    .prepare = f3_prepare,
    .poison = f3_poison,
    .enqueue = f3_enqueue,
    .verify = f3_verify,
    .release = f3_release,
    .save_output = f3_save_output,
    .validate = f3_validate,
    .local_need = f3_local_need,
    .unsupported = f3_unsupported,
};
