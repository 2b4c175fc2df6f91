/* Verification against the CPU reference: counts mismatches, the largest errors and the first bad element. */
#include "core/check.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static void begin(cg_check *c, size_t n, double tol)
{
    memset(c, 0, sizeof *c);
    c->checked = n;
    c->tolerance = tol;
    c->first_index = -1;
}

static void mismatch(cg_check *c, size_t i, double got, double want)
{
    if (c->mismatches++ == 0) {
        c->first_index = (long long)i;
        c->first_got = got;
        c->first_want = want;
    }
}

static void finish(cg_check *c)
{
    c->ok = c->mismatches == 0;
    if (!c->ok)
        snprintf(c->detail, sizeof c->detail,
                 "%zu of %zu elements wrong; first: element %lld got %.9g, want %.9g", c->mismatches,
                 c->checked, c->first_index, c->first_got, c->first_want);
}

void cg_check_float(cg_check *c, const float *got, const float *want, size_t n, double abs_tol,
                    double rel_tol)
{
    begin(c, n, abs_tol);
    for (size_t i = 0; i < n; i++) {
        double g = got[i], w = want[i];
        double err = isfinite(g) ? fabs(g - w) : INFINITY;
        double rel = err / fmax(fabs(w), 1e-30);
        if (err > c->max_abs_err) c->max_abs_err = err;
        if (rel > c->max_rel_err) c->max_rel_err = rel;
        if (!(err <= abs_tol + rel_tol * fabs(w))) mismatch(c, i, g, w);
    }
    finish(c);
}

double cg_gamma(double k)
{
    double ku = k * CG_FLOAT_U;
    return ku < 1 ? ku / (1 - ku) : INFINITY;
}

void cg_check_bound(cg_check *c, const float *got, const float *want, const float *absum, size_t n,
                    double scale, double floor)
{
    begin(c, n, 0);
    for (size_t i = 0; i < n; i++) {
        double g = got[i], w = want[i];
        double err = isfinite(g) ? fabs(g - w) : INFINITY;
        double bound = scale * fabs(absum ? (double)absum[i] : w) + floor;
        double ratio = err == 0 ? 0 : err / bound; /* bound 0: any error is infinitely over */
        if (err > c->max_abs_err) c->max_abs_err = err;
        if (err / fmax(fabs(w), 1e-30) > c->max_rel_err) c->max_rel_err = err / fmax(fabs(w), 1e-30);
        if (bound > c->tolerance) c->tolerance = bound;
        if (ratio > c->bound_ratio) c->bound_ratio = ratio;
        if (!(err <= bound)) mismatch(c, i, g, w);
    }
    finish(c);
}

#define CG_CHECK_EXACT(c, got, want, n)                                                                      \
    do {                                                                                                     \
        begin(c, n, 0);                                                                                      \
        for (size_t i = 0; i < (n); i++) {                                                                   \
            double err = fabs((double)(got)[i] - (double)(want)[i]);                                         \
            if (err > (c)->max_abs_err) (c)->max_abs_err = err;                                              \
            if ((got)[i] != (want)[i]) mismatch(c, i, (got)[i], (want)[i]);                                  \
        }                                                                                                    \
        if ((c)->max_abs_err > 0) (c)->max_rel_err = 1;                                                      \
        finish(c);                                                                                           \
    } while (0)

void cg_check_u8(cg_check *c, const uint8_t *got, const uint8_t *want, size_t n)
{
    CG_CHECK_EXACT(c, got, want, n);
}

void cg_check_u32(cg_check *c, const uint32_t *got, const uint32_t *want, size_t n)
{
    CG_CHECK_EXACT(c, got, want, n);
}

void cg_check_scalar(cg_check *c, double got, double want, double abs_tol)
{
    begin(c, 1, abs_tol);
    double err = isfinite(got) ? fabs(got - want) : INFINITY;
    c->max_abs_err = err;
    c->max_rel_err = err / fmax(fabs(want), 1e-30);
    if (abs_tol > 0) c->bound_ratio = err / abs_tol;
    if (!(err <= abs_tol)) mismatch(c, 0, got, want);
    finish(c);
    if (!c->ok)
        snprintf(c->detail, sizeof c->detail, "got %.9g, want %.9g (error %.3g > tolerance %.3g)", got, want,
                 err, abs_tol);
}

void cg_check_locate_2d(cg_check *c, size_t width)
{
    if (c->ok || c->first_index < 0 || width == 0) return;
    size_t i = (size_t)c->first_index;
    snprintf(c->detail, sizeof c->detail,
             "%zu of %zu pixels wrong; first: (x=%zu, y=%zu) got %.9g, want %.9g", c->mismatches, c->checked,
             i % width, i / width, c->first_got, c->first_want);
}
