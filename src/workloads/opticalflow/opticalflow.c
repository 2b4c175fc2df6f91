/* The opticalflow workload: pyramidal Lucas-Kanade flow between two 8-bit frames, the WWDC 2010 talk's
 * NVIDIA demo (docs/workloads/opticalflow.md), dense or at sparse points. This file owns the options
 * (--window, --levels, --iterations, --points, --grid-step), the frames (a seeded synthetic pair with a known
 * motion, or --input a.png,b.png), the pyramid's geometry, the device buffers and images (created once), the
 * work model, the read-back for the check and --output (the flow's magnitude as grey). of_launch.c owns the
 * launches, of_check.c the check, of_points.c the point list. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clerr.h"
#include "core/log.h"
#include "core/pngio.h"
#include "workloads/opticalflow/opticalflow.h"

#define IMGF (CG_FEAT_IMAGES | CG_FEAT_IMAGE_RF)

/* clang-format off */
static const cg_rung rungs[] = {
    /* name, why (one line, shown in every report), solve kernel, options, needs, local bytes,
       {P_PLAN, P_WGX, P_WGY} */
    {"buffers", "one work-item per pixel; Scharr derivatives and G recomputed inside its window, bilinear by hand",
     "of_solve_naive", NULL, 0, 0, {PLAN_NAIVE, 16, 16}},
    {"precomputed", "vs buffers: derivatives and G precomputed once per level into buffers (the talk's approach)",
     "of_solve_pre", NULL, 0, 0, {PLAN_PRE, 16, 16}},
    {"local-tile", "vs precomputed: a work-group per 16x16 tile, its window's level + derivatives in local memory",
     "of_solve_local", NULL, 0, OF_LOCAL_BYTES(16, 16, 1), {PLAN_LOCAL, 16, 16}},
    {"image-linear", "vs precomputed: second frame as an image read through CLK_FILTER_LINEAR (texture bilinear)",
     "of_solve_img", NULL, IMGF, 0, {PLAN_IMG, 16, 16}},
    {"best", "vs image-linear: level + derivatives packed in one float4 per pixel, G by a separable box sum",
     "of_solve_best", NULL, IMGF, 0, {PLAN_BEST, 16, 16}},
    {"half", "vs best: second frame's levels in CL_HALF_FLOAT images (2 B, full-rate filtering) not CL_FLOAT",
     "of_solve_best", NULL, CG_FEAT_IMAGES, 0, {PLAN_HALF, 16, 16}},
    {"unorm16", "vs best: second frame's levels in CL_UNORM_INT16 images (2 B, full-rate filtering) not CL_FLOAT",
     "of_solve_u16", NULL, CG_FEAT_IMAGES, 0, {PLAN_U16, 16, 16}},
    {"early-exit", "vs unorm16: a point stops at its first step below --epsilon px (0.01, OpenCV's), not after K",
     "of_solve_exit", NULL, CG_FEAT_IMAGES, 0, {PLAN_EXIT, 16, 16}},
};

/* The tuning spaces (`clgauge tune`, core/tune.h): the 2D work-group of every dense step (pyramid, gradients,
 * G, solve), NULL (wgx=0,wgy=0) included: no kernel but local-tile's sizes anything by it; local-tile's tile,
 * which is its work-group (reqd_work_group_size(TX, TY); its local memory from of_local_need). Every rung's
 * own 16x16 among them. */
static const cg_tspace spaces[] = {
    {"buffers,precomputed,image-linear,best,half,unorm16,early-exit", 2,
     {{"wgx", P_WGX, CG_TR_WG_X, 6, {0, 8, 16, 32, 64, 128}},
      {"wgy", P_WGY, CG_TR_WG_Y, 6, {0, 1, 2, 4, 8, 16}}}},
    {"local-tile", 2,
     {{"wgx", P_WGX, CG_TR_WG_X, 3, {8, 16, 32}},
      {"wgy", P_WGY, CG_TR_WG_Y, 3, {4, 8, 16}}}},
};
/* clang-format on */

