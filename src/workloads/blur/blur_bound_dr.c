/* The error bound of the Deriche rungs (dH, dV, deriche, deriche-vt16): how far a float kernel may be from
 * the double reference of the same recursion (blur_ref_deriche, the same float coefficients), whatever its
 * order of operations. Each output of either pass is an 8-term dot product (4 feed-forward, 4 feedback taps):
 * its rounding is at most gamma_8 times the sum of the |terms| (Higham), and reaches every later output of
 * the pass through the impulse response f of the feedback 1 / (1 + d1 z^-1 + .. + d4 z^-4), so at most |f|_1
 * times the largest one: 50 at sigma 5, 570 at sigma 10, 47,000 at sigma 32, where the direct form's four
 * poles crowd near 1 and the bound becomes loose (docs/workloads/blur.md). The starts (the steady state of an
 * edge sample) add one rounding each, carried by the feedback's response to a unit state; the final y+ + y-
 * one more. Unlike Young-van Vliet's cascade, the anti-causal pass never reads the causal one: their errors
 * only add. Errors already in the input reach the output through |h|_1 of the whole filter. */
#include <math.h>
#include "core/check.h"
#include "workloads/blur/blur_ref.h"

/* Samples of the responses summed: the slowest pole (|p| = e^(-1.723 / sigma), 0.947 at sigma 32) is
 * below 1e-30 of its start after 1,300 samples; the loops stop earlier once the response has decayed. */
#define RESP_MAX 200000

/* The feedback's recursion with input u[n] (feed-forward part already applied): y[n] = u[n] - d . y[n-1..4].
 */
static double step(const double d[4], double u, double y[4])
{
    double v = u - d[0] * y[0] - d[1] * y[1] - d[2] * y[2] - d[3] * y[3];
    y[3] = y[2], y[2] = y[1], y[1] = y[0], y[0] = v;
    return v;
}

static int decayed(const double y[4], double sum)
{
    return fabs(y[0]) + fabs(y[1]) + fabs(y[2]) + fabs(y[3]) < 1e-17 * sum;
}

/* l1 norm of the impulse response of num(z) / (1 + d . z^-1..4): num = {1, 0, 0, 0} gives the feedback's. */
static double resp_l1(const double num[4], const double d[4])
{
    double y[4] = {0, 0, 0, 0}, sum = 0.0;
    for (int k = 0; k < RESP_MAX; k++) {
        sum += fabs(step(d, k < 4 ? num[k] : 0.0, y));
        if (k > 8 && decayed(y, sum)) break;
    }
    return sum;
}

/* sup over n of sum over the 4 state slots of |the zero-input response to a unit in that slot|. */
static double state_resp(const double d[4])
{
    double y[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}, sup = 1.0, run = 0.0;
    for (int k = 0; k < RESP_MAX; k++) {
        double row = 0.0;
        for (int j = 0; j < 4; j++)
            row += fabs(step(d, 0.0, y[j]));
        sup = fmax(sup, row);
        run += row;
        if (k > 8 && row < 1e-17 * run) break;
    }
    return sup;
}

double blur_deriche_bound(const float k[16], double x, double ein, double *out_sup)
{
    double n[4], m[4], d[4], an = 0.0, am = 0.0, ad = 0.0;
    for (int i = 0; i < 4; i++) {
        n[i] = k[i], m[i] = k[4 + i], d[i] = k[8 + i];
        an += fabs(n[i]), am += fabs(m[i]), ad += fabs(d[i]);
    }
    const double one[4] = {1, 0, 0, 0};
    double f1 = resp_l1(one, d), hp = resp_l1(n, d), hm = resp_l1(m, d), r = state_resp(d);
    double g8 = cg_gamma(8), u = CG_FLOAT_U, X = x + ein;
    double sp = hp * X, sm = hm * X; /* sup |y+|, |y-| of the input as the kernel reads it */
    *out_sup = (hp + hm) * x;        /* h+ (n >= 0) and h- (n <= -1) do not overlap: |h|_1 = hp + hm */
    /* The computed outputs exceed sp, sm by their own errors: a geometric series of q. */
    double q = g8 * ad * f1;
    if (!(q < 0.5)) return INFINITY;
    double ec = (f1 * g8 * (an * X + ad * sp) + u * fabs(k[12]) * X * r) / (1.0 - q);
    double ea = (f1 * g8 * (am * X + ad * sm) + u * fabs(k[13]) * X * r) / (1.0 - q);
    return ec + ea + u * (sp + sm + ec + ea) + (hp + hm) * ein;
}
