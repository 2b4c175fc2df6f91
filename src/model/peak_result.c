/* The peak result model: the growable array of rows and the status names (its field table is
 * cg_peak_fields, model/fields.c). */
#include "model/peak_result.h"
#include "model/grow.h"

#include <stdlib.h>
#include <string.h>

void cg_peak_report_init(cg_peak_report *r)
{
    memset(r, 0, sizeof *r);
}

void cg_peak_report_fini(cg_peak_report *r)
{
    free(r->rows);
    memset(r, 0, sizeof *r);
}

cg_peak_row *cg_peak_report_add(cg_peak_report *r)
{
    void *rows = r->rows;
    if (!cg_grow(&rows, &r->cap, r->n, sizeof *r->rows, 32)) return NULL;
    r->rows = rows;
    cg_peak_row *row = &r->rows[r->n++];
    memset(row, 0, sizeof *row);
    return row;
}

size_t cg_peak_report_failures(const cg_peak_report *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        n += r->rows[i].status == CG_PEAK_WRONG || r->rows[i].status == CG_PEAK_FAILED;
    return n;
}

const char *cg_peak_status_name(cg_peak_status s)
{
    switch (s) {
    case CG_PEAK_OK:
        return "ok";
    case CG_PEAK_UNSUPPORTED:
        return "unsupported";
    case CG_PEAK_ZERO_COPY:
        return "zero_copy";
    case CG_PEAK_WRONG:
        return "wrong_result";
    case CG_PEAK_FAILED:
        return "cl_error";
    }
    return "?";
}
