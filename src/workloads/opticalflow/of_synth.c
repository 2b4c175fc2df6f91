/* The opticalflow workload's default input: a seeded synthetic pair with a known motion. The first frame is
 * a random texture smoothed by a Gaussian (sigma 1.5) and stretched to mean 128, deviation 45, with a flat
 * grey patch (a quarter of each side, from an eighth in) where the points are invalid; the second is that
 * texture (bilinear between its pixels, before rounding) read at y - u(y) for a smooth sub-pixel motion u: a
 * translation of (3, -2) px, a 1% zoom and a 0.6 degree rotation about the centre, and a horizontal ripple of
 * 0.7 px along y. The true flow d at pixel x solves I(x) = J(x + d), i.e. d = u(x + d), found by fixed-point
 * iteration. */
#include <math.h>
#include <stdlib.h>
#include "core/log.h"
#include "core/rng.h"
#include "workloads/opticalflow/opticalflow.h"

#define SIGMA  1.5
#define RADIUS 5
#define PI     3.14159265358979323846

static void motion(const of_state *s, double x, double y, double *ux, double *uy)
{
    double cx = 0.5 * (double)(s->w - 1), cy = 0.5 * (double)(s->h - 1), a = 0.6 * PI / 180, z = 0.01;
    double rx = x - cx, ry = y - cy;
    *ux = 3.0 + z * rx + (cos(a) - 1) * rx - sin(a) * ry + 0.7 * sin(2 * PI * y / 160.0);
    *uy = -2.0 + z * ry + sin(a) * rx + (cos(a) - 1) * ry;
}

static double texel(const double *t, size_t w, size_t h, double x, double y)
{
    x = x < 0 ? 0 : x > (double)(w - 1) ? (double)(w - 1) : x;
    y = y < 0 ? 0 : y > (double)(h - 1) ? (double)(h - 1) : y;
    size_t x0 = (size_t)x, y0 = (size_t)y, x1 = x0 + 1 < w ? x0 + 1 : x0, y1 = y0 + 1 < h ? y0 + 1 : y0;
    double ax = x - (double)x0, ay = y - (double)y0;
    double top = t[y0 * w + x0] + ax * (t[y0 * w + x1] - t[y0 * w + x0]);
    double bot = t[y1 * w + x0] + ax * (t[y1 * w + x1] - t[y1 * w + x0]);
    return top + ay * (bot - top);
}

/* One separable Gaussian pass along rows (dx 1) or columns (dx w), clamped, from a into b. */
static void gauss(const double *a, double *b, size_t w, size_t h, bool rows)
{
    double k[2 * RADIUS + 1], sum = 0;
    for (int i = -RADIUS; i <= RADIUS; i++)
        sum += k[i + RADIUS] = exp(-0.5 * i * i / (SIGMA * SIGMA));
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            double v = 0;
            for (long i = -RADIUS; i <= RADIUS; i++) {
                long xx = rows ? (long)x + i : (long)x, yy = rows ? (long)y : (long)y + i;
                xx = xx < 0 ? 0 : xx >= (long)w ? (long)w - 1 : xx;
                yy = yy < 0 ? 0 : yy >= (long)h ? (long)h - 1 : yy;
                v += k[i + RADIUS] * a[(size_t)yy * w + (size_t)xx];
            }
            b[y * w + x] = v / sum;
        }
}

static uint8_t to_byte(double v)
{
    return (uint8_t)lrint(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* The smoothed texture, stretched to mean 128 and deviation 45, into t (tmp: scratch of the same size). */
static void texture(size_t w, size_t h, uint64_t seed, double *t, double *tmp)
{
    size_t n = w * h;
    cg_rng rng;
    cg_rng_init(&rng, seed);
    for (size_t k = 0; k < n; k++)
        t[k] = cg_rng_float(&rng);
    gauss(t, tmp, w, h, true);
    gauss(tmp, t, w, h, false);
    double mean = 0, var = 0;
    for (size_t k = 0; k < n; k++)
        mean += t[k];
    mean /= (double)n;
    for (size_t k = 0; k < n; k++)
        var += (t[k] - mean) * (t[k] - mean);
    double sd = sqrt(var / (double)n);
    for (size_t k = 0; k < n; k++)
        t[k] = 128 + 45 * (t[k] - mean) / (sd > 0 ? sd : 1);
    for (size_t y = h / 8; y < h / 8 + h / 4; y++) /* a flat patch: points LK cannot solve */
        for (size_t x = w / 8; x < w / 8 + w / 4; x++)
            t[y * w + x] = 128;
}

cg_status of_synthesize(of_state *s, uint64_t seed)
{
    size_t w = s->w, h = s->h, n = s->n;
    double *t = calloc(n, sizeof *t),
           *tmp = calloc(n, sizeof *tmp); /* zeroed: gcc -O2 cannot see the writes */
    s->frame[0] = malloc(n);
    s->frame[1] = malloc(n);
    s->truth = malloc(2 * n * sizeof *s->truth);
    if (!t || !tmp || !s->frame[0] || !s->frame[1] || !s->truth) {
        free(t);
        free(tmp);
        CG_ERROR("opticalflow: out of host memory for a %zux%zu pair: use a smaller --size", w, h);
        return CG_E_RUNTIME;
    }
    texture(w, h, seed, t, tmp);
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            double ux, uy, dx = 0, dy = 0;
            motion(s, (double)x, (double)y, &ux, &uy);
            s->frame[1][y * w + x] = to_byte(texel(t, w, h, (double)x - ux, (double)y - uy));
            s->frame[0][y * w + x] = to_byte(t[y * w + x]);
            for (int k = 0; k < 30; k++)
                motion(s, (double)x + dx, (double)y + dy, &dx, &dy);
            s->truth[2 * (y * w + x)] = (float)dx;
            s->truth[2 * (y * w + x) + 1] = (float)dy;
        }
    free(t);
    free(tmp);
    s->synthetic = true;
    return CG_OK;
}

double of_mean_epe(const of_state *s, const float *flow, const uint8_t *status, size_t margin, size_t *count)
{
    double sum = 0;
    size_t c = 0;
    for (size_t i = 0; i < of_npoints(s); i++) {
        size_t k = of_px(s, i), x = k % s->w, y = k / s->w;
        if (status[i] != OF_TRACKED || x < margin || y < margin || x + margin >= s->w || y + margin >= s->h)
            continue;
        sum += hypot(flow[2 * i] - s->truth[2 * k], flow[2 * i + 1] - s->truth[2 * k + 1]);
        c++;
    }
    *count = c;
    return c ? sum / (double)c : 0;
}
