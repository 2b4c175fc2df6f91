/* The field tables of the result model: rows (run and peak) and the device block, all of one descriptor type
 * (cg_field). The JSON keys, the CSV columns and docs/report-schema.md follow these tables in this order (a
 * unit test checks the CSV header and the doc against them), so adding a field to the result model is one
 * line here and the formats cannot drift apart. */
#include "model/fields.h"

/* A field of struct type T: name, kind, member, unit. */
#define FIELD(T, n, k, m, u)                                                                                 \
    .name = n, .kind = k, .offset = offsetof(T, m), .unit = u, .size = sizeof((T *)0)->m
#define RUN  CG_KIND_RUN
#define PEAK CG_KIND_PEAK
#define F(name, kind, member, unit, docs)                                                                    \
    {                                                                                                        \
        FIELD(cg_result, name, kind, member, unit), .kinds = (docs)                                          \
    }

/* Run rows: a rung's identity, timing over the timed runs (warm-up dropped), the work model and rates from
 * the median time, the check against the CPU reference, the build. Peak rows: one measured figure (its family
 * and test are the row's workload and rung members). */
const cg_field cg_row_fields[] = {
    F("workload", CG_F_STR, workload, "", RUN),
    F("rung", CG_F_STR, rung, "", RUN),
    F("family", CG_F_STR, workload, "", PEAK),
    F("test", CG_F_STR, rung, "", PEAK),
    F("variant", CG_F_STR, variant, "", RUN | PEAK),
    F("value", CG_F_DOUBLE, value, "", PEAK), /* in the row's own unit */
    F("unit", CG_F_STR, unit, "", PEAK),
    F("why", CG_F_STR, why, "", RUN),
    F("size", CG_F_STR, size_desc, "", RUN),
    F("status", CG_F_STATUS, status, "", RUN | PEAK),
    F("reason", CG_F_STR, reason, "", RUN),
    F("runs", CG_F_SIZE, runs, "", RUN),
    F("t_min_s", CG_F_DOUBLE, t_min, "s", RUN),
    F("t_median_s", CG_F_DOUBLE, t_median, "s", RUN),
    F("t_mean_s", CG_F_DOUBLE, t_mean, "s", RUN),
    F("t_stddev_s", CG_F_DOUBLE, t_stddev, "s", RUN),
    F("t_cv", CG_F_DOUBLE, t_cv, "1", RUN),
    F("t_max_s", CG_F_DOUBLE, t_max, "s", RUN),
    F("outliers", CG_F_SIZE, outliers, "", RUN),
    F("bytes", CG_F_DOUBLE, bytes, "B", RUN),
    F("flops", CG_F_DOUBLE, flops, "FLOP", RUN),
    F("items", CG_F_DOUBLE, items, "", RUN),
    F("item_unit", CG_F_STR, item_unit, "", RUN),
    F("bytes_note", CG_F_STR, bytes_note, "", RUN),
    F("ceiling", CG_F_STR, ceiling, "", RUN),
    F("gbps", CG_F_DOUBLE, gbps, "GB/s", RUN),
    F("gflops", CG_F_DOUBLE, gflops, "GFLOP/s", RUN),
    F("items_per_s", CG_F_DOUBLE, items_per_s, "1/s", RUN),
    F("roofline_pct", CG_F_DOUBLE, roofline_pct, "%", RUN),
    F("speedup", CG_F_DOUBLE, speedup, "x", RUN),
    F("speedup_lo", CG_F_DOUBLE, speedup_lo, "x", RUN),
    F("speedup_hi", CG_F_DOUBLE, speedup_hi, "x", RUN),
    F("check_ok", CG_F_BOOL, check_ok, "", RUN),
    F("max_abs_err", CG_F_DOUBLE, max_abs_err, "", RUN),
    F("max_rel_err", CG_F_DOUBLE, max_rel_err, "", RUN),
    F("tolerance", CG_F_DOUBLE, tolerance, "", RUN),
    F("bound_ratio", CG_F_DOUBLE, bound_ratio, "1", RUN),
    F("first_mismatch", CG_F_LL, first_mismatch, "", RUN),
    F("mismatches", CG_F_SIZE, mismatches, "", RUN),
    F("build_s", CG_F_DOUBLE, build_s, "s", RUN),
    F("cache_hit", CG_F_BOOL, cache_hit, "", RUN),
    F("warnings", CG_F_WARNINGS, warnings, "", RUN),
    F("times_s", CG_F_TIMES, times, "s", RUN),
    F("stages_s", CG_F_STAGES, stages, "s", RUN),
    /* the kernel facts and estimated occupancy (cg_kfacts; docs/tune.md) */
    F("kernel", CG_F_STR, facts.kernel, "", RUN),
    F("kernels", CG_F_UINT, facts.kernels, "", RUN),
    F("wg_local", CG_F_STR, facts.wg_local, "", RUN),
    F("wg_size", CG_F_SIZE, facts.wg_size, "", RUN),
    F("kernel_wg_max", CG_F_SIZE, facts.wg_max, "", RUN),
    F("kernel_wg_multiple", CG_F_SIZE, facts.wg_multiple, "", RUN),
    F("kernel_local_bytes", CG_F_ULL, facts.local_bytes, "B", RUN),
    F("kernel_private_bytes", CG_F_ULL, facts.private_bytes, "B", RUN),
    F("registers", CG_F_UINT, facts.registers, "", RUN),
    F("occ_groups", CG_F_UINT, facts.occ_groups, "", RUN),
    F("occ_warps", CG_F_UINT, facts.occ_warps, "", RUN),
    F("occupancy", CG_F_DOUBLE, facts.occupancy, "1", RUN),
    F("occ_limit", CG_F_STR, facts.occ_limit, "", RUN),
    F("occ_model", CG_F_STR, facts.occ_model, "", RUN),
    /* the tunable parameters a row ran with, where they are not the rung's own, and their source
       (docs/tune.md) */
    F("params", CG_F_STR, params, "", RUN),
    F("params_from", CG_F_STR, params_from, "", RUN),
    /* the rest of a peak row: what the figure counts, its best launch, and why it is not ok */
    F("amount", CG_F_DOUBLE, amount, "", PEAK), /* bytes or operations per launch */
    F("t_min_s", CG_F_DOUBLE, t_min, "s", PEAK),
    F("runs", CG_F_SIZE, runs, "", PEAK),
    F("counts", CG_F_STR, bytes_note, "", PEAK),
    F("reason", CG_F_STR, reason, "", PEAK),
};

