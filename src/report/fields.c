/* The one list of per-row fields. The JSON rows, the CSV columns and docs/report-schema.md all follow this
 * table in this order (a unit test checks the CSV header and the doc against it), so adding a field to the
 * result model is one line here and the formats cannot drift apart. */
#include "report/report.h"

#define F(name, kind, member, unit)                                                                          \
    {                                                                                                        \
        name, kind, offsetof(cg_result, member), unit, sizeof((cg_result *)0)->member                        \
    }

const cg_field cg_result_fields[] = {
    /* identity */
    F("workload", CG_F_STR, workload, ""),
    F("rung", CG_F_STR, rung, ""),
    F("variant", CG_F_STR, variant, ""),
    F("why", CG_F_STR, why, ""),
    F("size", CG_F_STR, size_desc, ""),
    F("status", CG_F_STATUS, status, ""),
    F("reason", CG_F_STR, reason, ""),
    /* timing over the timed runs, warm-up dropped */
    F("runs", CG_F_SIZE, runs, ""),
    F("t_min_s", CG_F_DOUBLE, t_min, "s"),
    F("t_median_s", CG_F_DOUBLE, t_median, "s"),
    F("t_mean_s", CG_F_DOUBLE, t_mean, "s"),
    F("t_stddev_s", CG_F_DOUBLE, t_stddev, "s"),
    F("t_cv", CG_F_DOUBLE, t_cv, "1"),
    F("t_max_s", CG_F_DOUBLE, t_max, "s"),
    F("outliers", CG_F_SIZE, outliers, ""),
    /* work model and rates from the median time */
    F("bytes", CG_F_DOUBLE, bytes, "B"),
    F("flops", CG_F_DOUBLE, flops, "FLOP"),
    F("items", CG_F_DOUBLE, items, ""),
    F("item_unit", CG_F_STR, item_unit, ""),
    F("bytes_note", CG_F_STR, bytes_note, ""),
    F("ceiling", CG_F_STR, ceiling, ""),
    F("gbps", CG_F_DOUBLE, gbps, "GB/s"),
    F("gflops", CG_F_DOUBLE, gflops, "GFLOP/s"),
    F("items_per_s", CG_F_DOUBLE, items_per_s, "1/s"),
    F("roofline_pct", CG_F_DOUBLE, roofline_pct, "%"),
    F("speedup", CG_F_DOUBLE, speedup, "x"),
    /* check against the CPU reference */
    F("check_ok", CG_F_BOOL, check_ok, ""),
    F("max_abs_err", CG_F_DOUBLE, max_abs_err, ""),
    F("max_rel_err", CG_F_DOUBLE, max_rel_err, ""),
    F("tolerance", CG_F_DOUBLE, tolerance, ""),
    F("bound_ratio", CG_F_DOUBLE, bound_ratio, "1"),
    F("first_mismatch", CG_F_LL, first_mismatch, ""),
    F("mismatches", CG_F_SIZE, mismatches, ""),
    /* build */
    F("build_ms", CG_F_DOUBLE, build_ms, "ms"),
    F("cache_hit", CG_F_BOOL, cache_hit, ""),
    F("warnings", CG_F_WARNINGS, warnings, ""),
};

const size_t cg_result_nfields = sizeof cg_result_fields / sizeof cg_result_fields[0];
