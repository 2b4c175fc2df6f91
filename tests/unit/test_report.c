/* The report layer: JSON and CSV read back field by field, both following cg_row_fields (the CSV header
 * and the JSON keys are compared with the table), RFC 4180 quoting, null for non-finite numbers,
 * all-or-nothing files, the text table (FAILED, units, alignment, "!" on rows with warnings, the why column
 * left out on a narrow terminal), the warnings summary (one line per kind with its fix), the one status
 * vocabulary, the device block (cg_device_fields), the narrow CSV column list, the groups of a --filter sweep
 * (variant in the table, JSON and CSV) and the schema doc naming every field, device key and CSV column. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"

#define WHY0     "one item per element, \"naive\", slow"
#define BIG_SEED 18446744073709551557ull /* above 2^53: must survive exactly */

static char tmpdir[64];

/* Row a is ok (a why with a comma and quotes), b is wrong_result (a NaN error), c is unsupported. */
static void fill_rows(cg_result *a, cg_result *b, cg_result *c)
{
    snprintf(a->workload, sizeof a->workload, "reduction");
    snprintf(a->rung, sizeof a->rung, "naive");
    snprintf(a->why, sizeof a->why, WHY0);
    snprintf(a->item_unit, sizeof a->item_unit, "elem");
    snprintf(a->bytes_note, sizeof a->bytes_note, "R: 4 B/elem read once");
    a->status = CG_RUNG_OK;
    a->runs = 10;
    a->t_median = 1.234e-3;
    a->t_cv = 0.123;
    a->outliers = 2;
    a->gbps = 54.321;
    a->gflops = 0.1;
    a->items_per_s = 12.34e9;
    a->roofline_pct = 45.26;
    a->speedup = 1;
    a->check_ok = true;
    a->warnings = CG_WARN_HIGH_CV | CG_WARN_OUTLIERS;

    snprintf(b->workload, sizeof b->workload, "reduction");
    snprintf(b->rung, sizeof b->rung, "local");
    snprintf(b->reason, sizeof b->reason, "3 mismatches, first at 17");
    b->status = CG_RUNG_WRONG;
    b->runs = 10;
    b->t_median = 0.5e-3;
    b->speedup = 2.468;
    b->max_rel_err = NAN;
    b->first_mismatch = 17;
    b->mismatches = 3;

    snprintf(c->workload, sizeof c->workload, "filter3x3");
    snprintf(c->rung, sizeof c->rung, "u8-img");
    snprintf(c->reason, sizeof c->reason, "device lacks images");
    c->status = CG_RUNG_UNSUPPORTED;
}

static void fill_report(cg_report *r)
{
    cg_report_init(r);
    snprintf(r->tool_version, sizeof r->tool_version, "0.1.0");
    snprintf(r->git_commit, sizeof r->git_commit, "abc123");
    snprintf(r->device.name, sizeof r->device.name, "cpu, \"fast\"");
    snprintf(r->device.driver, sizeof r->device.driver, "6.0");
    r->device.global_mem = 1ull << 40;
    r->seed = BIG_SEED;
    r->runs = 10;
    r->copy_gbps = 100;
    r->read_gbps = 120;
    r->mad_gflops = NAN;
    snprintf(r->roofline_source, sizeof r->roofline_source, "measured");
    for (int i = 0; i < 3; i++)
        assert_non_null(cg_report_add(r));
    fill_rows(&r->rows[0], &r->rows[1], &r->rows[2]); /* after the adds: rows may move */
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static void in_tmp(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", tmpdir, name);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cg_report_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    DIR *d = opendir(tmpdir);
    if (!d) return -1;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name);
        remove(path);
    }
    closedir(d);
    return rmdir(tmpdir);
}

