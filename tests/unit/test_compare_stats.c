/* The statistics `compare` decides on: the Mann–Whitney test (exact p checked against a full enumeration,
 * the tie-corrected normal approximation against hand-computed values), the bootstrap interval of a ratio of
 * medians (seeded: the same every time; covering the true ratio), their use in cg_compare (a planted 3%
 * slowdown at 10 runs with GPU-like noise flagged, a run against itself and a noisy no-change not, rows
 * without raw times judged by the old rule), raw times through the JSON writer and reader, and the interval
 * formats. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ranktest.h"
#include "core/resample.h"
#include "core/rng.h"
#include "report/compare.h"
#include "report/interval.h"
#include "cli/runfile.h"
#include "report/report.h"

static char tmpdir[64];

static double p_of(const double *a, size_t na, const double *b, size_t nb)
{
    double p = -1;
    assert_true(cg_ranktest_p(a, na, b, nb, &p));
    return p;
}

/* Exact p-values by hand: 3 v 3 apart is 2/20, interleaved 1,3,5 v 2,4,6 is 2 x 7/20; 5 v 5 apart 2/252. */
static void test_ranktest_small(void **state)
{
    (void)state;
    const double a[] = {1, 2, 3}, b[] = {4, 5, 6}, c[] = {1, 3, 5}, d[] = {2, 4, 6};
    const double e[] = {1, 2, 3, 4, 5}, f[] = {6, 7, 8, 9, 10};
    assert_float_equal(p_of(a, 3, b, 3), 0.1, 1e-12);
    assert_float_equal(p_of(b, 3, a, 3), 0.1, 1e-12);
    assert_float_equal(p_of(c, 3, d, 3), 0.7, 1e-12);
    assert_float_equal(p_of(e, 5, f, 5), 2.0 / 252, 1e-12);
    assert_float_equal(p_of(a, 3, a, 0), 1, 0);
    const double same[] = {2, 2, 2, 2};
    assert_float_equal(p_of(same, 2, same + 2, 2), 1, 0); /* every sample ties */
}

/* The exact p of every split of the ranks 1..12 into 6 and 6 equals the one from enumerating all 924. */
static void test_ranktest_enumerated(void **state)
{
    (void)state;
    enum { N = 12, M = 6 };
    static double count[M * M + 1];
    memset(count, 0, sizeof count);
    unsigned total = 0;
    for (unsigned mask = 0; mask < 1u << N; mask++) {
        if (__builtin_popcount(mask) != M) continue;
        unsigned u = 0; /* pairs a > b: for each a, the b's below it */
        for (unsigned i = 0; i < N; i++)
            for (unsigned j = 0; j < i; j++)
                u += (mask >> i & 1) && !(mask >> j & 1);
        count[u]++;
        total++;
    }
    assert_int_equal(total, 924);
    for (unsigned mask = 0; mask < 1u << N; mask += 7) {
        if (__builtin_popcount(mask) != M) continue;
        double a[M], b[M];
        size_t na = 0, nb = 0;
        unsigned u = 0;
        for (unsigned i = 0; i < N; i++) {
            if (mask >> i & 1)
                a[na++] = i + 1.0;
            else
                b[nb++] = i + 1.0;
            for (unsigned j = 0; j < i; j++)
                u += (mask >> i & 1) && !(mask >> j & 1);
        }
        unsigned far = u < M * M - u ? u : M * M - u;
        double tail = 0;
        for (unsigned k = 0; k <= far; k++)
            tail += count[k];
        assert_float_equal(p_of(a, M, b, M), fmin(1, 2 * tail / total), 1e-12);
    }
}

/* With ties, the normal approximation with tie and continuity corrections (values worked out by hand); and
 * far apart at 60 runs each, a p far below 0.01. */
static void test_ranktest_ties(void **state)
{
    (void)state;
    const double a[] = {1, 2, 2, 3, 3}, b[] = {3, 4, 4, 5, 5};
    const double c[] = {1, 1, 2, 2, 2, 3}, d[] = {2, 3, 3, 4};
    assert_float_equal(p_of(a, 5, b, 5), 0.018865674384163686, 1e-12);
    assert_float_equal(p_of(c, 6, d, 4), 0.0736382701203027, 1e-12);
    double x[60], y[60];
    for (int i = 0; i < 60; i++)
        x[i] = i, y[i] = 100 + i;
    assert_true(p_of(x, 60, y, 60) < 1e-15);
    assert_float_equal(p_of(x, 60, x, 60), 1, 1e-12);
}

