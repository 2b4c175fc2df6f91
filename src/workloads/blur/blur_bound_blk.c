/* The block rungs' host arithmetic (Nehab, Maximo, Lima, Hoppe 2011): the 3x3 carry maps M and F of a block,
 * and the error bound of the block algorithm against the double reference of the whole-line filter. In exact
 * arithmetic the block algorithm is the line filter (by linearity: a block's state leaving it is M times the
 * state entering it plus its zero-state result), so the reference and the truth check stay those of the
 * recursive rungs; only the roundings differ. The bound is derived as blur_bound.c's: each rounding of the
 * block algorithm is bounded, and how far it travels to an output is measured by running the block algorithm
 * itself in double on a unit error at each place (rounding sites: both zero-state passes of pass 1, the
 * carries of pass 2 with the float rounding of M and F, the Triggs-Sdika start, both passes of pass 3). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "core/check.h"
#include "workloads/blur/blur_ref.h"

/* As blur_bound.c's NORM_MAX_LINE; a longer line is cut to the length at or below this with the same length
 * modulo the block, so that its last block is as short as the real one. */
#define NORM_MAX_LINE 1024
#define NONE          SIZE_MAX

/* Where a unit error is put: the input; pass 1's causal and anti-causal values; pass 2's causal states
 * s[k+1], the anti-causal start, the anti-causal states t[k-1]; pass 3's causal and anti-causal values. */
enum { K_INPUT, K_P1C, K_P1A, K_CS, K_START, K_AS, K_P3C, K_P3A, K_KINDS };

typedef struct sim {
    size_t n, blk, nb;
    double c[4], m[9], M[9], Ml[9], F[9], Fl[9];
    double *x, *u, *z, *a, *s, *t; /* x, u: n; z, a, s, t: 3 per block */
} sim;

static void causal(const double *c, const double *x, double *u, size_t i0, size_t L, double *p, size_t hit)
{
    for (size_t i = i0; i < i0 + L; i++) {
        double v = c[0] * x[i] + c[1] * p[0] + c[2] * p[1] + c[3] * p[2] + (i == hit ? 1.0 : 0.0);
        u[i] = v;
        p[2] = p[1];
        p[1] = p[0];
        p[0] = v;
    }
}

static void anti(const double *c, double *u, size_t i0, size_t L, double *p, size_t hit)
{
    for (size_t i = i0 + L; i-- > i0;) {
        double v = c[0] * u[i] + c[1] * p[0] + c[2] * p[1] + c[3] * p[2] + (i == hit ? 1.0 : 0.0);
        u[i] = v;
        p[2] = p[1];
        p[1] = p[0];
        p[0] = v;
    }
}

/* r = A v + B w + y (B, w may be NULL) */
static void affine(const double *A, const double *v, const double *B, const double *w, const double *y,
                   double *r)
{
    for (int j = 0; j < 3; j++) {
        r[j] = A[3 * j] * v[0] + A[3 * j + 1] * v[1] + A[3 * j + 2] * v[2] + y[j];
        if (B) r[j] += B[3 * j] * w[0] + B[3 * j + 1] * w[1] + B[3 * j + 2] * w[2];
    }
}

void blur_yvv_block_maps(const float cf[4], int L, double M[9], double F[9])
{
    double c[4] = {cf[0], cf[1], cf[2], cf[3]}, *u = malloc((size_t)L * sizeof *u);
    for (int col = 0; col < 3; col++) {
        double p[3] = {0.0, 0.0, 0.0}, q[3] = {0.0, 0.0, 0.0};
        p[col] = 1.0;
        for (int i = 0; i < L; i++) { /* the causal pass over zeros: M's column, and F's input */
            double v = c[1] * p[0] + c[2] * p[1] + c[3] * p[2];
            if (u) u[i] = v;
            p[2] = p[1];
            p[1] = p[0];
            p[0] = v;
        }
        if (u) anti(c, u, 0, (size_t)L, q, NONE);
        for (int j = 0; j < 3; j++) {
            M[3 * j + col] = p[j];
            F[3 * j + col] = u ? q[j] : NAN; /* out of memory: NaN carries, every pixel fails */
        }
    }
    free(u);
}

/* One line through the block algorithm in double: zero input but for a unit error of the given kind at
 * idx (a sample; for K_CS and K_AS 3 k + j: slot j of the state leaving block k; for K_START slot j). */
