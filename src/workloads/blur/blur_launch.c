/* The launches of each blur rung, as data: an algorithm is a plan of up to six steps (kernel, source and
 * destination buffer, whether the picture is transposed at that step, the launch shape, the extra argument);
 * prepare turns the rung's plan into kernels with their arguments set, enqueue replays them. */
#include <stdlib.h>
#include "core/clerr.h"
#include "core/log.h"
#include "workloads/blur/blur.h"
#include "workloads/blur/blur_ref.h"

enum { B_IN, B_OUT, B_TMP, B_TMP2 };
/* S_BLOCKS_H, S_BLOCKS_W: a work-item per (row, block of P_BLK pixels), per (column, block); S_TILES_H (the
 * rows' S_BLOCKS_H steps of a rung built with -DTILES): 32 x (wg/32) groups, 32 rows and wg/32 blocks each */
/* S_FIXL_H, S_FIXL_W (the fix-ups of a rung built with -DFIXL): 32 x WGY groups, 32 rows (columns) each */
/* S_WHOLE_H (the rows' pass of a rung built with -DWHOLE): a WGX x 1 group a row */
/* S_TRANSPOSE: 32x8 groups over 32x32 tiles; S_TRANSPOSE16: the guide's 16x16 groups, one pixel each */
typedef enum {
    S_PIXEL,
    S_FUSED,
    S_RING,
    S_CPU,
    S_MMA,
    S_LINE_H,
    S_LINE_W,
    S_TRANSPOSE,
    S_TRANSPOSE16,
    S_BLOCKS_H,
    S_BLOCKS_W,
    S_TILES_H,
    S_FIXL_H,
    S_FIXL_W,
    S_WHOLE_H
} shape;
/* X_BLK_ROWS, X_BLK_COLS: c, m, the carries and the block maps of lines of w (rows) or h (columns) pixels;
 * X_D: Deriche's coefficients (a float16) */
typedef enum { X_NONE, X_G, X_G2, X_C, X_BLK_ROWS, X_BLK_COLS, X_D } extra_arg;

typedef struct step {
    const char *kernel;
    int src, dst;
    int swap; /* 1: this step works on the transposed picture (h x w) */
    shape shape;
    extra_arg extra;
    /* the step's kernel in a rung built with -DTILES (its shape then S_TILES_H); NULL: none */
    const char *tiled;
    /* the step's kernel in a rung built with -DFIXL (a fix-up; its shape then S_FIXL_H or S_FIXL_W) */
    const char *fixl;
    /* the step's kernel in a rung built with -DWHOLE (its shape then S_WHOLE_H); "": the step is dropped
     * there (the rows' fix-up and pass 3, done by the whole-row kernel) */
    const char *whole;
    /* its part in a rung built with -DCOLC: C_MAKE (the rows' pass 3, which then also makes the columns'
     * carries, into its argument 11), C_DROP (the columns' pass 1: dropped), C_USE (the columns' fix-up and
     * pass 3: their carries from there) */
    int colc;
} step;
enum { C_NONE, C_MAKE, C_DROP, C_USE };

