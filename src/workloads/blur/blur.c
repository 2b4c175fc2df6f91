/* The blur workload: a Gaussian blur (--sigma, default 5: 31 taps) of a float picture with clamp-to-edge
 * borders, the Apple OpenCL guide's worked example as a ladder: the direct 2D convolution, the separable one
 * (plain, through local tiles, fused in one kernel), the guide's own recursive filter (Deriche's 4+4 taps:
 * rows only, columns only, both, and both as column passes with the guide's 16x16 skewed transposes) and the
 * Young-van Vliet recursive Gaussian (rows only, columns only, both, and both as column passes with two
 * transposes, 16x16 skewed or 32x32 padded; and cut into blocks with a carry fix-up, after Nehab et al. 2011,
 * columns, rows and both; and both separable passes on tensor cores). This file owns the picture (a PNG given
 * with --input, else seeded random bytes, as floats pixel / 255), the device buffers (created once), the rung
 * table, the search spaces and the build options; blur_launch.c makes each rung's launches, blur_ref.c the
 * CPU references, blur_check.c holds the output to them and blur_est.c does the speed estimate. Nothing here
 * looks at rung names: p[] says the algorithm. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clerr.h"
#include "core/kfacts.h"
#include "core/log.h"
#include "core/pngio.h"
#include "core/rng.h"
#include "workloads/blur/blur.h"
#include "workloads/blur/blur_ref.h"

#define BLUR_DEFAULT_GPU   4096
#define BLUR_DEFAULT_OTHER 512

/* clang-format off */
static const cg_rung rungs[] = {
    /* name, why (one line, shown in every report), kernel, options, needs, local bytes,
       {P_ALGO, P_WGX, P_WGY, P_PY, P_BLK} */
    {"conv2d", "direct 2D convolution: (2R+1)^2 clamped taps and MADs per pixel (961 at sigma 5)",
     "blur_conv2d", NULL, 0, 0, {A_CONV2D, 16, 16, 1}},
    {"sep", "separable: a row pass then a column pass, 2R+1 taps each: 62 MADs instead of 961",
     "blur_rows", NULL, 0, 0, {A_SEP, 32, 8, 1}},
    {"sep-local", "separable through local tiles: each input read from global once per group + halo",
     "blur_rows_local", NULL, 0, LOCAL_SEP(32, 8, 15), {A_SEP_LOCAL, 32, 8, 1}},
    {"dH", "half, vs sep-local: the guide's recursion (Deriche, 4+4 taps, y+ + y-), rows: item per row",
     "blur_dr_rows", NULL, 0, 0, {A_DR_H, 64, 1, 1}},
    {"dV", "half, vs dH: columns instead of rows: a work-item per column, coalesced loads",
     "blur_dr_cols", NULL, 0, 0, {A_DR_V, 64, 1, 1}},
    {"deriche", "vs dH, dV: both ways, dH then dV: 4 passes of 8 MADs per pixel whatever sigma (T14-1)",
     "blur_dr_rows", NULL, 0, 0, {A_DR, 64, 1, 1}},
    {"deriche-vt16", "vs deriche: rows as dV on the transpose: dV, transposeLS, dV, transposeLS (16x16)",
     "blur_dr_cols", NULL, 0, 16 * 16 * 4, {A_DR_VT16, 64, 1, 1}},
    {"rgH", "half, vs dH: Young-van Vliet (1+3 taps, causal then anti-causal cascade) instead of Deriche",
     "blur_rg_rows", NULL, 0, 0, {A_RG_H, 64, 1, 1}},
    {"rgV", "half, vs rgH: columns instead of rows: a work-item per column, coalesced loads",
     "blur_rg_cols", NULL, 0, 0, {A_RG_V, 64, 1, 1}},
    {"recursive", "vs deriche: Young-van Vliet instead of Deriche: rgH then rgV, 4 passes of 7 FLOPs/px",
     "blur_rg_rows", NULL, 0, 0, {A_RG, 64, 1, 1}},
    {"recursive-vt16", "vs recursive: rows as rgV on the transpose: rgV, transposeLS, rgV, transposeLS",
     "blur_rg_cols", NULL, 0, 16 * 16 * 4, {A_RG_VT16, 64, 1, 1}},
    {"recursive-vt", "vs recursive-vt16: the transposes as 32x32 tiles, rows padded, 32x8 groups, no skew",
     "blur_rg_cols", NULL, 0, 32 * 33 * 4, {A_RG_VT, 64, 1, 1}},
    {"recursive-ht", "vs recursive-vt: rgH, transpose, rgH, transpose: only row passes",
     "blur_rg_rows", NULL, 0, 32 * 33 * 4, {A_RG_HT, 64, 1, 1}},
    {"fused", "both separable passes in one kernel: 32x64 block + halo in local, 4x8 outputs slide",
     "blur_fused", "-DFUSED", 0, LOCAL_FUSED(32, 8, 8, 15), {A_FUSED, 32, 8, 8}},
    {"fused-ring", "vs fused: a group walks a strip (128 rows, 512 on a CPU), column sums in registers: rows filtered once",
     "blur_ring", "-DRING", 0, LOCAL_RING(32, 2, 15, 32), {A_RING, 32, 0, 0, 0}},
    {"ring-taps", "vs fused-ring: the Gaussian's taps compiled in (-D): each multiply takes a constant, not a loaded value",
     "blur_ring", "-DRING -DTAPS", 0, LOCAL_RING(32, 2, 15, 32), {A_RING, 32, 0, 0, 0}},
    {"cpu-sums", "vs fused-ring: a CPU's layout: 8 columns a work-item walk a 256-row strip, groups of 1, no local memory",
     "blur_cpu_ring", "-DCPUR -DSUMS", 0, 0, {A_CPU, 1, 1, 256}},
    {"cpu-ring", "vs cpu-sums: a ring of the last filtered rows in L1, each output one dot product: no running sums",
     "blur_cpu_ring", "-DCPUR", 0, 0, {A_CPU, 1, 1, 256}},
    {"f16x3-sep", "vs fused-ring: both passes as Toeplitz products on tensor cores (mma.sync m16n8k16, the f16x3 split: fp32 accuracy), H kept in registers between them",
     "blur_mma", NULL, CG_FEAT_NV_MMA, 0, {A_MMA, 4, 0, 128, 0}},
    {"f16x3-vec", "vs f16x3-sep: a lane's 4 input columns adjacent (k reordered in both products): one float4 load, not 4",
     "blur_mma", "-DVEC", CG_FEAT_NV_MMA, 0, {A_MMA, 4, 0, 128, 0}},
    {"f16x3-st4", "vs f16x3-vec: the products' output rows reordered (the taps' rows permuted): a lane's 4 outputs of a row adjacent, 2 float4 stores a step, not 8 scalar",
     "blur_mma", "-DVEC -DST4", CG_FEAT_NV_MMA, 0, {A_MMA, 4, 0, 128, 0}},
    {"f16x3-pf", "vs f16x3-st4: each step asks L2 for the next step's input rows (prefetch.global.L2): its loads find them there, not in DRAM",
     "blur_mma", "-DVEC -DST4 -DPF", CG_FEAT_NV_MMA, 0, {A_MMA, 4, 0, 128, 0}},
    {"rgV-blocks", "half: rgV, columns cut into 32-row blocks + a carry fix-up: h/32 times the work-items",
     "blur_rgb_cols_carry", NULL, 0, 0, {A_RGB_V, 64, 1, 1, BLUR_BLK}},
    {"rgH-blocks", "half: rgH, rows cut into 32-pixel blocks + a carry fix-up: w/32 times the work-items",
     "blur_rgb_rows_carry", NULL, 0, 0, {A_RGB_H, 64, 1, 1, BLUR_BLK}},
    {"recursive-blocks", "recursive, both ways, 32-px blocks; rows as rgH, no transposes (H100: rgH 3x rgV)",
     "blur_rgb_rows_carry", NULL, 0, 0, {A_RGB, 64, 1, 1, BLUR_BLK}},
    {"rgH-tiles", "half, vs rgH-blocks: blocks of 32 rows go through local tiles, loaded and stored a row at a time: coalesced",
     "blur_rgb_rows_carry_t", "-DTILES", 0, LOCAL_TILES(64, BLUR_BLK), {A_RGB_H, 64, 1, 1, BLUR_BLK}},
    {"recursive-tiles", "vs recursive-blocks: the row passes' blocks through local tiles (as rgH-tiles): coalesced",
     "blur_rgb_rows_carry_t", "-DTILES", 0, LOCAL_TILES(64, BLUR_BLK), {A_RGB, 64, 1, 1, BLUR_BLK}},
    {"recursive-fixl", "vs recursive-tiles: the fix-ups' carries staged through local memory by 32 x 8 groups, 16 blocks at a time: 8x the loads in flight, the same sums",
     "blur_rgb_rows_carry_t", "-DTILES -DFIXL", 0, LOCAL_FIXL(16), {A_RGB, 64, 8, 16, BLUR_BLK}},
    {"recursive-colc", "vs recursive-fixl: the columns' pass 1 done by the rows' pass 3 on its 32x32 tiles (in local memory): the row-filtered picture read twice, not three times",
     "blur_rgb_rows_carry_t", "-DTILES -DFIXL -DCOLC", 0, LOCAL_FIXL(16), {A_RGB, 64, 8, 16, BLUR_BLK}},
    {"recursive-v2", "vs recursive-colc: the columns' pass 3 takes 2 neighbouring columns a work-item (float2 loads and stores, 2 recursions side by side): half the work-items, 8-byte accesses",
     "blur_rgb_rows_carry_t", "-DTILES -DFIXL -DCOLC -DV2", 0, LOCAL_FIXL(16), {A_RGB, 64, 8, 16, BLUR_BLK}},
    {"rgH-whole", "half, vs rgH-tiles: a group a whole row (in local memory), its carries fixed there: the rows read once, written once, one kernel",
     "blur_rgb_rows_whole", "-DWHOLE", 0, LOCAL_WHOLE(4096, BLUR_BLK), {A_RGB_H, 128, 1, 1, BLUR_BLK}},
    {"recursive-whole", "vs recursive-tiles: the rows as rgH-whole (a group a whole row, carries fixed in local memory): 1 kernel, not 3",
     "blur_rgb_rows_whole", "-DWHOLE", 0, LOCAL_WHOLE(4096, BLUR_BLK), {A_RGB, 128, 1, 1, BLUR_BLK}},
};

