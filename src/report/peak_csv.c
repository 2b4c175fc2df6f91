/* The peak CSV report: a header line, then one line per figure, the columns cg_peak_fields in table order
 * (the device and the run's metadata are in the JSON report only). RFC 4180 quoting, LF line ends, a
 * non-finite number is an empty cell. */
#include "report/csvcell.h"
#include "report/outfile.h"
#include "model/peak_result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *cell(const cg_peak_field *fd, const cg_peak_row *row, char *buf, size_t n)
{
    const void *p = (const char *)row + fd->offset;
    switch (fd->kind) {
    case CG_PF_STR:
        return p;
    case CG_PF_DOUBLE:
        cg_csv_fmt_double(buf, n, *(const double *)p);
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
    for (size_t i = 0; i < cg_peak_nfields; i++)
        cg_csv_put_cell(f, cg_peak_fields[i].name, i == 0);
    fputc('\n', f);
    for (size_t k = 0; k < r->n; k++) {
        for (size_t i = 0; i < cg_peak_nfields; i++)
            cg_csv_put_cell(f, cell(&cg_peak_fields[i], &r->rows[k], buf, sizeof buf), i == 0);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int cg_peak_report_csv(const cg_peak_report *r, const char *path)
{
    return cg_outfile_write(path, emit, r);
}
