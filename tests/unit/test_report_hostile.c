/* Text from outside on its way out: model/utf8.c (a cut never splits a character; invalid sequences,
 * overlong forms, surrogates and control characters replaced), the command line recorded in every report cut
 * on a character boundary (cli/meta.c), and huge values from a damaged file printed in bounded width by the
 * terminal table and `compare`. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/meta.h"
#include "report/compare.h"
#include "report/report.h"
#include "report/units.h"
#include "model/utf8.h"

static void test_cut(void **state)
{
    (void)state;
    const char *s = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"; /* a, e-acute (2), euro (3), emoji (4) */
    static const size_t want[] = {0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10};
    for (size_t n = 0; n <= 10; n++)
        assert_int_equal(cg_utf8_cut(s, n), want[n]);
}

static void test_clean(void **state)
{
    (void)state;
    char out[64];
    assert_true(cg_utf8_clean(out, sizeof out, "caf\xc3\xa9 \xe2\x82\xac", true));
    assert_string_equal(out, "caf\xc3\xa9 \xe2\x82\xac");
    assert_false(cg_utf8_clean(out, sizeof out, "\xc0\x80|\xed\xa0\x80|\xf4\x90\x80\x80|\xff|\xc3", false));
    assert_string_equal(out, "??|???|????|?|?"); /* overlong, surrogate, above U+10FFFF, 0xFF, truncated */
    assert_false(cg_utf8_clean(out, sizeof out,
                               "\x1b[31mred\xc2\x9b"
                               "1m\x7f\tx\n",
                               true));
    assert_string_equal(out, "?[31mred?1m? x ");
    assert_true(cg_utf8_clean(out, sizeof out, "\x1b[31m", false)); /* controls kept without the flag */
    assert_string_equal(out, "\x1b[31m");
    /* bidirectional overrides and isolates (U+202E, U+2066) become '?'; a neighbour (U+2030 per mille) stays
     */
    assert_false(cg_utf8_clean(out, sizeof out,
                               "a\xe2\x80\xae"
                               "b\xe2\x81\xa6"
                               "c\xe2\x80\xb0",
                               true));
    assert_string_equal(out, "a?b?c\xe2\x80\xb0");
    assert_false(cg_utf8_clean(out, 4, "ab\xc3\xa9", true)); /* e-acute does not fit in 4 bytes with NUL */
    assert_string_equal(out, "ab");
}

/* The JSON of a run is valid however long the multibyte argument: the command line never ends in half a
 * character. */
static void test_command_line(void **state)
{
    (void)state;
    char arg[3000], line[1024];
    for (size_t k = 0; k + 2 < sizeof arg; k += 2)
        memcpy(arg + k, "\xc3\xa9", 2);
    arg[sizeof arg - 1 - (sizeof arg - 1) % 2] = '\0';
    for (size_t shift = 0; shift < 4; shift++) {
        char *argv[] = {"clgauge", "run", shift % 2 ? "x" : "xy", arg + 2 * shift, NULL};
        cg_cli_command_line(line, sizeof line, 4, argv);
        size_t n = strlen(line);
        assert_true(n > 1000 && n < sizeof line);
        assert_int_equal(cg_utf8_cut(line, n), n);
        char copy[1024];
        assert_true(cg_utf8_clean(copy, sizeof copy, line, false));
    }
    char bad[] = "--json=\xff\xfe.json";
    char *argv[] = {"clgauge", bad, NULL};
    cg_cli_command_line(line, sizeof line, 2, argv);
    assert_string_equal(line, "clgauge --json=??.json");
}

static void longest_line(const char *text, size_t *longest)
{
    *longest = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (n > *longest) *longest = n;
        p += n + (p[n] == '\n');
    }
}

/* Values at the limits a damaged file can bring (1e308 rates and speedups, CV 1e300) print short. */
static void test_bounded_width(void **state)
{
    (void)state;
    cg_report r;
    cg_report_init(&r);
    r.copy_gbps = r.read_gbps = r.mad_gflops = 1e308;
    for (int i = 0; i < 2; i++) {
        cg_result *row = cg_report_add(&r);
        assert_non_null(row);
        snprintf(row->workload, sizeof row->workload, "w");
        snprintf(row->rung, sizeof row->rung, "r%d", i);
        row->status = CG_RUNG_OK;
        row->runs = (size_t)1 << 60;
        row->t_median = i ? 1e-300 : 1e6;
        row->t_stddev = 1e6;
        row->t_cv = row->roofline_pct = row->speedup = 1e300;
        row->gbps = row->gflops = row->items_per_s = 1e308;
        row->warnings = CG_WARN_HIGH_CV | CG_WARN_ABOVE_ROOF;
    }
    char *text;
    size_t len, longest;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    cg_report_text(&r, f);
    fclose(f);
    longest_line(text, &longest);
    if (longest > 160) fail_msg("a line of %zu characters in:\n%s", longest, text);
    free(text);
    cg_report b = r;
    b.rows = NULL;
    b.n = b.cap = 0;
    for (size_t i = 0; i < r.n; i++) {
        cg_result *row = cg_report_add(&b);
        assert_non_null(row);
        *row = r.rows[i];
        row->t_median = i ? 1e6 : 1e-300;
    }
    char err[256];
    f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(cg_compare(&r, "a", &b, "b", 5, f, err, sizeof err), CG_CMP_OK);
    fclose(f);
    longest_line(text, &longest);
    if (longest > 160) fail_msg("a line of %zu characters in:\n%s", longest, text);
    free(text);
    snprintf(b.device.name, sizeof b.device.name, "other"); /* side by side: speedups printed */
    f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(cg_compare(&r, "a", &b, "b", 5, f, err, sizeof err), CG_CMP_OK);
    fclose(f);
    longest_line(text, &longest);
    if (longest > 160) fail_msg("a line of %zu characters in:\n%s", longest, text);
    free(text);
    char buf[32];
    cg_fmt_time(buf, sizeof buf, 1e300);
    assert_true(strlen(buf) <= 12);
    cg_report_fini(&r);
    cg_report_fini(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cut),
        cmocka_unit_test(test_clean),
        cmocka_unit_test(test_command_line),
        cmocka_unit_test(test_bounded_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