static const cg_wopt wopts[] = {
    {"window", "N", "side of the square Lucas-Kanade window, odd, 3 to 63 (default 21)", CG_WOPT_NUMBER, NULL,
     "21", 0},
    {"levels", "N", "pyramid levels, 1 to 8 (default 3)", CG_WOPT_NUMBER, NULL, "3", 0},
    /* shared with cloth: the CLI shows one help line per name, so both declare this same text */
    {"iterations", "K",
     "iterations: cloth's spring relaxations per frame, 1 to 1000; opticalflow's Lucas-Kanade steps per "
     "level, 1 to 100 (default 10)",
     CG_WOPT_NUMBER, NULL, "10", 0},
    {"epsilon", "PX",
     "opticalflow's early-exit: a point stops at its first step shorter than PX pixels (not taken), above 0 "
     "to 1 (default 0.01, OpenCV's); the other rungs always take --iterations steps",
     CG_WOPT_NUMBER, NULL, "0.01", 0},
    {"points", "N",
     "sparse: the flow at N distinct pixels at seeded random positions (--seed) only, 1 to the frame's "
     "pixels",
     CG_WOPT_NUMBER, NULL, NULL, 0},
    {"grid-step", "STEP",
     "sparse: the flow at a point every STEP px each way from (STEP/2, STEP/2) only, 1 to the frame's "
     "shorter side",
     CG_WOPT_NUMBER, NULL, NULL, 0},
};

/* About 88 B a pixel of the finest level: the pyramids, float4 derivatives, G and a box-sum row buffer, the
 * flow; one allocation (G over all levels) is about 22 B a pixel. */
static const cg_size_rule size_rule = {
    .workload = "opticalflow",
    .unit = "pixels",
    .dims = 2,
    .dflt_gpu = 640,
    .dflt_other = 160,
    .dflt_floor = 64,
    .elem_bytes = 22,
    .buffers = 4,
    .max_count = 1u << 28,
    .max_side = 1u << 15,
    .image2d = true,
};

/* ---- options, sizes, frames ------------------------------------------------------------------------ */

static cg_status whole(const cg_run_opts *o, const char *name, double dflt, int lo, int hi, int *v)
{
    double x = cg_wopts_number(o->wopts, name, dflt);
    if (x < lo || x > hi || x != floor(x)) {
        CG_ERROR("opticalflow: --%s %g is not a whole number from %d to %d: use e.g. --%s %g", name, x, lo,
                 hi, name, dflt);
        return CG_E_USAGE;
    }
    *v = (int)x;
    return CG_OK;
}

/* The two paths of --input a.png,b.png into a and b (each < len). */
static cg_status split_input(const char *in, char *a, char *b, size_t len)
{
    const char *comma = strchr(in, ',');
    size_t la = comma ? (size_t)(comma - in) : 0;
    if (!comma || la == 0 || !comma[1] || strchr(comma + 1, ',') || la >= len || strlen(comma + 1) >= len) {
        CG_ERROR("opticalflow: --input %s is not two PNG files: use --input first.png,second.png", in);
        return CG_E_USAGE;
    }
    memcpy(a, in, la);
    a[la] = '\0';
    strcpy(b, comma + 1);
    return CG_OK;
}

/* The frames' size: both --input headers (equal), else --size, else 640x480 on GPUs, 160x120 elsewhere. */
static cg_status pick_size(const cg_ctx *ctx, const cg_run_opts *o, size_t *w, size_t *h)
{
    char a[1024], b[1024];
    size_t w2, h2;
    cg_status st;
    if (!o->input) {
        if (o->size.dims) return cg_size_pick(ctx, &size_rule, o, w, h);
        bool gpu = (ctx->dev->type & CL_DEVICE_TYPE_GPU) != 0; /* a CPU takes seconds a run at 640x480 */
        *w = gpu ? 640 : 160;
        *h = gpu ? 480 : 120;
        return cg_size_check(ctx, &size_rule, *w, *h);
    }
    if (o->size.dims) {
        CG_ERROR("opticalflow: --input %s and --size both given: the frames set the size; drop --size",
                 o->input);
        return CG_E_USAGE;
    }
    if ((st = split_input(o->input, a, b, sizeof a)) != CG_OK || (st = cg_png_read_size(a, w, h)) != CG_OK ||
        (st = cg_png_read_size(b, &w2, &h2)) != CG_OK)
        return st;
    if (w2 != *w || h2 != *h) {
        CG_ERROR("opticalflow: --input frames differ in size (%s %zux%zu, %s %zux%zu): give two frames of "
                 "one size",
                 a, *w, *h, b, w2, h2);
        return CG_E_USAGE;
    }
    return cg_size_check(ctx, &size_rule, *w, *h);
}

