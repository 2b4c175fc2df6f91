/* The opticalflow CPU reference: the kernels' algorithm (the same pyramid, Scharr derivatives, clamped
 * window, fixed iteration count, nearest-parent guess and invalid-point rule) in double, on pthreads by rows.
 * At the finest level it also records what the check needs to bound a float device's error at each pixel: the
 * smallest eigenvalue of G, the last step's length, and bounds on the error of b = sum (I - J) grad I that
 * float sampling and sums (and a texture unit's 8-bit interpolation weights) can cause; the derivation is in
 * docs/workloads/opticalflow.md. Sparse, the pyramid, derivatives and G are still whole levels, but only the
 * points' pixels and their ancestors (pixel (x >> L, y >> L) of level L) are solved: the same flow there as
 * dense. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/log.h"
#include "workloads/opticalflow/opticalflow.h"

#define U 0x1p-24 /* float unit roundoff */
/* level.amb bits: the invalid rule within rounding here / at a coarser ancestor; a last-iteration sample off
 * the frame here / at an ancestor (the image rungs' texture may then settle elsewhere). */
#define AMB_HERE         1u
#define AMB_ANCESTOR     2u
#define CLAMPED_HERE     4u
#define CLAMPED_ANCESTOR 8u
#define OF_SETTLE        3      /* eta: the longest of the last 3 steps (one short step can end a wander) */
#define TEX_WEIGHT       0x1p-8 /* NVIDIA's texture filtering: interpolation weights with 8 fractional bits */
#define MAX_THREADS      16

typedef struct level {
    size_t w, h;
    double *i, *j, *ix, *iy, *gxx, *gxy, *gyy, *fx, *fy;
    uint8_t *amb;  /* AMB_* bits: where the guess (or, for image rungs, the texture's solution) may differ */
    uint8_t *need; /* sparse: 1 where a point (or a descendant) is solved; NULL: every pixel (dense) */
} level;

typedef struct ref_job {
    const of_state *s;
    level *lv;
    int L;
    size_t y0, y1;
} ref_job;

static size_t clampz(long v, size_t n)
{
    return v < 0 ? 0 : (size_t)v >= n ? n - 1 : (size_t)v;
}

/* Level L+1 from level L: [1 4 6 4 1]/16 both ways around (2x, 2y), clamped. */
static void down(const double *src, size_t sw, size_t sh, double *dst, size_t dw, size_t dh)
{
    static const double k[5] = {1, 4, 6, 4, 1};
    for (size_t y = 0; y < dh; y++)
        for (size_t x = 0; x < dw; x++) {
            double s = 0;
            for (int j = 0; j < 5; j++) {
                const double *row = src + clampz((long)(2 * y) + j - 2, sh) * sw;
                double r = 0;
                for (int i = 0; i < 5; i++)
                    r += k[i] * row[clampz((long)(2 * x) + i - 2, sw)];
                s += k[j] * r;
            }
            dst[y * dw + x] = s / 256.0;
        }
}

static void scharr(level *l)
{
    size_t w = l->w, h = l->h;
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            size_t xl = x ? x - 1 : 0, xr = x + 1 < w ? x + 1 : x;
            const double *t = l->i + (y ? y - 1 : 0) * w, *m = l->i + y * w;
            const double *b = l->i + (y + 1 < h ? y + 1 : y) * w;
            l->ix[y * w + x] = (3 * (t[xr] - t[xl]) + 10 * (m[xr] - m[xl]) + 3 * (b[xr] - b[xl])) / 32;
            l->iy[y * w + x] = (3 * (b[xl] - t[xl]) + 10 * (b[x] - t[x]) + 3 * (b[xr] - t[xr])) / 32;
        }
}

static double min_eig(double xx, double xy, double yy)
{
    double a = 0.5 * (xx + yy), b = 0.5 * (xx - yy);
    return a - sqrt(b * b + xy * xy);
}

