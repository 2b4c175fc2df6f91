/* Host arithmetic of the blur ladder: Gaussian weights, the Young-van Vliet and Deriche coefficients and the
 * double-precision references (separable convolution, both recursive Gaussians) with clamp-to-edge borders.
 */
#include "workloads/blur/blur_ref.h"
#include <math.h>
#include <stdlib.h>
#include "core/log.h"
#include "workloads/blur/blur.h"

int blur_radius(double sigma)
{
    return (int)ceil(3.0 * sigma);
}

void blur_weights(double sigma, int r, float *g)
{
    double sum = 0.0;
    for (int i = -r; i <= r; i++)
        sum += exp(-(double)i * i / (2.0 * sigma * sigma));
    for (int i = -r; i <= r; i++)
        g[i + r] = (float)(exp(-(double)i * i / (2.0 * sigma * sigma)) / sum);
}

void blur_exact_weights(int r, float *g)
{
    int t = 2 * r + 1, sum = 0, e = 0;
    for (int k = 0; k < t; k++)
        sum += 1 + (5 * k + 2) % 4;
    while ((1 << e) < sum)
        e++;
    for (int k = 0; k < t; k++)
        g[k] = ldexpf((float)(1 + (5 * k + 2) % 4), -e);
}

/* Young, van Vliet, "Recursive implementation of the Gaussian filter", Signal Processing 44 (1995), eq. 11
 * (q from sigma) and eq. 8 (b0..b3). */
void blur_yvv_coeffs(double sigma, float c[4])
{
    double q = sigma >= 2.5 ? 0.98711 * sigma - 0.96330 : 3.97156 - 4.14554 * sqrt(1.0 - 0.26891 * sigma);
    double q2 = q * q, q3 = q2 * q;
    double b0 = 1.57825 + 2.44413 * q + 1.4281 * q2 + 0.422205 * q3;
    double b1 = 2.44413 * q + 2.85619 * q2 + 1.26661 * q3;
    double b2 = -(1.4281 * q2 + 1.26661 * q3);
    double b3 = 0.422205 * q3;
    c[1] = (float)(b1 / b0);
    c[2] = (float)(b2 / b0);
    c[3] = (float)(b3 / b0);
    c[0] = (float)(1.0 - ((double)c[1] + c[2] + c[3])); /* exactly 1 - the others in float: steady gain 1 */
}

static size_t clampi(long long i, size_t n)
{
    return i < 0 ? 0 : (size_t)i >= n ? n - 1 : (size_t)i;
}

/* One line of n samples, `stride` apart. The samples whose taps all lie inside the line skip the clamps (the
 * same products summed in the same order: the same doubles); at sigma 32 a 4096^2 reference is 193 taps a
 * pixel each way. */
static void conv_line(const double *in, double *out, size_t n, size_t stride, const float *g, int r)
{
    size_t ur = (size_t)r, lo = ur < n ? ur : n, hi = n > ur ? n - ur : 0; /* [lo, hi): no clamp needed */
    for (size_t i = 0; i < n; i++) {
        double s = 0.0;
        if (i >= lo && i < hi) {
            const double *x = in + (i - ur) * stride;
            for (size_t k = 0; k <= 2 * ur; k++)
                s += (double)g[k] * x[k * stride];
        } else
            for (int k = -r; k <= r; k++)
                s += (double)g[k + r] * in[clampi((long long)i + k, n) * stride];
        out[i * stride] = s;
    }
}

void blur_ref_conv(const double *in, double *out, size_t w, size_t h, const float *g, int r, int dir)
{
    if (dir == 0) {
        for (size_t y = 0; y < h; y++)
            conv_line(in + y * w, out + y * w, w, 1, g, r);
        return;
    }
    for (size_t y = 0; y < h; y++) { /* columns, walked row by row so that memory is read in order */
        double *o = out + y * w;
        for (size_t x = 0; x < w; x++)
            o[x] = 0.0;
        for (int k = -r; k <= r; k++) {
            const double *i = in + clampi((long long)y + k, h) * w;
            for (size_t x = 0; x < w; x++)
                o[x] += (double)g[k + r] * i[x];
        }
    }
}

#define BOUNDARY_SAMPLES 20000

