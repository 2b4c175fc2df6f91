/* The run reader (model/load.c) against hostile files: every key of a wrong type or value refused with
 * "damaged file: PATH: field X of row N" (strings, arrays, objects, booleans and null where numbers belong,
 * negative, zero and huge medians, 1e999, fractions where counts belong, keys given twice, required keys
 * missing); the schema_version message never saying "1, but this reads 1"; a directory and a FIFO refused at
 * once; too many JSON values, too many rows and deep nesting refused before any large allocation; strings
 * with invalid UTF-8, escape sequences and multibyte characters cut at a field's size read back clean. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/runfile.h"
#include "model/utf8.h"

static char tmpdir[64], path[128];

static void write_text(const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

#define HEAD "{\"schema_version\": 1, \"tool\": {\"name\": \"clgauge\"}, \"device\": {}, "

/* A run whose one row is `row` (the keys inside the braces). */
static void write_row(const char *row)
{
    char *text = malloc(strlen(row) + 256);
    assert_non_null(text);
    sprintf(text, HEAD "\"results\": [{%s}]}", row);
    write_text(text);
    free(text);
}

/* Loads path; expects -1 and an error holding each of the NULL-terminated strings. */
static void expect_err(const char *want, ...)
{
    char err[512];
    cg_report r;
    assert_int_equal(cg_report_load(path, &r, err, sizeof err), -1);
    cg_report_fini(&r);
    va_list ap;
    va_start(ap, want);
    for (const char *w = want; w; w = va_arg(ap, const char *))
        if (!strstr(err, w)) fail_msg("error '%s' lacks '%s'", err, w);
    va_end(ap);
    assert_null(strchr(err, '\n'));
}

#define OK_ROW "\"workload\": \"red\", \"rung\": \"r0\", \"status\": \"ok\", \"runs\": 3"

