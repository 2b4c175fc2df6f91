/* The result model of `clgauge peak`: run metadata plus one row per measured figure (family, test, variant,
 * value, unit, what the figure counts, status). It depends on nothing but the C library and result.h's device
 * block, so the peak writers stay independent of OpenCL. */
#ifndef CG_PEAK_RESULT_H
#define CG_PEAK_RESULT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "model/result.h"

#define CG_PEAK_SCHEMA_VERSION CG_SCHEMA_VERSION /* one schema for run, peak and devices */

typedef enum cg_peak_status {
    CG_PEAK_OK,          /* measured (and its output checked where the test has a check) */
    CG_PEAK_UNSUPPORTED, /* the device lacks what the test needs (no fp64, no images): not a failure */
    CG_PEAK_ZERO_COPY,   /* a transfer that moved no bytes (the host pointer is the buffer): no rate shown */
    CG_PEAK_WRONG,       /* the kernel's result did not match the host replay: the figure is not trusted */
    CG_PEAK_FAILED,      /* "cl_error": an OpenCL call or a build failed */
} cg_peak_status;

/* "ok", "unsupported", "zero_copy", "wrong_result", "cl_error": the run's status words (result.h), plus
 * zero_copy. */
const char *cg_peak_status_name(cg_peak_status s);

typedef struct cg_peak_row {
    char family[16];  /* "bandwidth", "compute", ... */
    char test[24];    /* "read", "fp32", ... (what --only selects, with the family) */
    char variant[48]; /* "float4", "stride 8", "pinned write 64 MiB" */
    double value;     /* the figure in unit (0 when not ok) */
    char unit[12];    /* "GB/s", "GFLOP/s", "GIOP/s", "us" */
    double amount;    /* bytes or operations counted per launch (0 for latencies) */
    double t_min;     /* seconds: the best launch's time (latency rows: 0) */
    int runs;         /* timed runs (or samples) behind the figure */
    char note[160];   /* what the figure counts: "bytes read once; best of N runs" */
    cg_peak_status status;
    char reason[160]; /* why it is not ok */
} cg_peak_row;

typedef struct cg_peak_report {
    char tool_version[32], git_commit[48], time_utc[32];
    char command_line[1024];
    cg_report_device device;
    bool quick;
    double max_time;
    cg_peak_row *rows;
    size_t n, cap;
} cg_peak_report;

void cg_peak_report_init(cg_peak_report *r);
void cg_peak_report_fini(cg_peak_report *r);
/* Appends a zeroed row and returns it (NULL when out of memory). */
cg_peak_row *cg_peak_report_add(cg_peak_report *r);
/* The count of rows with a failing status (wrong_result, failed). */
size_t cg_peak_report_failures(const cg_peak_report *r);

/* Writers (src/report/): the aligned text table (grouped by family); JSON and CSV, whose keys and columns
 * are cg_peak_fields (model/fields.h) in order, return 0, or -1 with errno set. */
void cg_peak_report_text(const cg_peak_report *r, FILE *f);
int cg_peak_report_json(const cg_peak_report *r, const char *path);
int cg_peak_report_csv(const cg_peak_report *r, const char *path);

#endif