/* The tuning spaces (`clgauge tune`, core/tune.h). fused: the group's sides and the output rows per work-item
 * (a WGX x WGY*PY block; WGX a multiple of 4 for the row pass's four outputs per work-item; the tile's local
 * memory from blur_local_need). sep-local: the group's sides (both kernels' tiles). The block rungs: the 1D
 * work-group of their three passes (0: local size NULL; no kernel sizes anything by it) and the block length,
 * which sets the carries' count (h/BLK or w/BLK blocks per line) and the fix-up's loop; the carry buffer is
 * sized for the shortest block of the table and the space. No NULL for the tiled rungs: -DWGX sizes their
 * local tiles. The f16x3 rungs: warps a group, output rows a warp walks and a register cap, 0 only (the
 * compiler's choice, about 122 a work-item): --space 'regs=80' tries one on NVIDIA (-cl-nv-maxrregcount; on an
 * H200 every cap lost to its spills, session 22). Every rung's own values are among its space's. */
static const cg_tspace spaces[] = {
    {"fused", 3,
     {{"wgx", P_WGX, CG_TR_WG_X, 4, {16, 32, 64, 128}},
      {"wgy", P_WGY, CG_TR_WG_Y, 4, {2, 4, 8, 16}},
      {"py", P_PY, CG_TR_OTHER, 4, {2, 4, 8, 16}}}},
    {"fused-ring,ring-taps", 4,
     {{"wgx", P_WGX, CG_TR_WG_X, 3, {32, 64, 128}},
      {"cx", P_WGY, CG_TR_OTHER, 5, {0, 1, 2, 4, 8}},
      {"py", P_PY, CG_TR_OTHER, 5, {0, 64, 128, 256, 512}},
      {"blk", P_BLK, CG_TR_OTHER, 4, {0, 16, 32, 64}}}},
    {"f16x3-sep,f16x3-vec,f16x3-st4,f16x3-pf", 3,
     {{"ly", P_WGX, CG_TR_WG_Y, 4, {1, 2, 4, 8}},
      {"py", P_PY, CG_TR_OTHER, 4, {64, 128, 256, 512}},
      {"regs", P_BLK, CG_TR_OTHER, 1, {0}}}},
    {"cpu-sums,cpu-ring", 2,
     {{"wgx", P_WGX, CG_TR_WG_X, 4, {1, 4, 16, 64}},
      {"py", P_PY, CG_TR_OTHER, 4, {64, 128, 256, 512}}}},
    {"sep-local", 2,
     {{"wgx", P_WGX, CG_TR_WG_X, 4, {16, 32, 64, 128}},
      {"wgy", P_WGY, CG_TR_WG_Y, 5, {1, 2, 4, 8, 16}}}},
    {"rgV-blocks,rgH-blocks,recursive-blocks", 2,
     {{"wg", P_WGX, CG_TR_WG_X, 5, {0, 32, 64, 128, 256}},
      {"blk", P_BLK, CG_TR_OTHER, 5, {8, 16, 32, 64, 128}}}},
    {"rgH-tiles,recursive-tiles", 2,
     {{"wg", P_WGX, CG_TR_OTHER, 4, {32, 64, 128, 256}},
      {"blk", P_BLK, CG_TR_OTHER, 4, {8, 16, 32, 64}}}},
    {"rgH-whole,recursive-whole", 2,
     {{"wg", P_WGX, CG_TR_OTHER, 4, {64, 128, 256, 512}},
      {"blk", P_BLK, CG_TR_OTHER, 3, {16, 32, 64}}}},
    {"recursive-colc,recursive-v2", 4,
     {{"wg", P_WGX, CG_TR_OTHER, 3, {32, 64, 128}},
      {"fy", P_WGY, CG_TR_OTHER, 2, {4, 8}},
      {"cb", P_PY, CG_TR_OTHER, 2, {16, 32}},
      {"blk", P_BLK, CG_TR_OTHER, 1, {32}}}},
    {"recursive-fixl", 4,
     {{"wg", P_WGX, CG_TR_OTHER, 2, {64, 128}},
      {"fy", P_WGY, CG_TR_OTHER, 3, {4, 8, 16}},
      {"cb", P_PY, CG_TR_OTHER, 2, {16, 32}},
      {"blk", P_BLK, CG_TR_OTHER, 2, {32, 64}}}},
};
/* clang-format on */