/* ---- names and the row array ---- */

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(cg_rung_status_name(CG_RUNG_OK), "ok");
    assert_string_equal(cg_rung_status_name(CG_RUNG_WRONG), "wrong_result");
    assert_string_equal(cg_rung_status_name(CG_RUNG_UNSUPPORTED), "unsupported");
    assert_string_equal(cg_rung_status_name(CG_RUNG_BUILD_FAILED), "build_failed");
    assert_string_equal(cg_rung_status_name(CG_RUNG_CL_ERROR), "cl_error");
    /* one status vocabulary for run and peak rows, each word with the label the tables show */
    assert_string_equal(cg_rung_status_name(CG_RUNG_ZERO_COPY), "zero_copy");
    assert_string_equal(cg_rung_status_name((cg_rung_status)99), "unknown");
    assert_string_equal(cg_status_label("wrong_result"), "FAILED");
    assert_string_equal(cg_status_label("cl_error"), "CL-ERROR");
    assert_string_equal(cg_status_label("zero_copy"), "zero-copy");
    assert_null(cg_status_label("failed"));
    for (int k = CG_RUNG_OK; k <= CG_RUNG_ZERO_COPY; k++)
        assert_non_null(cg_status_label(cg_rung_status_name((cg_rung_status)k)));
    /* the statuses that fail the exit code */
    assert_false(cg_rung_status_failed(CG_RUNG_OK));
    assert_true(cg_rung_status_failed(CG_RUNG_WRONG));
    assert_false(cg_rung_status_failed(CG_RUNG_UNSUPPORTED));
    assert_true(cg_rung_status_failed(CG_RUNG_BUILD_FAILED));
    assert_true(cg_rung_status_failed(CG_RUNG_CL_ERROR));
    assert_false(cg_rung_status_failed(CG_RUNG_ZERO_COPY));
    assert_string_equal(cg_warning_name(CG_WARN_HIGH_CV), "high_cv");
    assert_string_equal(cg_warning_name(CG_WARN_TOO_SHORT), "too_short");
    assert_string_equal(cg_warning_name(CG_WARN_OUTLIERS), "outliers");
    assert_string_equal(cg_warning_name(CG_WARN_EMULATED), "emulated");
    assert_non_null(strstr(cg_warning_fix(CG_WARN_HIGH_CV), "check its clocks"));
    assert_null(strstr(cg_warning_fix(CG_WARN_HIGH_CV), "--runs")); /* more runs do not lower a CV */
    assert_null(strstr(cg_warning_fix(CG_WARN_OUTLIERS), "--runs"));
    assert_non_null(strstr(cg_warning_fix(CG_WARN_TOO_SHORT), "raise --size"));
    assert_non_null(strstr(cg_warning_fix(CG_WARN_OUTLIERS), "rerun"));
    for (unsigned b = 0; b < CG_WARN_COUNT; b++) /* the text report relies on "<what>: <fix>" */
        assert_non_null(strchr(cg_warning_fix(1u << b), ':'));
}

static void test_add_grows(void **state)
{
    (void)state;
    cg_report r;
    cg_report_init(&r);
    for (int i = 0; i < 100; i++) {
        cg_result *row = cg_report_add(&r);
        assert_non_null(row);
        assert_int_equal(row->first_mismatch, -1);
        assert_int_equal(row->runs, 0);
        snprintf(row->rung, sizeof row->rung, "r%d", i);
    }
    assert_int_equal(r.n, 100);
    assert_string_equal(r.rows[0].rung, "r0");
    assert_string_equal(r.rows[99].rung, "r99");
    cg_report_fini(&r);
    assert_null(r.rows);
    assert_int_equal(r.n, 0);
}

/* ---- JSON ---- */

static const cJSON *row_of(const cJSON *top, int i)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(top, "results");
    assert_true(cJSON_IsArray(a));
    const cJSON *row = cJSON_GetArrayItem(a, i);
    assert_non_null(row);
    return row;
}

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

static double num_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static void check_json_rows(const cJSON *top)
{
    const cJSON *a = row_of(top, 0), *b = row_of(top, 1), *c = row_of(top, 2);
    assert_string_equal(str_of(a, "why"), WHY0);
    assert_string_equal(str_of(a, "status"), "ok");
    assert_true(num_of(a, "t_median_s") == 1.234e-3);
    assert_true(num_of(a, "gbps") == 54.321);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "check_ok")));
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(a, "warnings");
    assert_int_equal(cJSON_GetArraySize(w), 2);
    assert_string_equal(cJSON_GetArrayItem(w, 0)->valuestring, "high_cv");
    assert_string_equal(cJSON_GetArrayItem(w, 1)->valuestring, "outliers");
    assert_string_equal(str_of(b, "status"), "wrong_result");
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(b, "max_rel_err")));
    assert_true(num_of(b, "first_mismatch") == 17);
    assert_true(num_of(c, "first_mismatch") == -1);
    assert_string_equal(str_of(c, "status"), "unsupported");
    assert_string_equal(str_of(c, "reason"), "device lacks images");

    /* every row has exactly the run's keys of the table, in the table's order */
    size_t k = 0;
    const cJSON *it = a->child;
    for (; k < cg_row_nfields; k++) {
        if (!cg_field_carried(&cg_row_fields[k], CG_KIND_RUN)) continue;
        assert_non_null(it);
        assert_string_equal(it->string, cg_row_fields[k].name);
        it = it->next;
    }
    assert_null(it);
}

