/* The convolution's CPU reference (workloads/convolution/convolution_ref.c) against a plain double-precision
 * sum on small pictures: non-square filters, a 1x1 filter, pitched inputs, and heights that do not divide by
 * the thread count (every row must be computed exactly once, whichever thread does it). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "core/rng.h"
#include "workloads/convolution/convolution_ref.h"

/* Fills a pitched input and a filter, runs conv_reference and compares every output with the double sum. */
static void check_case(size_t w, size_t h, int fw, int fh, size_t pad)
{
    size_t ip = w + (size_t)fw - 1 + pad, rows = h + (size_t)fh - 1;
    float *in = calloc(ip * rows, sizeof *in), *f = malloc((size_t)(fw * fh) * sizeof *f);
    float *out = malloc(w * h * sizeof *out);
    assert_non_null(in);
    assert_non_null(f);
    assert_non_null(out);
    cg_rng rng;
    cg_rng_init(&rng, 7);
    for (size_t y = 0; y < rows; y++)
        cg_rng_fill_float(&rng, in + y * ip, w + (size_t)fw - 1, 0.0f, 1.0f);
    for (size_t y = 0; y < rows; y++) /* the pitch's padding must never be read: a NaN there would show */
        for (size_t x = w + (size_t)fw - 1; x < ip; x++)
            in[y * ip + x] = NAN;
    cg_rng_fill_float(&rng, f, (size_t)(fw * fh), -1.0f, 1.0f);
    for (size_t i = 0; i < w * h; i++)
        out[i] = NAN;
    conv_ref_in a = {in, ip, f, fw, fh, w, h};
    conv_reference(&a, out);
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            double want = 0;
            for (int j = 0; j < fh; j++)
                for (int i = 0; i < fw; i++)
                    want += (double)in[(y + (size_t)j) * ip + x + (size_t)i] * f[j * fw + i];
            double got = out[y * w + x];
            if (!(fabs(got - want) <= 1e-5 * (fw * fh)))
                fail_msg("%zux%zu, %dx%d filter: out(%zu, %zu) = %g, want %g", w, h, fw, fh, x, y, got, want);
        }
    free(in);
    free(f);
    free(out);
}

static void test_non_square_filters(void **state)
{
    (void)state;
    check_case(37, 23, 5, 3, 0);
    check_case(16, 40, 3, 7, 9);
    check_case(33, 33, 32, 32, 3);
}

static void test_one_tap(void **state)
{
    (void)state;
    check_case(13, 11, 1, 1, 0); /* out must equal in */
}

static void test_rows_split_over_threads(void **state)
{
    (void)state;
    check_case(9, 1, 3, 3, 0);   /* one row: one thread */
    check_case(7, 131, 2, 5, 1); /* a prime height: uneven shares */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_non_square_filters),
        cmocka_unit_test(test_one_tap),
        cmocka_unit_test(test_rows_split_over_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
