/* Deriche's recursive Gaussian on the host (workloads/blur/blur_ref.c, blur_bound_dr.c): the recursion's
 * impulse response is Deriche's h(x) = (a0 cos(w0 x/s) + a1 sin(w0 x/s)) e^(-b0 |x|/s) + (c0 cos(w1 x/s) + c1
 * sin(w1 x/s)) e^(-b1 |x|/s) up to a constant, on both sides (the causal and anti-causal parts summed, the
 * centre once); a constant line stays constant (DC gain 1); the steady-state starts make a line's filter
 * that of the line extended by its edge samples (clamp-to-edge); the bound is finite over the sigma range. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "core/rng.h"
#include "workloads/blur/blur_ref.h"

static const double sigmas[] = {0.5, 2.0, 5.0, 10.0, 32.0};
#define N_SIGMAS (sizeof sigmas / sizeof sigmas[0])

static double deriche_h(double x, double s)
{
    x = fabs(x) / s;
    return (1.68 * cos(0.6318 * x) + 3.735 * sin(0.6318 * x)) * exp(-1.783 * x) +
           (-0.6803 * cos(1.997 * x) - 0.2598 * sin(1.997 * x)) * exp(-1.723 * x);
}

static double *filter_line(const double *in, size_t n, const float k[16])
{
    double *out = malloc(n * sizeof *out);
    assert_non_null(out);
    blur_ref_deriche(in, out, n, 1, k, 0);
    return out;
}

/* The response to a unit impulse in the middle of a long zero line, against c h(j), c from the centre. The
 * float coefficients move the poles a little: 8e-5 of the peak at sigma 10 and 32, 1e-6 at 5. */
static void test_impulse_is_deriche_h(void **state)
{
    (void)state;
    for (size_t si = 0; si < N_SIGMAS; si++) {
        double s = sigmas[si];
        size_t half = (size_t)(60 * s) + 60, n = 2 * half + 1;
        double *in = calloc(n, sizeof *in);
        assert_non_null(in);
        in[half] = 1.0;
        float k[16];
        blur_deriche_coeffs(s, k);
        double *y = filter_line(in, n, k), c = y[half] / deriche_h(0.0, s), worst = 0.0;
        for (size_t j = 0; j < half; j++) {
            double want = c * deriche_h((double)j, s);
            worst = fmax(worst, fmax(fabs(y[half + j] - want), fabs(y[half - j] - want)));
        }
        assert_true(worst < 2e-4 * y[half]);
        free(in);
        free(y);
    }
}

/* A constant line stays constant: the starts and the DC gain of the float coefficients (their rounding: 2e-8
 * of the value at sigma 5, 3e-5 at 32, where the feedback's poles are 0.95). */
static void test_dc_gain_one(void **state)
{
    (void)state;
    for (size_t si = 0; si < N_SIGMAS; si++) {
        float k[16];
        blur_deriche_coeffs(sigmas[si], k);
        double in[300];
        for (size_t i = 0; i < 300; i++)
            in[i] = 0.75;
        double *y = filter_line(in, 300, k);
        for (size_t i = 0; i < 300; i++)
            assert_true(fabs(y[i] - 0.75) < 1e-4);
        free(y);
    }
}

/* A random line of 50 samples filtered on its own equals the middle of the same line extended by 4000
 * copies of each edge sample: the steady-state starts are exact for clamp-to-edge, but for the float rounding
 * of the start coefficients (k[12], k[13]): 1e-8 at sigma 5, 3e-5 at 32. */
static void test_borders_are_clamp_to_edge(void **state)
{
    (void)state;
    enum { L = 50, EXT = 4000 };
    cg_rng rng;
    cg_rng_init(&rng, 7);
    uint8_t b[L];
    cg_rng_fill_bytes(&rng, b, L);
    double x[L], *big = malloc((L + 2 * EXT) * sizeof *big);
    assert_non_null(big);
    for (size_t i = 0; i < L; i++)
        x[i] = b[i] / 255.0;
    for (size_t i = 0; i < L + 2 * EXT; i++)
        big[i] = i < EXT ? x[0] : i >= EXT + L ? x[L - 1] : x[i - EXT];
    for (size_t si = 0; si < N_SIGMAS; si++) { /* 4000 samples: 200 time constants at sigma 32 */
        float k[16];
        blur_deriche_coeffs(sigmas[si], k);
        double *y = filter_line(x, L, k), *yb = filter_line(big, L + 2 * EXT, k);
        for (size_t i = 0; i < L; i++)
            assert_true(fabs(y[i] - yb[EXT + i]) < 1e-4);
        free(y);
        free(yb);
    }
    free(big);
}

/* The bound: finite over the documented sigma range, growing with sigma, and the output's sup |h|_1 x. */
static void test_bound_finite(void **state)
{
    (void)state;
    double last = 0.0;
    for (size_t si = 0; si < N_SIGMAS; si++) {
        float k[16];
        double sup, sup2;
        blur_deriche_coeffs(sigmas[si], k);
        double one = blur_deriche_bound(k, 1.0, 0.0, &sup);
        double both = blur_deriche_bound(k, sup, one, &sup2);
        assert_true(isfinite(one) && isfinite(both) && one > last && both > one);
        assert_true(sup >= 1.0 - 1e-6 && sup < 1.1);
        last = one;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_impulse_is_deriche_h),
        cmocka_unit_test(test_dc_gain_one),
        cmocka_unit_test(test_borders_are_clamp_to_edge),
        cmocka_unit_test(test_bound_finite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
