/* The test functions of the peak table (peak.c), one file per family. Internal to src/peak. */
#ifndef CG_PEAK_TESTS_H
#define CG_PEAK_TESTS_H
#include "peak/peak.h"

cg_status cg_peak_bw_read(cg_peak_env *e);
cg_status cg_peak_bw_write(cg_peak_env *e);
cg_status cg_peak_bw_copy(cg_peak_env *e);
cg_status cg_peak_bw_stride(cg_peak_env *e);
cg_status cg_peak_bw_gather(cg_peak_env *e);
cg_status cg_peak_bw_offset(cg_peak_env *e);
cg_status cg_peak_fp32(cg_peak_env *e);
cg_status cg_peak_fp64(cg_peak_env *e);
cg_status cg_peak_fp16(cg_peak_env *e);
cg_status cg_peak_int32(cg_peak_env *e);
cg_status cg_peak_int24(cg_peak_env *e);
cg_status cg_peak_tf32_mma(cg_peak_env *e);
cg_status cg_peak_f16_mma(cg_peak_env *e);
cg_status cg_peak_crossover(cg_peak_env *e);
cg_status cg_peak_chains(cg_peak_env *e);
cg_status cg_peak_xfer_pageable(cg_peak_env *e);
cg_status cg_peak_xfer_pinned(cg_peak_env *e);
cg_status cg_peak_xfer_map(cg_peak_env *e);
cg_status cg_peak_latency(cg_peak_env *e);
cg_status cg_peak_local_bw(cg_peak_env *e);
cg_status cg_peak_local_bank(cg_peak_env *e);
cg_status cg_peak_atomic_global(cg_peak_env *e);
cg_status cg_peak_atomic_local(cg_peak_env *e);
cg_status cg_peak_image(cg_peak_env *e);
cg_status cg_peak_sizes(cg_peak_env *e);
/* ---- shared by sizes.c and sizes_rep.c (the cache test) */
#define CG_PEAK_SIZE_MIN ((size_t)4 << 10) /* the smallest buffer: 4 KiB */
/* "op 64 KiB", "op 2 MiB", "op 1 GiB" into buf. */
void cg_peak_size_label(const char *op, size_t n, char *buf, size_t len);
/* The repeated reads: a "read-rep N" row for n = CG_PEAK_SIZE_MIN, x2 (x4 with --quick) .. top, each launch
 * reading the first n bytes of in (random floats, host copy hin) many times over; checked against hin. */
cg_status cg_peak_sizes_rep(cg_peak_env *e, cl_mem in, const float *hin, size_t top);
cg_status cg_peak_coalescing(cg_peak_env *e);
cg_status cg_peak_divergence(cg_peak_env *e);
cg_status cg_peak_scatter(cg_peak_env *e);
cg_status cg_peak_channels(cg_peak_env *e);
cg_status cg_peak_ovh_alloc(cg_peak_env *e);
cg_status cg_peak_ovh_transfers(cg_peak_env *e);
cg_status cg_peak_ovh_events(cg_peak_env *e);
cg_status cg_peak_ovh_queues(cg_peak_env *e);

#endif