void blur_yvv_boundary(const float c[4], float m[9])
{
    static double du[BOUNDARY_SAMPLES + 3], dv[BOUNDARY_SAMPLES + 3];
    double b = c[0], a1 = c[1], a2 = c[2], a3 = c[3];
    for (int k = 0; k < 3; k++) {
        /* du[2 - j] is the causal deviation at n - 1 - j: a unit one at n - 1 - k; du[3 + i] at n + i */
        du[0] = du[1] = du[2] = 0.0;
        du[2 - k] = 1.0;
        for (int i = 3; i < BOUNDARY_SAMPLES + 3; i++)
            du[i] = a1 * du[i - 1] + a2 * du[i - 2] + a3 * du[i - 3];
        /* dv[i] at n + i - 3, zero past the far end; walked back to n */
        for (int i = BOUNDARY_SAMPLES + 2; i >= 3; i--) {
            double p1 = i + 1 < BOUNDARY_SAMPLES + 3 ? dv[i + 1] : 0.0;
            double p2 = i + 2 < BOUNDARY_SAMPLES + 3 ? dv[i + 2] : 0.0;
            double p3 = i + 3 < BOUNDARY_SAMPLES + 3 ? dv[i + 3] : 0.0;
            dv[i] = b * du[i] + a1 * p1 + a2 * p2 + a3 * p3;
        }
        for (int j = 0; j < 3; j++)
            m[3 * j + k] = (float)dv[3 + j];
    }
}

static void yvv_line(const double *in, double *out, size_t n, size_t stride, const float c[4],
                     const float m[9])
{
    double b = c[0], a1 = c[1], a2 = c[2], a3 = c[3];
    double p1 = in[0], p2 = p1, p3 = p1;
    for (size_t i = 0; i < n; i++) {
        double v = b * in[i * stride] + a1 * p1 + a2 * p2 + a3 * p3;
        out[i * stride] = v;
        p3 = p2;
        p2 = p1;
        p1 = v;
    }
    double e = in[(n - 1) * stride], d[3];
    for (size_t k = 0; k < 3; k++)
        d[k] = (k < n ? out[(n - 1 - k) * stride] : in[0]) - e;
    p1 = e + m[0] * d[0] + m[1] * d[1] + m[2] * d[2];
    p2 = e + m[3] * d[0] + m[4] * d[1] + m[5] * d[2];
    p3 = e + m[6] * d[0] + m[7] * d[1] + m[8] * d[2];
    for (size_t i = n; i-- > 0;) {
        double v = b * out[i * stride] + a1 * p1 + a2 * p2 + a3 * p3;
        out[i * stride] = v;
        p3 = p2;
        p2 = p1;
        p1 = v;
    }
}

void blur_ref_yvv(const double *in, double *out, size_t w, size_t h, const float c[4], const float m[9],
                  int dir)
{
    if (dir == 0) {
        for (size_t y = 0; y < h; y++)
            yvv_line(in + y * w, out + y * w, w, 1, c, m);
        return;
    }
    for (size_t x = 0; x < w; x++)
        yvv_line(in + x, out + x, h, w, c, m);
}

void blur_deriche_coeffs(double sigma, float k[16])
{
    const double a0 = 1.68, a1 = 3.735, b0 = 1.783, b1 = 1.723, w0 = 0.6318, w1 = 1.997, c0 = -0.6803,
                 c1 = -0.2598;
    double cw0 = cos(w0 / sigma), sw0 = sin(w0 / sigma), cw1 = cos(w1 / sigma), sw1 = sin(w1 / sigma);
    double e0 = exp(-b0 / sigma), e1 = exp(-b1 / sigma), n[4], d[4], m[4];
    n[0] = a0 + c0;
    n[1] = e1 * (c1 * sw1 - (c0 + 2 * a0) * cw1) + e0 * (a1 * sw0 - (2 * c0 + a0) * cw0);
    n[2] =
        2 * e0 * e1 * ((a0 + c0) * cw1 * cw0 - a1 * cw1 * sw0 - c1 * cw0 * sw1) + c0 * e0 * e0 + a0 * e1 * e1;
    n[3] = e1 * e0 * e0 * (c1 * sw1 - c0 * cw1) + e0 * e1 * e1 * (a1 * sw0 - a0 * cw0);
    d[0] = -2 * e1 * cw1 - 2 * e0 * cw0;
    d[1] = 4 * cw1 * cw0 * e0 * e1 + e1 * e1 + e0 * e0;
    d[2] = -2 * cw0 * e0 * e1 * e1 - 2 * cw1 * e1 * e0 * e0;
    d[3] = e0 * e0 * e1 * e1;
    for (int i = 0; i < 3; i++) /* h[-j] = h[j]: the anti-causal numerator (n at -1 .. -4) */
        m[i] = n[i + 1] - d[i] * n[0];
    m[3] = -d[3] * n[0];
    double dsum = 1.0, gain = 0.0; /* the DC gain with the float denominator: the float filter's */
    for (int i = 0; i < 4; i++) {
        k[8 + i] = (float)d[i];
        dsum += k[8 + i];
    }
    for (int i = 0; i < 4; i++)
        gain += n[i] + m[i];
    gain /= dsum;
    double sn = 0.0, sm = 0.0;
    for (int i = 0; i < 4; i++) {
        k[i] = (float)(n[i] / gain);
        k[4 + i] = (float)(m[i] / gain);
        sn += k[i];
        sm += k[4 + i];
    }
    k[12] = (float)(sn / dsum);
    k[13] = (float)(sm / dsum);
    k[14] = k[15] = 0.0f;
}

