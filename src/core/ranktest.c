/* The Mann–Whitney U test, two-sided: U from the mid-ranks of the pooled samples; the exact p-value from the
 * distribution of U under the null hypothesis (Mann and Whitney's recurrence, in probabilities, so that every
 * step adds positive numbers), or the normal approximation with the tie and continuity corrections. */
#include "core/ranktest.h"

#include <math.h>
#include <stdlib.h>

typedef struct tagged {
    double v;
    int side; /* 0: a, 1: b */
} tagged;

static int cmp_tagged(const void *x, const void *y)
{
    double a = ((const tagged *)x)->v, b = ((const tagged *)y)->v;
    return (a > b) - (a < b);
}

/* U of a (the pairs a_i > b_j, a tie counting 1/2) and the tie term sum(t^3 - t) over the groups of t tied
 * values; false when out of memory. */
static bool u_statistic(const double *a, size_t na, const double *b, size_t nb, double *u, double *ties)
{
    size_t n = na + nb;
    tagged *s = malloc(n * sizeof *s);
    if (!s) return false;
    for (size_t i = 0; i < n; i++)
        s[i] = i < na ? (tagged){a[i], 0} : (tagged){b[i - na], 1};
    qsort(s, n, sizeof *s, cmp_tagged);
    double rank_a = 0;
    *ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && s[j].v == s[i].v)
            j++;
        double t = (double)(j - i), mid = 0.5 * (double)(i + 1 + j); /* ranks i+1..j */
        for (size_t k = i; k < j; k++)
            rank_a += s[k].side == 0 ? mid : 0;
        *ties += t * t * t - t;
        i = j;
    }
    free(s);
    *u = rank_a - 0.5 * (double)na * (double)(na + 1);
    return true;
}

/* P(U <= umax) for sizes m and n under the null hypothesis: P_{m,n}(u) = m/(m+n) P_{m-1,n}(u-n) + n/(m+n)
 * P_{m,n-1}(u), row by row over n with one distribution (truncated at umax) per m. */
static bool exact_cdf(size_t m, size_t n, size_t umax, double *cdf)
{
    size_t w = umax + 1;
    double *prev = calloc((m + 1) * w, sizeof *prev), *cur = calloc((m + 1) * w, sizeof *cur);
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return false;
    }
    for (size_t i = 0; i <= m; i++)
        prev[i * w] = 1; /* n = 0: U = 0 */
    for (size_t j = 1; j <= n; j++) {
        for (size_t i = 0; i <= m; i++) {
            double *c = cur + i * w, pa = (double)i / (double)(i + j), pb = 1 - pa;
            for (size_t u = 0; u < w; u++)
                c[u] = (i && u >= j ? pa * cur[(i - 1) * w + u - j] : 0) + pb * prev[i * w + u];
        }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    double sum = 0;
    for (size_t u = 0; u < w; u++)
        sum += prev[m * w + u];
    *cdf = sum;
    free(prev);
    free(cur);
    return true;
}

bool cg_ranktest_p(const double *a, size_t na, const double *b, size_t nb, double *p)
{
    double u, ties;
    if (!na || !nb) return *p = 1, true;
    if (!u_statistic(a, na, b, nb, &u, &ties)) return false;
    double mn = (double)na * (double)nb, far = fmin(u, mn - u); /* U is symmetric about mn/2 */
    if (ties == 0 && na <= CG_RANKTEST_EXACT_MAX && nb <= CG_RANKTEST_EXACT_MAX) {
        double cdf;
        if (!exact_cdf(na, nb, (size_t)far, &cdf)) return false;
        *p = fmin(1, 2 * cdf);
        return true;
    }
    double n = (double)(na + nb), var = mn / 12 * ((n + 1) - ties / (n * (n - 1)));
    if (!(var > 0)) return *p = 1, true;
    double z = (mn / 2 - far - 0.5) / sqrt(var);
    *p = z > 0 ? fmin(1, erfc(z / sqrt(2))) : 1;
    return true;
}
