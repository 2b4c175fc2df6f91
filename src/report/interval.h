/* Changes and speed-ups with their bootstrap intervals (core/resample.h), as the terminal shows them:
 * `compare`'s change column and a run's speedup with its uncertainty. */
#ifndef CG_INTERVAL_H
#define CG_INTERVAL_H
#include <stddef.h>
#include "model/result.h"

/* A relative change and the interval of its ratio: delta = 0.041, lo = 1.029, hi = 1.053 give
 * "+4.1% [+2.9, +5.3]" (percent, one decimal); "+4.1%" when lo or hi is not finite; "-" when delta is not. */
void cg_fmt_change(char *buf, size_t n, double delta, double lo, double hi);
/* The row's speedup over the first rung with its interval: "2.31x [2.28, 2.35]", "2.31x" when the row has no
 * interval (speedup_lo, speedup_hi 0: a file written before times were kept), "-" when it has no speedup. */
void cg_fmt_speedup_ci(char *buf, size_t n, const cg_result *r);

#endif