#define MAX_STEPS 6
/* clang-format off */
static const step plans[A_COUNT][MAX_STEPS] = {
    [A_CONV2D] = {{"blur_conv2d", B_IN, B_OUT, 0, S_PIXEL, X_G2}},
    [A_SEP] = {{"blur_rows", B_IN, B_TMP, 0, S_PIXEL, X_G}, {"blur_cols", B_TMP, B_OUT, 0, S_PIXEL, X_G}},
    [A_SEP_LOCAL] = {{"blur_rows_local", B_IN, B_TMP, 0, S_PIXEL, X_G},
                     {"blur_cols_local", B_TMP, B_OUT, 0, S_PIXEL, X_G}},
    [A_RG_H] = {{"blur_rg_rows", B_IN, B_OUT, 0, S_LINE_H, X_C}},
    [A_RG_V] = {{"blur_rg_cols", B_IN, B_OUT, 0, S_LINE_W, X_C}},
    [A_RG] = {{"blur_rg_rows", B_IN, B_TMP, 0, S_LINE_H, X_C}, {"blur_rg_cols", B_TMP, B_OUT, 0, S_LINE_W, X_C}},
    [A_RG_VT] = {{"blur_rg_cols", B_IN, B_TMP, 0, S_LINE_W, X_C},
                 {"blur_transpose", B_TMP, B_TMP2, 0, S_TRANSPOSE, X_NONE},
                 {"blur_rg_cols", B_TMP2, B_TMP, 1, S_LINE_W, X_C},
                 {"blur_transpose", B_TMP, B_OUT, 1, S_TRANSPOSE, X_NONE}},
    [A_RG_HT] = {{"blur_rg_rows", B_IN, B_TMP, 0, S_LINE_H, X_C},
                 {"blur_transpose", B_TMP, B_TMP2, 0, S_TRANSPOSE, X_NONE},
                 {"blur_rg_rows", B_TMP2, B_TMP, 1, S_LINE_H, X_C},
                 {"blur_transpose", B_TMP, B_OUT, 1, S_TRANSPOSE, X_NONE}},
    [A_FUSED] = {{"blur_fused", B_IN, B_OUT, 0, S_FUSED, X_G}},
    [A_RING] = {{"blur_ring", B_IN, B_OUT, 0, S_RING, X_G}},
    [A_CPU] = {{"blur_cpu_ring", B_IN, B_OUT, 0, S_CPU, X_G}},
    [A_MMA] = {{"blur_mma", B_IN, B_OUT, 0, S_MMA, X_G}},
    [A_RGB_V] = {{"blur_rgb_cols_carry", B_IN, B_OUT, 0, S_BLOCKS_W, X_BLK_COLS},
                 {"blur_rgb_cols_fix", B_IN, B_OUT, 0, S_LINE_W, X_BLK_COLS, NULL, "blur_rgb_cols_fix_l"},
                 {"blur_rgb_cols_out", B_IN, B_OUT, 0, S_BLOCKS_W, X_BLK_COLS}},
    [A_RGB_H] = {{"blur_rgb_rows_carry", B_IN, B_OUT, 0, S_BLOCKS_H, X_BLK_ROWS, "blur_rgb_rows_carry_t",
                  NULL, "blur_rgb_rows_whole"},
                 {"blur_rgb_rows_fix", B_IN, B_OUT, 0, S_LINE_H, X_BLK_ROWS, NULL, "blur_rgb_rows_fix_l", ""},
                 {"blur_rgb_rows_out", B_IN, B_OUT, 0, S_BLOCKS_H, X_BLK_ROWS, "blur_rgb_rows_out_t", NULL, ""}},
    [A_RGB] = {{"blur_rgb_rows_carry", B_IN, B_TMP, 0, S_BLOCKS_H, X_BLK_ROWS, "blur_rgb_rows_carry_t", NULL,
                "blur_rgb_rows_whole"},
               {"blur_rgb_rows_fix", B_IN, B_TMP, 0, S_LINE_H, X_BLK_ROWS, NULL, "blur_rgb_rows_fix_l", ""},
               {"blur_rgb_rows_out", B_IN, B_TMP, 0, S_BLOCKS_H, X_BLK_ROWS, "blur_rgb_rows_out_t", NULL, "",
                C_MAKE},
               {"blur_rgb_cols_carry", B_TMP, B_OUT, 0, S_BLOCKS_W, X_BLK_COLS, NULL, NULL, NULL, C_DROP},
               {"blur_rgb_cols_fix", B_TMP, B_OUT, 0, S_LINE_W, X_BLK_COLS, NULL, "blur_rgb_cols_fix_l", NULL,
                C_USE},
               {"blur_rgb_cols_out", B_TMP, B_OUT, 0, S_BLOCKS_W, X_BLK_COLS, NULL, NULL, NULL, C_USE}},
    [A_DR_H] = {{"blur_dr_rows", B_IN, B_OUT, 0, S_LINE_H, X_D}},
    [A_DR_V] = {{"blur_dr_cols", B_IN, B_OUT, 0, S_LINE_W, X_D}},
    [A_DR] = {{"blur_dr_rows", B_IN, B_TMP, 0, S_LINE_H, X_D}, {"blur_dr_cols", B_TMP, B_OUT, 0, S_LINE_W, X_D}},
    [A_DR_VT16] = {{"blur_dr_cols", B_IN, B_TMP, 0, S_LINE_W, X_D},
                   {"blur_transpose_ls", B_TMP, B_TMP2, 0, S_TRANSPOSE16, X_NONE},
                   {"blur_dr_cols", B_TMP2, B_TMP, 1, S_LINE_W, X_D},
                   {"blur_transpose_ls", B_TMP, B_OUT, 1, S_TRANSPOSE16, X_NONE}},
    [A_RG_VT16] = {{"blur_rg_cols", B_IN, B_TMP, 0, S_LINE_W, X_C},
                   {"blur_transpose_ls", B_TMP, B_TMP2, 0, S_TRANSPOSE16, X_NONE},
                   {"blur_rg_cols", B_TMP2, B_TMP, 1, S_LINE_W, X_C},
                   {"blur_transpose_ls", B_TMP, B_OUT, 1, S_TRANSPOSE16, X_NONE}},
};
/* clang-format on */

