/* The peak table's seed families (balance, cache, rules, scatter; issue 16): each family's tests sit together
 * (the --only message lists them family by family), names are unique, none is part of --quick (the roofline's
 * three keep their time), --only picks them by family or by test, and an unknown name lists them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "peak/peak.h"

static char last_line[2048];

static void record(cg_log_level level, const char *msg, void *user)
{
    (void)level;
    (void)user;
    snprintf(last_line, sizeof last_line, "%s", msg);
}

/* The names of the selected tests, comma-separated, in table order. */
static const char *picked(const char *only, bool quick)
{
    static char buf[512];
    bool sel[CG_PEAK_MAX_TESTS];
    size_t used = 0;
    buf[0] = 0;
    assert_int_equal(cg_peak_select(only, quick, sel), CG_OK);
    for (size_t i = 0; i < cg_peak_ntests; i++)
        if (sel[i])
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", used ? "," : "",
                                     cg_peak_tests[i].name);
    return buf;
}

static void test_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < cg_peak_ntests; i++) {
        const cg_peak_test *t = &cg_peak_tests[i];
        for (size_t j = i + 1; j < cg_peak_ntests; j++) {
            assert_string_not_equal(t->name, cg_peak_tests[j].name);
            /* a family's tests are contiguous: no later test of the same family after another family's */
            if (j > i + 1 && !strcmp(t->family, cg_peak_tests[j].family))
                assert_string_equal(cg_peak_tests[j - 1].family, t->family);
        }
    }
}

static void test_select_seeds(void **state)
{
    (void)state;
    assert_string_equal(picked("balance", false), "crossover,chains");
    assert_string_equal(picked("cache", false), "sizes");
    assert_string_equal(picked("rules", false), "coalescing,divergence");
    assert_string_equal(picked("scatter", false), "scatter,channels"); /* the family (and its test) */
    assert_string_equal(picked("channels,crossover", true), "crossover,channels");
    assert_string_equal(picked(NULL, true), "read,copy,fp32"); /* --quick alone: the roofline's three */
    /* a full peak runs copy and fp32 before crossover, whose roofline row takes them from the same run */
    const char *all = picked(NULL, false);
    const char *copy = strstr(all, "copy,"), *fp32 = strstr(all, "fp32,"), *cross = strstr(all, "crossover,");
    assert_true(copy && fp32 && cross && copy < cross && fp32 < cross);
}

static void test_unknown_lists_seeds(void **state)
{
    (void)state;
    bool sel[CG_PEAK_MAX_TESTS];
    last_line[0] = 0;
    assert_int_equal(cg_peak_select("balanse", false, sel), CG_E_USAGE);
    assert_non_null(strstr(last_line, "unknown peak test 'balanse'"));
    assert_non_null(strstr(last_line, "balance crossover chains"));
    assert_non_null(strstr(last_line, "cache sizes"));
    assert_non_null(strstr(last_line, "rules coalescing divergence"));
    assert_non_null(strstr(last_line, "scatter scatter channels"));
}

int main(void)
{
    cg_log_set_sink(record, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_select_seeds),
        cmocka_unit_test(test_unknown_lists_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
