/* The cloth's picture for --output: one cloth's particles seen from a fixed direction (orthographic, turned
 * CLOTH_YAW degrees about the vertical and tilted CLOTH_PITCH degrees down), every quad of four neighbouring
 * particles filled as two triangles, far quads first (painter's order by the quad's mean depth), each quad
 * shaded by Lambert's law from its normal (two-sided: both faces lit alike) and a checkerboard of 16 squares
 * across, so that folds and sag show; fitted into the picture with a margin, on a dark background. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "workloads/cloth/cloth.h"

#define CLOTH_YAW    30.0 /* degrees about the vertical (y) axis */
#define CLOTH_PITCH  20.0 /* degrees looking down */
#define CLOTH_BG     32   /* background grey */
#define CLOTH_MARGIN 0.06 /* of each side of the picture */
#define CLOTH_PI     3.14159265358979323846

typedef struct quad_key {
    float depth;
    uint32_t i; /* the quad's top-left particle */
} quad_key;

static int by_depth(const void *a, const void *b)
{
    float da = ((const quad_key *)a)->depth, db = ((const quad_key *)b)->depth;
    return (da > db) - (da < db);
}

/* Particle positions turned into the view: x right, y up, z towards the viewer (3 floats each); NULL when
 * out of memory. */
static float *to_view(const float *pos, size_t n)
{
    float *v = malloc(n * 3 * sizeof *v);
    if (!v) return NULL;
    double a = CLOTH_YAW * CLOTH_PI / 180, b = CLOTH_PITCH * CLOTH_PI / 180;
    double ca = cos(a), sa = sin(a), cb = cos(b), sb = sin(b);
    for (size_t i = 0; i < n; i++) {
        double x = pos[4 * i], y = pos[4 * i + 1], z = pos[4 * i + 2];
        double x1 = x * ca + z * sa, z1 = -x * sa + z * ca;
        v[3 * i] = (float)x1;
        v[3 * i + 1] = (float)(y * cb - z1 * sb);
        v[3 * i + 2] = (float)(y * sb + z1 * cb);
    }
    return v;
}

/* Fills triangle (a, b, c) (picture coordinates) with grey g: every pixel whose centre lies inside or on an
 * edge, whichever the winding, so that neighbouring triangles leave no gap. */
static void fill_tri(uint8_t *pix, int pw, int ph, const double *a, const double *b, const double *c,
                     uint8_t g)
{
    double area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    if (!(fabs(area) > 0)) return;
    double s = area > 0 ? 1 : -1;
    int x0 = (int)floor(fmin(a[0], fmin(b[0], c[0]))), x1 = (int)ceil(fmax(a[0], fmax(b[0], c[0])));
    int y0 = (int)floor(fmin(a[1], fmin(b[1], c[1]))), y1 = (int)ceil(fmax(a[1], fmax(b[1], c[1])));
    x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > pw - 1 ? pw - 1 : x1, y1 = y1 > ph - 1 ? ph - 1 : y1;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            double px = x + 0.5, py = y + 0.5;
            double e0 = s * ((b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]));
            double e1 = s * ((c[0] - b[0]) * (py - b[1]) - (c[1] - b[1]) * (px - b[0]));
            double e2 = s * ((a[0] - c[0]) * (py - c[1]) - (a[1] - c[1]) * (px - c[0]));
            if (e0 >= 0 && e1 >= 0 && e2 >= 0) pix[(size_t)y * pw + x] = g;
        }
}

/* Quad i's grey: Lambert's law for its normal (the cross product of its diagonals) under a light from the
 * upper left, in front, times its checkerboard square's albedo. */