/* Everything validate and setup both decide: options, size, the pyramid's geometry. */
static cg_status pick_problem(const cg_ctx *ctx, const cg_run_opts *o, of_state *s)
{
    cg_status st;
    if ((st = whole(o, "window", 21, 3, OF_MAX_WINDOW, &s->window)) != CG_OK ||
        (st = whole(o, "levels", 3, 1, OF_MAX_LEVELS, &s->levels)) != CG_OK ||
        (st = whole(o, "iterations", 10, 1, OF_MAX_ITERS, &s->iters)) != CG_OK)
        return st;
    s->eps = cg_wopts_number(o->wopts, "epsilon", OF_EPSILON);
    if (!(s->eps > 0 && s->eps <= 1)) {
        CG_ERROR("opticalflow: --epsilon %g is not a step length above 0 and at most 1 px: use e.g. "
                 "--epsilon 0.01",
                 s->eps);
        return CG_E_USAGE;
    }
    if (s->window % 2 == 0) {
        CG_ERROR("opticalflow: --window %d is even: the window is centred on its pixel, use an odd side such "
                 "as %d",
                 s->window, s->window + 1);
        return CG_E_USAGE;
    }
    if ((st = pick_size(ctx, o, &s->w, &s->h)) != CG_OK) return st;
    s->n = s->w * s->h;
    s->total = 0;
    for (int L = 0; L < s->levels; L++) {
        s->lw[L] = L ? (s->lw[L - 1] + 1) / 2 : s->w;
        s->lh[L] = L ? (s->lh[L - 1] + 1) / 2 : s->h;
        s->off[L] = s->total;
        s->total += s->lw[L] * s->lh[L];
    }
    size_t cw = s->lw[s->levels - 1], ch = s->lh[s->levels - 1];
    if ((size_t)s->window > cw || (size_t)s->window > ch) {
        CG_ERROR("opticalflow: --window %d is larger than the coarsest level (%zux%zu of %zux%zu with "
                 "--levels %d): "
                 "use a smaller --window or fewer --levels",
                 s->window, cw, ch, s->w, s->h, s->levels);
        return CG_E_USAGE;
    }
    return of_points_pick(o, s);
}

static cg_status of_validate(const cg_ctx *ctx, const cg_run_opts *o)
{
    of_state s;
    memset(&s, 0, sizeof s);
    return pick_problem(ctx, o, &s);
}

static cg_status read_frames(const cg_run_opts *o, of_state *s)
{
    char a[1024], b[1024];
    size_t w[2], h[2];
    cg_status st = split_input(o->input, a, b, sizeof a);
    if (st == CG_OK) st = cg_png_read_grey(a, &s->frame[0], &w[0], &h[0]);
    if (st == CG_OK) st = cg_png_read_grey(b, &s->frame[1], &w[1], &h[1]);
    if (st == CG_OK && (w[0] != s->w || h[0] != s->h || w[1] != s->w || h[1] != s->h)) {
        CG_ERROR("opticalflow: --input frames changed size while being read: give two frames of one size");
        st = CG_E_USAGE;
    }
    return st;
}

/* Whether the device's CL_HALF_FLOAT images hold what write_imagef put there: PoCL 3.1 lists CL_R
 * CL_HALF_FLOAT, but its kernels read such an image as one constant and write other bytes into it (a flow off
 * by pixels; docs/workloads/opticalflow.md). Once per setup, when the half rung is first considered: a kernel
 * writes 8 values below 256 into an 8x1 image, another reads each back with a nearest sampler and a quarter
 * texel on with a linear one; every read must be within 0.5 grey level of what the float values give (half's
 * rounding, 2^-4, and 8-bit texture weights stay far below). The probe's own source, built without the cache
 * (a few ms); a failed OpenCL call or build counts as a failed probe, its reason the call's. */
typedef struct of_half_probe {
    bool done, ok;
    char why[160];
} of_half_probe;

