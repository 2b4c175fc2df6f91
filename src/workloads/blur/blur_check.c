/* The blur ladder's check: which host reference each algorithm is held to, the error bounds that set the
 * tolerance (blur_bound*.c derive the recursive ones; the f16x3 rungs' is here), the truth check of the
 * recursive rungs against the sampled Gaussian, and the verified output kept for --output. */
#include <math.h>
#include <stdio.h>

#include "core/clerr.h"
#include "core/log.h"
#include "workloads/blur/blur.h"
#include "workloads/blur/blur_ref.h"

/* The references each algorithm is checked against: the same algorithm on the host, and for the recursive
 * ones the sampled Gaussian it approximates. */
static const struct {
    int exact, truth;
    double truth_tol; /* x the largest input; 0: BLUR_TOL_TRUTH */
} algo_refs[] = {
    [A_CONV2D] = {REF_CONV, -1},
    [A_SEP] = {REF_CONV, -1},
    [A_SEP_LOCAL] = {REF_CONV, -1},
    [A_RG_H] = {REF_RG_H, REF_GAUSS_H},
    [A_RG_V] = {REF_RG_V, REF_GAUSS_V},
    [A_RG] = {REF_RG, REF_GAUSS},
    [A_RG_VT] = {REF_RG, REF_GAUSS},
    [A_RG_HT] = {REF_RG, REF_GAUSS},
    [A_FUSED] = {REF_CONV, -1},
    [A_RING] = {REF_CONV, -1},
    [A_CPU] = {REF_CONV, -1},
    [A_MMA] = {REF_CONV, -1},
    [A_RGB_V] = {REF_RG_V, REF_GAUSS_V},
    [A_RGB_H] = {REF_RG_H, REF_GAUSS_H},
    [A_RGB] = {REF_RG, REF_GAUSS},
    [A_DR_H] = {REF_DR_H, REF_GAUSS_H, BLUR_TOL_TRUTH_DR},
    [A_DR_V] = {REF_DR_V, REF_GAUSS_V, BLUR_TOL_TRUTH_DR},
    [A_DR] = {REF_DR, REF_GAUSS, BLUR_TOL_TRUTH_DR},
    [A_DR_VT16] = {REF_DR, REF_GAUSS, BLUR_TOL_TRUTH_DR},
    [A_RG_VT16] = {REF_RG, REF_GAUSS},
};

/* The recursive rungs' bounds (blur_bound.c) for rows only, columns only and both ways (the larger of the
 * two orders: recursive does rows first, recursive-vt columns first); logged with their references. */
void blur_recursive_bounds(blur_state *s)
{
    double sup1, sup2, e1, e2, tail;
    s->bound_rows = blur_yvv_bound(s->c, s->m, s->w, s->range, 0.0, &sup1);
    s->bound_cols = blur_yvv_bound(s->c, s->m, s->h, s->range, 0.0, &sup2);
    e1 = blur_yvv_bound(s->c, s->m, s->h, sup1, s->bound_rows, &tail);
    e2 = blur_yvv_bound(s->c, s->m, s->w, sup2, s->bound_cols, &tail);
    s->bound_both = fmax(e1, e2);
    /* Deriche's bound does not depend on the line's length: one for rows or columns, one for both ways. */
    s->dbound_rows = s->dbound_cols = blur_deriche_bound(s->dk, s->range, 0.0, &sup1);
    s->dbound_both = blur_deriche_bound(s->dk, sup1, s->dbound_rows, &tail);
}

/* The block rungs' bounds for blocks of blk (blur_bound_blk.c), computed at their first check: rows only,
 * columns only, and rows then columns (the order of recursive-blocks). */
static void block_bounds(blur_state *s, int blk)
{
    double sup, tail;
    if (s->bound_blk == blk) return;
    s->bound_blk = blk;
    s->bound_rows_blk = blur_yvv_block_bound(s->c, s->m, s->w, (size_t)blk, s->range, 0.0, &sup);
    s->bound_cols_blk = blur_yvv_block_bound(s->c, s->m, s->h, (size_t)blk, s->range, 0.0, &tail);
    s->bound_both_blk = blur_yvv_block_bound(s->c, s->m, s->h, (size_t)blk, sup, s->bound_rows_blk, &tail);
    CG_INFO(
        "blur: block rungs' error bound (blocks of %d, sigma %g): %.3g rows, %.3g columns, %.3g both ways",
        blk, s->sigma, s->bound_rows_blk, s->bound_cols_blk, s->bound_both_blk);
}

static uint8_t to_grey(float v)
{
    return (uint8_t)lrintf((v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v) * 255.0f);
}