/* G at every pixel (separable clamped box sums of the products) and the ambiguity of the invalid rule: the
 * float G's entries are within gamma_N of these, its eigenvalue within a few u of its trace more. */
static void tensor(level *l, int r, double *tmp)
{
    size_t w = l->w, h = l->h, n = w * h;
    double *out[3] = {l->gxx, l->gxy, l->gyy};
    for (int c = 0; c < 3; c++) {
        for (size_t y = 0; y < h; y++)
            for (size_t x = 0; x < w; x++) {
                double s = 0;
                for (long i = -r; i <= r; i++) {
                    size_t k = y * w + clampz((long)x + i, w);
                    s += c == 0 ? l->ix[k] * l->ix[k] : c == 1 ? l->ix[k] * l->iy[k] : l->iy[k] * l->iy[k];
                }
                tmp[y * w + x] = s;
            }
        for (size_t y = 0; y < h; y++)
            for (size_t x = 0; x < w; x++) {
                double s = 0;
                for (long j = -r; j <= r; j++)
                    s += tmp[clampz((long)y + j, h) * w + x];
                out[c][y * w + x] = s;
            }
    }
    double nwin = (double)(2 * r + 1) * (2 * r + 1), gam = 4.0 * nwin * U / (1 - nwin * U);
    for (size_t k = 0; k < n; k++) {
        double tr = l->gxx[k] + l->gyy[k];
        double e = min_eig(l->gxx[k], l->gxy[k], l->gyy[k]) - OF_MIN_EIG * nwin;
        l->amb[k] = fabs(e) <= (gam + 16 * U) * tr + 1e-9 ? AMB_HERE : 0; /* the ancestors' bits: solve */
    }
}

/* The bilinear sample of level j at (px, py), clamped; dj gets |horizontal| + |vertical| differences of the
 * four pixels it blends (what an error in the weights multiplies). */
static double sample(const level *l, double px, double py, double *dj)
{
    size_t w = l->w, h = l->h;
    px = px < -1 ? -1 : px > (double)w ? (double)w : px;
    py = py < -1 ? -1 : py > (double)h ? (double)h : py;
    double fx = floor(px), fy = floor(py), ax = px - fx, ay = py - fy;
    size_t xa = clampz((long)fx, w), xb = clampz((long)fx + 1, w);
    const double *ra = l->j + clampz((long)fy, h) * w, *rb = l->j + clampz((long)fy + 1, h) * w;
    double t = ra[xa] + ax * (ra[xb] - ra[xa]), b = rb[xa] + ax * (rb[xb] - rb[xa]);
    *dj = fmax(fabs(ra[xb] - ra[xa]), fabs(rb[xb] - rb[xa])) +
          fmax(fabs(rb[xa] - ra[xa]), fabs(rb[xb] - ra[xb]));
    return t + ay * (b - t);
}

/* One pixel's solve at level L from guess (gx, gy); at the finest level fills *px with the error terms.
 * Returns whether a last-iteration sample lay off the frame (J clamped: flat, the fixed point not pinned). */