static const char *half_probe_src =
    "__constant sampler_t nea = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | "
    "CLK_FILTER_NEAREST;\n"
    "__constant sampler_t lin = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | "
    "CLK_FILTER_LINEAR;\n"
    "__kernel void put(__global const float *v, __write_only image2d_t img)\n"
    "{ int x = get_global_id(0); write_imagef(img, (int2)(x, 0), (float4)(v[x])); }\n"
    "__kernel void get(__read_only image2d_t img, __global float *o)\n"
    "{ int x = get_global_id(0); o[x] = read_imagef(img, nea, (float2)(x + 0.5f, 0.5f)).x;\n"
    "  o[8 + x] = read_imagef(img, lin, (float2)(x + 0.75f, 0.5f)).x; }\n";

static bool run_half_probe(const cg_ctx *ctx, of_half_probe *p)
{
    float v[8], o[16];
    cl_int e = CL_SUCCESS;
    cl_program prog = NULL;
    cl_kernel put = NULL, get = NULL;
    cl_mem img = NULL, bv = NULL, bo = NULL;
    cl_image_format f = {CL_R, CL_HALF_FLOAT};
    cl_image_desc d;
    memset(&d, 0, sizeof d);
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = 8;
    d.image_height = 1;
    for (int i = 0; i < 8; i++)
        v[i] = 31.7f * (float)i + 3.3f;
    size_t g = 8;
    const char *what = "clCreateProgramWithSource";
    cl_device_id dev = ctx->dev->id;
    prog = clCreateProgramWithSource(ctx->context, 1, &half_probe_src, NULL, &e);
    if (e == CL_SUCCESS) what = "clBuildProgram", e = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    if (e == CL_SUCCESS) what = "clCreateKernel", put = clCreateKernel(prog, "put", &e);
    if (e == CL_SUCCESS) get = clCreateKernel(prog, "get", &e);
    if (e == CL_SUCCESS)
        what = "clCreateImage", img = clCreateImage(ctx->context, CL_MEM_READ_WRITE, &f, &d, NULL, &e);
    if (e == CL_SUCCESS)
        what = "clCreateBuffer",
        bv = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof v, v, &e);
    if (e == CL_SUCCESS) bo = clCreateBuffer(ctx->context, CL_MEM_WRITE_ONLY, sizeof o, NULL, &e);
    what = "clSetKernelArg";
    if (e == CL_SUCCESS) e = clSetKernelArg(put, 0, sizeof bv, &bv);
    if (e == CL_SUCCESS) e = clSetKernelArg(put, 1, sizeof img, &img);
    if (e == CL_SUCCESS) e = clSetKernelArg(get, 0, sizeof img, &img);
    if (e == CL_SUCCESS) e = clSetKernelArg(get, 1, sizeof bo, &bo);
    if (e == CL_SUCCESS)
        what = "clEnqueueNDRangeKernel",
        e = clEnqueueNDRangeKernel(ctx->queue, put, 1, NULL, &g, NULL, 0, NULL, NULL);
    if (e == CL_SUCCESS) e = clEnqueueNDRangeKernel(ctx->queue, get, 1, NULL, &g, NULL, 0, NULL, NULL);
    if (e == CL_SUCCESS)
        what = "clEnqueueReadBuffer",
        e = clEnqueueReadBuffer(ctx->queue, bo, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL);
    p->ok = e == CL_SUCCESS;
    if (!p->ok)
        snprintf(p->why, sizeof p->why, "a CL_HALF_FLOAT image probe failed: %s: %s", what,
                 cg_cl_strerror(e));
    for (int i = 0; i < 8 && p->ok; i++) {
        double lin = i < 7 ? 0.75 * v[i] + 0.25 * v[i + 1] : v[i];
        if (!(fabs(o[i] - v[i]) <= 0.5) || !(fabs(o[8 + i] - lin) <= 0.5)) {
            p->ok = false;
            snprintf(
                p->why, sizeof p->why,
                "CL_HALF_FLOAT images read back wrong here (a probe wrote %g, read %g; %g between texels, "
                "want %g): a driver fault",
                (double)v[i], (double)o[i], (double)o[8 + i], lin);
        }
    }
    cl_mem m[] = {img, bv, bo};
    for (size_t i = 0; i < 3; i++)
        if (m[i]) clReleaseMemObject(m[i]);
    if (put) clReleaseKernel(put);
    if (get) clReleaseKernel(get);
    if (prog) clReleaseProgram(prog);
    return p->ok;
}