/* ---- setup ------------------------------------------------------------------------------------------ */

/* The picture: --input's size, else WxH from --size (N: NxN), else the default per device type; four float
 * buffers of it (input, output, two temporaries) in global memory; the kernels index with int. */
static const cg_size_rule size_rule = {
    .workload = "blur",
    .unit = "pixels",
    .dims = 2,
    .dflt_gpu = BLUR_DEFAULT_GPU,
    .dflt_other = BLUR_DEFAULT_OTHER,
    .dflt_floor = 256,
    .elem_bytes = sizeof(float),
    .buffers = 4,
    .max_count = INT_MAX,
    .picture = true,
};

/* --sigma (range-checked in pick_sigma, so that validate refuses it before any device work). */
static const cg_wopt wopts[] = {
    {"sigma", "S", "the Gaussian's sigma in pixels, 0.5 to 32 (default 5: 31 taps)", CG_WOPT_NUMBER, NULL,
     "5", 0},
};

/* The size, then with --input the picture itself (its size checked again: the file may have changed). */
static cg_status pick_size(const cg_ctx *ctx, const cg_run_opts *o, blur_state *s)
{
    cg_status st = cg_size_pick(ctx, &size_rule, o, &s->w, &s->h);
    if (st != CG_OK || !o->input) return st;
    st = cg_png_read_grey(o->input, &s->in8, &s->w, &s->h);
    return st == CG_OK ? cg_size_check(ctx, &size_rule, s->w, s->h) : st;
}