typedef struct launch {
    cl_kernel k;
    const char *stage; /* the JSON's stages_s: the step's kernel name (plans[] outlives every run) */
    cl_uint dims;
    size_t global[2], local[2];
    bool auto_local; /* local size NULL (a block rung's wg 0): the runtime picks */
} launch;

typedef struct blur_rung {
    int algo, blk;
    size_t n;
    launch l[MAX_STEPS];
} blur_rung;

int blur_rung_algo(const void *rs)
{
    return ((const blur_rung *)rs)->algo;
}

int blur_rung_blk(const void *rs)
{
    return ((const blur_rung *)rs)->blk;
}

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

int blur_ring_cx(const blur_state *s, const cg_rung *r)
{
    return r->p[P_WGY] > 0 ? r->p[P_WGY] : s->r > 24 ? 1 : s->cpu ? 4 : 2;
}

int blur_ring_py(const blur_state *s, const cg_rung *r)
{
    return r->p[P_PY] > 0 ? r->p[P_PY] : s->cpu ? 512 : 128;
}

int blur_ring_blk(const blur_state *s, const cg_rung *r)
{
    return r->p[P_BLK] > 0 ? r->p[P_BLK] : s->r <= 64 ? 32 : 8;
}

static void shape_launch(const blur_state *s, const cg_rung *r, shape sh, size_t w, size_t h, launch *l)
{
    size_t wx = (size_t)r->p[P_WGX], wy = (size_t)r->p[P_WGY], py = (size_t)r->p[P_PY];
    l->dims = 2;
    if (sh == S_RING) { /* a WGX x 1 group per WGX*CX columns and PY rows */
        size_t cols = wx * (size_t)blur_ring_cx(s, r), rows = (size_t)blur_ring_py(s, r);
        l->local[0] = wx;
        l->local[1] = 1;
        l->global[0] = (w + cols - 1) / cols * wx;
        l->global[1] = (h + rows - 1) / rows;
    } else if (sh == S_MMA) { /* a 32 x WGX group: WGX warps side by side, 16 columns and PY rows each */
        l->local[0] = 32;
        l->local[1] = wx;
        l->global[0] = (w + 16 * wx - 1) / (16 * wx) * 32;
        l->global[1] = (h + py - 1) / py * wx;
    } else if (sh == S_CPU) { /* a WGX x 1 group of work-items, each 8 columns of a PY-row strip */
        l->local[0] = wx;
        l->local[1] = 1;
        l->global[0] = round_up((w + 7) / 8, wx);
        l->global[1] = (h + py - 1) / py;
    } else if (sh == S_PIXEL || sh == S_FUSED) {
        l->local[0] = wx;
        l->local[1] = wy;
        l->global[0] = round_up(w, wx);
        l->global[1] = sh == S_PIXEL ? round_up(h, wy) : (h + wy * py - 1) / (wy * py) * wy;
    } else if (sh == S_TRANSPOSE) {
        l->local[0] = 32;
        l->local[1] = 8;
        l->global[0] = round_up(w, 32);
        l->global[1] = (h + 31) / 32 * 8;
    } else if (sh == S_TRANSPOSE16) {
        l->local[0] = l->local[1] = 16;
        l->global[0] = round_up(w, 16);
        l->global[1] = round_up(h, 16);
    } else if (sh == S_TILES_H) {
        size_t blk = (size_t)r->p[P_BLK], tg = wx / 32;
        l->local[0] = 32;
        l->local[1] = tg;
        l->global[0] = round_up(h, 32);
        l->global[1] = round_up((w + blk - 1) / blk, tg);
    } else if (sh == S_WHOLE_H) {
        l->local[0] = wx;
        l->local[1] = 1;
        l->global[0] = wx;
        l->global[1] = h;
    } else if (sh == S_FIXL_H || sh == S_FIXL_W) {
        l->local[0] = 32;
        l->local[1] = wy;
        l->global[0] = round_up(sh == S_FIXL_H ? h : w, 32);
        l->global[1] = wy;
    } else if (sh == S_BLOCKS_H || sh == S_BLOCKS_W) {
        size_t blk = (size_t)r->p[P_BLK], lines = sh == S_BLOCKS_H ? h : w, len = sh == S_BLOCKS_H ? w : h;
        l->auto_local = wx == 0;
        l->local[0] = wx;
        l->local[1] = 1;
        l->global[0] = wx ? round_up(lines, wx) : lines;
        l->global[1] = (len + blk - 1) / blk;
    } else {
        size_t lines = sh == S_LINE_H ? h : w;
        l->dims = 1;
        l->auto_local = wx == 0;
        l->local[0] = wx;
        l->global[0] = wx ? round_up(lines, wx) : lines;
    }
}

