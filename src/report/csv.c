/* The CSV reports of `run` and `peak`, written by one writer: a header line, then one line per row, the
 * columns a list of fields of the document's table, each with its JSON key as header and the same units.
 * The run keeps a short fixed list (BabelStream's habit: identity, status, timing, rates, check); peak rows
 * have every field of cg_peak_fields. The run's metadata (device, command line, options) and the per-run
 * times are in the JSON report only. Quoting follows RFC 4180; lines end in LF; a non-finite number is an
 * empty cell; warnings are their names joined by ';'. docs/report-schema.md lists the columns. */
#include "report/csvcell.h"
#include "report/report.h"
#include "report/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The run's columns, in order: keep this list stable (scripts read columns by name, but also by position). */
const char *const cg_csv_columns[] = {
    "workload",   "variant",      "rung",    "status",      "runs",     "t_min_s",
    "t_median_s", "t_max_s",      "t_cv",    "gbps",        "gflops",   "items_per_s",
    "item_unit",  "roofline_pct", "speedup", "bound_ratio", "warnings",
};
const size_t cg_csv_ncolumns = sizeof cg_csv_columns / sizeof cg_csv_columns[0];

/* What the one writer takes: n rows lying stride bytes apart, their field table, and the columns (names of
 * fields, in order; NULL for every field in table order). */
typedef struct csv_doc {
    const void *rows;
    size_t n, stride;
    const cg_field *fields;
    size_t nfields;
    const char *const *columns;
    size_t ncolumns;
} csv_doc;

static void fmt_warnings(char *buf, size_t n, unsigned bits)
{
    size_t used = 0;
    for (unsigned i = 0; i < CG_WARN_COUNT && used < n; i++) {
        if (!(bits & (1u << i))) continue;
        int w = snprintf(buf + used, n - used, "%s%s", used ? ";" : "", cg_warning_name(1u << i));
        if (w > 0) used += (size_t)w;
    }
}

/* The text of field f of the struct at base: either points into the struct or is formatted into buf. */
static const char *field_text(const cg_field *f, const void *base, char *buf, size_t n)
{
    const char *p = (const char *)base + f->offset;
    buf[0] = '\0';
    switch (f->kind) {
    case CG_F_STR:
        return p;
    case CG_F_DOUBLE:
        cg_csv_fmt_double(buf, n, *(const double *)p);
        break;
    case CG_F_SIZE:
        snprintf(buf, n, "%zu", *(const size_t *)p);
        break;
    case CG_F_INT:
        snprintf(buf, n, "%d", *(const int *)p);
        break;
    case CG_F_UINT:
        snprintf(buf, n, "%u", *(const unsigned *)p);
        break;
    case CG_F_ULL:
        snprintf(buf, n, "%llu", *(const unsigned long long *)p);
        break;
    case CG_F_LL:
        snprintf(buf, n, "%lld", *(const long long *)p);
        break;
    case CG_F_BOOL:
        return *(const bool *)p ? "true" : "false";
    case CG_F_MAYBE_BOOL: /* empty while not known */
        return !*(const bool *)(p + sizeof(bool)) ? "" : *(const bool *)p ? "true" : "false";
    case CG_F_STATUS:
        return cg_rung_status_name(*(const cg_rung_status *)p);
    case CG_F_PEAK_STATUS:
        return cg_peak_status_name(*(const cg_peak_status *)p);
    case CG_F_WARNINGS:
        fmt_warnings(buf, n, *(const unsigned *)p);
        break;
    case CG_F_TIMES: /* an array: the JSON report only */
        break;
    }
    return buf;
}

/* The field named name, NULL when the table has none (its column is then empty; a unit test keeps the run's
 * columns and its table in step). */
static const cg_field *field_named(const csv_doc *d, const char *name)
{
    for (size_t k = 0; k < d->nfields; k++)
        if (!strcmp(d->fields[k].name, name)) return &d->fields[k];
    return NULL;
}

static int emit(FILE *f, const void *ctx)
{
    const csv_doc *d = ctx;
    size_t ncol = d->columns ? d->ncolumns : d->nfields;
    const cg_field **col = malloc((ncol ? ncol : 1) * sizeof *col);
    char buf[64];
    if (!col) {
        errno = ENOMEM;
        return -1;
    }
    for (size_t c = 0; c < ncol; c++) {
        col[c] = d->columns ? field_named(d, d->columns[c]) : &d->fields[c];
        cg_csv_put_cell(f, d->columns ? d->columns[c] : col[c]->name, c == 0);
    }
    fputc('\n', f);
    for (size_t i = 0; i < d->n; i++) {
        const char *row = (const char *)d->rows + i * d->stride;
        for (size_t c = 0; c < ncol; c++)
            cg_csv_put_cell(f, col[c] ? field_text(col[c], row, buf, sizeof buf) : "", c == 0);
        fputc('\n', f);
    }
    free(col);
    return ferror(f) ? -1 : 0;
}

int cg_report_csv(const cg_report *r, const char *path)
{
    const csv_doc d = {r->rows,           r->n,           sizeof *r->rows, cg_result_fields,
                       cg_result_nfields, cg_csv_columns, cg_csv_ncolumns};
    return cg_outfile_write(path, emit, &d);
}

int cg_peak_report_csv(const cg_peak_report *r, const char *path)
{
    const csv_doc d = {r->rows, r->n, sizeof *r->rows, cg_peak_fields, cg_peak_nfields, NULL, 0};
    return cg_outfile_write(path, emit, &d);
}