static uint8_t shade(const float *v, size_t i, int w, int cell)
{
    const float *p = v + 3 * i, *r = p + 3, *d = p + 3 * (size_t)w, *q = d + 3;
    double d1[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]}, d2[3] = {d[0] - r[0], d[1] - r[1], d[2] - r[2]};
    double n[3] = {d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2],
                   d1[0] * d2[1] - d1[1] * d2[0]};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double lx = -0.3, ly = 0.5, lz = 0.8, ll = sqrt(lx * lx + ly * ly + lz * lz);
    double lam = len > 0 ? fabs(n[0] * lx + n[1] * ly + n[2] * lz) / (len * ll) : 0;
    int x = (int)(i % (size_t)w), y = (int)(i / (size_t)w);
    double albedo = ((x / cell + y / cell) & 1) ? 0.72 : 1.0;
    double g = 255 * albedo * (0.18 + 0.82 * lam);
    return (uint8_t)(g > 255 ? 255 : g < 0 ? 0 : g);
}

/* The view's x and y range over the finite particles into box (x0, y0, x1, y1); false when none is finite. */
static bool bounds(const float *v, size_t n, double box[4])
{
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        double x = v[3 * i], y = v[3 * i + 1];
        if (!isfinite(x) || !isfinite(y) || !isfinite(v[3 * i + 2])) continue;
        box[0] = any ? fmin(box[0], x) : x, box[1] = any ? fmin(box[1], y) : y;
        box[2] = any ? fmax(box[2], x) : x, box[3] = any ? fmax(box[3], y) : y;
        any = true;
    }
    return any;
}

cg_status cloth_draw(const float *pos, int w, int h, uint8_t *pix, int pw, int ph)
{
    size_t n = (size_t)w * (size_t)h, nq = (size_t)(w - 1) * (size_t)(h - 1), k = 0;
    for (size_t i = 0; i < (size_t)pw * (size_t)ph; i++)
        pix[i] = CLOTH_BG;
    float *v = to_view(pos, n);
    quad_key *keys = malloc((nq ? nq : 1) * sizeof *keys);
    double box[4];
    if (!v || !keys) {
        free(v);
        free(keys);
        return CG_E_RUNTIME;
    }
    if (bounds(v, n, box)) {
        double bw = fmax(box[2] - box[0], 1e-9), bh = fmax(box[3] - box[1], 1e-9);
        double sc = fmin(pw * (1 - 2 * CLOTH_MARGIN) / bw, ph * (1 - 2 * CLOTH_MARGIN) / bh);
        double cx = (box[0] + box[2]) / 2, cy = (box[1] + box[3]) / 2;
        for (size_t y = 0; y + 1 < (size_t)h; y++)
            for (size_t x = 0; x + 1 < (size_t)w; x++) {
                size_t i = y * (size_t)w + x, c[4] = {i, i + 1, i + (size_t)w, i + (size_t)w + 1};
                float z = 0, all = 0; /* all: NaN or infinite when any coordinate is */
                for (int j = 0; j < 4; j++) {
                    z += v[3 * c[j] + 2];
                    all += (v[3 * c[j]] - v[3 * c[j]]) + (v[3 * c[j] + 1] - v[3 * c[j] + 1]);
                }
                if (isfinite(z) && all == 0) keys[k++] = (quad_key){z, (uint32_t)i};
            }
        qsort(keys, k, sizeof *keys, by_depth);
        int cell = (w > h ? w : h) / 16 > 1 ? (w > h ? w : h) / 16 : 1;
        for (size_t q = 0; q < k; q++) {
            size_t i = keys[q].i, c[4] = {i, i + 1, i + (size_t)w + 1, i + (size_t)w};
            double s[4][2];
            for (int j = 0; j < 4; j++) {
                s[j][0] = pw / 2.0 + (v[3 * c[j]] - cx) * sc;
                s[j][1] = ph / 2.0 - (v[3 * c[j] + 1] - cy) * sc;
            }
            uint8_t g = shade(v, i, w, cell);
            fill_tri(pix, pw, ph, s[0], s[1], s[2], g);
            fill_tri(pix, pw, ph, s[0], s[2], s[3], g);
        }
    }
    free(v);
    free(keys);
    return CG_OK;
}