static bool half_probe_ok(const of_state *s)
{
    of_half_probe *p = s->probe;
    if (!p->done) {
        p->done = true;
        run_half_probe(s->ctx, p);
    }
    return p->ok;
}

/* ---- device data, setup ------------------------------------------------------------------------------ */

/* One CL_R image per level of the given channel type. */
cg_status of_make_images(cg_ctx *ctx, of_state *s, cl_channel_type type, cl_mem *img)
{
    cg_status st = CG_OK;
    cl_image_format f = {CL_R, type};
    for (int L = 0; L < s->levels; L++) {
        cl_image_desc d;
        memset(&d, 0, sizeof d);
        d.image_type = CL_MEM_OBJECT_IMAGE2D;
        d.image_width = s->lw[L];
        d.image_height = s->lh[L];
        CG_TRY_OBJ(img[L], clCreateImage(ctx->context, CL_MEM_READ_WRITE, &f, &d, NULL, CG_ERRP));
    }
out:
    return st;
}

static cg_status make_device_data(cg_ctx *ctx, of_state *s)
{
    cg_status st = CG_OK;
    cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, rw = CL_MEM_READ_WRITE;
    size_t t = s->total;
    CG_TRY_BUF(ctx, in, s->n, s->frame[0], CG_BUF_INPUT, &s->in8[0]);
    CG_TRY_BUF(ctx, in, s->n, s->frame[1], CG_BUF_INPUT, &s->in8[1]);
    CG_TRY_BUF(ctx, rw, t * sizeof(float), NULL, CG_BUF_WRITTEN, &s->pyr[0]);
    CG_TRY_BUF(ctx, rw, t * sizeof(float), NULL, CG_BUF_WRITTEN, &s->pyr[1]);
    CG_TRY_BUF(ctx, rw, t * 4 * sizeof(float), NULL, CG_BUF_WRITTEN, &s->grad);
    CG_TRY_BUF(ctx, rw, t * 4 * sizeof(float), NULL, CG_BUF_WRITTEN, &s->tens);
    CG_TRY_BUF(ctx, rw, s->n * 4 * sizeof(float), NULL, CG_BUF_WRITTEN, &s->tmp);
    /* sparse: a float2 a point and level, a status a point; dense: a float2 a pixel of every level */
    size_t nflow = s->np ? s->np * (size_t)s->levels : t;
    CG_TRY_BUF(ctx, rw, nflow * 2 * sizeof(float), NULL, CG_BUF_WRITTEN, &s->flow);
    CG_TRY_BUF(ctx, rw, of_npoints(s), NULL, CG_BUF_WRITTEN, &s->status);
    if (s->np) CG_TRY_BUF(ctx, in, s->np * 2 * sizeof(cl_int), s->pts, CG_BUF_INPUT, &s->pts_buf);
    if ((ctx->features & CG_FEAT_IMAGES) && (ctx->features & CG_FEAT_IMAGE_RF))
        st = of_make_images(ctx, s, CL_FLOAT, s->jimg);
    if (st == CG_OK && (ctx->features & CG_FEAT_IMAGES)) st = of_make_u16_images(ctx, s);
    if (st == CG_OK && (ctx->features & CG_FEAT_IMAGES)) st = of_make_half_images(ctx, s);
    s->ctx = ctx;
    CG_FAIL_IF(!(s->probe = calloc(1, sizeof *s->probe)), CG_E_RUNTIME, "opticalflow: out of host memory");
out:
    return st;
}

static void of_teardown(void *state)
{
    of_state *s = state;
    if (!s) return;
    of_report_summary(s);
    cl_mem m[] = {s->in8[0], s->in8[1], s->pyr[0], s->pyr[1], s->grad,
                  s->tens,   s->tmp,    s->flow,   s->status, s->pts_buf};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (m[i]) clReleaseMemObject(m[i]);
    for (int L = 0; L < OF_MAX_LEVELS; L++) {
        if (s->jimg[L]) clReleaseMemObject(s->jimg[L]);
        if (s->jimg16[L]) clReleaseMemObject(s->jimg16[L]);
        if (s->jimgh[L]) clReleaseMemObject(s->jimgh[L]);
    }
    free(s->frame[0]);
    free(s->frame[1]);
    free(s->truth);
    of_ref_free(s);
    free(s->lref);
    free(s->ref_flow);
    free(s->ref_st);
    free(s->got);
    free(s->last_got);
    free(s->last_st);
    free(s->got_st);
    free(s->saved);
    free(s->pts);
    free(s->probe);
    free(s);
}