/* n times around `median` with relative noise cv (normal, Box-Muller); every 7th run of a noisy set 5% slow,
 * as a GPU's occasional late run. */
static void noisy(cg_rng *g, double *t, size_t n, double median, double cv)
{
    for (size_t i = 0; i < n; i++) {
        double u1 = (cg_rng_next(g) >> 11) * 0x1p-53 + 0x1p-54, u2 = (cg_rng_next(g) >> 11) * 0x1p-53;
        t[i] = median * (1 + cv * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
        if (cv >= 0.005 && i % 7 == 3) t[i] *= 1.05;
    }
}

static void test_bootstrap(void **state)
{
    (void)state;
    cg_rng g;
    cg_rng_init(&g, 7);
    double a[10], b[10], lo, hi, lo2, hi2;
    noisy(&g, a, 10, 1e-3, 0.005);
    noisy(&g, b, 10, 1.03e-3, 0.005);
    assert_true(cg_boot_ratio(a, 10, b, 10, &lo, &hi));
    assert_true(cg_boot_ratio(a, 10, b, 10, &lo2, &hi2));
    assert_true(lo == lo2 && hi == hi2); /* seeded: the same samples give the same interval */
    assert_true(lo > 1.01 && lo < 1.03 && hi > 1.03 && hi < 1.05);
    double r = cg_median(b, 10) / cg_median(a, 10);
    assert_true(lo <= r && r <= hi);
    assert_true(cg_boot_ratio(a, 10, a, 10, &lo, &hi)); /* against itself: 1 inside */
    assert_true(lo < 1 && hi > 1);
    assert_true(cg_boot_ratio(a, 1, b, 1, &lo, &hi)); /* one run each: the ratio alone */
    assert_float_equal(lo, b[0] / a[0], 1e-12);
    assert_float_equal(hi, b[0] / a[0], 1e-12);
    a[3] = 0;
    assert_false(cg_boot_ratio(a, 10, b, 10, &lo, &hi));
    a[3] = NAN;
    assert_false(cg_boot_ratio(a, 10, b, 10, &lo, &hi));
    assert_false(cg_boot_ratio(b, 0, b, 10, &lo, &hi));
    const double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
    assert_float_equal(cg_median(odd, 3), 2, 0);
    assert_float_equal(cg_median(even, 4), 2.5, 0);
}

/* Bootstrap intervals of a 3% change at 10 runs and CV 1% cover the true ratio in most of 200 trials. */
static void test_bootstrap_coverage(void **state)
{
    (void)state;
    cg_rng g;
    cg_rng_init(&g, 11);
    int covered = 0;
    for (int k = 0; k < 200; k++) {
        double a[10], b[10], lo, hi;
        noisy(&g, a, 10, 1e-3, 0.01);
        noisy(&g, b, 10, 1.03e-3, 0.01);
        assert_true(cg_boot_ratio(a, 10, b, 10, &lo, &hi));
        covered += lo <= 1.03 && 1.03 <= hi;
    }
    assert_true(covered >=
                180); /* a 99% interval; the percentile bootstrap of a median runs a little short */
}

/* A run of n rungs on one device, each with `runs` raw times around (i+1) ms at relative noise cv. */
static void make_run(cg_report *r, size_t n, size_t runs, double cv, uint64_t seed)
{
    cg_rng g;
    cg_rng_init(&g, seed);
    cg_report_init(r);
    snprintf(r->device.name, sizeof r->device.name, "gpu");
    for (size_t i = 0; i < n; i++) {
        cg_result *row = cg_report_add(r);
        assert_non_null(row);
        snprintf(row->workload, sizeof row->workload, "red");
        snprintf(row->rung, sizeof row->rung, "r%zu", i);
        row->status = CG_RUNG_OK;
        row->runs = runs;
        row->times.s = malloc(runs * sizeof *row->times.s);
        assert_non_null(row->times.s);
        row->times.n = runs;
        noisy(&g, row->times.s, runs, (double)(i + 1) * 1e-3, cv);
        row->t_median = cg_median(row->times.s, runs);
        row->t_stddev = cv * row->t_median;
    }
}

static void scale_row(cg_result *row, double f)
{
    for (size_t i = 0; i < row->times.n; i++)
        row->times.s[i] *= f;
    row->t_median *= f;
}

static cg_compare_result compare(const cg_report *a, const cg_report *b, double thr, char **text)
{
    size_t n;
    char err[256] = "";
    FILE *f = open_memstream(text, &n);
    assert_non_null(f);
    cg_compare_result rc = cg_compare(a, "old", b, "new", thr, f, err, sizeof err);
    fclose(f);
    return rc;
}

static size_t count_of(const char *text, const char *word)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, word)); p++)
        n++;
    return n;
}