static void test_json_roundtrip(void **state)
{
    (void)state;
    cg_report r;
    char path[128];
    fill_report(&r);
    in_tmp(path, sizeof path, "report.json");
    assert_int_equal(cg_report_json(&r, path), 0);
    char *text = slurp(path);
    cJSON *top = cJSON_Parse(text);
    assert_non_null(top);

    assert_int_equal((int)num_of(top, "schema_version"), 2);
    assert_string_equal(str_of(top, "kind"), "run");
    assert_string_equal(str_of(cJSON_GetObjectItemCaseSensitive(top, "tool"), "name"), "clgauge");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(top, "device");
    assert_string_equal(str_of(dev, "name"), "cpu, \"fast\"");
    assert_true(num_of(dev, "global_mem_bytes") == 1099511627776.0);
    assert_string_equal(str_of(dev, "driver_version"), "6.0");
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(dev, "fp16"))); /* not probed */
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(dev, "fp64")));
    size_t k = 0; /* the device block is cg_device_fields, in order: the same keys as `devices --json` */
    for (const cJSON *it = dev->child; it; it = it->next, k++) {
        assert_true(k < cg_device_nfields);
        assert_string_equal(it->string, cg_device_fields[k].name);
    }
    assert_int_equal(k, cg_device_nfields);
    assert_non_null(strstr(text, "\"seed\":\t18446744073709551557")); /* exact digits, not 1.8e19 */
    const cJSON *roof = cJSON_GetObjectItemCaseSensitive(top, "roofline");
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(roof, "mad_gflops")));
    assert_true(num_of(roof, "copy_gbps") == 100);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(top, "results")), 3);
    check_json_rows(top);
    cJSON_Delete(top);
    free(text);
    cg_report_fini(&r);
}

/* ---- CSV ---- */

/* A small RFC 4180 reader: cells[record][field], NUL-terminated strings in one buffer. */
typedef struct csv {
    char *buf;
    char *cell[8][64];
    size_t ncell[8], nrec;
} csv;

static void csv_parse(csv *t, const char *text)
{
    memset(t, 0, sizeof *t);
    t->buf = malloc(strlen(text) + 1);
    assert_non_null(t->buf);
    char *out = t->buf;
    const char *p = text;
    while (*p) {
        assert_true(t->nrec < 8);
        size_t *nc = &t->ncell[t->nrec];
        assert_true(*nc < 64);
        t->cell[t->nrec][(*nc)++] = out;
        if (*p == '"') {
            for (p++; !(p[0] == '"' && p[1] != '"'); p++) {
                assert_true(*p != '\0'); /* unterminated quote */
                if (*p == '"') p++;
                *out++ = *p;
            }
            p++;
        } else {
            while (*p && *p != ',' && *p != '\n')
                *out++ = *p++;
        }
        *out++ = '\0';
        assert_true(*p == ',' || *p == '\n');
        if (*p++ == '\n') t->nrec++;
    }
}