static cg_status pick_sigma(const cg_run_opts *o, blur_state *s)
{
    s->sigma = cg_wopts_number(o->wopts, "sigma", BLUR_DEFAULT_SIGMA);
    if (!(s->sigma >= BLUR_MIN_SIGMA && s->sigma <= BLUR_MAX_SIGMA)) {
        CG_ERROR(
            "blur: --sigma %g is out of range: use %g to %g (the recursive filter's formulas start at %g; "
            "the tiled rungs keep 3 sigma of halo in local memory)",
            s->sigma, BLUR_MIN_SIGMA, BLUR_MAX_SIGMA, BLUR_MIN_SIGMA);
        return CG_E_USAGE;
    }
    s->r = blur_radius(s->sigma);
    return CG_OK;
}

/* The --sigma and size checks of setup, before any device work (cg_workload.validate): with --input only the
 * picture's header is read. */
static cg_status blur_validate(const cg_ctx *ctx, const cg_run_opts *o)
{
    blur_state s = {0};
    cg_status st = pick_sigma(o, &s);
    return st == CG_OK ? cg_size_pick(ctx, &size_rule, o, &s.w, &s.h) : st; /* the header only */
}

static void blur_teardown(void *state)
{
    blur_state *s = state;
    if (!s) return;
    cl_mem m[] = {s->in_buf, s->out_buf, s->tmp_buf,   s->tmp2_buf,
                  s->g_buf,  s->g2_buf,  s->carry_buf, s->carry2_buf};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (m[i]) clReleaseMemObject(m[i]);
    if (s->ref[REF_CONV] == s->ref[REF_GAUSS]) s->ref[REF_CONV] = NULL;
    for (int i = 0; i < REF_COUNT; i++)
        free(s->ref[i]);
    free(s->gt);
    free(s->in);
    free(s->in8);
    free(s->got);
    free(s->saved);
    free(s->g);
    free(s->g2);
    free(s);
}