static void test_compare_planted(void **state)
{
    (void)state;
    cg_report a, b;
    char *out;
    make_run(&a, 12, 10, 0.005, 1);
    make_run(&b, 12, 10, 0.005, 2); /* fresh noise on every rung */
    scale_row(&b.rows[5], 1.03);
    assert_int_equal(compare(&a, &b, 2, &out), CG_CMP_REGRESSED);
    assert_int_equal(count_of(out, "REGRESSED"), 1);
    const char *line = strstr(out, "\nred:r5 ");
    assert_non_null(line);
    assert_true(strstr(line, "REGRESSED") < strchr(line + 1, '\n')); /* on r5's line, and only there */
    assert_non_null(strstr(line, "% [+"));                           /* its interval, above 0 */
    assert_non_null(strstr(out, "1 regressed, 0 now failing, 0 faster, 11 same"));
    free(out);
    scale_row(&b.rows[5], 1 / 1.03);
    assert_int_equal(compare(&a, &b, 2, &out), CG_CMP_OK); /* noisy, no change */
    assert_int_equal(count_of(out, "REGRESSED") + count_of(out, " faster\n"), 0);
    free(out);
    assert_int_equal(compare(&a, &a, 0.001, &out), CG_CMP_OK); /* itself, at any threshold */
    assert_int_equal(count_of(out, "within noise"), 12);
    free(out);
    cg_report_fini(&a);
    cg_report_fini(&b);
}

/* With too few runs for the rank test (3 v 3: p >= 0.1) the old rule judges a large change (a 50% slowdown
 * is flagged, its noise shown with "~"), as it judges a row without raw times; a large change on a noisy rung
 * (CV 10%) is significant when the samples separate. */
static void test_compare_edges(void **state)
{
    (void)state;
    cg_report a, b;
    char *out;
    make_run(&a, 2, 3, 0.002, 1);
    make_run(&b, 2, 3, 0.002, 2);
    scale_row(&b.rows[0], 1.5);
    assert_int_equal(compare(&a, &b, 5, &out), CG_CMP_REGRESSED);
    assert_non_null(strstr(out, "+50."));
    assert_non_null(strstr(out, "~0."));
    free(out);
    free(b.rows[0].times.s); /* no raw times: 50% beyond 5% and the combined stddev counts */
    b.rows[0].times = (cg_times){NULL, 0};
    assert_int_equal(compare(&a, &b, 5, &out), CG_CMP_REGRESSED);
    assert_non_null(strstr(out, "~0."));
    free(out);
    cg_report_fini(&a);
    cg_report_fini(&b);
    make_run(&a, 1, 30, 0.1, 3);
    make_run(&b, 1, 30, 0.1, 4);
    scale_row(&b.rows[0], 0.5);
    assert_int_equal(compare(&a, &b, 5, &out), CG_CMP_OK);
    assert_non_null(strstr(out, "faster"));
    assert_non_null(strstr(out, "<0.001"));
    free(out);
    cg_report_fini(&a);
    cg_report_fini(&b);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_times_roundtrip(void **state)
{
    (void)state;
    cg_report a, back;
    char path[128], err[256];
    make_run(&a, 3, 10, 0.01, 5);
    free(a.rows[2].times.s);
    a.rows[2].times = (cg_times){NULL, 0};
    a.rows[2].status = CG_RUNG_UNSUPPORTED;
    snprintf(path, sizeof path, "%s/times.json", tmpdir);
    assert_int_equal(cg_report_json(&a, path), 0);
    assert_int_equal(cg_report_load(path, &back, err, sizeof err), 0);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(back.rows[i].times.n, a.rows[i].times.n);
        for (size_t k = 0; k < a.rows[i].times.n; k++)
            assert_true(back.rows[i].times.s[k] == a.rows[i].times.s[k]); /* exact */
    }
    cg_report_fini(&a);
    cg_report_fini(&back);
    unlink(path);
}

