/* The kernel facts in the reports (docs/tune.md, "Kernel facts and occupancy"): every key survives a JSON
 * write and load; a file written before them (tests/data/run-v1.json) loads with empty facts; the text table
 * shows the occupancy column only when a row has a GPU estimate, in the form "50% (4 wg, registers)"; the
 * CSV carries the facts' columns. */
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

#include "cli/runfile.h"
#include "report/report.h"

static void facts_gpu(cg_kfacts *f)
{
    *f = (cg_kfacts){.kernels = 2,
                     .wg_size = 256,
                     .wg_max = 1024,
                     .wg_multiple = 32,
                     .local_bytes = 4096,
                     .private_bytes = 16,
                     .registers = 64,
                     .occ_groups = 4,
                     .occ_warps = 32,
                     .occupancy = 0.5};
    snprintf(f->kernel, sizeof f->kernel, "reduce_vec4");
    snprintf(f->wg_local, sizeof f->wg_local, "16x16");
    snprintf(f->occ_limit, sizeof f->occ_limit, "registers");
    snprintf(f->occ_model, sizeof f->occ_model, "sm_90");
}

/* A run report of two ok rows: the first with facts from f (NULL: none, as a file written before them). */
static void make_report(cg_report *r, void (*f)(cg_kfacts *))
{
    cg_report_init(r);
    snprintf(r->roofline_source, sizeof r->roofline_source, "measured");
    for (int i = 0; i < 2; i++) {
        cg_result *row = cg_report_add(r);
        assert_non_null(row);
        snprintf(row->workload, sizeof row->workload, "reduction");
        snprintf(row->rung, sizeof row->rung, i ? "best" : "naive");
        row->status = CG_RUNG_OK;
        row->runs = 1;
        row->t_min = row->t_median = row->t_mean = row->t_max = 1e-3;
        row->first_mismatch = -1;
        row->facts.occupancy = NAN;
    }
    if (f) f(&r->rows[0].facts);
}

static char *text_of(const cg_report *r)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    cg_report_text_fit(r, f, 0);
    fclose(f);
    return buf;
}

static void tmp_path(char *buf, size_t n, const char *name)
{
    const char *dir = getenv("TMPDIR");
    snprintf(buf, n, "%s/clgauge-kfacts-%ld-%s", dir && *dir ? dir : "/tmp", (long)getpid(), name);
}

static void test_json_roundtrip(void **state)
{
    (void)state;
    cg_report r, back;
    char path[256], err[256];
    make_report(&r, facts_gpu);
    tmp_path(path, sizeof path, "run.json");
    assert_int_equal(cg_report_json(&r, path), 0);
    if (cg_report_load(path, &back, err, sizeof err)) fail_msg("%s", err);
    unlink(path);
    assert_int_equal(back.n, 2);
    const cg_kfacts *a = &r.rows[0].facts, *b = &back.rows[0].facts;
    assert_string_equal(b->kernel, a->kernel);
    assert_string_equal(b->wg_local, a->wg_local);
    assert_string_equal(b->occ_limit, a->occ_limit);
    assert_string_equal(b->occ_model, a->occ_model);
    assert_true(b->kernels == a->kernels && b->wg_size == a->wg_size && b->wg_max == a->wg_max &&
                b->wg_multiple == a->wg_multiple && b->local_bytes == a->local_bytes &&
                b->private_bytes == a->private_bytes && b->registers == a->registers &&
                b->occ_groups == a->occ_groups && b->occ_warps == a->occ_warps);
    assert_true(b->occupancy == 0.5);
    assert_true(isnan(back.rows[1].facts.occupancy)); /* written as null */
    assert_string_equal(back.rows[1].facts.kernel, "");
    cg_report_fini(&back);
    cg_report_fini(&r);
}

/* A version 1 file has none of the keys: empty facts, and its table has no occupancy column. */
static void test_old_file(void **state)
{
    (void)state;
    char path[1024], err[256];
    cg_report r;
    const char *data = getenv("TESTDATA");
    snprintf(path, sizeof path, "%s/run-v1.json", data ? data : "tests/data");
    if (cg_report_load(path, &r, err, sizeof err)) fail_msg("%s", err);
    assert_string_equal(r.rows[0].facts.kernel, "");
    assert_int_equal(r.rows[0].facts.occ_groups, 0);
    char *text = text_of(&r);
    assert_null(strstr(text, "occupancy"));
    free(text);
    cg_report_fini(&r);
}

static void facts_cpu(cg_kfacts *f)
{
    facts_gpu(f);
    f->occ_groups = 1;
    f->occ_warps = 0;
    f->occupancy = NAN;
    snprintf(f->occ_limit, sizeof f->occ_limit, "groups");
    snprintf(f->occ_model, sizeof f->occ_model, "cpu");
}

static void test_text(void **state)
{
    (void)state;
    cg_report r;
    make_report(&r, facts_gpu);
    char *text = text_of(&r);
    assert_non_null(strstr(text, "occupancy"));
    assert_non_null(strstr(text, "50% (4 wg, registers)"));
    char *best = strstr(text, "reduction:best"); /* the row without facts shows "-" there */
    assert_non_null(best);
    free(text);
    snprintf(r.rows[0].facts.occ_model, sizeof r.rows[0].facts.occ_model, "generic");
    r.rows[0].facts.occupancy = NAN; /* the SIMD width not known: groups only */
    text = text_of(&r);
    assert_non_null(strstr(text, "4 wg (registers)"));
    free(text);
    cg_report_fini(&r);
    make_report(&r, facts_cpu); /* a CPU: one group per core on every row, no column */
    text = text_of(&r);
    assert_null(strstr(text, "occupancy"));
    assert_null(strstr(text, " wg"));
    free(text);
    cg_report_fini(&r);
}

static void test_csv(void **state)
{
    (void)state;
    cg_report r;
    char path[256];
    make_report(&r, facts_gpu);
    tmp_path(path, sizeof path, "run.csv");
    assert_int_equal(cg_report_csv(&r, path), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char head[1024], line[1024];
    assert_non_null(fgets(head, sizeof head, f));
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    unlink(path);
    assert_non_null(strstr(head, ",kernel,wg_local,kernel_wg_max,kernel_local_bytes,registers,occ_groups,"
                                 "occupancy,occ_limit,params,params_from\n"));
    assert_non_null(strstr(line, ",reduce_vec4,16x16,1024,4096,64,4,0.5,registers,,\n"));
    cg_report_fini(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_roundtrip),
        cmocka_unit_test(test_old_file),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_csv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
