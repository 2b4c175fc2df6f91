/* The error bound of the recursive (Young-van Vliet) rungs: how far a float kernel may be from the double
 * reference whatever its order of operations, derived from the filter itself. A recursive filter feeds its
 * rounding errors back: an error made at one sample reaches every later one through the impulse response of
 * the feedback, so the bound grows with the sum of |impulse response| (about 1/B: 38 at sigma 5, 8500 at
 * sigma 32). Each rounding of the kernel is bounded (Higham's gamma_4 for a 4-term dot product, any order,
 * FMA or not), and how far it can travel to an output is measured on the host by linearity: the impulse
 * response of the whole line filter (causal pass, anti-causal pass and its Triggs-Sdika start) to a unit
 * error at each place, summed in absolute value per output and maximised (an infinity norm). */
#include <math.h>
#include <stdlib.h>
#include "core/check.h"
#include "workloads/blur/blur_ref.h"

/* Lines longer than this have the norms of this length: the filter's response decays within a few hundred
 * samples for every sigma it accepts (time constant about 0.8 sigma), so the rows of a longer line near
 * either end or in the middle are those of this one. */
#define NORM_MAX_LINE 1024

enum { IMP_INPUT, IMP_CAUSAL, IMP_ANTI, IMP_START, IMP_KINDS };

/* One line of n samples through the filter in double, with x zero but for a unit impulse of the given kind
 * at position i: in the input, added to the causal pass's value i, to the anti-causal pass's value i, or to
 * start slot i (0..2: p1..p3) of the anti-causal pass. Mirrors blur_rec.cl's yvv_line. u is scratch (n). */
static void impulse_line(size_t n, const double c[4], const double m[9], int kind, size_t i, double *u,
                         double *out)
{
    double x0 = kind == IMP_INPUT && i == 0 ? 1.0 : 0.0, p1 = x0, p2 = x0, p3 = x0;
    for (size_t k = 0; k < n; k++) {
        double v = c[0] * (kind == IMP_INPUT && k == i ? 1.0 : 0.0) + c[1] * p1 + c[2] * p2 + c[3] * p3;
        if (kind == IMP_CAUSAL && k == i) v += 1.0;
        u[k] = v;
        p3 = p2;
        p2 = p1;
        p1 = v;
    }
    double e = kind == IMP_INPUT && i == n - 1 ? 1.0 : 0.0, d[3];
    for (size_t k = 0; k < 3; k++)
        d[k] = (k < n ? u[n - 1 - k] : x0) - e;
    double p[3];
    for (int j = 0; j < 3; j++)
        p[j] = e + m[3 * j] * d[0] + m[3 * j + 1] * d[1] + m[3 * j + 2] * d[2] +
               (kind == IMP_START && (size_t)j == i ? 1.0 : 0.0);
    p1 = p[0], p2 = p[1], p3 = p[2];
    for (size_t k = n; k-- > 0;) {
        double v = c[0] * u[k] + c[1] * p1 + c[2] * p2 + c[3] * p3;
        if (kind == IMP_ANTI && k == i) v += 1.0;
        out[k] = v;
        p3 = p2;
        p2 = p1;
        p1 = v;
    }
}

/* norm[kind] = max over outputs of the sum over impulse positions of |response|. */
static int line_norms(size_t n, const double c[4], const double m[9], double norm[IMP_KINDS])
{
    double *u = malloc(n * sizeof *u), *out = malloc(n * sizeof *out), *row = malloc(n * sizeof *row);
    int ok = u && out && row;
    for (int kind = 0; ok && kind < IMP_KINDS; kind++) {
        size_t count = kind == IMP_START ? 3 : n;
        for (size_t k = 0; k < n; k++)
            row[k] = 0.0;
        for (size_t i = 0; i < count; i++) {
            impulse_line(n, c, m, kind, i, u, out);
            for (size_t k = 0; k < n; k++)
                row[k] += fabs(out[k]);
        }
        norm[kind] = 0.0;
        for (size_t k = 0; k < n; k++)
            norm[kind] = fmax(norm[kind], row[k]);
    }
    free(u);
    free(out);
    free(row);
    return ok;
}

double blur_yvv_feedback_l1(const double c[4])
{
    double h1 = 0.0, h2 = 0.0, h3 = 0.0, v = 1.0, sum = 1.0;
    for (int k = 1; k < 10000000; k++) {
        h3 = h2;
        h2 = h1;
        h1 = v;
        v = c[1] * h1 + c[2] * h2 + c[3] * h3;
        sum += fabs(v);
        if (k > 16 && fabs(v) + fabs(h1) + fabs(h2) < 1e-17 * sum) break;
    }
    return sum;
}

double blur_yvv_bound(const float cf[4], const float mf[9], size_t n, double x, double ein, double *out_sup)
{
    double c[4], m[9], norm[IMP_KINDS], rowm = 0.0;
    for (int k = 0; k < 4; k++)
        c[k] = cf[k];
    for (int k = 0; k < 9; k++)
        m[k] = mf[k];
    for (int j = 0; j < 3; j++)
        rowm = fmax(rowm, fabs(m[3 * j]) + fabs(m[3 * j + 1]) + fabs(m[3 * j + 2]));
    if (!line_norms(n < NORM_MAX_LINE ? n : NORM_MAX_LINE, c, m, norm)) {
        *out_sup = INFINITY;
        return INFINITY; /* out of memory: no bound, every element fails loudly rather than passing */
    }
    double g4 = cg_gamma(4), a = fabs(c[1]) + fabs(c[2]) + fabs(c[3]), h1 = blur_yvv_feedback_l1(c);
    double causal = fabs(c[0]) * h1 * x;                     /* sup of the causal pass's output */
    double both = norm[IMP_INPUT] * x;                       /* sup of the line's output */
    double dc = g4 * (fabs(c[0]) * x + a * causal);          /* one causal step's rounding */
    double da = g4 * (fabs(c[0]) * causal + a * both);       /* one anti-causal step's */
    double d = causal + x;                                   /* |u - e| */
    double ds = g4 * (x + rowm * d) + rowm * CG_FLOAT_U * d; /* one start slot's (and its d's) */
    *out_sup = both;
    /* The computed values exceed the sups above by their own errors, at most 2 g4 a h1 of them relative:
     * the geometric series of that covers the second-order terms. */
    double second = 2.0 * g4 * a * h1;
    if (!(second < 0.5)) return INFINITY;
    return (dc * norm[IMP_CAUSAL] + da * norm[IMP_ANTI] + ds * norm[IMP_START] + norm[IMP_INPUT] * ein) /
           (1.0 - second);
}
