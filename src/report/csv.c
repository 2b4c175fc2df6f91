/* The CSV report: a header line, then one line per result row, in a short fixed list of columns
 * (BabelStream's habit: identity, status, timing, rates, check): each is a field of cg_result_fields, with
 * its JSON key as header and the same units. The run's metadata (device, command line, options) and the
 * per-run times are in the JSON report only. Quoting follows RFC 4180; lines end in LF; a non-finite number
 * is an empty cell; warnings are their names joined by ';'. docs/report-schema.md lists the columns. */
#include "report/csvcell.h"
#include "report/report.h"
#include "report/outfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The columns, in order: keep this list stable (scripts read columns by name, but also by position). */
const char *const cg_csv_columns[] = {
    "workload",   "variant",      "rung",    "status",      "runs",     "t_min_s",
    "t_median_s", "t_max_s",      "t_cv",    "gbps",        "gflops",   "items_per_s",
    "item_unit",  "roofline_pct", "speedup", "bound_ratio", "warnings",
};
const size_t cg_csv_ncolumns = sizeof cg_csv_columns / sizeof cg_csv_columns[0];

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
    buf[0] = '\0';
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
    default: /* an array (times_s): the JSON report only */
        return buf;
    }
}

/* The field of a column, NULL when the table has none of that name (a unit test keeps them in step). */
static const cg_field *column_field(const char *name)
{
    for (size_t k = 0; k < cg_result_nfields; k++)
        if (!strcmp(cg_result_fields[k].name, name)) return &cg_result_fields[k];
    return NULL;
}

static int emit_csv(FILE *f, const void *ctx)
{
    const cg_report *r = ctx;
    const cg_field *fields[sizeof cg_csv_columns / sizeof cg_csv_columns[0]];
    char buf[64];
    for (size_t c = 0; c < cg_csv_ncolumns; c++) {
        fields[c] = column_field(cg_csv_columns[c]);
        cg_csv_put_cell(f, cg_csv_columns[c], c == 0);
    }
    fputc('\n', f);
    for (size_t i = 0; i < r->n; i++) {
        for (size_t c = 0; c < cg_csv_ncolumns; c++)
            cg_csv_put_cell(f, fields[c] ? field_text(fields[c], &r->rows[i], buf, sizeof buf) : "", c == 0);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int cg_report_csv(const cg_report *r, const char *path)
{
    return cg_outfile_write(path, emit_csv, r);
}