static void run(sim *b, int kind, size_t idx, double *out)
{
    size_t n = b->n, nb = b->nb, hit = kind == K_CS || kind == K_AS || kind == K_START ? NONE : idx;
    for (size_t i = 0; i < n; i++)
        b->x[i] = kind == K_INPUT && i == idx ? 1.0 : 0.0;
    for (size_t k = 0; k < nb; k++) { /* pass 1: zero-state carries (all zero but in the hit's block) */
        size_t i0 = k * b->blk, L = k + 1 < nb ? b->blk : n - i0;
        double *z = b->z + 3 * k, *a = b->a + 3 * k;
        z[0] = z[1] = z[2] = a[0] = a[1] = a[2] = 0.0;
        if (kind == K_INPUT || ((kind == K_P1C || kind == K_P1A) && idx / b->blk == k)) {
            causal(b->c, b->x, b->u, i0, L, z, kind == K_P1C ? hit : NONE);
            anti(b->c, b->u, i0, L, a, kind == K_P1A ? hit : NONE);
        }
    }
    double s[3] = {b->x[0], b->x[0], b->x[0]}, t[3], e = b->x[n - 1], r[3];
    for (size_t k = 0; k < nb; k++) { /* pass 2 */
        for (int j = 0; j < 3; j++)
            b->s[3 * k + j] = s[j];
        affine(k + 1 < nb ? b->M : b->Ml, s, NULL, NULL, b->z + 3 * k, r);
        for (int j = 0; j < 3; j++)
            s[j] = r[j] + (kind == K_CS && idx == 3 * k + (size_t)j ? 1.0 : 0.0);
    }
    for (int j = 0; j < 3; j++)
        t[j] = e + b->m[3 * j] * (s[0] - e) + b->m[3 * j + 1] * (s[1] - e) + b->m[3 * j + 2] * (s[2] - e) +
               (kind == K_START && idx == (size_t)j ? 1.0 : 0.0);
    for (size_t k = nb; k-- > 0;) {
        for (int j = 0; j < 3; j++)
            b->t[3 * k + j] = t[j];
        bool last = k + 1 == nb;
        affine(last ? b->Ml : b->M, t, last ? b->Fl : b->F, b->s + 3 * k, b->a + 3 * k, r);
        for (int j = 0; j < 3; j++)
            t[j] = r[j] + (kind == K_AS && idx == 3 * k + (size_t)j ? 1.0 : 0.0);
    }
    for (size_t k = 0; k < nb; k++) { /* pass 3 */
        size_t i0 = k * b->blk, L = k + 1 < nb ? b->blk : n - i0;
        causal(b->c, b->x, out, i0, L, b->s + 3 * k, kind == K_P3C ? hit : NONE);
        anti(b->c, out, i0, L, b->t + 3 * k, kind == K_P3A ? hit : NONE);
    }
}

/* norm[kind] = max over outputs of the sum over the kind's places of |response| (row: scratch, n). */
static void norms(sim *b, double *out, double *row, double norm[K_KINDS])
{
    for (int kind = 0; kind < K_KINDS; kind++) {
        size_t from = kind == K_AS ? 3 : 0, count = kind == K_START                ? 3
                                                    : kind == K_CS || kind == K_AS ? 3 * b->nb
                                                                                   : b->n;
        for (size_t k = 0; k < b->n; k++)
            row[k] = 0.0;
        for (size_t i = from; i < count; i++) {
            run(b, kind, i, out);
            for (size_t k = 0; k < b->n; k++)
                row[k] += fabs(out[k]);
        }
        norm[kind] = 0.0;
        for (size_t k = 0; k < b->n; k++)
            norm[kind] = fmax(norm[kind], row[k]);
    }
}

/* The largest row sum of |A| over columns from..2, and (sum) the largest |row sum| of A. */
static double rowsum(const double *A, int from, double *sum)
{
    double r = 0.0;
    *sum = 0.0;
    for (int j = 0; j < 3; j++) {
        double a = 0.0;
        for (int i = from; i < 3; i++)
            a += fabs(A[3 * j + i]);
        r = fmax(r, a);
        *sum = fmax(*sum, fabs(A[3 * j] + A[3 * j + 1] + A[3 * j + 2]));
    }
    return r;
}

