/* Comparing two runs: a regression check when both ran on the same device, a side-by-side table of the
 * devices when they did not. docs/reports.md states the rule: a rank test and a bootstrap interval on the
 * rows' raw times. */
#ifndef CG_COMPARE_H
#define CG_COMPARE_H
#include <stdio.h>
#include "model/result.h"

/* A change is significant when the Mann–Whitney p-value of the two rows' raw times (core/ranktest.h) is
 * below this and the bootstrap interval of the ratio of their medians (core/resample.h, CG_BOOT_LEVEL)
 * excludes 1. */
#define CG_COMPARE_ALPHA 0.01
/* For a row without raw times (a file written before times_s was kept): how many combined standard
 * deviations a change must exceed to count (besides the threshold). */
#define CG_COMPARE_NOISE_K 2.0
/* The fewest runs a side for the rank test: below 5 against 5, a two-sided Mann-Whitney p cannot fall under
 * CG_COMPARE_ALPHA (4 against 4: 2/70 = 0.029), so such rows are judged by the noise rule instead. */
#define CG_COMPARE_MIN_RUNS 5

typedef enum cg_compare_result {
    CG_CMP_NO_MEMORY = -2,         /* out of memory: err says so */
    CG_CMP_NOTHING_IN_COMMON = -1, /* no rung matched: err says why */
    CG_CMP_OK = 0,        /* nothing regressed (or two devices: a side-by-side table, never a failure) */
    CG_CMP_REGRESSED = 1, /* a rung slowed beyond threshold and noise, or passed before and fails now */
} cg_compare_result;

/* Same device (name and platform): rungs are matched by group (workload and variant, see cg_result_group),
 * rung and size; a change of the median counts when it exceeds threshold_pct and is significant
 * (CG_COMPARE_ALPHA), or, where either row lacks raw times, when it exceeds threshold_pct and
 * CG_COMPARE_NOISE_K x the two runs' combined standard deviation. Different devices: rungs are matched by
 * group and rung; the table gives each device's time, speedup and rank within the group's ladder, and per
 * group which rung wins on each. Rows are named "workload:rung", or "workload[variant]:rung" when they have a
 * variant. name_a/name_b label the runs (file names). */
cg_compare_result cg_compare(const cg_report *a, const char *name_a, const cg_report *b, const char *name_b,
                             double threshold_pct, FILE *out, char *err, size_t errlen);

#endif