static cg_status make_host_data(const cg_run_opts *o, blur_state *s)
{
    size_t t = (size_t)(2 * s->r + 1);
    bool have_input = s->in8 != NULL;
    if (!have_input) s->in8 = malloc(s->n);
    s->in = malloc(s->n * sizeof(float));
    s->got = malloc(s->n * sizeof(float));
    s->saved = malloc(s->n);
    s->g = malloc(t * sizeof(float));
    s->g2 = malloc(t * t * sizeof(float));
    s->gt = malloc(t * sizeof(float));
    bool ok = s->in8 && s->in && s->got && s->saved && s->g && s->g2 && s->gt;
    if (!ok) {
        CG_ERROR("blur: out of host memory for a %zux%zu picture: use a smaller --size", s->w, s->h);
        return CG_E_RUNTIME;
    }
    if (!have_input) {
        cg_rng rng;
        cg_rng_init(&rng, o->seed);
        cg_rng_fill_bytes(&rng, s->in8, s->n);
    }
    for (size_t i = 0; i < s->n; i++) /* exact: 1..15 seeded, or a picture's top four bits */
        s->in[i] = !s->exact    ? s->in8[i] / 255.0f
                   : have_input ? (float)(s->in8[i] >> 4)
                                : (float)(1 + s->in8[i] % BLUR_EXACT_MAX);
    blur_weights(s->sigma, s->r, s->gt);
    if (s->exact)
        blur_exact_weights(s->r, s->g);
    else
        memcpy(s->g, s->gt, t * sizeof(float));
    for (size_t j = 0; j < t; j++)
        for (size_t i = 0; i < t; i++)
            s->g2[j * t + i] = (float)((double)s->g[j] * s->g[i]);
    blur_yvv_coeffs(s->sigma, s->c);
    blur_yvv_boundary(s->c, s->m);
    blur_deriche_coeffs(s->sigma, s->dk);
    blur_recursive_bounds(s);
    return CG_OK;
}

static void shortest_block(const cg_rung *r, void *user)
{
    int *blk = user, a = r->p[P_ALGO]; /* P_BLK is a block length only for these (fused-ring: rows a load;
                                          A_MMA: a register cap) */
    if ((a == A_RGB_V || a == A_RGB_H || a == A_RGB) && r->p[P_BLK] > 0 && (*blk == 0 || r->p[P_BLK] < *blk))
        *blk = r->p[P_BLK];
}

/* The shortest block of the table's rows and their tuning candidates: the carries are sized for it. */
static int blk_min(void)
{
    int blk = 0;
    cg_rungs_each_candidate(rungs, sizeof rungs / sizeof rungs[0], spaces, sizeof spaces / sizeof spaces[0],
                            shortest_block, &blk);
    return blk;
}

/* The block rungs' carries: 6 floats per line and block, for the shortest block (blk_min), either way. */
static size_t carry_bytes(const blur_state *s)
{
    size_t blk = (size_t)blk_min();
    size_t cols = s->w * ((s->h + blk - 1) / blk), rows = s->h * ((s->w + blk - 1) / blk);
    return 6 * (cols > rows ? cols : rows) * sizeof(float);
}

static cg_status make_device_data(cg_ctx *ctx, blur_state *s)
{
    cg_status st = CG_OK;
    size_t nf = s->n * sizeof(float), t = (size_t)(2 * s->r + 1);
    cl_mem_flags ro = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    CG_TRY_BUF(ctx, ro, nf, s->in, CG_BUF_INPUT, &s->in_buf);
    CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, nf, NULL, CG_BUF_WRITTEN, &s->out_buf);
    CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, nf, NULL, CG_BUF_WRITTEN, &s->tmp_buf);
    CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, nf, NULL, CG_BUF_WRITTEN, &s->tmp2_buf);
    CG_TRY_BUF(ctx, ro, t * sizeof(float), s->g, CG_BUF_INPUT, &s->g_buf);
    CG_TRY_BUF(ctx, ro, t * t * sizeof(float), s->g2, CG_BUF_INPUT, &s->g2_buf);
    CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, carry_bytes(s), NULL, CG_BUF_WRITTEN, &s->carry_buf);
out:
    return st;
}