/* The block rungs' arguments 6 to 10: the carries, then M and F (blur_yvv_block_maps) of a full block and
 * of the last one, for lines of n pixels cut into blocks of blk. */
static cg_status set_block_maps(cl_kernel k, const blur_state *s, size_t n, size_t blk, cl_mem carry)
{
    cg_status st = CG_OK;
    double mf[2][9], ff[2][9];
    cl_float16 a[4] = {{{0}}};
    blur_yvv_block_maps(s->c, (int)blk, mf[0], ff[0]);
    blur_yvv_block_maps(s->c, (int)(n - (n - 1) / blk * blk), mf[1], ff[1]);
    for (int i = 0; i < 9; i++) {
        a[0].s[i] = (float)mf[0][i];
        a[1].s[i] = (float)mf[1][i];
        a[2].s[i] = (float)ff[0][i];
        a[3].s[i] = (float)ff[1][i];
    }
    for (int j = 0; j < 3; j++) { /* the row sums, in s9..sb */
        a[0].s[9 + j] = (float)(mf[0][3 * j] + mf[0][3 * j + 1] + mf[0][3 * j + 2]);
        a[1].s[9 + j] = (float)(mf[1][3 * j] + mf[1][3 * j + 1] + mf[1][3 * j + 2]);
        a[2].s[9 + j] = (float)(ff[0][3 * j] + ff[0][3 * j + 1] + ff[0][3 * j + 2]);
        a[3].s[9 + j] = (float)(ff[1][3 * j] + ff[1][3 * j + 1] + ff[1][3 * j + 2]);
    }
    CG_TRY(clSetKernelArg(k, 6, sizeof(cl_mem), &carry));
    for (cl_uint i = 0; i < 4; i++)
        CG_TRY(clSetKernelArg(k, 7 + i, sizeof a[i], &a[i]));
out:
    return st;
}

