/* The CSV report of `run` and `peak`, written by one writer: a header line, then one line per row, the
 * columns fields of cg_row_fields, each with its JSON key as header and the same units. The run keeps a short
 * fixed list (BabelStream's habit: identity, status, timing, rates, check); a peak row has every field it
 * carries, in table order. The run's metadata (device, command line, options) and the per-run
 * times are in the JSON report only. Quoting follows RFC 4180; lines end in LF; a non-finite number is an
 * empty cell; warnings are their names joined by ';'. docs/report-schema.md lists the columns. */
#include "report/csvcell.h"
#include "report/report.h"
#include "report/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The run's columns, in order: keep this list stable (scripts read columns by name, but also by position);
 * the kernel facts (docs/tune.md), from "kernel" on, came after the first seventeen so that none moved,
 * and the tuned parameters after them. */
const char *const cg_csv_columns[] = {
    "workload",    "variant",       "rung",
    "status",      "runs",          "t_min_s",
    "t_median_s",  "t_max_s",       "t_cv",
    "gbps",        "gflops",        "items_per_s",
    "item_unit",   "roofline_pct",  "speedup",
    "bound_ratio", "warnings",      "kernel",
    "wg_local",    "kernel_wg_max", "kernel_local_bytes",
    "registers",   "occ_groups",    "occupancy",
    "occ_limit",   "params",        "params_from",
};
const size_t cg_csv_ncolumns = sizeof cg_csv_columns / sizeof cg_csv_columns[0];

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
    case CG_F_WARNINGS:
        fmt_warnings(buf, n, *(const unsigned *)p);
        break;
    case CG_F_TIMES:  /* an array: the JSON report only */
    case CG_F_STAGES: /* an object: the JSON report only */
        break;
    }
    return buf;
}

/* The field of kind k's rows named name, NULL when they have none (its column is then empty; a unit test
 * keeps the run's columns and the table in step). */
static const cg_field *field_named(cg_report_kind k, const char *name)
{
    for (size_t i = 0; i < cg_row_nfields; i++)
        if (cg_field_carried(&cg_row_fields[i], k) && !strcmp(cg_row_fields[i].name, name))
            return &cg_row_fields[i];
    return NULL;
}

/* The columns of kind k's CSV: the run's list (cg_csv_columns), or every field a peak row carries. Returns
 * their count; col[c] is NULL for a column the table lacks. */
static size_t columns_of(cg_report_kind k, const cg_field **col)
{
    size_t n = 0;
    if (k == CG_KIND_RUN) {
        for (; n < cg_csv_ncolumns; n++)
            col[n] = field_named(k, cg_csv_columns[n]);
        return n;
    }
    for (size_t i = 0; i < cg_row_nfields; i++)
        if (cg_field_carried(&cg_row_fields[i], k)) col[n++] = &cg_row_fields[i];
    return n;
}

static int emit(FILE *f, const void *ctx)
{
    const cg_report *r = ctx;
    const cg_field **col = malloc((cg_row_nfields + cg_csv_ncolumns) * sizeof *col);
    char buf[64];
    if (!col) {
        errno = ENOMEM;
        return -1;
    }
    size_t ncol = columns_of(r->kind, col);
    for (size_t c = 0; c < ncol; c++)
        cg_csv_put_cell(f, r->kind == CG_KIND_RUN ? cg_csv_columns[c] : col[c]->name, c == 0);
    fputc('\n', f);
    for (size_t i = 0; i < r->n; i++) {
        for (size_t c = 0; c < ncol; c++)
            cg_csv_put_cell(f, col[c] ? field_text(col[c], &r->rows[i], buf, sizeof buf) : "", c == 0);
        fputc('\n', f);
    }
    free(col);
    return ferror(f) ? -1 : 0;
}

int cg_report_csv(const cg_report *r, const char *path)
{
    return cg_outfile_write(path, emit, r);
}