static void test_csv_roundtrip(void **state)
{
    (void)state;
    cg_report r;
    char path[128];
    csv t;
    fill_report(&r);
    snprintf(r.rows[0].variant, sizeof r.rows[0].variant, "a, \"b\""); /* RFC 4180 quoting */
    in_tmp(path, sizeof path, "report.csv");
    assert_int_equal(cg_report_csv(&r, path), 0);
    char *text = slurp(path);
    csv_parse(&t, text);

    assert_int_equal(t.nrec, 4);
    assert_int_equal(t.ncell[0], cg_csv_ncolumns);
    assert_true(cg_csv_ncolumns <= 27);            /* narrow: the run's metadata is in the JSON only */
    for (size_t c = 0; c < cg_csv_ncolumns; c++) { /* the header is the column list, each a field */
        assert_string_equal(t.cell[0][c], cg_csv_columns[c]);
        bool found = false;
        for (size_t k = 0; k < cg_row_nfields; k++)
            found = found || (cg_field_carried(&cg_row_fields[k], CG_KIND_RUN) &&
                              !strcmp(cg_row_fields[k].name, cg_csv_columns[c]));
        if (!found) fail_msg("CSV column %s is not a run field of cg_row_fields", cg_csv_columns[c]);
    }
    for (size_t i = 1; i < t.nrec; i++)
        assert_int_equal(t.ncell[i], t.ncell[0]);

    size_t variant = 0, status = 0, median = 0, warn = 0, speedup = 0;
    for (size_t k = 0; k < t.ncell[0]; k++) {
        variant = strcmp(t.cell[0][k], "variant") ? variant : k;
        status = strcmp(t.cell[0][k], "status") ? status : k;
        median = strcmp(t.cell[0][k], "t_median_s") ? median : k;
        warn = strcmp(t.cell[0][k], "warnings") ? warn : k;
        speedup = strcmp(t.cell[0][k], "speedup") ? speedup : k;
    }
    assert_null(strstr(text, "command_line"));
    assert_null(strstr(text, "cpu, ")); /* the device name */
    assert_string_equal(t.cell[1][0], "reduction");
    assert_string_equal(t.cell[1][variant], "a, \"b\"");
    assert_non_null(strstr(text, "\"a, \"\"b\"\"\""));
    assert_string_equal(t.cell[1][status], "ok");
    assert_string_equal(t.cell[2][status], "wrong_result");
    assert_string_equal(t.cell[3][status], "unsupported");
    assert_string_equal(t.cell[1][median], "0.001234");
    assert_string_equal(t.cell[2][speedup], "2.468");
    assert_string_equal(t.cell[1][warn], "high_cv;outliers");

    free(t.buf);
    free(text);
    cg_report_fini(&r);
}

/* ---- failures leave nothing behind ---- */

static void test_unwritable(void **state)
{
    (void)state;
    cg_report r;
    fill_report(&r);
    errno = 0;
    assert_int_equal(cg_report_json(&r, "/nonexistent/dir/x.json"), -1);
    assert_int_equal(errno, ENOENT);
    errno = 0;
    assert_int_equal(cg_report_csv(&r, "/nonexistent/dir/x.csv"), -1);
    assert_int_equal(errno, ENOENT);
    assert_false(exists("/nonexistent/dir/x.json.tmp"));

    /* the temp file is written, then the rename onto a directory fails: it must be removed */
    char path[128], tmp[140];
    in_tmp(path, sizeof path, "isdir.json");
    assert_int_equal(mkdir(path, 0700), 0);
    errno = 0;
    assert_int_equal(cg_report_json(&r, path), -1);
    assert_int_not_equal(errno, 0);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    assert_false(exists(tmp));
    assert_int_equal(cg_report_csv(&r, path), -1);
    assert_false(exists(tmp));
    assert_int_equal(rmdir(path), 0);
    cg_report_fini(&r);
}

/* ---- text ---- */

static char *text_of(const cg_report *r)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    assert_non_null(f);
    cg_report_text(r, f);
    fclose(f);
    return s;
}

static void test_text(void **state)
{
    (void)state;
    cg_report r;
    fill_report(&r);
    char *s = text_of(&r);
    static const char *const want[] = {
        "GB/s",
        "GFLOP/s",
        "median",
        "roofline %",
        "reduction:local",
        "FAILED",
        "1.23 ms",
        "12.3 Gelem/s",
        "x2.47",
        "x1.00",
        "45.3",
        "+-12.3",
        "filter3x3:u8-img unsupported: device lacks images",
        "reduction:local wrong_result: 3 mismatches, first at 17",
        "\n!: warnings: high_cv on 1 row, outliers on 1 row (fixes: stderr; per row: the JSON)\n",
        "reduction: R: 4 B/elem read once",
        "copy 100 GB/s",
        WHY0,
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(s, want[i])) fail_msg("missing \"%s\" in:\n%s", want[i], s);

    /* widths come from the content: every line of the table starts its status cell at the same column */
    const char *lines[4];
    lines[0] = s;
    for (int i = 1; i < 4; i++) {
        lines[i] = strchr(lines[i - 1], '\n') + 1;
    }
    size_t col = (size_t)(strstr(lines[0], "status") - lines[0]);
    assert_true(!strncmp(lines[1] + col, "OK! ", 4)); /* a row with warnings is marked */
    assert_null(strstr(s, "Warning"));                /* the warnings go to stderr, one line per kind */
    assert_true(!strncmp(lines[2] + col, "FAILED ", 7));
    assert_true(!strncmp(lines[3] + col, "unsupported ", 12));
    assert_true(lines[3][col - 1] == ' ');
    /* the unsupported row did not run: "-" in its time and rate columns, no number */
    char l3[512];
    snprintf(l3, sizeof l3, "%.*s", (int)(strchr(lines[3], '\n') - lines[3]), lines[3]);
    assert_null(strstr(l3, " s "));
    assert_null(strstr(l3, "/s"));
    assert_non_null(strstr(l3, "  -  "));
    free(s);
    cg_report_fini(&r);
}

