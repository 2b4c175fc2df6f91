/* The bootstrap (Efron): an interval for the ratio of two runs' median times, drawn from the runs' own
 * timings with no assumption on their distribution. Seeded, so that the same timings always give the same
 * interval. docs/reports.md says how `compare` and the speed-ups use it. */
#ifndef CG_RESAMPLE_H
#define CG_RESAMPLE_H
#include <stdbool.h>
#include <stddef.h>

#define CG_BOOT_RESAMPLES 2000
#define CG_BOOT_LEVEL     0.99                /* the interval's confidence */
#define CG_BOOT_SEED      0x636c6761756765ull /* "clgauge": every interval starts from this seed */

/* The median of x[0..n-1] (x is not modified; n > 0); NaN when out of memory. */
double cg_median(const double *x, size_t n);

/* The percentile bootstrap interval [*lo, *hi] at CG_BOOT_LEVEL of median(b) / median(a): CG_BOOT_RESAMPLES
 * times, a and b are each resampled with replacement (same sizes) and the ratio of the resamples' medians
 * taken; the interval holds the middle CG_BOOT_LEVEL of those ratios. The generator is seeded with
 * CG_BOOT_SEED on every call, so the result depends on the samples alone. Needs na, nb > 0 and positive
 * samples; returns false (lo, hi untouched) when they are not, or when out of memory. */
bool cg_boot_ratio(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi);

#endif