static bool solve_px(const of_state *s, const level *l, size_t x, size_t y, double gx, double gy, double *d,
                     of_ref_px *px)
{
    size_t w = l->w, h = l->h, k0 = y * w + x;
    long r = s->window / 2;
    double nwin = (double)s->window * s->window, vx = 0, vy = 0, eta = 0, hand = 0, tex = 0, acc = 0;
    bool clamped = false;
    double xx = l->gxx[k0], xy = l->gxy[k0], yy = l->gyy[k0], det = xx * yy - xy * xy;
    double lmin = min_eig(xx, xy, yy);
    bool valid = lmin >= OF_MIN_EIG * nwin;
    double dp = 4 * U * (double)(w > h ? w : h) * 2; /* float position rounding, generously */
    for (int k = 0; valid && k < s->iters; k++) {
        double bx = 0, by = 0, px_ = gx + vx, py_ = gy + vy;
        bool last = k == s->iters - 1;
        for (long j = -r; j <= r; j++) {
            size_t yy_ = clampz((long)y + j, h);
            for (long i = -r; i <= r; i++) {
                size_t xx_ = clampz((long)x + i, w), q = yy_ * w + xx_;
                double dj, e = l->i[q] - sample(l, (double)xx_ + px_, (double)yy_ + py_, &dj);
                bx += e * l->ix[q];
                by += e * l->iy[q];
                if (!last) continue;
                double sx = (double)xx_ + px_, sy = (double)yy_ + py_;
                clamped |= sx < 0 || sx > (double)(w - 1) || sy < 0 || sy > (double)(h - 1);
                if (!px) continue;
                double gi = fabs(l->ix[q]) + fabs(l->iy[q]);
                hand += gi * (dj * dp + 8 * U * 255);
                tex += gi * dj * TEX_WEIGHT;
                acc += gi * fabs(e);
            }
        }
        double ex = (yy * bx - xy * by) / det, ey = (xx * by - xy * bx) / det;
        vx += ex;
        vy += ey;
        if (k >= s->iters - OF_SETTLE) eta = fmax(eta, hypot(ex, ey)); /* the last OF_SETTLE steps */
    }
    d[0] = valid ? gx + vx : gx;
    d[1] = valid ? gy + vy : gy;
    if (!px) return clamped;
    double gam = (nwin + 4) * U / (1 - (nwin + 4) * U);
    px->lmin = (float)(lmin / nwin);
    px->eta = (float)eta;
    px->db_hand = (float)(hand + 2 * gam * acc);
    px->db_tex = (float)tex;
    px->ambiguous = l->amb[k0] & AMB_HERE;
    px->loose = (l->amb[k0] & AMB_ANCESTOR) != 0;
    px->clamped = clamped;
    px->loose_tex = (l->amb[k0] & CLAMPED_ANCESTOR) != 0;
    px->status = valid ? OF_TRACKED : OF_INVALID;
    if (!valid) d[0] = d[1] = 0;
    double ex_ = (double)x + d[0], ey_ = (double)y + d[1];
    if (valid && (ex_ < 0 || ex_ > (double)(w - 1) || ey_ < 0 || ey_ > (double)(h - 1))) px->status = OF_LOST;
    px->dx = (float)d[0];
    px->dy = (float)d[1];
    return clamped;
}

static void *solve_rows(void *arg)
{
    ref_job *jb = arg;
    const of_state *s = jb->s;
    level *l = &jb->lv[jb->L], *c = jb->L + 1 < s->levels ? &jb->lv[jb->L + 1] : NULL;
    for (size_t y = jb->y0; y < jb->y1; y++)
        for (size_t x = 0; x < l->w; x++) {
            double gx = 0, gy = 0, d[2];
            size_t k = y * l->w + x;
            if (l->need && !l->need[k]) continue;
            if (c) {
                size_t ck = (y >> 1 < c->h ? y >> 1 : c->h - 1) * c->w + (x >> 1 < c->w ? x >> 1 : c->w - 1);
                gx = 2 * c->fx[ck];
                gy = 2 * c->fy[ck];
                l->amb[k] |= (c->amb[ck] & (AMB_HERE | AMB_ANCESTOR) ? AMB_ANCESTOR : 0) |
                             (c->amb[ck] & (CLAMPED_HERE | CLAMPED_ANCESTOR) ? CLAMPED_ANCESTOR : 0);
            }
            if (solve_px(s, l, x, y, gx, gy, d, jb->L == 0 ? &s->ref[k] : NULL)) l->amb[k] |= CLAMPED_HERE;
            l->fx[k] = d[0];
            l->fy[k] = d[1];
        }
    return NULL;
}