static cg_status set_step(cl_kernel k, const blur_state *s, const step *p, const cl_mem *bufs, size_t blk,
                          bool colc)
{
    cg_status st = CG_OK;
    cl_int w = (cl_int)(p->swap ? s->h : s->w), h = (cl_int)(p->swap ? s->w : s->h);
    cl_float4 c = {{s->c[0], s->c[1], s->c[2], s->c[3]}};
    cl_float16 m = {{0}};
    for (int i = 0; i < 9; i++)
        m.s[i] = s->m[i];
    CG_TRY(clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[p->src]));
    CG_TRY(clSetKernelArg(k, 1, sizeof(cl_mem), &bufs[p->dst]));
    CG_TRY(clSetKernelArg(k, 2, sizeof w, &w));
    CG_TRY(clSetKernelArg(k, 3, sizeof h, &h));
    if (p->extra == X_G || p->extra == X_G2)
        CG_TRY(clSetKernelArg(k, 4, sizeof(cl_mem), p->extra == X_G ? &s->g_buf : &s->g2_buf));
    else if (p->extra == X_D) {
        cl_float16 dk;
        for (int i = 0; i < 16; i++)
            dk.s[i] = s->dk[i];
        CG_TRY(clSetKernelArg(k, 4, sizeof dk, &dk));
    } else if (p->extra != X_NONE) {
        CG_TRY(clSetKernelArg(k, 4, sizeof c, &c));
        CG_TRY(clSetKernelArg(k, 5, sizeof m, &m));
    }
    if (p->extra == X_BLK_ROWS || p->extra == X_BLK_COLS)
        st = set_block_maps(k, s, p->extra == X_BLK_ROWS ? (size_t)w : (size_t)h, blk,
                            colc && p->colc == C_USE ? s->carry2_buf : s->carry_buf);
    if (st == CG_OK && colc && p->colc == C_MAKE)
        CG_TRY(clSetKernelArg(k, 11, sizeof(cl_mem), &s->carry2_buf));
out:
    return st;
}

size_t blur_local_need(const void *state, const cg_rung *r)
{
    const blur_state *s = state;
    int a = r->p[P_ALGO];
    if (r->p[P_WGX] < 0 || r->p[P_WGY] < 0 || r->p[P_PY] < 0) return 0; /* blur_unsupported refuses them */
    /* in size_t: a tuning candidate's values go up to 10^6 each */
    size_t wx = (size_t)r->p[P_WGX], wy = (size_t)r->p[P_WGY], py = (size_t)r->p[P_PY], rad = (size_t)s->r,
           rows = wy * (wx + 2 * rad) * sizeof(float); /* blur_rows_local's tile */
    bool tiles = cg_rung_has_option(r, "-DTILES"), fixl = cg_rung_has_option(r, "-DFIXL"),
         whole = cg_rung_has_option(r, "-DWHOLE");
    /* the largest of the row kernels' and the fix-ups' needs: separate kernels */
    if (tiles || fixl || whole) {
        size_t t = tiles && r->p[P_BLK] >= 0 ? LOCAL_TILES(wx, (size_t)r->p[P_BLK]) : 0;
        size_t f = fixl && r->p[P_PY] > 0 ? LOCAL_FIXL(r->p[P_PY]) : 0;
        size_t wh = whole && r->p[P_BLK] > 0 ? LOCAL_WHOLE(s->w, (size_t)r->p[P_BLK]) : 0;
        t = f > t ? f : t;
        return wh > t ? wh : t;
    }
    return a == A_FUSED       ? LOCAL_FUSED(wx, wy, py, rad)
           : a == A_RING      ? LOCAL_RING(wx, (size_t)blur_ring_cx(s, r), rad, (size_t)blur_ring_blk(s, r))
           : a == A_SEP_LOCAL ? (LOCAL_SEP(wx, wy, rad) > rows ? LOCAL_SEP(wx, wy, rad) : rows)
                              : 0;
}