const size_t cg_row_nfields = sizeof cg_row_fields / sizeof cg_row_fields[0];

bool cg_field_carried(const cg_field *f, cg_report_kind k)
{
    return (f->kinds & (unsigned)k) != 0;
}

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
    D("global_cache_type", NULL, "Global cache type", CG_F_STR, global_cache_type, ""),
    D("global_cacheline_bytes", NULL, "Global cache line (B)", CG_F_UINT, global_cacheline, ""),
    D("local_mem_bytes", "local_mem", "Local memory", CG_F_ULL, local_mem, "B"),
    D("local_mem_type", NULL, "Local memory type", CG_F_STR, local_mem_type, ""),
    D("constant_mem_bytes", NULL, "Constant buffer", CG_F_ULL, const_mem, "B"),
    D("max_alloc_bytes", "max_alloc", "Max allocation", CG_F_ULL, max_alloc, "B"),
    D("max_work_group_size", NULL, "Max work-group size", CG_F_ULL, max_wg, ""),
    D("preferred_work_group_multiple", NULL, "Preferred WG multiple", CG_F_ULL, wg_multiple, ""),
    D("images", NULL, "Image support", CG_F_BOOL, images, ""),
    D("fp64", NULL, "fp64", CG_F_BOOL, fp64, ""),
    D("fp16", NULL, "fp16", CG_F_MAYBE_BOOL, fp16, ""),
    D("nvidia_inline_ptx", NULL, "NVIDIA inline PTX", CG_F_BOOL, nvidia_ptx, ""),
    D("opencl_version", "version", "OpenCL version", CG_F_STR, version, ""),
    D("opencl_c_version", NULL, "OpenCL C version", CG_F_STR, c_version, ""),
    D("driver_version", "driver", "Driver version", CG_F_STR, driver, ""),
};

const size_t cg_device_nfields = sizeof cg_device_fields / sizeof cg_device_fields[0];
