/* The --filter sweep's host-only parts: the list parser (every accepted form, every refusal with the item
 * named and the fix), the variant label, the default list of every registered workload that takes --filter,
 * the option itself, and the group a result row belongs to (workload and variant). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cli/filters.h"
#include "cli/options.h"
#include "core/log.h"
#include "model/result.h"
#include "workloads/registry.h"

#define FIX "use N, WxH or a range A-B, e.g. 32, 5x3 or 2-32, comma-separated"

/* Parses s and expects n sizes, want[0..n) as w,h pairs. */
static void parse_ok(const char *s, size_t n, const int *want)
{
    cg_filter_size f[CG_FILTERS_MAX];
    char err[256] = "";
    size_t got = cg_filters_parse(s, f, err, sizeof err);
    if (got != n) fail_msg("'%s': %zu sizes, want %zu (%s)", s, got, n, err);
    for (size_t i = 0; i < n; i++)
        if (f[i].w != want[2 * i] || f[i].h != want[2 * i + 1])
            fail_msg("'%s' item %zu: %dx%d, want %dx%d", s, i, f[i].w, f[i].h, want[2 * i], want[2 * i + 1]);
}

static void test_parse_good(void **state)
{
    (void)state;
    parse_ok("32", 1, (const int[]){32, 32});
    parse_ok("5x3", 1, (const int[]){5, 3});
    parse_ok("3,5,9,17,32", 5, (const int[]){3, 3, 5, 5, 9, 9, 17, 17, 32, 32});
    parse_ok("1x32,32x1,7", 3, (const int[]){1, 32, 32, 1, 7, 7});
    parse_ok("1024x1", 1, (const int[]){1024, 1});
    parse_ok("3x5,5x3", 2, (const int[]){3, 5, 5, 3}); /* not a repeat: the sides differ */
    parse_ok("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", 16,
             (const int[]){1, 1, 2,  2,  3,  3,  4,  4,  5,  5,  6,  6,  7,  7,  8,  8,
                           9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16});
    parse_ok("2-4", 3, (const int[]){2, 2, 3, 3, 4, 4}); /* a range: every square size */
    parse_ok("5x3,7-8,32", 4, (const int[]){5, 3, 7, 7, 8, 8, 32, 32});
    cg_filter_size f[CG_FILTERS_MAX];
    char err[256] = "";
    assert_int_equal(cg_filters_parse("1-32", f, err, sizeof err), 32); /* the seed's plot fits one sweep */
    assert_int_equal(f[31].w, 32);
}

/* Each row: a refused list and what its one-line message must hold. */
static const struct {
    const char *list, *msg;
} bad[] = {
    {"", "an empty item"},
    {",5", "an empty item"},
    {"3,,5", "an empty item"},
    {"3,", "an empty item"},
    {"0", "'0' has a side outside 1 to 1024: " FIX},
    {"5x0", "'5x0' has a side outside 1 to 1024"},
    {"1025", "'1025' has a side outside 1 to 1024"},
    {"99999999999999999999999", "has a side outside 1 to 1024"},
    {"x5", "'x5' is not a size: " FIX},
    {"3x", "'3x' lacks the height after the x: " FIX},
    {"3x4x5", "'3x4x5' is not a size"},
    {"abc", "'abc' is not a size"},
    {"-3", "'-3' is not a size"},
    {"+3", "'+3' is not a size"},
    {" 3", "' 3' is not a size"},
    {"3 ", "'3 ' is not a size"},
    {"3.5", "'3.5' is not a size"},
    {"3xa", "'3xa' is not a size"},
    {"5,9,5", "'5' repeats 5x5: list each size once"},
    {"5,5x5", "'5x5' repeats 5x5"},
    {"1-32,33", "more than 32 sizes: split the sweep over several runs"},
    {"1,2-33", "more than 32 sizes"},
    {"5-3", "'5-3' is not a range from small to large: write A-B with A < B, e.g. 2-32"},
    {"5-5", "'5-5' is not a range from small to large"},
    {"5-", "'5-' is not a range: " FIX},
    {"3x3-5", "'3x3-5' is not a range"},
    {"2-5-7", "'2-5-7' is not a range"},
    {"0-5", "'0-5' has a side outside 1 to 1024"},
    {"3-5,4", "'4' repeats 4x4: list each size once"},
    {"4,3-5", "'3-5' repeats 4x4"},
};