static cg_status blur_setup(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len)
{
    blur_state *s = calloc(1, sizeof *s);
    if (!s) {
        CG_ERROR("blur: out of host memory");
        return CG_E_RUNTIME;
    }
    s->exact = o->check_exact;
    s->cpu = (ctx->dev->type & CL_DEVICE_TYPE_CPU) != 0;
    s->nv_options = cg_kfacts_has_nv_verbose(ctx->dev);
    s->range = s->exact ? BLUR_EXACT_MAX : 1.0;
    cg_status st = pick_sigma(o, s);
    if (st == CG_OK) st = pick_size(ctx, o, s);
    if (st == CG_OK) {
        s->n = s->w * s->h;
        st = make_host_data(o, s);
    }
    if (st == CG_OK) st = make_device_data(ctx, s);
    if (st != CG_OK) {
        blur_teardown(s);
        return st;
    }
    snprintf(size_desc, len, "%zux%zu px, sigma %g", s->w, s->h, s->sigma);
    *state = s;
    return CG_OK;
}

/* ---- rungs ------------------------------------------------------------------------------------------ */

/* Bytes: one read of the input and one write of the output per pixel (8 B), the least any blur moves.
 * FLOPs per pixel, a MAD counting 2: 2 T^2 for the 2D convolution (T = 2R+1 taps), 4 T for the separable
 * ones, 7 per Young-van Vliet pass (1 multiply and 3 MADs: B x + b1 p1 + b2 p2 + b3 p3): 14 for one
 * direction, 28 for both; 16 per Deriche pass (8 MADs) and 1 for y+ + y-: 33 for one direction, 66 for both
 * (the guide counts 64). The half rungs (one direction) have the bytes, FLOPs and pixels of the half they do,
 * and their note says so (their speedup over conv2d is time against a whole blur). */
static void blur_model(const void *state, const cg_rung *r, cg_model *m)
{
    const blur_state *s = state;
    double t = 2.0 * s->r + 1.0, px = (double)s->n;
    static const double rec[] = {
        [A_RG_H] = 14,  [A_RG_V] = 14,    [A_RG] = 28,     [A_RG_VT] = 28, [A_RG_HT] = 28,
        [A_RGB_V] = 14, [A_RGB_H] = 14,   [A_RGB] = 28,    [A_DR_H] = 33,  [A_DR_V] = 33,
        [A_DR] = 66,    [A_DR_VT16] = 66, [A_RG_VT16] = 28};
    int a = r->p[P_ALGO];
    double f = a == A_CONV2D ? 2 * t * t
               : (a == A_SEP || a == A_SEP_LOCAL || a == A_FUSED || a == A_RING || a == A_CPU || a == A_MMA)
                   ? 4 * t
                   : rec[a];
    bool half = a == A_RG_H || a == A_RG_V || a == A_RGB_H || a == A_RGB_V || a == A_DR_H || a == A_DR_V;
    m->bytes = px * 8.0;
    m->flops = px * f;
    m->items = px;
    m->item_unit = "px";
    m->bytes_note = !half       ? "R+W: 4 B/px read + 4 B/px written (input once, output once)"
                    : f == 14.0 ? "HALF a blur (one direction): R+W 4 B/px read + 4 B/px written, 14 FLOP/px"
                                : "HALF a blur (one direction): R+W 4 B/px read + 4 B/px written, 33 FLOP/px";
    m->ceiling = CG_CEIL_COPY;
}

static void blur_options(const void *state, const cg_rung *r, char *buf, size_t len)
{
    const blur_state *s = state;
    bool ring = r->p[P_ALGO] == A_RING, mma = r->p[P_ALGO] == A_MMA;
    int blk = ring ? blur_ring_blk(s, r) : mma ? 0 : r->p[P_BLK]; /* A_MMA's P_BLK: its register cap */
    int py = ring ? blur_ring_py(s, r) : r->p[P_PY];
    int n = snprintf(buf, len, "-DR=%d -DWGX=%d -DWGY=%d -DPY=%d", s->r, r->p[P_WGX], r->p[P_WGY], py);
    if (blk > 0 && n > 0 && (size_t)n < len) n += snprintf(buf + n, len - (size_t)n, " -DBLK=%d", blk);
    if (ring && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " -DCX=%d -DU=%d", blur_ring_cx(s, r), BLUR_RING_U);
    if (mma && n > 0 && (size_t)n < len) /* H's scale: H 2^HS below 2^11 (blur_mma.cl) */
        n += snprintf(buf + n, len - (size_t)n, " -DLY=%d -DHS=%d", r->p[P_WGX],
                      11 - (int)ceil(log2(s->range + 1.0)));
    if (mma && r->p[P_BLK] > 0 && n > 0 && (size_t)n < len) /* blur_unsupported: only with NVIDIA's options */
        n += snprintf(buf + n, len - (size_t)n, " -DREGCAP -cl-nv-maxrregcount=%d", r->p[P_BLK]);
    if (cg_rung_has_option(r, "-DWHOLE") && n > 0 && (size_t)n < len) /* the whole-row kernel's local row */
        n += snprintf(buf + n, len - (size_t)n, " -DRW=%zu", s->w);
    if (cg_rung_has_option(r, "-DTAPS")) /* ring-taps: the T taps' exact bits, as hex floats */
        for (int k = 0; k < 2 * s->r + 1 && n > 0 && (size_t)n < len; k++)
            n += snprintf(buf + n, len - (size_t)n, "%s%af", k ? "," : " -DGTAPS=", (double)s->g[k]);
}