static void deriche_line(const double *in, double *out, size_t n, size_t stride, const float k[16])
{
    double x = in[0], i1 = x, i2 = x, i3 = x, i4, o1 = k[12] * x, o2 = o1, o3 = o1, o4 = o1;
    for (size_t i = 0; i < n; i++) {
        double i0 = in[i * stride];
        double o0 =
            k[0] * i0 + k[1] * i1 + k[2] * i2 + k[3] * i3 - k[8] * o1 - k[9] * o2 - k[10] * o3 - k[11] * o4;
        out[i * stride] = o0;
        i3 = i2, i2 = i1, i1 = i0;
        o4 = o3, o3 = o2, o2 = o1, o1 = o0;
    }
    x = in[(n - 1) * stride];
    i1 = i2 = i3 = i4 = x;
    o1 = o2 = o3 = o4 = k[13] * x;
    for (size_t i = n; i-- > 0;) {
        double o0 =
            k[4] * i1 + k[5] * i2 + k[6] * i3 + k[7] * i4 - k[8] * o1 - k[9] * o2 - k[10] * o3 - k[11] * o4;
        out[i * stride] += o0;
        i4 = i3, i3 = i2, i2 = i1, i1 = in[i * stride];
        o4 = o3, o3 = o2, o2 = o1, o1 = o0;
    }
}

void blur_ref_deriche(const double *in, double *out, size_t w, size_t h, const float k[16], int dir)
{
    if (dir == 0) {
        for (size_t y = 0; y < h; y++)
            deriche_line(in + y * w, out + y * w, w, 1, k);
        return;
    }
    for (size_t x = 0; x < w; x++)
        deriche_line(in + x, out + x, h, w, k);
}

static void to_float(const double *d, float *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        f[i] = (float)d[i];
}

/* Largest |a - b| over the pixels at least `margin` from every border (margin 0: all of them). */
double blur_max_diff(const float *a, const float *b, size_t w, size_t h, size_t margin)
{
    double m = 0.0;
    for (size_t y = margin; y + margin < h; y++)
        for (size_t x = margin; x + margin < w; x++)
            m = fmax(m, fabs((double)a[y * w + x] - b[y * w + x]));
    return m;
}

/* The references in groups, each built once, when a check first needs one of its references: a run of the
 * separable rungs alone neither computes the recursive filters on the host nor logs their accuracy. */
enum { G_GAUSS, G_GAUSS_V, G_CONV, G_RG, G_DR };

static int ref_group(const blur_state *s, int ref)
{
    switch (ref) {
    case REF_GAUSS:
    case REF_GAUSS_H:
        return G_GAUSS;
    case REF_GAUSS_V:
        return G_GAUSS_V;
    case REF_CONV:
        return s->exact ? G_CONV : G_GAUSS; /* random data: the kernels' weights are the Gaussian's */
    case REF_RG:
    case REF_RG_H:
    case REF_RG_V:
        return G_RG;
    default:
        return G_DR;
    }
}

/* Allocates the references k[0..n) of a group. */
static bool alloc_refs(blur_state *s, const int *k, int n)
{
    for (int i = 0; i < n; i++)
        if (!s->ref[k[i]] && !(s->ref[k[i]] = malloc(s->n * sizeof(float)))) return false;
    return true;
}

/* Logs a recursive filter's references (both ways, rows, columns) against the sampled Gaussian's. */
static void log_truth(const blur_state *s, const char *name, int both, int rows, int cols)
{
    size_t m = (size_t)(BLUR_INTERIOR * s->r);
    const int ref[3] = {both, rows, cols}, gauss[3] = {REF_GAUSS, REF_GAUSS_H, REF_GAUSS_V};
    double e[3][2];
    for (int i = 0; i < 3; i++) {
        e[i][0] = blur_max_diff(s->ref[ref[i]], s->ref[gauss[i]], s->w, s->h, 0);
        e[i][1] = blur_max_diff(s->ref[ref[i]], s->ref[gauss[i]], s->w, s->h, m);
    }
    CG_INFO("blur: %s vs sampled Gaussian (sigma %g), max |error| over all pixels / beyond %zu px of the "
            "borders: %.3g / %.3g (both ways), %.3g / %.3g (rows), %.3g / %.3g (columns)",
            name, s->sigma, m, e[0][0], e[0][1], e[1][0], e[1][1], e[2][0], e[2][1]);
}