static void test_parse_bad(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cg_filter_size f[CG_FILTERS_MAX];
        char err[256] = "";
        size_t n = cg_filters_parse(bad[i].list, f, err, sizeof err);
        if (n) fail_msg("'%s' accepted as %zu sizes", bad[i].list, n);
        if (!strstr(err, bad[i].msg)) fail_msg("'%s': '%s' lacks '%s'", bad[i].list, err, bad[i].msg);
        assert_null(strchr(err, '\n'));
    }
    char err[256] = "", lng[300];
    cg_filter_size f[CG_FILTERS_MAX];
    memset(lng, '7', sizeof lng - 1);
    lng[sizeof lng - 1] = '\0';
    assert_int_equal(cg_filters_parse(lng, f, err, sizeof err), 0); /* quoted, but not all of it */
    assert_true(strlen(err) < 200);
    assert_int_equal(cg_filters_parse(NULL, f, err, sizeof err), 0);
}

static void test_label(void **state)
{
    (void)state;
    char buf[CG_VARIANT_LEN];
    cg_filter_label(&(cg_filter_size){32, 32}, buf, sizeof buf);
    assert_string_equal(buf, "32x32"); /* always WxH, also for a square */
    cg_filter_label(&(cg_filter_size){5, 3}, buf, sizeof buf);
    assert_string_equal(buf, "5x3");
    cg_filter_label(&(cg_filter_size){CG_FILTER_DIM_MAX, CG_FILTER_DIM_MAX}, buf, sizeof buf);
    assert_string_equal(buf, "1024x1024");
    assert_true(sizeof buf <= sizeof((cg_result *)0)->variant); /* every label fits a row */
}

/* The default list of every workload with a sweep (--filter) parses within its own largest side: a broken
 * one would fail every plain run. */
static void test_workload_defaults(void **state)
{
    (void)state;
    for (size_t i = 0; i < cg_nworkloads; i++) {
        const cg_wopt *d = cg_workload_sweep(cg_workloads[i]);
        cg_filter_size f[CG_FILTERS_MAX];
        char err[256] = "";
        if (d && !cg_filters_parse_max(d->dflt, d->max, f, err, sizeof err))
            fail_msg("%s: default --%s '%s' refused: %s", cg_workloads[i]->name, d->name, d->dflt, err);
    }
}

static void test_option(void **state)
{
    (void)state;
    char *argv[] = {"clgauge", "run", "convolution", "--filter", "3,5x3"};
    cg_opts o;
    assert_int_equal(cg_opts_parse(5, argv, &o), CG_OK);
    assert_string_equal(cg_wopts_find(&o.wopts, "filter")->text, "3,5x3");
    char *eq[] = {"clgauge", "run", "convolution", "--filter=9"};
    assert_int_equal(cg_opts_parse(4, eq, &o), CG_OK);
    assert_string_equal(cg_wopts_find(&o.wopts, "filter")->text, "9");
    char *none[] = {"clgauge", "run", "all"};
    assert_int_equal(cg_opts_parse(3, none, &o), CG_OK);
    assert_null(cg_wopts_find(&o.wopts, "filter"));
    char *peak[] = {"clgauge", "peak", "--filter", "3"}; /* run only */
    assert_int_equal(cg_opts_parse(4, peak, &o), CG_E_USAGE);
}

static void test_group(void **state)
{
    (void)state;
    cg_result a, b;
    char buf[CG_GROUP_LEN];
    memset(&a, 0, sizeof a);
    snprintf(a.workload, sizeof a.workload, "reduction");
    b = a;
    cg_result_group(&a, buf, sizeof buf);
    assert_string_equal(buf, "reduction"); /* no variant: the workload alone, as before sweeps */
    assert_true(cg_result_same_group(&a, &b));
    snprintf(a.workload, sizeof a.workload, "convolution");
    snprintf(a.variant, sizeof a.variant, "32x32");
    cg_result_group(&a, buf, sizeof buf);
    assert_string_equal(buf, "convolution[32x32]");
    assert_false(cg_result_same_group(&a, &b)); /* another workload */
    b = a;
    assert_true(cg_result_same_group(&a, &b));
    snprintf(b.variant, sizeof b.variant, "5x5");
    assert_false(cg_result_same_group(&a, &b)); /* same workload, another size */
    b.variant[0] = '\0';
    assert_false(cg_result_same_group(&a, &b));     /* a variant and none */
    memset(a.workload, 'w', sizeof a.workload - 1); /* the longest names still fit, truncated never */
    memset(a.variant, 'v', sizeof a.variant - 1);
    cg_result_group(&a, buf, sizeof buf);
    assert_int_equal(strlen(buf), sizeof a.workload - 1 + sizeof a.variant - 1 + 2);
    cg_result_group(&a, buf, 8); /* a short buffer is cut, still terminated */
    assert_string_equal(buf, "wwwwwww");
}

int main(void)
{
    cg_log_set_sink(NULL, NULL); /* drop the log lines */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good), cmocka_unit_test(test_parse_bad),
        cmocka_unit_test(test_label),      cmocka_unit_test(test_workload_defaults),
        cmocka_unit_test(test_option),     cmocka_unit_test(test_group),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