static void test_wrong_types(void **state)
{
    (void)state;
    static const struct {
        const char *row, *field;
    } cases[] = {
        {OK_ROW ", \"t_median_s\": \"0.001\"", "field t_median_s of row 0 (red:r0) is \"0.001\", want"},
        {OK_ROW ", \"t_median_s\": -0.001", "field t_median_s of row 0 (red:r0) is -0.001"},
        {OK_ROW ", \"t_median_s\": 0", "field t_median_s of row 0 (red:r0) is not above 0"},
        {OK_ROW ", \"t_median_s\": null", "field t_median_s of row 0 (red:r0) is not above 0"},
        {OK_ROW ", \"t_median_s\": 1e308", "field t_median_s of row 0 (red:r0) is 1e+308"},
        {OK_ROW ", \"t_median_s\": 1e999", "field t_median_s of row 0 (red:r0) is inf"},
        {OK_ROW ", \"t_median_s\": [1]", "field t_median_s of row 0 (red:r0) is an array"},
        {OK_ROW ", \"t_median_s\": {}", "field t_median_s of row 0 (red:r0) is an object"},
        {OK_ROW ", \"t_median_s\": true", "field t_median_s of row 0 (red:r0) is true"},
        {OK_ROW ", \"t_median_s\": 0.001, \"t_min_s\": \"x\"", "field t_min_s of row 0 (red:r0) is \"x\""},
        {OK_ROW ", \"t_median_s\": 0.001, \"gbps\": -5", "field gbps of row 0 (red:r0) is -5"},
        {OK_ROW ", \"t_median_s\": 0.001, \"t_median_s\": 0.002", "field t_median_s of row 0 is given twice"},
        {OK_ROW, "field t_median_s of row 0 (red:r0) is missing"},
        {"\"workload\": \"red\", \"rung\": \"r0\", \"t_median_s\": 1",
         "field status of row 0 (red:r0) is missing"},
        {"\"workload\": 5, \"rung\": \"r0\", \"status\": \"ok\", \"t_median_s\": 1",
         "field workload of row 0 is 5"},
        {"\"workload\": \"red\", \"rung\": \"r0\", \"status\": \"ok\", \"t_median_s\": 1, \"runs\": 2.5",
         "field runs of row 0 (red:r0) is 2.5, want a whole number"},
        {"\"workload\": \"red\", \"rung\": \"r0\", \"status\": \"great\", \"t_median_s\": 1",
         "field status of row 0 (red:r0) is \"great\", want one of ok,"},
        {OK_ROW ", \"t_median_s\": 1, \"check_ok\": 1",
         "field check_ok of row 0 (red:r0) is 1, want true or false"},
        {OK_ROW ", \"t_median_s\": 1, \"first_mismatch\": -2",
         "field first_mismatch of row 0 (red:r0) is -2"},
        {OK_ROW ", \"t_median_s\": 1, \"warnings\": \"high_cv\"",
         "field warnings of row 0 (red:r0) is \"high_cv\""},
        {OK_ROW ", \"t_median_s\": 1, \"warnings\": [1]",
         "field warnings of row 0 (red:r0) is an array, want an array"},
        {OK_ROW ", \"t_median_s\": 1, \"mismatches\": 1e300", "field mismatches of row 0 (red:r0) is 1e+300"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_row(cases[i].row);
        expect_err("damaged file: ", path, cases[i].field, "rerun `clgauge run --json FILE`", NULL);
    }
    write_text(HEAD "\"results\": [7]}");
    expect_err("damaged file: ", "row 0 of results is 7, want an object", NULL);
    write_text(HEAD "\"options\": {\"runs\": -3}, \"results\": [{" OK_ROW ", \"t_median_s\": 1}]}");
    expect_err("damaged file: ", "field options.runs is -3", NULL);
    write_text(HEAD "\"roofline\": {\"copy_gbps\": 1e308}, \"results\": [{" OK_ROW ", \"t_median_s\": 1}]}");
    expect_err("damaged file: ", "field roofline.copy_gbps is 1e+308, want a number from 0 to 1e+09", NULL);
    write_text(HEAD "\"roofline\": [], \"results\": [{" OK_ROW ", \"t_median_s\": 1}]}");
    expect_err("damaged file: ", "field roofline is an array, want an object", NULL);
    write_text(HEAD "\"device\": {\"name\": 1}, \"results\": [{" OK_ROW ", \"t_median_s\": 1}]}");
    expect_err("field device is given twice", NULL);
    /* the row that loads: a wrong_result or unsupported row may have no timing */
    write_row("\"workload\": \"red\", \"rung\": \"r0\", \"status\": \"unsupported\", \"t_median_s\": 0");
    char err[512];
    cg_report r;
    assert_int_equal(cg_report_load(path, &r, err, sizeof err), 0);
    cg_report_fini(&r);
}

static void test_schema_message(void **state)
{
    (void)state;
    write_text("{\"schema_version\": 1.0000000000000002, \"tool\": {\"name\": \"clgauge\"}, \"device\": {}, "
               "\"results\": []}");
    expect_err("schema_version 1.0000000000000002 is not a whole number", NULL);
    write_text("{\"schema_version\": 1.5, \"tool\": {\"name\": \"clgauge\"}}");
    expect_err("schema_version 1.5 is not a whole number", NULL);
    write_text("{\"schema_version\": 3, \"tool\": {\"name\": \"clgauge\"}}");
    expect_err("schema_version 3, but this clgauge reads schema_version 1 to 2", "(newer)", NULL);
}

static void test_not_a_file(void **state)
{
    (void)state;
    char err[512], fifo[160];
    cg_report r;
    assert_int_equal(cg_report_load(tmpdir, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "directory"));
    cg_report_fini(&r);
    snprintf(fifo, sizeof fifo, "%s/fifo.json", tmpdir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    alarm(20); /* a hang fails the test */
    assert_int_equal(cg_report_load(fifo, &r, err, sizeof err), -1);
    alarm(0);
    assert_non_null(strstr(err, "not a regular file"));
    cg_report_fini(&r);
    unlink(fifo);
}

/* Too many values, too many rows, too deep: refused (the first two before the parser or the rows allocate).
 */
static void test_absurd_sizes(void **state)
{
    (void)state;
    size_t n = (1u << 23) + 2;
    char *text = malloc(2 * n + 8);
    assert_non_null(text);
    text[0] = '[';
    for (size_t i = 0; i < n; i++)
        memcpy(text + 1 + 2 * i, "0,", 2);
    strcpy(text + 2 * n, "0]");
    write_text(text);
    expect_err("JSON values, over the 8388608 a run file may have", NULL);
    size_t rows = 200001;
    text = realloc(text, 3 * rows + 256);
    assert_non_null(text);
    size_t at = (size_t)sprintf(text, HEAD "\"results\": [");
    for (size_t i = 0; i < rows; i++)
        at += (size_t)sprintf(text + at, "{}%s", i + 1 < rows ? "," : "]}");
    write_text(text);
    expect_err("200001 rows in results, over the 200000", NULL);
    size_t depth = 100000;
    text = realloc(text, 2 * depth + 1);
    memset(text, '[', depth);
    memset(text + depth, ']', depth);
    text[2 * depth] = '\0';
    write_text(text);
    expect_err("not valid JSON", NULL);
    free(text);
}

static bool valid_clean(const char *s)
{
    char copy[512];
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7F) return false;
    return cg_utf8_clean(copy, sizeof copy, s, true);
}

/* Escape sequences, C1 controls, invalid UTF-8 and a multibyte name longer than its field read back clean. */
static void test_strings_cleaned(void **state)
{
    (void)state;
    char err[512], row[512];
    cg_report r;
    snprintf(
        row, sizeof row,
        "\"workload\": \"%s\", \"rung\": \"r\\u001b[2J\\u009b31m\", \"status\": \"ok\", \"runs\": 1, "
        "\"t_median_s\": 1, \"why\": \"a\\tb\xff\xc0\xaf\xed\xa0\x80 c\", \"reason\": \"\\u0007\"",
        "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
        "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9x"); /* 16 x e-acute + x: 33 bytes for a field of 32 */
    write_row(row);
    assert_int_equal(cg_report_load(path, &r, err, sizeof err), 0);
    assert_int_equal(strlen(r.rows[0].workload), 30); /* 15 whole characters: never half of one */
    assert_true(valid_clean(r.rows[0].workload));
    assert_string_equal(r.rows[0].rung, "r?[2J?31m");
    assert_string_equal(r.rows[0].why, "a b?????? c");
    assert_string_equal(r.rows[0].reason, "?");
    cg_report_fini(&r);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/clgauge-test-hostile-XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    snprintf(path, sizeof path, "%s/run.json", tmpdir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrong_types),     cmocka_unit_test(test_schema_message),
        cmocka_unit_test(test_not_a_file),      cmocka_unit_test(test_absurd_sizes),
        cmocka_unit_test(test_strings_cleaned),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(path);
    rmdir(tmpdir);
    return rc;
}
