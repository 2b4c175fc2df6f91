/* Reading runs back (model/load.c) and comparing them (report/compare.c): a run written by the JSON writer
 * reads back field by field (the run fields of cg_row_fields, the exact 64-bit seed, NaN, warnings, every
 * status, the variant), a file without variants loads; bad files fail with the file and the problem named;
 * compare's rule (threshold and noise) at its edges, a passing rung that fails, nothing in common, two
 * devices side by side, and the groups of a --filter sweep kept apart in both tables. */
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

#include "report/compare.h"
#include "cli/runfile.h"
#include "report/report.h"

static char tmpdir[64];

static void path_in_tmp(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", tmpdir, name);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A run of `n` rungs of "red" on device `dev`, rung i with median (i+1) ms and the given stddev. */
static void make_run(cg_report *r, const char *dev, size_t n, double sd)
{
    cg_report_init(r);
    snprintf(r->tool_version, sizeof r->tool_version, "0.1.0");
    snprintf(r->device.name, sizeof r->device.name, "%s", dev);
    snprintf(r->device.platform, sizeof r->device.platform, "plat");
    r->seed = 18446744073709551557ull;
    r->mad_gflops = NAN;
    for (size_t i = 0; i < n; i++) {
        cg_result *row = cg_report_add(r);
        assert_non_null(row);
        snprintf(row->workload, sizeof row->workload, "red");
        snprintf(row->rung, sizeof row->rung, "r%zu", i);
        snprintf(row->size_desc, sizeof row->size_desc, "2^20 floats");
        row->status = CG_RUNG_OK;
        row->runs = 10;
        row->t_median = row->t_min = row->t_max = row->t_mean = (double)(i + 1) * 1e-3;
        row->t_stddev = sd;
        row->speedup = 1.0 / (double)(i + 1);
    }
}

static void assert_same_row(const cg_result *a, const cg_result *b)
{
    for (size_t k = 0; k < cg_row_nfields; k++) {
        const cg_field *fd = &cg_row_fields[k];
        if (!cg_field_carried(fd, CG_KIND_RUN)) continue;
        const char *pa = (const char *)a + fd->offset, *pb = (const char *)b + fd->offset;
        if (fd->kind == CG_F_STR) {
            assert_string_equal(pa, pb);
        } else if (fd->kind == CG_F_DOUBLE) {
            double x = *(const double *)pa, y = *(const double *)pb;
            assert_true((isnan(x) && isnan(y)) || x == y);
        } else if (fd->kind == CG_F_SIZE) {
            assert_int_equal(*(const size_t *)pa, *(const size_t *)pb);
        } else if (fd->kind == CG_F_BOOL) {
            assert_int_equal(*(const bool *)pa, *(const bool *)pb);
        } else if (fd->kind == CG_F_LL) {
            assert_int_equal(*(const long long *)pa, *(const long long *)pb);
        } else if (fd->kind == CG_F_STATUS) {
            assert_int_equal(*(const cg_rung_status *)pa, *(const cg_rung_status *)pb);
        } else {
            assert_int_equal(*(const unsigned *)pa, *(const unsigned *)pb);
        }
    }
}

static void test_roundtrip(void **state)
{
    (void)state;
    cg_report r, back;
    char path[128], err[256];
    make_run(&r, "dev \"x\" <y>", 5, 1e-6);
    r.rows[1].status = CG_RUNG_WRONG;
    r.rows[1].max_abs_err = NAN;
    r.rows[1].first_mismatch = 7;
    r.rows[2].status = CG_RUNG_UNSUPPORTED;
    r.rows[3].status = CG_RUNG_BUILD_FAILED;
    r.rows[4].status = CG_RUNG_CL_ERROR;
    r.rows[0].warnings = CG_WARN_HIGH_CV | CG_WARN_ABOVE_ROOF;
    snprintf(r.rows[0].why, sizeof r.rows[0].why, "why, with \"quotes\" and \\ backslash");
    snprintf(r.rows[0].variant, sizeof r.rows[0].variant, "5x3"); /* the other rows have none: "" */
    r.device.global_cache = 1ull << 50;
    r.device.max_wg = 1024;
    r.device.images = r.device.fp16_known = r.device.fp16 = true;
    snprintf(r.device.driver, sizeof r.device.driver, "drv 1.2");
    path_in_tmp(path, sizeof path, "run.json");
    assert_int_equal(cg_report_json(&r, path), 0);
    assert_int_equal(cg_report_load(path, &back, err, sizeof err), 0);
    assert_int_equal(back.n, r.n);
    for (size_t i = 0; i < r.n; i++)
        assert_same_row(&r.rows[i], &back.rows[i]);
    assert_true(back.seed == r.seed); /* above 2^53, exact */
    assert_string_equal(back.device.name, r.device.name);
    assert_string_equal(back.device.driver, "drv 1.2");
    assert_true(back.device.global_cache == 1ull << 50 && back.device.max_wg == 1024);
    assert_true(back.device.images && !back.device.fp64 && back.device.fp16_known && back.device.fp16);
    assert_true(isnan(back.mad_gflops));
    cg_report_fini(&r);
    cg_report_fini(&back);
}

/* Loads text from a file and expects a failure whose message holds `want` and names the file. */
static void expect_bad(const char *text, const char *want)
{
    char path[128], err[512];
    cg_report r;
    path_in_tmp(path, sizeof path, "bad.json");
    write_text(path, text);
    assert_int_equal(cg_report_load(path, &r, err, sizeof err), -1);
    if (!strstr(err, want) || !strstr(err, path)) fail_msg("error '%s' lacks '%s' or the path", err, want);
    cg_report_fini(&r);
}

static void test_bad_files(void **state)
{
    (void)state;
    char err[256];
    cg_report r;
    assert_int_equal(cg_report_load("/nonexistent/x.json", &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot read"));
    cg_report_fini(&r);
    expect_bad("", "not valid JSON");
    expect_bad("{\"schema_version\": 1, \"tool\": {\"name\": \"clgauge\"", "not valid JSON");
    expect_bad("[1, 2]", "not a clgauge run");
    expect_bad("{\"schema_version\": 1, \"tool\": {\"name\": \"other\"}}", "not a clgauge run");
    expect_bad("{\"schema_version\": 3, \"tool\": {\"name\": \"clgauge\"}}", "schema_version 3, but");
    expect_bad(
        "{\"schema_version\": 2, \"kind\": \"peak\", \"tool\": {\"name\": \"clgauge\"}, \"device\": {}, "
        "\"results\": []}",
        "a clgauge peak file, not a run");
    expect_bad("{\"schema_version\": 1, \"tool\": {\"name\": \"clgauge\"}}",
               "without \"device\" or \"results\"");
    expect_bad("{\"schema_version\": 1, \"tool\": {\"name\": \"clgauge\"}, \"device\": {}, \"results\": []}",
               "no results");
    expect_bad(
        "{\"schema_version\": 1, \"tool\": {\"name\": \"clgauge\"}, \"device\": {}, \"results\": [{}]}",
        "field workload of row 0 is missing");
}

/* A file written before rows had a variant loads, every row with variant "". */
static void test_no_variant(void **state)
{
    (void)state;
    char path[128], err[256];
    cg_report r;
    path_in_tmp(path, sizeof path, "old.json");
    write_text(path,
               "{\"schema_version\": 1, \"tool\": {\"name\": \"clgauge\"}, \"device\": {}, \"results\": "
               "[{\"workload\": \"red\", \"rung\": \"r0\", \"t_median_s\": 0.001, \"status\": \"ok\"}]}");
    assert_int_equal(cg_report_load(path, &r, err, sizeof err), 0);
    assert_int_equal(r.n, 1);
    assert_string_equal(r.rows[0].workload, "red");
    assert_string_equal(r.rows[0].variant, "");
    cg_report_fini(&r);
    unlink(path);
}

/* A schema_version 1 file (tests/data/run-v1.json, written by clgauge 0.1.0 before the keys were unified)
 * still loads: the device keys of version 1 (global_mem, driver, version), build_ms read as seconds. */
static void test_v1_file(void **state)
{
    (void)state;
    char path[1024], err[256];
    cg_report r;
    const char *data = getenv("TESTDATA");
    snprintf(path, sizeof path, "%s/run-v1.json", data ? data : "tests/data");
    if (cg_report_load(path, &r, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(r.n, 2);
    assert_string_equal(r.device.driver, "3.1+debian");
    assert_non_null(strstr(r.device.version, "OpenCL 3.0 PoCL"));
    assert_true(r.device.global_mem == 6805467136ull && r.device.max_alloc == 2147483648ull);
    assert_true(r.device.local_mem == 2097152ull && r.device.compute_units == 2);
    assert_false(r.device.fp16_known); /* version 1 had no fp16 */
    assert_string_equal(r.rows[1].rung, "local");
    assert_true(fabs(r.rows[0].build_s - 3.083142999559641e-3) < 1e-15); /* build_ms 3.083... */
    assert_true(r.rows[1].t_median == 0.088775703);
    cg_report_fini(&r);
}

/* Runs cg_compare on a and b into a string; returns the result, *text the output (free it). */
static cg_compare_result run_compare(const cg_report *a, const cg_report *b, double thr, char **text)
{
    size_t n;
    char err[256] = "";
    FILE *f = open_memstream(text, &n);
    assert_non_null(f);
    cg_compare_result rc = cg_compare(a, "old", b, "new", thr, f, err, sizeof err);
    fclose(f);
    if (rc == CG_CMP_NOTHING_IN_COMMON) assert_non_null(strstr(err, "no rung in common"));
    return rc;
}

static void test_compare_rule(void **state)
{
    (void)state;
    cg_report a, b;
    char *out;
    make_run(&a, "gpu", 2, 0);
    make_run(&b, "gpu", 2, 0);
    b.rows[0].t_median *= 1.06; /* 6% > 5%, no noise */
    assert_int_equal(run_compare(&a, &b, 5, &out), CG_CMP_REGRESSED);
    assert_non_null(strstr(out, "REGRESSED"));
    free(out);
    b.rows[0].t_median = a.rows[0].t_median * 1.04; /* 4% < 5% */
    assert_int_equal(run_compare(&a, &b, 5, &out), CG_CMP_OK);
    assert_non_null(strstr(out, "same (under threshold)"));
    free(out);
    b.rows[0].t_median = a.rows[0].t_median * 1.5; /* +50%, but the noise: 2*sqrt(2)*0.3 ms / 1 ms = 85% */
    a.rows[0].t_stddev = b.rows[0].t_stddev = 0.3e-3;
    assert_int_equal(run_compare(&a, &b, 5, &out), CG_CMP_OK);
    assert_non_null(strstr(out, "same (within noise)"));
    free(out);
    b.rows[0].t_median = a.rows[0].t_median * 0.5;
    a.rows[0].t_stddev = b.rows[0].t_stddev = 0;
    assert_int_equal(run_compare(&a, &b, 5, &out), CG_CMP_OK);
    assert_non_null(strstr(out, "faster"));
    free(out);
    b.rows[1].status = CG_RUNG_WRONG;
    assert_int_equal(run_compare(&a, &b, 5, &out), CG_CMP_REGRESSED);
    assert_non_null(strstr(out, "NOW FAILS"));
    free(out);
    for (size_t i = 0; i < b.n; i++)
        snprintf(b.rows[i].size_desc, sizeof b.rows[i].size_desc, "other");
    assert_int_equal(run_compare(&a, &b, 5, &out), CG_CMP_NOTHING_IN_COMMON);
    assert_string_equal(out, "");
    free(out);
    cg_report_fini(&a);
    cg_report_fini(&b);
}

static void test_compare_devices(void **state)
{
    (void)state;
    cg_report a, b;
    char *out;
    make_run(&a, "gpu", 3, 0);
    make_run(&b, "cpu", 3, 0);
    b.rows[2].t_median = 0.5e-3; /* r2 wins on the cpu, r0 on the gpu */
    assert_int_equal(run_compare(&a, &b, 5, &out), CG_CMP_OK);
    assert_non_null(strstr(out, "side by side"));
    assert_non_null(strstr(out, "best on A: r0"));
    assert_non_null(strstr(out, "best on B: r2"));
    assert_non_null(strstr(out, "depends on the device"));
    free(out);
    cg_report_fini(&a);
    cg_report_fini(&b);
}

/* Two groups of "conv" (variants 3x3 and 5x5) of two rungs each, rung i of group g with median (i+1)(g+1) ms.
 */
static void make_sweep(cg_report *r, const char *dev)
{
    make_run(r, dev, 4, 0);
    for (size_t i = 0; i < r->n; i++) {
        snprintf(r->rows[i].workload, sizeof r->rows[i].workload, "conv");
        snprintf(r->rows[i].rung, sizeof r->rows[i].rung, "r%zu", i % 2);
        snprintf(r->rows[i].variant, sizeof r->rows[i].variant, i < 2 ? "3x3" : "5x5");
        r->rows[i].t_median = (double)(i % 2 + 1) * (double)(i / 2 + 1) * 1e-3;
        r->rows[i].speedup = 1.0 / (double)(i % 2 + 1);
    }
}

static void test_compare_variants(void **state)
{
    (void)state;
    cg_report a, b;
    char *out;
    make_sweep(&a, "gpu");
    make_sweep(&b, "gpu");
    b.rows[3].t_median *= 1.5; /* conv[5x5]:r1 slower; conv[3x3]:r1 has the same rung name, unchanged */
    assert_int_equal(run_compare(&a, &b, 5, &out), CG_CMP_REGRESSED);
    assert_non_null(strstr(out, "conv[5x5]:r1 "));
    assert_non_null(strstr(out, "conv[3x3]:r1 "));
    assert_non_null(strstr(out, "1 regressed, 0 now failing, 0 faster, 3 same"));
    free(out);
    for (size_t i = 0; i < b.n; i++) /* the same rungs without the variant: another group */
        b.rows[i].variant[0] = '\0';
    assert_int_equal(run_compare(&a, &b, 5, &out), CG_CMP_NOTHING_IN_COMMON);
    free(out);
    cg_report_fini(&b);
    make_sweep(&b, "cpu");
    b.rows[2].t_median = 20e-3; /* on the cpu, r1 wins at 5x5 only */
    b.rows[3].speedup = 5;
    assert_int_equal(run_compare(&a, &b, 5, &out), CG_CMP_OK);
    const char *s3 = strstr(out, "conv[3x3]: best on A: r0"), *s5 = strstr(out, "conv[5x5]: best on A: r0");
    assert_non_null(s3);
    assert_non_null(s5);
    assert_true(s3 < strstr(out, "conv[5x5]:r0")); /* each group's summary follows its rows */
    char line3[256];
    snprintf(line3, sizeof line3, "%.*s", (int)strcspn(s3, "\n"), s3);
    assert_null(strstr(line3, "depends")); /* at 3x3, r0 wins on both */
    assert_non_null(strstr(s5, "best on B: r1 (5.00x): the best rung depends on the device"));
    free(out);
    cg_report_fini(&a);
    cg_report_fini(&b);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/clgauge-test-load-XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_compare_rule),     cmocka_unit_test(test_compare_devices),
        cmocka_unit_test(test_no_variant),       cmocka_unit_test(test_v1_file),
        cmocka_unit_test(test_compare_variants),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char path[128];
    path_in_tmp(path, sizeof path, "run.json");
    unlink(path);
    path_in_tmp(path, sizeof path, "bad.json");
    unlink(path);
    rmdir(tmpdir);
    return rc;
}