/* What the kernels cannot take, for tuning candidates (the table rows always pass; local memory is
 * blur_local_need's): a side of a tiled rung's group below 1 (their tiles are sized by -DWGX, -DWGY: no NULL
 * local size), the fused row pass's x side not a multiple of 4 or its rows per work-item outside 1..32 (PY
 * accumulators in registers, loops unrolled over PY x (PY + 2R)); a block rung's group below 0, a block
 * shorter than the carries were sized for or longer than 256 (BLK floats of private memory per work-item). */
static bool blur_unsupported(const void *state, const cg_rung *r, char *why, size_t len)
{
    const blur_state *s = state;
    int a = r->p[P_ALGO], wx = r->p[P_WGX], wy = r->p[P_WGY], py = r->p[P_PY], blk = r->p[P_BLK];
    bool tiled = a == A_FUSED || a == A_SEP_LOCAL, blocks = a == A_RGB_V || a == A_RGB_H || a == A_RGB;
    if (tiled && (wx < 1 || wy < 1))
        snprintf(why, len,
                 "wgx=%d,wgy=%d: the local tiles are sized by the work-group (-DWGX, -DWGY; no NULL)", wx,
                 wy);
    else if (a == A_FUSED && wx % 4)
        snprintf(why, len,
                 "wgx=%d: not a multiple of 4 (the row pass makes 4 adjacent outputs per work-item)", wx);
    else if (a == A_FUSED && (py < 1 || py > 32))
        snprintf(why, len, "py=%d: 1 to 32 rows per work-item (its accumulators are registers)", py);
    else if (a == A_CPU && (wx < 1 || wx > 1024 || py < 1 || py > 65536))
        snprintf(why, len, "wgx=%d,py=%d: 1 to 1024 work-items a group, 1 to 65536 rows a strip", wx, py);
    else if (a == A_RING && (wx < 1 || wx > 1024))
        snprintf(why, len, "wgx=%d: 1 to 1024 work-items (-DWGX sizes the local rows; no NULL)", wx);
    else if (a == A_RING && wy != 0 && wy != 1 && wy != 2 && wy != 4 && wy != 8)
        snprintf(why, len, "cx=%d: 1, 2, 4 or 8 columns per work-item (a vector), or 0: by the radius", wy);
    else if (a == A_RING && (py < 0 || py > 65536))
        snprintf(why, len, "py=%d: 1 to 65536 output rows per strip, or 0: by the device", py);
    else if (a == A_RING && blk != 0 && (blk < BLUR_RING_U || blk > 256 || blk % BLUR_RING_U))
        snprintf(why, len,
                 "blk=%d: a multiple of %d up to 256 (rows loaded at a time; the row loop is unrolled %d "
                 "times), or 0",
                 blk, BLUR_RING_U, BLUR_RING_U);
    else if (cg_rung_has_option(r, "-DTILES") && (wx < 32 || wx > 1024 || wx % 32))
        snprintf(why, len,
                 "wg=%d: a multiple of 32 up to 1024 (32 rows a tile, wg/32 blocks a group; no NULL)", wx);
    else if (cg_rung_has_option(r, "-DWHOLE") && (wx < 32 || wx > 1024 || wx % 32))
        snprintf(why, len, "wg=%d: a multiple of 32 up to 1024 (a group a row; no NULL)", wx);
    else if (cg_rung_has_option(r, "-DCOLC") && blk != 32)
        snprintf(why, len, "blk=%d: the columns' blocks are the row tiles' 32 rows (blk 32 only)", blk);
    else if (cg_rung_has_option(r, "-DFIXL") && (wy < 1 || wy > 32))
        snprintf(why, len, "fy=%d: 1 to 32 work-items a line in the fix-ups' groups of 32 lines", wy);
    else if (cg_rung_has_option(r, "-DFIXL") && (py < 1 || py > 64))
        snprintf(why, len, "cb=%d: 1 to 64 blocks a chunk of the fix-ups (2 x cb x 384 B of local memory)",
                 py);
    else if (a == A_MMA && s->r > BLUR_MMA_MAX_R)
        snprintf(why, len,
                 "radius %d (sigma %g): the tensor-core rung takes radii up to %d (sigma %d); its taps' and "
                 "ring's fragments would spill past that",
                 s->r, s->sigma, BLUR_MMA_MAX_R, BLUR_MMA_MAX_R / 3);
    else if (a == A_MMA && (wx < 1 || wx > 8))
        snprintf(why, len, "ly=%d: 1 to 8 warps a group", wx);
    else if (a == A_MMA && (py < 16 || py > 65536 || py % 16))
        snprintf(why, len, "py=%d: a multiple of 16 output rows a warp walks, up to 65536", py);
    else if (a == A_MMA && blk != 0 && (blk < 32 || blk > 255))
        snprintf(why, len, "regs=%d: a register cap from 32 to 255 a work-item, or 0: the compiler's choice",
                 blk);
    else if (a == A_MMA && blk != 0 && !s->nv_options)
        snprintf(why, len,
                 "regs=%d: the register cap is NVIDIA's build option -cl-nv-maxrregcount, and this device "
                 "lacks cl_nv_compiler_options; use regs=0",
                 blk);
    else if (blocks && wx < 0)
        snprintf(why, len, "wg=%d: a work-group size, or 0 for NULL", wx);
    else if (blocks && blk < blk_min())
        snprintf(why, len, "blk=%d: the carries are sized for blocks of %d or more", blk, blk_min());
    else if (blocks && blk > 256)
        snprintf(why, len, "blk=%d: at most 256 (a work-item holds its block in BLK private floats)", blk);
    else
        return false;
    return true;
}

