/* The peak CSV report: a header line, then one line per figure: device and driver (repeated so that files
 * from several devices can be concatenated), then cg_peak_fields in table order. RFC 4180 quoting, LF line
 * ends, a non-finite number is an empty cell. */
#include "report/outfile.h"
#include "report/peak_result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void put_cell(FILE *f, const char *s, bool first)
{
    if (!first) fputc(',', f);
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The fewest significant digits (15 to 17) that read back as the same double. */
static void fmt_double(char *buf, size_t n, double v)
{
    buf[0] = '\0';
    if (!isfinite(v)) return;
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, n, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) return;
    }
}

static const char *cell(const cg_peak_field *fd, const cg_peak_row *row, char *buf, size_t n)
{
    const void *p = (const char *)row + fd->offset;
    switch (fd->kind) {
    case CG_PF_STR:
        return p;
    case CG_PF_DOUBLE:
        fmt_double(buf, n, *(const double *)p);
        return buf;
    case CG_PF_INT:
        snprintf(buf, n, "%d", *(const int *)p);
        return buf;
    case CG_PF_STATUS:
        return cg_peak_status_name(*(const cg_peak_status *)p);
    }
    return "";
}

static int emit(FILE *f, const void *ctx)
{
    const cg_peak_report *r = ctx;
    char buf[64];
    fputs("device,driver", f);
    for (size_t i = 0; i < cg_peak_nfields; i++)
        put_cell(f, cg_peak_fields[i].name, false);
    fputc('\n', f);
    for (size_t k = 0; k < r->n; k++) {
        put_cell(f, r->device.name, true);
        put_cell(f, r->device.driver, false);
        for (size_t i = 0; i < cg_peak_nfields; i++)
            put_cell(f, cell(&cg_peak_fields[i], &r->rows[k], buf, sizeof buf), false);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int cg_peak_report_csv(const cg_peak_report *r, const char *path)
{
    return cg_outfile_write(path, emit, r);
}