static cg_status of_setup(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len)
{
    cg_status st = CG_OK;
    of_state *s = calloc(1, sizeof *s);
    CG_FAIL_IF(!s, CG_E_RUNTIME, "opticalflow: out of host memory");
    if ((st = pick_problem(ctx, o, s)) != CG_OK) goto out;
    s->max_wg = ctx->dev->max_wg ? ctx->dev->max_wg : 1;
    size_t np = of_npoints(s), nflow = s->np ? s->np * (size_t)s->levels : s->total;
    s->lref = calloc(np, sizeof *s->lref);
    s->ref_flow = malloc(2 * np * sizeof *s->ref_flow);
    s->ref_st = malloc(np);
    s->got = malloc(2 * nflow * sizeof *s->got);
    s->got_st = malloc(np);
    if (o->output) s->saved = malloc(3 * s->n); /* only --output draws the flow */
    CG_FAIL_IF(!s->lref || !s->ref_flow || !s->ref_st || !s->got || !s->got_st || (o->output && !s->saved),
               CG_E_RUNTIME, "opticalflow: out of host memory for a %zux%zu pair: use a smaller --size", s->w,
               s->h);
    st = o->input ? read_frames(o, s) : of_synthesize(s, o->seed);
    if (st == CG_OK) st = of_points_make(s, o->seed);
    if (st == CG_OK) st = of_reference(s);
    if (st == CG_OK) st = make_device_data(ctx, s);
    char pts[64] = "";
    if (s->grid)
        snprintf(pts, sizeof pts, ", %zu points (grid step %d)", s->np, s->grid);
    else if (s->np)
        snprintf(pts, sizeof pts, ", %zu random points", s->np);
    char eps[32] = ""; /* early-exit's stop, named where it is not the default */
    if (s->eps != OF_EPSILON) snprintf(eps, sizeof eps, ", epsilon %g", s->eps);
    if (st == CG_OK)
        snprintf(size_desc, len, "%zux%zu px%s, window %d, %d levels, %d iterations%s", s->w, s->h, pts,
                 s->window, s->levels, s->iters, eps);
out:
    if (st != CG_OK) {
        of_teardown(s);
        s = NULL;
    }
    *state = s;
    return st;
}

/* ---- model, options, check --------------------------------------------------------------------------- */

/* Items: pixels of the first frame (each a point), or the sparse points. Bytes: the two 8-bit frames read
 * once (2 B/px), the flow written once as two floats (8 B a point) and the status byte (1 B a point), sparse
 * also the point list read (8 B a point). FLOPs: per window pixel and iteration a bilinear sample (6: three
 * lerps), the difference (1) and b's two MADs (4), per window pixel G's three products and sums (6), over
 * every level's points (dense: about 4/3 of the finest level's pixels; sparse: levels per point).
 * early-exit's iterations are those the reference's own solve computed under its rule (s->exit_iters: the
 * device's may differ by a step at a few points), the others' K at every point. */
static void of_model(const void *state, const cg_rung *r, cg_model *m)
{
    const of_state *s = state;
    bool ex = r->p[P_PLAN] == PLAN_EXIT;
    double nwin = (double)s->window * s->window, per = nwin * (11.0 * s->iters + 6.0);
    double pts = s->np ? (double)s->np * s->levels : (double)s->total;
    m->bytes = (double)s->n * 11.0;
    m->flops = ex ? nwin * (11.0 * s->exit_iters + 6.0 * pts) : pts * per;
    m->items = (double)s->n;
    m->item_unit = "px";
    m->bytes_note = "R+W: two 1 B/px frames read + 8 B/px flow and 1 B/px status written";
    m->ceiling = CG_CEIL_COPY;
    if (!s->np) return;
    m->bytes = (double)s->n * 2.0 + (double)s->np * 17.0;
    m->items = (double)s->np;
    m->item_unit = "pt";
    m->bytes_note = "R+W: two 1 B/px frames + 8 B/pt positions read, 8 B/pt flow and 1 B/pt status written";
}

/* TX, TY: local-tile's tile (its reqd_work_group_size); a NULL work-group (wgx=0,wgy=0, any other rung)
 * builds it with the default 16x16, which that rung does not launch. */
