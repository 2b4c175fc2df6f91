/* Summary statistics of a set of timings (hyperfine-style: outliers judged by median absolute deviation). */
#ifndef CG_STATS_H
#define CG_STATS_H
#include <stddef.h>

typedef struct cg_stats {
    size_t n;
    double min, max, median, mean, stddev; /* stddev: sample standard deviation (n-1); 0 when n < 2 */
    double cv;                             /* stddev / mean; 0 when mean is 0 */
    double mad;                            /* median absolute deviation from the median */
    size_t outliers;                       /* samples farther than CG_STATS_OUTLIER_MADS MADs from the median;
                                              counted only when n >= 5 */
} cg_stats;

/* Outliers as hyperfine judges them: |x - median| > 14.826 x MAD (its modified z-score threshold, 10 scaled
 * MADs). The old 3.5 modified z-scores (5.2 MAD) flagged the ordinary spread of a steady GPU. */
#define CG_STATS_OUTLIER_MADS 14.826
/* Below this coefficient of variation the runs are steady enough that no timing warning is worth giving: an
 * "outlier" then moves the median by a fraction of a percent. */
#define CG_STATS_QUIET_CV 0.01
/* Above this coefficient of variation the timings themselves warn (high_cv). */
#define CG_STATS_HIGH_CV 0.05

/* Computes the statistics of x[0..n-1] (x is not modified). n == 0 gives all zeros. */
void cg_stats_compute(const double *x, size_t n, cg_stats *out);

#endif