/* f16x3-sep's bound relative to the output, for radius r (inputs and taps are never negative). Each pass as
 * convolution's mma_bound counts an f16x3 product (docs/workloads/convolution.md, section 14): the split's
 * 32u (lo x lo dropped below 2^-20, each lo rounded to 2^-21 of its value), 2u for the small products'
 * rounding and the final fma, and 8u for each m16n8k16 (16 products into the running sum: two of the 4u
 * 8-product steps), NCH = 1 + 2 ceil(r / 16) of them an output. The column pass filters the row pass's H,
 * which is within b of the true one: b + b (1 + b) in all; u more for the float reference. */
static double blur_mma_bound(int r)
{
    double u = CG_FLOAT_U, b = 34.0 * u + 8.0 * u * (1.0 + 2.0 * ((r + 15) / 16));
    return b + b * (1.0 + b) + u;
}

/* Against the same algorithm on the host, computed in double, within an error bound (docs/workloads/blur.md):
 * the convolutions Higham's gamma_k times |output| (inputs and weights are never negative, so |output| is the
 * sum of |terms|) with k = 2T+1 for two passes of T taps, T^2+2 for the 2D rung (whose weights float(g[j]
 * g[i]) add one rounding), the +1 for rounding the reference to float; zero under --check exact. The
 * recursive rungs get blur_bound.c's bound, the block ones blur_bound_blk.c's, the Deriche ones
 * blur_bound_dr.c's, f16x3-sep blur_mma_bound's. A recursive rung must also be within BLUR_TOL_TRUTH
 * (Deriche's: BLUR_TOL_TRUTH_DR) x (largest input) of the sampled Gaussian it approximates at every pixel,
 * borders included. */
static void check_rung(const blur_state *s, int a, cg_check *c)
{
    double t = 2.0 * s->r + 1.0;
    const float *want = s->ref[algo_refs[a].exact];
    if (algo_refs[a].truth >= 0) {
        double b = a == A_RG_H                   ? s->bound_rows
                   : a == A_RG_V                 ? s->bound_cols
                   : a == A_DR_H                 ? s->dbound_rows
                   : a == A_DR_V                 ? s->dbound_cols
                   : a == A_DR || a == A_DR_VT16 ? s->dbound_both
                   : a == A_RGB_H                ? s->bound_rows_blk
                   : a == A_RGB_V                ? s->bound_cols_blk
                   : a == A_RGB                  ? s->bound_both_blk
                                                 : s->bound_both;
        cg_check_bound(c, s->got, want, NULL, s->n, CG_FLOAT_U, b);
    } else if (s->exact)
        cg_check_bound(c, s->got, want, NULL, s->n, 0.0, 0.0);
    else if (a ==
             A_MMA) /* the floor: lo pieces below fp16's normal range, within 2^-50 of a value, each pass */
        cg_check_bound(c, s->got, want, NULL, s->n, blur_mma_bound(s->r), ldexp(1.0, -49) * (1.0 + t));
    else
        cg_check_bound(c, s->got, want, NULL, s->n, cg_gamma(a == A_CONV2D ? t * t + 2 : 2 * t + 1), 0.0);
}

cg_status blur_verify(cg_ctx *ctx, void *state, void *rs, cg_check *c)
{
    cg_status st = CG_OK;
    blur_state *s = state;
    int a = blur_rung_algo(rs);
    int truth = algo_refs[a].truth;
    if (blur_rung_blk(rs) > 0) block_bounds(s, blur_rung_blk(rs));
    if ((st = blur_need_refs(s, algo_refs[a].exact, truth)) != CG_OK) return st;
    CG_TRY(
        clEnqueueReadBuffer(ctx->queue, s->out_buf, CL_TRUE, 0, s->n * sizeof(float), s->got, 0, NULL, NULL));
    check_rung(s, a, c);
    cg_check_locate_2d(c, s->w);
    double e = c->ok && truth >= 0 ? blur_max_diff(s->got, s->ref[truth], s->w, s->h, 0) : 0.0;
    double tol = (algo_refs[a].truth_tol > 0.0 ? algo_refs[a].truth_tol : BLUR_TOL_TRUTH) * s->range;
    if (!(e <= tol)) {
        c->ok = false;
        snprintf(c->detail, sizeof c->detail,
                 "matches the recursive reference, but differs from the true Gaussian by %.3g (> %g)", e,
                 tol);
    }
    if (c->ok) {
        for (size_t i = 0; i < s->n; i++)
            s->saved[i] = to_grey((float)(s->got[i] / s->range));
        s->have_saved = true;
    }
out:
    return st;
}
