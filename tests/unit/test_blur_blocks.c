/* The block rungs' carry algebra on the host (workloads/blur/blur_bound_blk.c): the block algorithm of
 * blur_blk.cl (zero-state passes per block, carries fixed up with the maps M and F, every block refiltered
 * from its true states), replayed here in double with blur_yvv_block_maps, must give the whole-line filter of
 * blur_ref_yvv on every line length (last blocks of 1, 2 and blk - 1 samples, lines shorter than a block);
 * M of one sample is the feedback's companion matrix; and the block bound's input response is the line
 * filter's (the same sup), its bound at least the line filter's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "core/rng.h"
#include "workloads/blur/blur_ref.h"

/* r = A v, as blur_blk.cl's mat3: v.x (A 1) + A (v - v.x) */
static void map(const double *A, const double *v, double *r)
{
    double d1 = v[1] - v[0], d2 = v[2] - v[0];
    for (int j = 0; j < 3; j++)
        r[j] = v[0] * (A[3 * j] + A[3 * j + 1] + A[3 * j + 2]) + A[3 * j + 1] * d1 + A[3 * j + 2] * d2;
}

static void pass(const double *c, const double *x, double *u, size_t L, int dir, double *p)
{
    for (size_t k = 0; k < L; k++) {
        size_t i = dir > 0 ? k : L - 1 - k;
        double v = c[0] * x[i] + c[1] * p[0] + c[2] * p[1] + c[3] * p[2];
        u[i] = v;
        p[2] = p[1];
        p[1] = p[0];
        p[0] = v;
    }
}

/* The block algorithm on one line of n samples (u: scratch, out: the result). */
static void block_line(const float cf[4], const float mf[9], const double *x, size_t n, size_t blk, double *u,
                       double *out)
{
    double c[4] = {cf[0], cf[1], cf[2], cf[3]}, M[2][9], F[2][9];
    size_t nb = (n + blk - 1) / blk;
    double *z = calloc(12 * nb, sizeof *z), *a = z + 3 * nb, *s = a + 3 * nb, *t = s + 3 * nb;
    assert_non_null(z);
    blur_yvv_block_maps(cf, (int)blk, M[0], F[0]);
    blur_yvv_block_maps(cf, (int)(n - (nb - 1) * blk), M[1], F[1]);
    for (size_t k = 0; k < nb; k++) { /* pass 1 */
        size_t i0 = k * blk, L = k + 1 < nb ? blk : n - i0;
        pass(c, x + i0, u + i0, L, 1, z + 3 * k);
        pass(c, u + i0, u + i0, L, -1, a + 3 * k);
    }
    double p[3] = {x[0], x[0], x[0]}, r[3], e = x[n - 1];
    for (size_t k = 0; k < nb; k++) { /* pass 2, causal */
        int last = k + 1 == nb;
        for (int j = 0; j < 3; j++)
            s[3 * k + j] = p[j];
        map(M[last], p, r);
        for (int j = 0; j < 3; j++)
            p[j] = r[j] + z[3 * k + j];
    }
    double q[3];
    for (int j = 0; j < 3; j++)
        q[j] = e + mf[3 * j] * (p[0] - e) + mf[3 * j + 1] * (p[1] - e) + mf[3 * j + 2] * (p[2] - e);
    for (size_t k = nb; k-- > 0;) { /* pass 2, anti-causal */
        int last = k + 1 == nb;
        double r2[3];
        for (int j = 0; j < 3; j++)
            t[3 * k + j] = q[j];
        map(M[last], q, r);
        map(F[last], s + 3 * k, r2);
        for (int j = 0; j < 3; j++)
            q[j] = r[j] + a[3 * k + j] + r2[j];
    }
    for (size_t k = 0; k < nb; k++) { /* pass 3 */
        size_t i0 = k * blk, L = k + 1 < nb ? blk : n - i0;
        pass(c, x + i0, out + i0, L, 1, s + 3 * k);
        pass(c, out + i0, out + i0, L, -1, t + 3 * k);
    }
    free(z);
}

static void test_blocks_equal_line_filter(void **state)
{
    (void)state;
    static const double sigmas[] = {0.5, 2.0, 5.0, 32.0};
    static const size_t lens[] = {1, 2, 3, 4, 31, 32, 33, 34, 63, 64, 65, 333};
    static const size_t blks[] = {4, 32};
    double x[333], u[333], got[333], want[333];
    cg_rng rng;
    cg_rng_init(&rng, 11);
    for (size_t i = 0; i < 333; i++)
        x[i] = cg_rng_next(&rng) % 256 / 255.0;
    for (size_t si = 0; si < sizeof sigmas / sizeof sigmas[0]; si++) {
        float c[4], m[9];
        blur_yvv_coeffs(sigmas[si], c);
        blur_yvv_boundary(c, m);
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
            for (size_t bi = 0; bi < 2; bi++) {
                size_t n = lens[li];
                blur_ref_yvv(x, want, n, 1, c, m, 0);
                block_line(c, m, x, n, blks[bi], u, got);
                double err = 0.0;
                for (size_t i = 0; i < n; i++)
                    err = fmax(err, fabs(got[i] - want[i]));
                if (!(err < 1e-9))
                    fail_msg("sigma %g, n %zu, blocks of %zu: off by %g", sigmas[si], n, blks[bi], err);
            }
    }
}

static void test_one_sample_map_is_companion(void **state)
{
    (void)state;
    float c[4];
    double M[9], F[9];
    blur_yvv_coeffs(5.0, c);
    blur_yvv_block_maps(c, 1, M, F);
    double want[9] = {c[1], c[2], c[3], 1, 0, 0, 0, 1, 0};
    for (int i = 0; i < 9; i++)
        assert_true(fabs(M[i] - want[i]) < 1e-15);
    for (int j = 0; j < 3; j++) /* F of one sample: B times its causal value at the top, nothing below */
        assert_true(fabs(F[j] - c[0] * want[j]) < 1e-15 && F[3 + j] == 0.0 && F[6 + j] == 0.0);
}

static void test_block_bound_sup_and_size(void **state)
{
    (void)state;
    static const double sigmas[] = {0.5, 5.0, 32.0};
    static const size_t lens[] = {1, 45, 517, 3000};
    for (size_t si = 0; si < 3; si++)
        for (size_t li = 0; li < 4; li++) {
            float c[4], m[9];
            double sup_line, sup_blk;
            blur_yvv_coeffs(sigmas[si], c);
            blur_yvv_boundary(c, m);
            double line = blur_yvv_bound(c, m, lens[li], 1.0, 0.0, &sup_line);
            double blk = blur_yvv_block_bound(c, m, lens[li], 32, 1.0, 0.0, &sup_blk);
            assert_true(fabs(sup_blk - sup_line) < 1e-9 * sup_line);
            assert_true(blk >= line && isfinite(blk));
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_equal_line_filter),
        cmocka_unit_test(test_one_sample_map_is_companion),
        cmocka_unit_test(test_block_bound_sup_and_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
