/* Summary statistics of a set of timings (hyperfine-style: outliers judged by median absolute deviation). */
#ifndef CG_STATS_H
#define CG_STATS_H
#include <stddef.h>

typedef struct cg_stats {
    size_t n;
    double min, max, median, mean, stddev; /* stddev: sample standard deviation (n-1); 0 when n < 2 */
    double cv;                             /* stddev / mean; 0 when mean is 0 */
    double mad;                            /* median absolute deviation from the median */
    size_t outliers;                       /* samples farther than 3.5 modified z-scores (0.6745*|x-med|/mad);
                                              counted only when n >= 5 */
} cg_stats;

/* Computes the statistics of x[0..n-1] (x is not modified). n == 0 gives all zeros. */
void cg_stats_compute(const double *x, size_t n, cg_stats *out);

#endif