static void of_options(const void *state, const cg_rung *r, char *buf, size_t len)
{
    const of_state *s = state;
    int tx = r->p[P_WGX] > 0 ? r->p[P_WGX] : 16, ty = r->p[P_WGY] > 0 ? r->p[P_WGY] : 16;
    snprintf(buf, len, "-DR=%d -DITERS=%d -DMIN_EIG=%.9g -DEPS=%.9g -DTX=%d -DTY=%d%s", s->window / 2,
             s->iters, OF_MIN_EIG, s->eps, tx, ty, s->np ? " -DSPARSE=1" : "");
}

/* local-tile's tile grows with --window (the row gives the least, for --window 3); sparse, it does not run.
 */
static size_t of_local_need(const void *state, const cg_rung *r)
{
    const of_state *s = state;
    return r->p[P_PLAN] == PLAN_LOCAL && !s->np ? OF_LOCAL_BYTES(r->p[P_WGX], r->p[P_WGY], s->window / 2) : 0;
}

/* local-tile's kernel requires its exact work-group, and neighbouring pixels to share its tile: sparse points
 * have none (docs/workloads/opticalflow.md, "Sparse points"). */
static bool of_unsupported(const void *state, const cg_rung *r, char *why, size_t len)
{
    const of_state *s = state;
    int wx = r->p[P_WGX], wy = r->p[P_WGY];
    if ((r->p[P_PLAN] == PLAN_U16 || r->p[P_PLAN] == PLAN_EXIT) && !s->jimg16[0]) {
        snprintf(why, len, "%s", s->u16_why[0] ? s->u16_why : "no unorm16 images were made");
        return true;
    }
    if (r->p[P_PLAN] == PLAN_HALF && (!s->jimgh[0] || !half_probe_ok(s))) {
        snprintf(why, len, "%s",
                 s->jimgh[0]      ? s->probe->why
                 : s->half_why[0] ? s->half_why
                                  : "no half images were made");
        return true;
    }
    size_t wg = wx > 0 && wy > 0 ? (size_t)wx * (size_t)wy : 0;
    if (wx < 0 || wy < 0 || (wx == 0) != (wy == 0) || (r->p[P_PLAN] == PLAN_LOCAL && wg == 0)) {
        snprintf(why, len, "wgx=%d,wgy=%d: %s", wx, wy,
                 wx < 0 || wy < 0             ? "work-group sides, or both 0 for NULL"
                 : r->p[P_PLAN] == PLAN_LOCAL ? "local-tile's tile is its work-group (reqd_work_group_size)"
                                              : "local size NULL needs both 0");
        return true;
    }
    if (s->np && (wg == 0 || (wg & (wg - 1)))) {
        snprintf(
            why, len,
            "wgx=%d,wgy=%d: sparse points run 1D groups of wgx x wgy work-items, a power of two (not NULL)",
            wx, wy);
        return true;
    }
    if (r->p[P_PLAN] == PLAN_LOCAL && s->np) {
        snprintf(why, len,
                 "a work-group per %dx%d tile of neighbouring pixels sharing their windows in local memory; "
                 "sparse points (--points, --grid-step) are no such tile",
                 r->p[P_WGX], r->p[P_WGY]);
        return true;
    }
    if (r->p[P_PLAN] != PLAN_LOCAL || wg <= s->max_wg) return false;
    snprintf(why, len, "needs work-groups of %zu work-items, device allows %zu", wg, s->max_wg);
    return true;
}

/* The verified flow (s->got, s->got_st) into s->saved as a colour wheel, 3 bytes a pixel: the hue its
 * direction (right red, down yellow-green, left cyan, up violet: HSV hue = the angle of (dx, dy), y down),
 * the saturation its length over the 95th percentile of the tracked flows' lengths (s->saved_scale, within
 * 1/1024 of the longest; longer ones saturate; white: no motion), full value; invalid and lost points black,
 * and sparse every pixel that is no point. */
