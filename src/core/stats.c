/* Timing statistics: min, max, median, mean, sample standard deviation, CV, MAD and MAD-based outliers. */
#include "core/stats.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_sorted(const double *s, size_t n)
{
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

void cg_stats_compute(const double *x, size_t n, cg_stats *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0) return;
    double *s = malloc(n * sizeof *s);
    if (!s) return;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->median = median_sorted(s, n);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    out->mean = sum / (double)n;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (s[i] - out->mean) * (s[i] - out->mean);
    out->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    out->cv = out->mean != 0 ? out->stddev / out->mean : 0;
    for (size_t i = 0; i < n; i++)
        s[i] = fabs(x[i] - out->median);
    qsort(s, n, sizeof *s, cmp_double);
    out->mad = median_sorted(s, n);
    if (out->mad > 0 && n >= 5) /* with fewer samples every spread looks like an outlier */
        for (size_t i = 0; i < n; i++)
            if (fabs(x[i] - out->median) > CG_STATS_OUTLIER_MADS * out->mad) out->outliers++;
    free(s);
}
