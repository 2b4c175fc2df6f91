/* The result model: a report's growable array of rows (run and peak alike), the group a row belongs to
 * (workload and variant), the one status table (word, label, whether it fails) and the warning table (name
 * and the generic message with its fix), which every report format reads. */
#include "model/result.h"
#include "model/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cg_report_init_kind(cg_report *r, cg_report_kind k)
{
    memset(r, 0, sizeof *r);
    r->kind = k;
}

void cg_report_init(cg_report *r)
{
    cg_report_init_kind(r, CG_KIND_RUN);
}

void cg_report_fini(cg_report *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->rows[i].times.s);
    free(r->rows);
    free(r->est);
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

/* The one status vocabulary, in enum order: the word of the files, the label of the table, side by side. */
static const struct {
    const char *word, *label;
    bool failed; /* makes the exit code a failure */
} statuses[] = {
    [CG_RUNG_OK] = {"ok", "OK", false},
    [CG_RUNG_WRONG] = {"wrong_result", "FAILED", true},
    [CG_RUNG_UNSUPPORTED] = {"unsupported", "unsupported", false},
    [CG_RUNG_BUILD_FAILED] = {"build_failed", "BUILD-FAILED", true},
    [CG_RUNG_CL_ERROR] = {"cl_error", "CL-ERROR", true},
    [CG_RUNG_ZERO_COPY] = {"zero_copy", "zero-copy", false},
};
#define NSTATUS (sizeof statuses / sizeof statuses[0])
_Static_assert(NSTATUS == CG_RUNG_ZERO_COPY + 1, "a status without a word");

const char *cg_rung_status_name(cg_rung_status s)
{
    return (size_t)s < NSTATUS ? statuses[s].word : "unknown";
}

bool cg_rung_status_failed(cg_rung_status s)
{
    return (size_t)s < NSTATUS && statuses[s].failed;
}

const char *cg_status_label(const char *word)
{
    for (size_t i = 0; i < NSTATUS; i++)
        if (!strcmp(statuses[i].word, word)) return statuses[i].label;
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
    {CG_WARN_EMULATED, "emulated",
     "emulated tensor cores (CLGAUGE_EMULATE_MMA=1): the check ran, the times are not the hardware's; unset "
     "the variable for figures"},
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