/* Each rounding of the block algorithm as in blur_yvv_bound (gamma_k x the sum of |terms| of its k-term sum,
 * any order, FMA or not), with these sups: x the input, C = |B| h1 x every causal value (the zero-state ones
 * of pass 1 too: the causal filter of an input cut to the block), V = |B| h1 C pass 1's anti-causal values
 * (the anti-causal filter of those), D = max(|output| of the line, V) the true anti-causal values and
 * states. Pass 2 computes M v as v.x (M 1) + M (v - v.x) (blur_blk.cl's mat3): s[k+1] = s.x mu + M d + z[k]
 * (4 terms, d = the two differences, each at most 2C and rounded once) and t[k-1] = t.x mu + M d' + a[k] +
 * s.x phi + F d (7 terms); mu = M 1, phi = F 1, M and F are floats within u relative of the double maps.
 * This is the carry's own rounding, on top of the whole-line filter's: the entries of M and F grow with
 * sigma (538 and 112 at sigma 32 for 32-pixel blocks) and cancel on a smooth state, so the bound counts
 * them at their worst (|d| up to 2C) although on a smooth state d is small (and the measured errors are near
 * those of the line filter). An error at one place reaches the outputs through the block algorithm, whose
 * responses norms() measures: the pass-1 and pass-3 roundings of one sample are separate errors with
 * separate paths (the carries, the block itself), so both are counted. The second-order factor is
 * blur_yvv_bound's (the computed values exceed the sups by their own errors, at most 2 gamma_4 a h1 of
 * them relative). */
static double combine(const sim *b, const double norm[K_KINDS], double x, double ein, double *out_sup)
{
    double g4 = cg_gamma(4), g7 = cg_gamma(7), u = CG_FLOAT_U, B = fabs(b->c[0]), mu, mul, phi, phil, rm;
    double a = fabs(b->c[1]) + fabs(b->c[2]) + fabs(b->c[3]), h1 = blur_yvv_feedback_l1(b->c);
    double rM = fmax(rowsum(b->M, 1, &mu), rowsum(b->Ml, 1, &mul)),
           rF = fmax(rowsum(b->F, 1, &phi), rowsum(b->Fl, 1, &phil));
    double rs = rowsum(b->m, 0, &rm);
    mu = fmax(mu, mul);
    phi = fmax(phi, phil);
    double C = B * h1 * x, V = B * h1 * C, D = fmax(norm[K_INPUT] * x, V);
    double dc = g4 * (B * x + a * C), d1a = g4 * (B * C + a * V), da = g4 * (B * C + a * D);
    double dcs = g4 * (mu * C + 2.0 * rM * C + C) + u * mu * C + 4.0 * u * rM * C;
    double ds = g4 * (x + rs * (C + x)) + rs * u * (C + x);
    double das = g7 * (mu * D + 2.0 * rM * D + V + phi * C + 2.0 * rF * C) + u * (mu * D + phi * C) +
                 4.0 * u * (rM * D + rF * C);
    double second = 2.0 * g4 * a * h1;
    *out_sup = norm[K_INPUT] * x;
    if (!(second < 0.5)) return INFINITY;
    return (dc * (norm[K_P1C] + norm[K_P3C]) + d1a * norm[K_P1A] + da * norm[K_P3A] + dcs * norm[K_CS] +
            ds * norm[K_START] + das * norm[K_AS] + norm[K_INPUT] * ein) /
           (1.0 - second);
}

double blur_yvv_block_bound(const float cf[4], const float mf[9], size_t n, size_t blk, double x, double ein,
                            double *out_sup)
{
    sim b = {.blk = blk};
    if (n > NORM_MAX_LINE) n -= (n - NORM_MAX_LINE + blk - 1) / blk * blk;
    b.n = n;
    b.nb = (n + blk - 1) / blk;
    for (int k = 0; k < 4; k++)
        b.c[k] = cf[k];
    for (int k = 0; k < 9; k++)
        b.m[k] = mf[k];
    blur_yvv_block_maps(cf, (int)blk, b.M, b.F);
    blur_yvv_block_maps(cf, (int)(n - (b.nb - 1) * blk), b.Ml, b.Fl);
    b.x = malloc(n * sizeof *b.x);
    b.u = malloc(n * sizeof *b.u);
    b.z = malloc(12 * b.nb * sizeof *b.z);
    double *out = malloc(n * sizeof *out), *row = malloc(n * sizeof *row), norm[K_KINDS], bound = INFINITY;
    *out_sup = INFINITY; /* out of memory: no bound, every element fails loudly rather than passing */
    if (b.x && b.u && b.z && out && row) {
        b.a = b.z + 3 * b.nb;
        b.s = b.a + 3 * b.nb;
        b.t = b.s + 3 * b.nb;
        norms(&b, out, row, norm);
        bound = combine(&b, norm, x, ein, out_sup);
    }
    free(b.x);
    free(b.u);
    free(b.z);
    free(out);
    free(row);
    return bound;
}