void blur_release(void *rs)
{
    blur_rung *q = rs;
    if (!q) return;
    for (size_t i = 0; i < q->n; i++)
        if (q->l[i].k) clReleaseKernel(q->l[i].k);
    free(q);
}

cg_status blur_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs)
{
    cg_status st = CG_OK;
    blur_state *s = state;
    cl_mem bufs[] = {s->in_buf, s->out_buf, s->tmp_buf, s->tmp2_buf};
    blur_rung *q = calloc(1, sizeof *q);
    CG_FAIL_IF(!q, CG_E_RUNTIME, "blur: out of host memory");
    q->algo =
        r->p[P_ALGO]; /* a rung short of local memory never gets here: the runner reports it unsupported */
    /* a block rung's blocks have their own bound: its plan passes the carries (fused-ring's P_BLK is a batch)
     */
    q->blk = plans[q->algo][0].extra == X_BLK_ROWS || plans[q->algo][0].extra == X_BLK_COLS ? r->p[P_BLK] : 0;
    bool tiles = cg_rung_has_option(r, "-DTILES"), fixl = cg_rung_has_option(r, "-DFIXL"),
         whole = cg_rung_has_option(r, "-DWHOLE"), colc = cg_rung_has_option(r, "-DCOLC"),
         v2 = cg_rung_has_option(r, "-DV2");
    if (colc && !s->carry2_buf) /* the columns' carries: 6 floats per column and 32-row block */
        CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, 6 * ((s->h + 31) / 32) * s->w * sizeof(float), NULL,
                   CG_BUF_WRITTEN, &s->carry2_buf);
    for (const step *p = plans[q->algo]; p < plans[q->algo] + MAX_STEPS && p->kernel; p++) {
        /* -DWHOLE: the rows' first step takes the whole-row kernel, their other two are dropped; -DTILES:
         * the steps with a tiled kernel (the rows' block passes 1 and 3) take it; -DFIXL: the fix-ups take
         * their staged kernel; the rest as planned */
        if ((whole && p->whole && !p->whole[0]) || (colc && p->colc == C_DROP)) continue;
        launch *l = &q->l[q->n++];
        bool wh = whole && p->whole, tiled = !wh && tiles && p->tiled, fixed = !wh && fixl && p->fixl;
        const char *kernel = wh ? p->whole : tiled ? p->tiled : fixed ? p->fixl : p->kernel;
        shape sh = wh                     ? S_WHOLE_H
                   : tiled                ? S_TILES_H
                   : !fixed               ? p->shape
                   : p->shape == S_LINE_H ? S_FIXL_H
                                          : S_FIXL_W;
        /* -DV2: the columns' pass 3 (the S_BLOCKS_W step of a -DCOLC plan) takes two columns a work-item */
        size_t lw = (size_t)(p->swap ? s->h : s->w);
        if (v2 && colc && p->colc == C_USE && sh == S_BLOCKS_W) lw = (lw + 1) / 2;
        shape_launch(s, r, sh, lw, p->swap ? s->w : s->h, l);
        CG_TRY_OBJ(l->k, clCreateKernel(prog, kernel, CG_ERRP));
        l->stage = kernel;
        if ((st = set_step(l->k, s, p, bufs, (size_t)r->p[P_BLK], colc)) != CG_OK) goto out;
    }
out:
    if (st != CG_OK) {
        blur_release(q);
        q = NULL;
    }
    *rs = q;
    return st;
}

cg_status blur_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev)
{
    cg_status st = CG_OK;
    (void)state;
    blur_rung *q = rs;
    for (size_t i = 0; i < q->n && st == CG_OK; i++) {
        cg_events_stage(ev, q->l[i].stage);
        st = cg_enqueue_kernel(ctx, ev, q->l[i].k, q->l[i].dims, q->l[i].global,
                               q->l[i].auto_local ? NULL : q->l[i].local);
    }
    return st;
}
