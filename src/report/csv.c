/* The CSV report: a header line, then one line per result row. The columns are the run-level ones (device,
 * driver, seed, git_commit), repeated on every line so that rows from several runs can be concatenated, then
 * cg_result_fields in table order (tool_version and command_line too: every report file says what made it).
 * Quoting follows RFC 4180; lines end in LF; a non-finite number is an empty cell; warnings are their names
 * joined by ';'. */
#include "report/csvcell.h"
#include "report/report.h"
#include "report/outfile.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const run_columns[] = {"device",     "driver",       "seed",
                                          "git_commit", "tool_version", "command_line"};
#define N_RUN_COLUMNS (sizeof run_columns / sizeof run_columns[0])

static void fmt_warnings(char *buf, size_t n, unsigned bits)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < CG_WARN_COUNT && used < n; i++) {
        if (!(bits & (1u << i))) continue;
        int w = snprintf(buf + used, n - used, "%s%s", used ? ";" : "", cg_warning_name(1u << i));
        if (w > 0) used += (size_t)w;
    }
}

/* The text of one field of a row: either points into the row or is formatted into buf. */
static const char *field_text(const cg_field *fd, const cg_result *row, char *buf, size_t n)
{
    const void *p = (const char *)row + fd->offset;
    switch (fd->kind) {
    case CG_F_STR:
        return p;
    case CG_F_DOUBLE:
        cg_csv_fmt_double(buf, n, *(const double *)p);
        return buf;
    case CG_F_SIZE:
        snprintf(buf, n, "%zu", *(const size_t *)p);
        return buf;
    case CG_F_BOOL:
        return *(const bool *)p ? "true" : "false";
    case CG_F_LL:
        snprintf(buf, n, "%lld", *(const long long *)p);
        return buf;
    case CG_F_STATUS:
        return cg_rung_status_name(*(const cg_rung_status *)p);
    case CG_F_WARNINGS:
        fmt_warnings(buf, n, *(const unsigned *)p);
        return buf;
    }
    return "";
}

static void put_row(FILE *f, const cg_report *r, const cg_result *row)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%" PRIu64, r->seed);
    cg_csv_put_cell(f, r->device.name, true);
    cg_csv_put_cell(f, r->device.driver, false);
    cg_csv_put_cell(f, buf, false);
    cg_csv_put_cell(f, r->git_commit, false);
    cg_csv_put_cell(f, r->tool_version, false);
    cg_csv_put_cell(f, r->command_line, false);
    for (size_t k = 0; k < cg_result_nfields; k++)
        cg_csv_put_cell(f, field_text(&cg_result_fields[k], row, buf, sizeof buf), false);
    fputc('\n', f);
}

static int emit_csv(FILE *f, const void *ctx)
{
    const cg_report *r = ctx;
    for (size_t k = 0; k < N_RUN_COLUMNS; k++)
        cg_csv_put_cell(f, run_columns[k], k == 0);
    for (size_t k = 0; k < cg_result_nfields; k++)
        cg_csv_put_cell(f, cg_result_fields[k].name, false);
    fputc('\n', f);
    for (size_t i = 0; i < r->n; i++)
        put_row(f, r, &r->rows[i]);
    return ferror(f) ? -1 : 0;
}

int cg_report_csv(const cg_report *r, const char *path)
{
    return cg_outfile_write(path, emit_csv, r);
}
