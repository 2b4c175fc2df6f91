/* The blur's host convolution (workloads/blur/blur_ref.c, blur_ref_conv): every output of both directions is,
 * to the last bit, the clamp-to-edge sum of the taps in order k = -r .. r, for lines shorter than the taps'
 * reach, of exactly 2r + 1 samples and longer (conv_line takes the samples whose taps all lie inside without
 * clamps: it must not change a double). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "workloads/blur/blur_ref.h"

static size_t clamp(long long i, size_t n)
{
    return i < 0 ? 0 : (size_t)i >= n ? n - 1 : (size_t)i;
}

/* The plain form: every tap clamped. */
static double naive(const double *in, size_t w, size_t h, const float *g, int r, int dir, size_t x, size_t y)
{
    double s = 0.0;
    for (int k = -r; k <= r; k++)
        s += (double)g[k + r] *
             (dir == 0 ? in[y * w + clamp((long long)x + k, w)] : in[clamp((long long)y + k, h) * w + x]);
    return s;
}

static double uniform(cg_rng *rng)
{
    return (double)(cg_rng_next(rng) >> 11) * 0x1p-53;
}

static void test_conv_is_the_clamped_sum(void **state)
{
    (void)state;
    static const int radii[] = {0, 1, 2, 5, 15};
    static const size_t sides[] = {1, 2, 3, 4, 5, 10, 11, 12, 31, 32, 33, 47};
    cg_rng rng;
    cg_rng_init(&rng, 24);
    for (size_t ri = 0; ri < sizeof radii / sizeof radii[0]; ri++) {
        int r = radii[ri];
        float *g = malloc((size_t)(2 * r + 1) * sizeof *g);
        assert_non_null(g);
        for (int k = 0; k <= 2 * r; k++)
            g[k] = (float)uniform(&rng) - 0.3f;
        for (size_t wi = 0; wi < sizeof sides / sizeof sides[0]; wi++)
            for (size_t hi = 0; hi < sizeof sides / sizeof sides[0]; hi += 3) {
                size_t w = sides[wi], h = sides[hi], n = w * h;
                double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
                assert_non_null(in);
                assert_non_null(out);
                for (size_t i = 0; i < n; i++)
                    in[i] = uniform(&rng);
                for (int dir = 0; dir < 2; dir++) {
                    blur_ref_conv(in, out, w, h, g, r, dir);
                    for (size_t y = 0; y < h; y++)
                        for (size_t x = 0; x < w; x++) {
                            double want = naive(in, w, h, g, r, dir, x, y);
                            if (memcmp(&out[y * w + x], &want, sizeof want))
                                fail_msg("r %d, %zux%zu, dir %d, (%zu, %zu): %.17g, want %.17g", r, w, h, dir,
                                         x, y, out[y * w + x], want);
                        }
                }
                free(in);
                free(out);
            }
        free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conv_is_the_clamped_sum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