static char *warnings_of(const cg_report *r)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    assert_non_null(f);
    cg_report_warnings(r, f);
    fclose(f);
    return s;
}

/* One line per warning kind, naming the count, the worst row with its numbers, and the fix. */
static void test_warnings_summary(void **state)
{
    (void)state;
    cg_report r;
    fill_report(&r);
    char *s = warnings_of(&r);
    assert_string_equal(
        s, "Warning: timings vary on 1 of 2 rungs (at reduction:naive: CV 12.3%): close other "
           "programs using the device and check its clocks (power and thermal state)\n"
           "Warning: outliers among the runs on 1 of 2 rungs (at reduction:naive: 2 of 10 runs): "
           "another program or a clock change interfered; close other programs, check the "
           "device's clocks and rerun\n");
    free(s);
    for (int i = 0; i < 30; i++) { /* 30 more rows with a high CV: still one line, naming the worst */
        cg_result *row = cg_report_add(&r);
        assert_non_null(row);
        snprintf(row->workload, sizeof row->workload, "transpose");
        snprintf(row->rung, sizeof row->rung, "r%d", i);
        row->status = CG_RUNG_OK;
        row->runs = 5;
        row->t_median = 1e-3;
        row->t_cv = i == 17 ? 0.259 : 0.06;
        row->warnings = CG_WARN_HIGH_CV;
    }
    s = warnings_of(&r);
    size_t lines = 0;
    for (const char *p = s; (p = strchr(p, '\n')); p++)
        lines++;
    assert_int_equal(lines, 2);
    assert_non_null(
        strstr(s, "Warning: timings vary on 31 of 32 rungs (worst transpose:r17: CV 25.9%): close"));
    free(s);
    cg_report_fini(&r);
    cg_report_init(&r);
    s = warnings_of(&r);
    assert_string_equal(s, ""); /* no warning, no line */
    free(s);
    cg_report_fini(&r);
}

/* A terminal narrower than the table: the why column is left out (and said so); 0 keeps it. */
static void test_text_narrow(void **state)
{
    (void)state;
    cg_report r;
    fill_report(&r);
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    assert_non_null(f);
    cg_report_text_fit(&r, f, 100);
    fclose(f);
    assert_null(strstr(s, WHY0));
    assert_null(strstr(s, "  why\n"));
    assert_non_null(strstr(s, "(why column left out to fit 100 columns: `clgauge list` shows it)"));
    assert_non_null(strstr(s, "reduction:naive"));
    for (const char *line = s; *line && strncmp(line, "!:", 2); line = strchr(line, '\n') + 1)
        assert_true(strchr(line, '\n') - line <= 100); /* every line of the table fits */
    free(s);
    f = open_memstream(&s, &n);
    cg_report_text_fit(&r, f, 0);
    fclose(f);
    assert_non_null(strstr(s, WHY0));
    assert_null(strstr(s, "left out"));
    free(s);
    assert_int_equal(cg_report_text_columns(stdin) >= 0, 1);
    cg_report_fini(&r);
}

/* ---- the groups of a --filter sweep ---- */

/* Two groups of convolution (3x3, 5x5, the bytes note differing) and a reduction row without a variant. */
static void fill_sweep(cg_report *r)
{
    static const char *const variant[] = {"3x3", "3x3", "5x5", ""};
    cg_report_init(r);
    for (int i = 0; i < 4; i++) {
        cg_result *row = cg_report_add(r);
        assert_non_null(row);
        snprintf(row->workload, sizeof row->workload, i < 3 ? "convolution" : "reduction");
        snprintf(row->rung, sizeof row->rung, i % 2 ? "vec4" : "naive");
        snprintf(row->variant, sizeof row->variant, "%s", variant[i]);
        snprintf(row->bytes_note, sizeof row->bytes_note, "R: %s filter", i < 2 ? "3x3" : "5x5");
        row->status = CG_RUNG_OK;
    }
}