/* Builds group gi into its references from in (the input in double), a and b (scratch). */
static cg_status build(blur_state *s, int gi, double *in, double *a, double *b)
{
    size_t n = s->n;
    switch (gi) {
    case G_GAUSS:
        if (!alloc_refs(s, (const int[]){REF_GAUSS_H, REF_GAUSS}, 2)) return CG_E_RUNTIME;
        blur_ref_conv(in, a, s->w, s->h, s->gt, s->r, 0);
        to_float(a, s->ref[REF_GAUSS_H], n);
        blur_ref_conv(a, b, s->w, s->h, s->gt, s->r, 1);
        to_float(b, s->ref[REF_GAUSS], n);
        if (!s->exact) s->ref[REF_CONV] = s->ref[REF_GAUSS];
        return CG_OK;
    case G_GAUSS_V:
        if (!alloc_refs(s, (const int[]){REF_GAUSS_V}, 1)) return CG_E_RUNTIME;
        blur_ref_conv(in, b, s->w, s->h, s->gt, s->r, 1);
        to_float(b, s->ref[REF_GAUSS_V], n);
        return CG_OK;
    case G_CONV: /* exact: the kernels' dyadic weights */
        if (!alloc_refs(s, (const int[]){REF_CONV}, 1)) return CG_E_RUNTIME;
        blur_ref_conv(in, a, s->w, s->h, s->g, s->r, 0);
        blur_ref_conv(a, b, s->w, s->h, s->g, s->r, 1);
        to_float(b, s->ref[REF_CONV], n);
        return CG_OK;
    case G_RG:
        if (!alloc_refs(s, (const int[]){REF_RG_H, REF_RG, REF_RG_V}, 3)) return CG_E_RUNTIME;
        blur_ref_yvv(in, a, s->w, s->h, s->c, s->m, 0);
        to_float(a, s->ref[REF_RG_H], n);
        blur_ref_yvv(a, b, s->w, s->h, s->c, s->m, 1);
        to_float(b, s->ref[REF_RG], n);
        blur_ref_yvv(in, b, s->w, s->h, s->c, s->m, 1);
        to_float(b, s->ref[REF_RG_V], n);
        CG_INFO("blur: recursive rungs' error bound against the double reference (sigma %g): %.3g rows, %.3g "
                "columns, %.3g both ways (largest input %g)",
                s->sigma, s->bound_rows, s->bound_cols, s->bound_both, s->range);
        log_truth(s, "recursive", REF_RG, REF_RG_H, REF_RG_V);
        return CG_OK;
    default: /* G_DR */
        if (!alloc_refs(s, (const int[]){REF_DR_H, REF_DR, REF_DR_V}, 3)) return CG_E_RUNTIME;
        blur_ref_deriche(in, a, s->w, s->h, s->dk, 0);
        to_float(a, s->ref[REF_DR_H], n);
        blur_ref_deriche(a, b, s->w, s->h, s->dk, 1);
        to_float(b, s->ref[REF_DR], n);
        blur_ref_deriche(in, b, s->w, s->h, s->dk, 1);
        to_float(b, s->ref[REF_DR_V], n);
        CG_INFO(
            "blur: Deriche rungs' error bound against the double reference (sigma %g): %.3g one way, %.3g "
            "both ways",
            s->sigma, s->dbound_rows, s->dbound_both);
        log_truth(s, "Deriche", REF_DR, REF_DR_H, REF_DR_V);
        return CG_OK;
    }
}

cg_status blur_need_refs(blur_state *s, int ref, int truth)
{
    unsigned need = 1u << ref_group(s, ref);
    if (truth >= 0) need |= 1u << ref_group(s, truth);
    if (need & (1u << G_RG | 1u << G_DR)) need |= 1u << G_GAUSS | 1u << G_GAUSS_V; /* logged against them */
    need &= ~s->refs_built;
    if (!need) return CG_OK;
    size_t n = s->n;
    double *in = malloc(n * sizeof *in), *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    cg_status st = CG_E_RUNTIME;
    if (in && a && b) {
        for (size_t i = 0; i < n; i++)
            in[i] = s->in[i];
        st = CG_OK;
        for (int gi = G_GAUSS; st == CG_OK && gi <= G_DR; gi++) /* the Gaussian groups before the others */
            if (need & (1u << gi) && (st = build(s, gi, in, a, b)) == CG_OK) s->refs_built |= 1u << gi;
    }
    free(in);
    free(a);
    free(b);
    if (st != CG_OK)
        CG_ERROR("blur: out of host memory for the references of a %zux%zu picture: use a smaller --size",
                 s->w, s->h);
    return st;
}