static void of_draw_flow(of_state *s)
{
    size_t np = of_npoints(s), hist[1025] = {0}, tracked = 0, b = 0;
    double top = 0;
    for (size_t i = 0; i < np; i++)
        if (s->got_st[i] == OF_TRACKED) top = fmax(top, hypot(s->got[2 * i], s->got[2 * i + 1])), tracked++;
    for (size_t i = 0; i < np && top > 0; i++)
        if (s->got_st[i] == OF_TRACKED)
            hist[(size_t)(hypot(s->got[2 * i], s->got[2 * i + 1]) / top * 1024)]++;
    for (size_t seen = 0; b < 1024 && (seen += hist[b]) < tracked - tracked / 20; b++)
        ;
    top *= (double)(b + 1) / 1024;
    s->saved_scale = top;
    memset(s->saved, 0, 3 * s->n);
    for (size_t i = 0; i < np; i++) {
        uint8_t *px = s->saved + 3 * of_px(s, i);
        if (s->got_st[i] != OF_TRACKED) continue;
        double dx = s->got[2 * i], dy = s->got[2 * i + 1], sat = top > 0 ? fmin(hypot(dx, dy) / top, 1) : 0;
        double hue = atan2(dy, dx) * (3 / 3.14159265358979323846); /* -3..3: sixths of the wheel */
        if (hue < 0) hue += 6;
        int sector = (int)hue % 6;
        double f = hue - floor(hue), p = 1 - sat, q = 1 - sat * f, t = 1 - sat * (1 - f);
        const double rgb[6][3] = {{1, t, p}, {q, 1, p}, {p, 1, t}, {p, q, 1}, {t, p, 1}, {1, p, q}};
        for (int k = 0; k < 3; k++)
            px[k] = (uint8_t)lround(255 * rgb[sector][k]);
    }
}

static cg_status of_verify(cg_ctx *ctx, void *state, void *rs, cg_check *c)
{
    cg_status st = CG_OK;
    of_state *s = state;
    size_t np = of_npoints(s), nflow = s->np ? s->np * (size_t)s->levels : s->total; /* every level */
    CG_TRY(clEnqueueReadBuffer(ctx->queue, s->flow, CL_TRUE, 0, 2 * nflow * sizeof(float), s->got, 0, NULL,
                               NULL));
    CG_TRY(clEnqueueReadBuffer(ctx->queue, s->status, CL_TRUE, 0, np, s->got_st, 0, NULL, NULL));
    double eps = of_rung_eps(s, rs);
    of_check(s, of_rung_uses_images(rs), of_rung_jquant(rs), eps, c);
    if (!c->ok) goto out;
    of_report(s, of_rung_name(rs));
    s->exit_reported |= eps > 0;
    if (s->saved) of_draw_flow(s);
    s->have_saved = s->saved != NULL;
out:
    return st;
}

static cg_status of_save_output(cg_ctx *ctx, void *state, const char *path)
{
    (void)ctx;
    const of_state *s = state;
    if (!s->have_saved) {
        CG_ERROR("cannot write %s: no opticalflow rung produced a verified flow", path);
        return CG_E_IO;
    }
    cg_status st = cg_png_write_rgb(path, s->saved, s->w, s->h);
    if (st == CG_OK)
        CG_INFO(
            "opticalflow: %s: the flow as a colour wheel (hue: direction, right red; white: still; full "
            "colour at %.3g px, the 95th percentile of the tracked flows' lengths; black: invalid, lost%s)",
            path, s->saved_scale, s->np ? " or no point" : "");
    return st;
}

const cg_workload cg_workload_opticalflow = {
    .name = "opticalflow",
    .summary =
        "pyramidal Lucas-Kanade flow of two 8-bit frames, dense or sparse: buffers, precomputed G, texture",
    .size_help =
        "frames WxH (640x480) or N for NxN; default a synthetic pair, 640x480 on GPUs, 160x120 elsewhere",
    .cl_file = "opticalflow.cl",
    .takes_images_io = true,
    .wopts = wopts,
    .n_wopts = sizeof wopts / sizeof wopts[0],
    .rungs = rungs,
    .n_rungs = sizeof rungs / sizeof rungs[0],
    .setup = of_setup,
    .teardown = of_teardown,
    .model = of_model,
    .options = of_options,
    .prepare = of_prepare,
    .poison = of_poison,
    .enqueue = of_enqueue,
    .verify = of_verify,
    .release = of_release,
    .save_output = of_save_output,
    .validate = of_validate,
    .tune = spaces,
    .n_tune = sizeof spaces / sizeof spaces[0],
    .local_need = of_local_need,
    .unsupported = of_unsupported,
};
