/* The field tables of the result model: run rows, peak rows and the device block, all of one descriptor type
 * (cg_field). The JSON keys, the CSV columns and docs/report-schema.md follow these tables in this order (a
 * unit test checks the CSV header and the doc against them), so adding a field to the result model is one
 * line here and the formats cannot drift apart. */
#include "model/fields.h"

#include <stdbool.h>

/* A field of struct type T: name, kind, member, unit. */
#define FIELD(T, n, k, m, u)                                                                                 \
    .name = n, .kind = k, .offset = offsetof(T, m), .unit = u, .size = sizeof((T *)0)->m
#define F(name, kind, member, unit)                                                                          \
    {                                                                                                        \
        FIELD(cg_result, name, kind, member, unit)                                                           \
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
    F("speedup_lo", CG_F_DOUBLE, speedup_lo, "x"),
    F("speedup_hi", CG_F_DOUBLE, speedup_hi, "x"),
    /* check against the CPU reference */
    F("check_ok", CG_F_BOOL, check_ok, ""),
    F("max_abs_err", CG_F_DOUBLE, max_abs_err, ""),
    F("max_rel_err", CG_F_DOUBLE, max_rel_err, ""),
    F("tolerance", CG_F_DOUBLE, tolerance, ""),
    F("bound_ratio", CG_F_DOUBLE, bound_ratio, "1"),
    F("first_mismatch", CG_F_LL, first_mismatch, ""),
    F("mismatches", CG_F_SIZE, mismatches, ""),
    /* build */
    F("build_s", CG_F_DOUBLE, build_s, "s"),
    F("cache_hit", CG_F_BOOL, cache_hit, ""),
    F("warnings", CG_F_WARNINGS, warnings, ""),
    F("times_s", CG_F_TIMES, times, "s"),
};

const size_t cg_result_nfields = sizeof cg_result_fields / sizeof cg_result_fields[0];

#define P(name, kind, member, unit)                                                                          \
    {                                                                                                        \
        FIELD(cg_peak_row, name, kind, member, unit)                                                         \
    }

/* A peak row: one measured figure. */
const cg_field cg_peak_fields[] = {
    P("family", CG_F_STR, family, ""),    P("test", CG_F_STR, test, ""),
    P("variant", CG_F_STR, variant, ""),  P("value", CG_F_DOUBLE, value, ""), /* in the row's own unit */
    P("unit", CG_F_STR, unit, ""),        P("status", CG_F_PEAK_STATUS, status, ""),
    P("amount", CG_F_DOUBLE, amount, ""), P("t_min_s", CG_F_DOUBLE, t_min, "s"),
    P("runs", CG_F_INT, runs, ""),        P("counts", CG_F_STR, note, ""),
    P("reason", CG_F_STR, reason, ""),
};

const size_t cg_peak_nfields = sizeof cg_peak_fields / sizeof cg_peak_fields[0];

/* CG_F_MAYBE_BOOL: the flag that says whether fp16 is known follows it. */
_Static_assert(offsetof(cg_report_device, fp16_known) == offsetof(cg_report_device, fp16) + sizeof(bool),
               "fp16_known must follow fp16");

#define D(key, key1, text, kind, member, unit)                                                               \
    {                                                                                                        \
        FIELD(cg_report_device, key, kind, member, unit), .name1 = key1, .label = text                       \
    }

/* The device block of run, peak and `devices` (JSON keys, text labels), in this order. */
const cg_field cg_device_fields[] = {
    D("platform", "platform", "Platform", CG_F_STR, platform, ""),
    D("platform_version", "platform_version", "Platform version", CG_F_STR, platform_version, ""),
    D("name", "name", "Device", CG_F_STR, name, ""),
    D("vendor", "vendor", "Vendor", CG_F_STR, vendor, ""),
    D("type", "type", "Type", CG_F_STR, type, ""),
    D("compute_units", "compute_units", "Compute units", CG_F_UINT, compute_units, ""),
    D("clock_mhz", "clock_mhz", "Max clock (MHz)", CG_F_UINT, clock_mhz, "MHz"),
    D("global_mem_bytes", "global_mem", "Global memory", CG_F_ULL, global_mem, "B"),
    D("global_cache_bytes", NULL, "Global memory cache", CG_F_ULL, global_cache, "B"),
    D("local_mem_bytes", "local_mem", "Local memory", CG_F_ULL, local_mem, "B"),
    D("constant_mem_bytes", NULL, "Constant buffer", CG_F_ULL, const_mem, "B"),
    D("max_alloc_bytes", "max_alloc", "Max allocation", CG_F_ULL, max_alloc, "B"),
    D("max_work_group_size", NULL, "Max work-group size", CG_F_ULL, max_wg, ""),
    D("images", NULL, "Image support", CG_F_BOOL, images, ""),
    D("fp64", NULL, "fp64", CG_F_BOOL, fp64, ""),
    D("fp16", NULL, "fp16", CG_F_MAYBE_BOOL, fp16, ""),
    D("nvidia_inline_ptx", NULL, "NVIDIA inline PTX", CG_F_BOOL, nvidia_ptx, ""),
    D("opencl_version", "version", "OpenCL version", CG_F_STR, version, ""),
    D("opencl_c_version", NULL, "OpenCL C version", CG_F_STR, c_version, ""),
    D("driver_version", "driver", "Driver version", CG_F_STR, driver, ""),
};

const size_t cg_device_nfields = sizeof cg_device_fields / sizeof cg_device_fields[0];
