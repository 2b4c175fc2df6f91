/* Host-only logic of `clgauge peak`: the rate arithmetic, the zero-copy and watchdog guards, the time budget,
 * quantiles, --only selection (and its message for an unknown name), the roofline ceilings taken from a
 * report, and the text, JSON and CSV writers on a report of kind peak (the one row type of model/result.h).
 */
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

#include "core/fs.h"
#include "core/log.h"
#include "peak/peak.h"
#include "report/report.h"

#define assert_near(got, want, eps)                                                                          \
    do {                                                                                                     \
        double g_ = (got), w_ = (want);                                                                      \
        if (!(fabs(g_ - w_) <= (eps)))                                                                       \
            fail_msg("%s = %.17g, want %.17g (+- %g)", #got, g_, w_, (double)(eps));                         \
    } while (0)

static char last_line[2048];

static void record(cg_log_level level, const char *msg, void *user)
{
    (void)level;
    (void)user;
    snprintf(last_line, sizeof last_line, "%s", msg);
}

static void test_rate(void **state)
{
    (void)state;
    assert_near(cg_peak_rate_g(2e9, 1.0), 2.0, 1e-12); /* 2 GB in 1 s: 2 GB/s */
    assert_near(cg_peak_rate_g(1073741824.0, 0.5), 2.147483648, 1e-12);
    assert_near(cg_peak_rate_g(4096.0 * 1e6, 1e-3), 4096.0, 1e-9); /* GFLOP/s from FLOPs */
    assert_near(cg_peak_rate_g(1e9, 0), 0, 0);                     /* no time: no rate, never inf */
    assert_near(cg_peak_rate_g(1e9, -1), 0, 0);
    assert_near(cg_peak_rate_g(1e9, NAN), 0, 0);
    assert_near(cg_peak_rate_g(1e9, INFINITY), 0, 0);
}

static void test_zero_copy(void **state)
{
    (void)state;
    assert_true(cg_peak_is_zero_copy(1 << 30, 0));         /* took no time at all */
    assert_true(cg_peak_is_zero_copy(1 << 30, 4e-7));      /* 1 GiB in 0.4 us: 2.7 PB/s */
    assert_true(cg_peak_is_zero_copy(256e6, 1e-4));        /* 2.56 TB/s over a host link: impossible */
    assert_false(cg_peak_is_zero_copy(1 << 30, 1 / 55.0)); /* 55 GB/s: a real PCIe copy */
    assert_false(cg_peak_is_zero_copy(4096, 1e-6));        /* 4 KiB in 1 us: 4 GB/s */
    assert_false(cg_peak_is_zero_copy(1e12, 1.0));         /* exactly at the limit: still a rate */
}

static void test_watchdog(void **state)
{
    (void)state;
    assert_int_equal(cg_peak_fit_work(16, 1e-3, 0.05), 800);  /* 16 units took 1 ms: 800 for 50 ms */
    assert_int_equal(cg_peak_fit_work(1000, 1.0, 10.0), 500); /* never past the 0.5 s watchdog */
    assert_int_equal(cg_peak_fit_work(1000, 2.0, 0.05), 25);  /* a slow probe shrinks the work */
    assert_int_equal(cg_peak_fit_work(1, 100.0, 0.05), 1);    /* never under 1 */
    assert_int_equal(cg_peak_fit_work(77, 0, 0.05), 77);      /* no usable probe: keep the work */
    assert_int_equal(cg_peak_fit_work(77, NAN, 0.05), 77);
    assert_true(cg_peak_fit_work(1, 1e-12, 0.05) <= (uint64_t)1e15); /* bounded */
}

static void test_runs_within(void **state)
{
    (void)state;
    assert_int_equal(cg_peak_runs_within(0.1, 1.0, 2, 10), 10);
    assert_int_equal(cg_peak_runs_within(0.3, 1.0, 2, 10), 3);
    assert_int_equal(cg_peak_runs_within(5.0, 1.0, 2, 10), 2);   /* at least lo */
    assert_int_equal(cg_peak_runs_within(1e-6, 1.0, 2, 10), 10); /* at most hi */
    assert_int_equal(cg_peak_runs_within(0, 1.0, 2, 10), 10);
}

static void test_timer_parse(void **state)
{
    (void)state;
    cg_peak_timer t = CG_PEAK_TIMER_HOST;
    assert_true(cg_peak_timer_parse("events", &t));
    assert_int_equal(t, CG_PEAK_TIMER_EVENTS);
    assert_true(cg_peak_timer_parse("host", &t));
    assert_int_equal(t, CG_PEAK_TIMER_HOST);
    assert_true(cg_peak_timer_parse("both", &t));
    assert_int_equal(t, CG_PEAK_TIMER_BOTH);
    assert_false(cg_peak_timer_parse("Both", &t)); /* exact words only; *t unchanged */
    assert_false(cg_peak_timer_parse("", &t));
    assert_false(cg_peak_timer_parse(NULL, &t));
    assert_int_equal(t, CG_PEAK_TIMER_BOTH);
}

static void test_quantile(void **state)
{
    (void)state;
    const double x[] = {1, 2, 3, 4, 5};
    assert_near(cg_peak_quantile(x, 5, 0), 1, 0);
    assert_near(cg_peak_quantile(x, 5, 0.5), 3, 0);
    assert_near(cg_peak_quantile(x, 5, 1), 5, 0);
    assert_near(cg_peak_quantile(x, 5, 0.99), 4.96, 1e-12);
    assert_near(cg_peak_quantile(x, 4, 0.5), 2.5, 1e-12);
    assert_near(cg_peak_quantile(x, 0, 0.5), 0, 0);
}

static size_t count(const bool *sel)
{
    size_t n = 0;
    for (size_t i = 0; i < cg_peak_ntests; i++)
        n += sel[i];
    return n;
}

static bool selected(const bool *sel, const char *name)
{
    for (size_t i = 0; i < cg_peak_ntests; i++)
        if (!strcmp(cg_peak_tests[i].name, name)) return sel[i];
    fail_msg("no test %s", name);
    return false;
}

static void test_select(void **state)
{
    (void)state;
    bool sel[64];
    assert_int_equal(cg_peak_select(NULL, false, sel), CG_OK);
    assert_int_equal(count(sel), cg_peak_ntests);
    assert_int_equal(cg_peak_select(NULL, true, sel), CG_OK); /* --quick: the roofline's three */
    assert_int_equal(count(sel), 3);
    assert_true(selected(sel, "read") && selected(sel, "copy") && selected(sel, "fp32"));
    assert_int_equal(cg_peak_select("bandwidth,fp32", false, sel), CG_OK);
    assert_int_equal(count(sel), 7);
    assert_true(selected(sel, "gather") && selected(sel, "fp32") && !selected(sel, "fp64"));
    assert_int_equal(cg_peak_select("overheads", false, sel), CG_OK); /* the family, never in --quick's set */
    assert_int_equal(count(sel), 4);
    assert_true(selected(sel, "alloc") && selected(sel, "transfers") && selected(sel, "events") &&
                selected(sel, "queues"));
    assert_int_equal(cg_peak_select("latency", true, sel), CG_OK); /* --only wins over --quick's set */
    assert_int_equal(count(sel), 1);
    last_line[0] = 0;
    assert_int_equal(cg_peak_select("compute,nosuch", false, sel), CG_E_USAGE);
    assert_non_null(strstr(last_line, "unknown peak test 'nosuch'"));
    assert_non_null(strstr(last_line, "bandwidth read"));
    assert_non_null(strstr(last_line, "atomics atomic-global"));
    assert_non_null(strstr(last_line, "overheads alloc transfers events queues")); /* the list is not cut */
    assert_int_equal(cg_peak_select("", false, sel), CG_E_USAGE);
    assert_int_equal(cg_peak_select("fp32,", false, sel), CG_E_USAGE);
}

static cg_result *row(cg_report *r, const char *test, double v, cg_rung_status s)
{
    cg_result *w = cg_report_add(r);
    assert_non_null(w);
    snprintf(w->workload, sizeof w->workload, "%s", "bandwidth"); /* a peak row's family */
    snprintf(w->rung, sizeof w->rung, "%s", test);
    snprintf(w->variant, sizeof w->variant, "%s", "float4, \"x\"");
    snprintf(w->unit, sizeof w->unit, "%s", "GB/s");
    w->value = v;
    w->status = s;
    return w;
}

static void test_ceilings(void **state)
{
    (void)state;
    cg_report r;
    cg_report_init_kind(&r, CG_KIND_PEAK);
    double c, rd, m;
    cg_peak_ceilings(&r, &c, &rd, &m);
    assert_near(c + rd + m, 0, 0);
    row(&r, "read", 100, CG_RUNG_OK);
    row(&r, "read", 300, CG_RUNG_OK);
    row(&r, "read", 900, CG_RUNG_WRONG); /* not trusted */
    row(&r, "copy", 250, CG_RUNG_OK);
    row(&r, "fp32", 5000, CG_RUNG_OK);
    row(&r, "fp64", 9000, CG_RUNG_OK); /* not the MAD ceiling */
    row(&r, "stride", 9000, CG_RUNG_OK);
    cg_peak_ceilings(&r, &c, &rd, &m);
    assert_near(c, 250, 0);
    assert_near(rd, 300, 0);
    assert_near(m, 5000, 0);
    cg_report_fini(&r);
}

static void test_writers(void **state)
{
    (void)state;
    cg_report r;
    cg_report_init_kind(&r, CG_KIND_PEAK);
    snprintf(r.device.name, sizeof r.device.name, "%s", "Dev, \"one\"");
    r.max_time = 0.25;
    cg_result *a = row(&r, "read", 123.5, CG_RUNG_OK);
    snprintf(a->bytes_note, sizeof a->bytes_note, "%s", "bytes read once");
    cg_result *z = row(&r, "map", 0, CG_RUNG_ZERO_COPY);
    snprintf(z->reason, sizeof z->reason, "%s", "zero-copy: no bytes moved");
    z->t_min = NAN;
    cg_result *c = row(&r, "fp32", 0, CG_RUNG_CL_ERROR);
    snprintf(c->workload, sizeof c->workload, "%s", "compute");
    snprintf(c->reason, sizeof c->reason, "%s", "OpenCL error (see the log)");
    char dir[] = "/tmp/cg_peak_XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/p.csv", dir);
    assert_int_equal(cg_report_csv(&r, path), 0);
    char *csv = cg_fs_read(path, NULL);
    assert_non_null(csv);
    assert_non_null(strstr(csv, "family,test,variant,value,unit,status,")); /* the device: JSON only */
    assert_true(!strncmp(csv, "family,", 7));
    assert_non_null(strstr(csv, "\nbandwidth,read,\"float4, \"\"x\"\"\",123.5,GB/s,ok,"));
    assert_non_null(strstr(csv, ",zero_copy,"));
    free(csv);
    remove(path);
    snprintf(path, sizeof path, "%s/p.json", dir);
    assert_int_equal(cg_report_json(&r, path), 0);
    char *json = cg_fs_read(path, NULL);
    assert_non_null(json);
    assert_non_null(strstr(json, "\"kind\":\t\"peak\""));
    assert_non_null(strstr(json, "\"value\":\t123.5"));
    assert_non_null(strstr(json, "\"status\":\t\"zero_copy\""));
    assert_non_null(strstr(json, "\"t_min_s\":\tnull"));
    assert_non_null(strstr(json, "\"name\":\t\"Dev, \\\"one\\\"\""));
    assert_non_null(strstr(json, "\"max_time_s\":\t0.25"));
    free(json);
    remove(path);
    snprintf(path, sizeof path, "%s/p.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    cg_report_text(&r, f);
    fclose(f);
    char *text = cg_fs_read(path, NULL);
    assert_non_null(text);
    /* the peak table: its own columns, a figure or the status label, what it counts or why not */
    const char *head = "family     test  variant         figure  counts\n"; /* widths from the content */
    assert_true(!strncmp(text, head, strlen(head)));
    assert_non_null(strstr(text, "\nbandwidth  read  float4, \"x\"   124 GB/s  bytes read once\n"));
    assert_non_null(strstr(text, "zero-copy  zero-copy: no bytes moved\n"));
    assert_non_null(strstr(text, "moved\n\ncompute    fp32")); /* a blank line between families */
    assert_non_null(strstr(text, "CL-ERROR  OpenCL error (see the log)\n"));
    assert_non_null(strstr(text, "--max-time 0.25 s per figure.\n"));
    assert_null(strstr(text, "workload:rung")); /* not the run's table */
    free(text);
    remove(path);
    snprintf(path, sizeof path, "%s/no/such/dir.json", dir);
    assert_int_equal(cg_report_json(&r, path), -1);
    rmdir(dir);
    cg_report_fini(&r);
}

int main(void)
{
    cg_log_set_sink(record, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rate),     cmocka_unit_test(test_zero_copy),
        cmocka_unit_test(test_watchdog), cmocka_unit_test(test_runs_within),
        cmocka_unit_test(test_quantile), cmocka_unit_test(test_timer_parse),
        cmocka_unit_test(test_select),   cmocka_unit_test(test_ceilings),
        cmocka_unit_test(test_writers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