/* Level L's flow on up to MAX_THREADS threads by bands of rows (one thread when they cannot start). */
static void solve_level(const of_state *s, level *lv, int L)
{
    long nt = sysconf(_SC_NPROCESSORS_ONLN);
    size_t t, n = nt < 1 ? 1 : nt > MAX_THREADS ? MAX_THREADS : (size_t)nt, h = lv[L].h;
    pthread_t th[MAX_THREADS];
    ref_job jobs[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    if (n > h) n = h;
    for (t = 0; t < n; t++) {
        jobs[t] = (ref_job){s, lv, L, h * t / n, h * (t + 1) / n};
        started[t] = t > 0 && pthread_create(&th[t], NULL, solve_rows, &jobs[t]) == 0;
    }
    solve_rows(&jobs[0]);
    for (t = 1; t < n; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            solve_rows(&jobs[t]);
    }
}

static void free_levels(level *lv, int n)
{
    for (int L = 0; L < n; L++) {
        double *a[] = {lv[L].i,   lv[L].j,   lv[L].ix, lv[L].iy, lv[L].gxx,
                       lv[L].gxy, lv[L].gyy, lv[L].fx, lv[L].fy};
        for (size_t k = 0; k < sizeof a / sizeof a[0]; k++)
            free(a[k]);
        free(lv[L].amb);
        free(lv[L].need);
    }
}

static bool alloc_level(level *l, size_t w, size_t h)
{
    size_t n = w * h;
    l->w = w;
    l->h = h;
    double **a[] = {&l->i, &l->j, &l->ix, &l->iy, &l->gxx, &l->gxy, &l->gyy, &l->fx, &l->fy};
    bool ok = true;
    for (size_t k = 0; k < sizeof a / sizeof a[0]; k++)
        ok &= (*a[k] = malloc(n * sizeof(double))) != NULL;
    l->amb = malloc(n);
    return ok && l->amb;
}

/* Sparse: marks the pixels to solve, each point's pixel at every level; false when out of memory. */
static bool mark_points(const of_state *s, level *lv)
{
    for (int L = 0; L < s->levels; L++)
        if (!(lv[L].need = calloc(lv[L].w * lv[L].h, 1))) return false;
    for (size_t i = 0; i < s->np; i++)
        for (int L = 0; L < s->levels; L++)
            lv[L].need[(size_t)(s->pts[2 * i + 1] >> L) * lv[L].w + (size_t)(s->pts[2 * i] >> L)] = 1;
    return true;
}

cg_status of_reference(of_state *s)
{
    level lv[OF_MAX_LEVELS];
    memset(lv, 0, sizeof lv);
    double *tmp = malloc(s->n * sizeof *tmp);
    bool ok = tmp != NULL;
    for (int L = 0; L < s->levels && ok; L++)
        ok = alloc_level(&lv[L], s->lw[L], s->lh[L]);
    if (ok && s->np) ok = mark_points(s, lv);
    if (!ok) {
        CG_ERROR("opticalflow: out of host memory for the reference of a %zux%zu pair", s->w, s->h);
        free(tmp);
        free_levels(lv, s->levels);
        return CG_E_RUNTIME;
    }
    for (size_t k = 0; k < s->n; k++) {
        lv[0].i[k] = s->frame[0][k];
        lv[0].j[k] = s->frame[1][k];
    }
    for (int L = 0; L < s->levels; L++) {
        if (L > 0) {
            down(lv[L - 1].i, lv[L - 1].w, lv[L - 1].h, lv[L].i, lv[L].w, lv[L].h);
            down(lv[L - 1].j, lv[L - 1].w, lv[L - 1].h, lv[L].j, lv[L].w, lv[L].h);
        }
        scharr(&lv[L]);
        tensor(&lv[L], s->window / 2, tmp);
    }
    for (int L = s->levels - 1; L >= 0; L--)
        solve_level(s, lv, L);
    free(tmp);
    free_levels(lv, s->levels);
    return CG_OK;
}