/* NaN in every output pixel: it never passes a check. */
static cg_status blur_poison(cg_ctx *ctx, void *state, void *rs)
{
    blur_state *s = state;
    (void)rs;
    cl_uint nan_bits = 0x7fc00000u;
    return cg_poison_buffer(ctx, s->out_buf, &nan_bits, sizeof nan_bits, s->n * sizeof(float));
}

static cg_status blur_save_output(cg_ctx *ctx, void *state, const char *path)
{
    (void)ctx;
    const blur_state *s = state;
    if (!s->have_saved) {
        CG_ERROR("cannot write %s: no blur rung produced a verified output", path);
        return CG_E_IO;
    }
    return cg_png_write_grey(path, s->saved, s->w, s->h);
}

/* The recursive filters' kernels are in blur_rec.cl (the block rungs' in blur_blk.cl), the convolutions' in
 * blur.cl. */
static const char *blur_rung_cl_file(const cg_rung *r)
{
    switch (r->p[P_ALGO]) {
    case A_RG_H:
    case A_RG_V:
    case A_RG:
    case A_RG_VT:
    case A_RG_HT:
    case A_RG_VT16:
    case A_DR_H:
    case A_DR_V:
    case A_DR:
    case A_DR_VT16:
        return "blur_rec.cl";
    case A_RGB_V:
    case A_RGB_H:
    case A_RGB:
        return "blur_blk.cl";
    case A_MMA:
        return "blur_mma.cl";
    default:
        return NULL;
    }
}
static const char *const blur_more_cl_files[] = {"blur_rec.cl", "blur_blk.cl", "blur_mma.cl", NULL};

const cg_workload cg_workload_blur = {
    .name = "blur",
    .summary = "Gaussian blur (--sigma): 2D, separable, local tiles, fused, recursive (YvV, Deriche)",
    .size_help = "picture WxH (4096x4096) or N for NxN; default 4096x4096 on GPUs, 512x512 elsewhere",
    .cl_file = "blur.cl",
    .rung_cl_file = blur_rung_cl_file,
    .more_cl_files = blur_more_cl_files,
    .takes_images_io = true,
    .rungs = rungs,
    .n_rungs = sizeof rungs / sizeof rungs[0],
    .tune = spaces,
    .n_tune = sizeof spaces / sizeof spaces[0],
    .setup = blur_setup,
    .teardown = blur_teardown,
    .model = blur_model,
    .options = blur_options,
    .prepare = blur_prepare,
    .local_need = blur_local_need,
    .unsupported = blur_unsupported,
    .poison = blur_poison,
    .enqueue = blur_enqueue,
    .verify = blur_verify,
    .release = blur_release,
    .save_output = blur_save_output,
    .estimate = blur_estimate,
    .validate = blur_validate,
    .wopts = wopts,
    .n_wopts = sizeof wopts / sizeof wopts[0],
};
