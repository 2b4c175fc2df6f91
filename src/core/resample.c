/* The percentile bootstrap of a ratio of medians. A resample's median is found without sorting it: the
 * sample is sorted once, a resample is the count of draws of each sorted position, and its median is where
 * the running count crosses the middle, so one resample costs O(n). */
#include "core/resample.h"
#include "core/rng.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double *sorted_copy(const double *x, size_t n)
{
    double *s = malloc(n * sizeof *s);
    if (!s) return NULL;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    return s;
}

double cg_median(const double *x, size_t n)
{
    double *s = sorted_copy(x, n);
    if (!s) return NAN;
    double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

/* The k-th smallest (0-based) of the resample whose draw counts of the sorted positions are count[]. */
static double kth(const double *s, const size_t *count, size_t k)
{
    size_t seen = 0, i = 0;
    while ((seen += count[i]) <= k)
        i++;
    return s[i];
}

/* The median of one resample of the sorted sample s[0..n-1]; count[] is n entries of scratch. */
static double resample_median(cg_rng *g, const double *s, size_t n, size_t *count)
{
    memset(count, 0, n * sizeof *count);
    for (size_t i = 0; i < n; i++) /* a draw in [0, n): the high 32 bits scaled, bias below 2^-32 * n */
        count[(size_t)(((cg_rng_next(g) >> 32) * (uint64_t)n) >> 32)]++;
    return n % 2 ? kth(s, count, n / 2) : 0.5 * (kth(s, count, n / 2 - 1) + kth(s, count, n / 2));
}

/* The p-quantile of sorted x[0..n-1], interpolated between neighbours (Hyndman and Fan's type 7). */
static double quantile(const double *x, size_t n, double p)
{
    double at = p * (double)(n - 1), f = floor(at);
    size_t i = (size_t)f;
    return i + 1 < n ? x[i] + (at - f) * (x[i + 1] - x[i]) : x[n - 1];
}

static bool positive(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0) || !isfinite(x[i])) return false;
    return n > 0;
}

bool cg_boot_ratio(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi)
{
    if (!positive(a, na) || !positive(b, nb)) return false;
    double *sa = sorted_copy(a, na), *sb = sorted_copy(b, nb);
    double *ratio = malloc(CG_BOOT_RESAMPLES * sizeof *ratio);
    size_t *count = malloc((na > nb ? na : nb) * sizeof *count);
    bool ok = sa && sb && ratio && count;
    if (ok) {
        cg_rng g;
        cg_rng_init(&g, CG_BOOT_SEED);
        for (size_t r = 0; r < CG_BOOT_RESAMPLES; r++) {
            double ma = resample_median(&g, sa, na, count);
            ratio[r] = resample_median(&g, sb, nb, count) / ma;
        }
        qsort(ratio, CG_BOOT_RESAMPLES, sizeof *ratio, cmp_double);
        *lo = quantile(ratio, CG_BOOT_RESAMPLES, (1 - CG_BOOT_LEVEL) / 2);
        *hi = quantile(ratio, CG_BOOT_RESAMPLES, (1 + CG_BOOT_LEVEL) / 2);
    }
    free(sa);
    free(sb);
    free(ratio);
    free(count);
    return ok;
}