static void test_variant(void **state)
{
    (void)state;
    cg_report r;
    char path[128];
    fill_sweep(&r);
    char *s = text_of(&r);
    static const char *const want[] = {
        "\nconvolution[3x3]:naive ",           "\nconvolution[3x3]:vec4 ",
        "\nconvolution[5x5]:naive ",           "\nreduction:vec4 ",
        "  convolution[3x3]: R: 3x3 filter\n", "  convolution[5x5]: R: 5x5 filter\n"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(s, want[i])) fail_msg("missing \"%s\" in:\n%s", want[i], s);
    assert_null(strstr(s, "reduction[")); /* no variant: named as before sweeps */
    free(s);

    in_tmp(path, sizeof path, "sweep.json");
    assert_int_equal(cg_report_json(&r, path), 0);
    char *text = slurp(path);
    cJSON *top = cJSON_Parse(text);
    assert_non_null(top);
    assert_string_equal(str_of(row_of(top, 0), "variant"), "3x3");
    assert_string_equal(str_of(row_of(top, 2), "variant"), "5x5");
    assert_string_equal(str_of(row_of(top, 3), "variant"), ""); /* always written, "" for none */
    cJSON_Delete(top);
    free(text);

    csv t;
    in_tmp(path, sizeof path, "sweep.csv");
    assert_int_equal(cg_report_csv(&r, path), 0);
    text = slurp(path);
    csv_parse(&t, text);
    size_t col = 0;
    for (size_t k = 0; k < t.ncell[0]; k++)
        col = strcmp(t.cell[0][k], "variant") ? col : k;
    assert_int_not_equal(col, 0);
    assert_string_equal(t.cell[1][col], "3x3");
    assert_string_equal(t.cell[3][col], "5x5");
    assert_string_equal(t.cell[4][col], "");
    free(t.buf);
    free(text);
    cg_report_fini(&r);
}

/* ---- the schema doc names every field ---- */

static void test_doc_lists_fields(void **state)
{
    (void)state;
    /* ctest sets TESTDATA=tests/data; run by hand, the doc is found from this file's folder */
    const char *data = getenv("TESTDATA");
    char path[1024];
    if (data) {
        snprintf(path, sizeof path, "%s/../../docs/report-schema.md", data);
    } else {
        const char *slash = strrchr(__FILE__, '/');
        int dir = slash ? (int)(slash - __FILE__) : 1;
        snprintf(path, sizeof path, "%.*s/../../docs/report-schema.md", dir, slash ? __FILE__ : ".");
    }
    char *doc = slurp(path);
    char key[80];
    for (size_t k = 0; k < cg_row_nfields; k++) { /* every key of a run row and of a peak row */
        snprintf(key, sizeof key, "| `%s` |", cg_row_fields[k].name);
        if (!strstr(doc, key)) fail_msg("docs/report-schema.md lacks a row for %s", cg_row_fields[k].name);
    }
    for (size_t k = 0; k < cg_device_nfields; k++) {
        snprintf(key, sizeof key, "| `%s` |", cg_device_fields[k].name);
        if (!strstr(doc, key))
            fail_msg("docs/report-schema.md lacks a row for device.%s", cg_device_fields[k].name);
    }
    /* the CSV columns of run and peak, each listed in order on one line */
    char peak[512] = "`";
    for (size_t k = 0; k < cg_row_nfields; k++) {
        size_t len = strlen(peak);
        if (cg_field_carried(&cg_row_fields[k], CG_KIND_PEAK))
            snprintf(peak + len, sizeof peak - len, "%s%s", len > 1 ? "," : "", cg_row_fields[k].name);
    }
    strcat(peak, "`");
    if (!strstr(doc, peak)) fail_msg("docs/report-schema.md lacks the peak CSV header %s", peak);
    char cols[1024] = "`";
    for (size_t c = 0; c < cg_csv_ncolumns; c++) {
        size_t len = strlen(cols);
        snprintf(cols + len, sizeof cols - len, "%s%s", cg_csv_columns[c],
                 c + 1 < cg_csv_ncolumns ? "," : "`");
    }
    if (!strstr(doc, cols)) fail_msg("docs/report-schema.md lacks the CSV header %s", cols);
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_add_grows),
        cmocka_unit_test(test_json_roundtrip),
        cmocka_unit_test(test_csv_roundtrip),
        cmocka_unit_test(test_unwritable),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_warnings_summary),
        cmocka_unit_test(test_text_narrow),
        cmocka_unit_test(test_variant),
        cmocka_unit_test(test_doc_lists_fields),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
