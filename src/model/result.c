/* The result model: a report's growable array of rows, the group a row belongs to (workload and variant),
 * the names of rung statuses and the warning table (name and the generic message with its fix), which every
 * report format reads. */
#include "model/result.h"
#include "model/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cg_report_init(cg_report *r)
{
    memset(r, 0, sizeof *r);
}

void cg_report_fini(cg_report *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->rows[i].times.s);
    free(r->rows);
    memset(r, 0, sizeof *r);
}

cg_result *cg_report_add(cg_report *r)
{
    void *rows = r->rows;
    if (!cg_grow(&rows, &r->cap, r->n, sizeof *r->rows, 16)) return NULL;
    r->rows = rows;
    cg_result *row = &r->rows[r->n++];
    memset(row, 0, sizeof *row);
    row->first_mismatch = -1;
    return row;
}

void cg_result_group(const cg_result *r, char *buf, size_t len)
{
    if (r->variant[0])
        snprintf(buf, len, "%s[%s]", r->workload, r->variant);
    else
        snprintf(buf, len, "%s", r->workload);
}

bool cg_result_same_group(const cg_result *a, const cg_result *b)
{
    return !strcmp(a->workload, b->workload) && !strcmp(a->variant, b->variant);
}

const char *cg_rung_status_name(cg_rung_status s)
{
    switch (s) {
    case CG_RUNG_OK:
        return "ok";
    case CG_RUNG_WRONG:
        return "wrong_result";
    case CG_RUNG_UNSUPPORTED:
        return "unsupported";
    case CG_RUNG_BUILD_FAILED:
        return "build_failed";
    case CG_RUNG_CL_ERROR:
        return "cl_error";
    }
    return "unknown";
}

/* The one status vocabulary: the word of the files and the label of the table, side by side. */
static const struct {
    const char *word, *label;
} status_labels[] = {
    {"ok", "OK"},
    {"wrong_result", "FAILED"},
    {"unsupported", "unsupported"},
    {"build_failed", "BUILD-FAILED"},
    {"cl_error", "CL-ERROR"},
    {"zero_copy", "zero-copy"},
};

const char *cg_status_label(const char *word)
{
    for (size_t i = 0; i < sizeof status_labels / sizeof status_labels[0]; i++)
        if (!strcmp(status_labels[i].word, word)) return status_labels[i].label;
    return NULL;
}

/* One row per warning bit. The message is "<what>: <fix>"; the text report inserts the row's numbers
 * ("(CV 12.3%)") before the first ':' so that the fix is written once, here. */
static const struct {
    unsigned bit;
    const char *name, *fix;
} warnings[CG_WARN_COUNT] = {
    {CG_WARN_HIGH_CV, "high_cv",
     "timings vary: close other programs using the device and check its clocks (power and thermal state)"},
    {CG_WARN_TOO_SHORT, "too_short", "median under 20 us: launch overhead dominates; raise --size"},
    {CG_WARN_OUTLIERS, "outliers",
     "outliers among the runs: another program or a clock change interfered; close other programs, check "
     "the device's clocks and rerun"},
    {CG_WARN_ABOVE_ROOF, "above_roofline",
     "faster than the measured memory roofline: the data fits in a cache; raise --size for a DRAM figure"},
};

const char *cg_warning_name(unsigned bit)
{
    for (size_t i = 0; i < CG_WARN_COUNT; i++)
        if (warnings[i].bit == bit) return warnings[i].name;
    return "unknown";
}

const char *cg_warning_fix(unsigned bit)
{
    for (size_t i = 0; i < CG_WARN_COUNT; i++)
        if (warnings[i].bit == bit) return warnings[i].fix;
    return "unknown warning";
}