/* A bad times_s: the file is damaged, the field and the row named. */
static void expect_bad_times(const char *times, const char *want)
{
    char path[128], err[256], text[512];
    cg_report r;
    snprintf(path, sizeof path, "%s/bad.json", tmpdir);
    snprintf(text, sizeof text,
             "{\"schema_version\": %d, \"tool\": {\"name\": \"clgauge\"}, \"device\": {}, \"results\": "
             "[{\"workload\": \"red\", \"rung\": \"r0\", \"t_median_s\": 0.001, \"status\": \"ok\", "
             "\"runs\": 2, \"times_s\": %s}]}",
             CG_SCHEMA_VERSION, times);
    write_text(path, text);
    assert_int_equal(cg_report_load(path, &r, err, sizeof err), -1);
    if (!strstr(err, "damaged file") || !strstr(err, "times_s of row 0") || !strstr(err, want))
        fail_msg("times_s %s: error '%s' lacks '%s'", times, err, want);
    cg_report_fini(&r);
    unlink(path);
}

static void test_times_bad(void **state)
{
    (void)state;
    expect_bad_times("[0.001, -0.001]", "want an array");
    expect_bad_times("[0.001, 0]", "want an array");
    expect_bad_times("[0.001, null]", "want an array");
    expect_bad_times("[0.001, \"1\"]", "want an array");
    expect_bad_times("[0.001, 2e6]", "want an array");
    expect_bad_times("0.001", "want an array");
    expect_bad_times("[0.001]", "has 1 entries, but runs is 2");
    expect_bad_times("[0.001, 0.001, 0.001]", "has 3 entries, but runs is 2");
}

static void test_formats(void **state)
{
    (void)state;
    char buf[64];
    cg_fmt_change(buf, sizeof buf, 0.041, 1.029, 1.053);
    assert_string_equal(buf, "+4.1% [+2.9, +5.3]");
    cg_fmt_change(buf, sizeof buf, -0.002, 0.99, 1.004);
    assert_string_equal(buf, "-0.2% [-1.0, +0.4]");
    cg_fmt_change(buf, sizeof buf, 0.5, NAN, NAN);
    assert_string_equal(buf, "+50.0%");
    cg_fmt_change(buf, sizeof buf, NAN, 1, 1);
    assert_string_equal(buf, "-");
    cg_result r = {0};
    cg_fmt_speedup_ci(buf, sizeof buf, &r);
    assert_string_equal(buf, "-");
    r.speedup = 2.314;
    cg_fmt_speedup_ci(buf, sizeof buf, &r);
    assert_string_equal(buf, "2.31x");
    r.speedup_lo = 2.28;
    r.speedup_hi = 2.351;
    cg_fmt_speedup_ci(buf, sizeof buf, &r);
    assert_string_equal(buf, "2.31x [2.28, 2.35]");
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/clgauge-test-cmpstats-XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranktest_small),     cmocka_unit_test(test_ranktest_enumerated),
        cmocka_unit_test(test_ranktest_ties),      cmocka_unit_test(test_bootstrap),
        cmocka_unit_test(test_bootstrap_coverage), cmocka_unit_test(test_compare_planted),
        cmocka_unit_test(test_compare_edges),      cmocka_unit_test(test_times_roundtrip),
        cmocka_unit_test(test_times_bad),          cmocka_unit_test(test_formats),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(tmpdir);
    return rc;
}
