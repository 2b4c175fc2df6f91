/* The opticalflow CPU reference: the kernels' algorithm (the same pyramid, Scharr derivatives, clamped
 * window, fixed iteration count, nearest-parent guess and invalid-point rule) in double, on pthreads. Its
 * pyramid, derivatives and G are built once (of_reference) and kept; of_ref_level then solves one level from
 * any guess field: the check (of_check.c) starts it from the device's own coarser flow, level by level, and
 * at every point records what is needed to bound a float device's error: the smallest eigenvalue of G, the
 * last steps' length, and bounds on the error of b = sum (I - J) grad I that float sampling and sums (and a
 * texture unit's 8-bit interpolation weights) can cause; the derivation is in docs/workloads/opticalflow.md.
 * Sparse, the pyramid, derivatives and G are still whole levels, but only the points are solved, each at
 * pixel (x >> L, y >> L) of level L from its own coarser flow: the same flow there as dense. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/log.h"
#include "workloads/opticalflow/opticalflow.h"

#define U           0x1p-24 /* float unit roundoff */
#define OF_SETTLE   3       /* eta: the longest of the last 3 steps (one short step can end a wander) */
#define TEX_WEIGHT  0x1p-8  /* NVIDIA's texture filtering: interpolation weights with 8 fractional bits */
#define MAX_THREADS 16

/* One level of both frames with its derivatives, G and the invalid rule's ambiguity (1 where the smallest
 * eigenvalue is within rounding of the limit). */
typedef struct of_level {
    size_t w, h;
    double *i, *j, *ix, *iy, *gxx, *gxy, *gyy;
    uint8_t *amb;
} level;

typedef struct ref_job {
    const of_state *s;
    int L;
    const float *coarse; /* the coarser level's flow (float2 a point of it), NULL at the coarsest */
    of_ref_px *out;
    size_t i0, i1; /* the level's points [i0, i1) */
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
        l->amb[k] = fabs(e) <= (gam + 16 * U) * tr + 1e-9;
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

/* One pixel's solve at level L (fine: L == 0) from guess (gx, gy), into *px: the flow (invalid: 0 at the
 * finest level, else the guess, as the kernels store it), status and error terms. */
static void solve_px(const of_state *s, const level *l, bool fine, int iters, size_t x, size_t y, double gx,
                     double gy, of_ref_px *px)
{
    size_t w = l->w, h = l->h, k0 = y * w + x;
    long r = s->window / 2;
    double nwin = (double)s->window * s->window, vx = 0, vy = 0, eta = 0, hand = 0, tex = 0, acc = 0, gs = 0;
    bool clamped = false;
    int exit_iters = iters; /* early-exit's rule: steps until the first below s->eps (computed, not taken) */
    double xx = l->gxx[k0], xy = l->gxy[k0], yy = l->gyy[k0], det = xx * yy - xy * xy;
    double lmin = min_eig(xx, xy, yy);
    bool valid = lmin >= OF_MIN_EIG * nwin;
    double dp = 4 * U * (double)(w > h ? w : h) * 2; /* float position rounding, generously */
    for (int k = 0; valid && k < iters; k++) {
        double bx = 0, by = 0, px_ = gx + vx, py_ = gy + vy;
        bool last = k == iters - 1;
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
                double gi = fabs(l->ix[q]) + fabs(l->iy[q]);
                hand += gi * (dj * dp + 8 * U * 255);
                tex += gi * dj * TEX_WEIGHT;
                gs += gi;
                acc += gi * fabs(e);
            }
        }
        double ex = (yy * bx - xy * by) / det, ey = (xx * by - xy * bx) / det;
        vx += ex;
        vy += ey;
        if (exit_iters == iters && hypot(ex, ey) < s->eps) exit_iters = k + 1;
        if (k >= iters - OF_SETTLE) eta = fmax(eta, hypot(ex, ey)); /* the last OF_SETTLE steps */
    }
    double gam = (nwin + 4) * U / (1 - (nwin + 4) * U);
    double dx = valid ? gx + vx : fine ? 0 : gx, dy = valid ? gy + vy : fine ? 0 : gy;
    double ex_ = (double)x + dx, ey_ = (double)y + dy;
    px->lmin = (float)(lmin / nwin);
    px->eta = (float)eta;
    px->db_hand = (float)(hand + 2 * gam * acc);
    px->db_tex = (float)tex;
    px->gsum = (float)gs;
    px->ambiguous = l->amb[k0];
    px->clamped = clamped;
    px->exit_iters = (uint8_t)exit_iters;
    px->status = valid ? OF_TRACKED : OF_INVALID;
    if (valid && (ex_ < 0 || ex_ > (double)(w - 1) || ey_ < 0 || ey_ > (double)(h - 1))) px->status = OF_LOST;
    px->dx = (float)dx;
    px->dy = (float)dy;
}

/* Twice a device's coarser flow; a non-finite one (a poisoned or broken coarser level, itself reported) as 0,
 * a huge one cut to +-2^20 px (the samples clamp to the level anyway). */
static double guess(float f)
{
    return isfinite(f) ? 2.0 * fmax(fmin((double)f, 0x1p20), -0x1p20) : 0;
}

static void *solve_points(void *arg)
{
    ref_job *jb = arg;
    const of_state *s = jb->s;
    const level *l = &s->lv[jb->L];
    int L = jb->L;
    size_t cw = jb->coarse ? s->lw[L + 1] : 1, ch = jb->coarse ? s->lh[L + 1] : 1;
    for (size_t i = jb->i0; i < jb->i1; i++) {
        size_t x = i % l->w, y = i / l->w,
               c = (y >> 1 < ch ? y >> 1 : ch - 1) * cw + (x >> 1 < cw ? x >> 1 : cw - 1);
        if (s->np) {
            x = (size_t)s->pts[2 * i] >> L;
            y = (size_t)s->pts[2 * i + 1] >> L;
            c = i;
        }
        double gx = jb->coarse ? guess(jb->coarse[2 * c]) : 0,
               gy = jb->coarse ? guess(jb->coarse[2 * c + 1]) : 0;
        solve_px(s, l, L == 0, s->iters, x, y, gx, gy, &jb->out[i]);
    }
    return NULL;
}

size_t of_level_points(const of_state *s, int L)
{
    return s->np ? s->np : s->lw[L] * s->lh[L];
}

void of_ref_level(const of_state *s, int L, const float *coarse, of_ref_px *out)
{
    long nt = sysconf(_SC_NPROCESSORS_ONLN);
    size_t t, n = nt < 1 ? 1 : nt > MAX_THREADS ? MAX_THREADS : (size_t)nt, np = of_level_points(s, L);
    pthread_t th[MAX_THREADS];
    ref_job jobs[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    if (n > np) n = np;
    for (t = 0; t < n; t++) {
        jobs[t] = (ref_job){s, L, coarse, out, np * t / n, np * (t + 1) / n};
        started[t] = t > 0 && pthread_create(&th[t], NULL, solve_points, &jobs[t]) == 0;
    }
    solve_points(&jobs[0]);
    for (t = 1; t < n; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            solve_points(&jobs[t]);
    }
}

void of_ref_step(const of_state *s, int L, size_t x, size_t y, double dx, double dy, of_ref_px *out)
{
    solve_px(s, &s->lv[L], L == 0, 1, x, y, dx, dy, out);
}

void of_ref_free(of_state *s)
{
    for (int L = 0; s->lv && L < s->levels; L++) {
        double *a[] = {s->lv[L].i,   s->lv[L].j,   s->lv[L].ix, s->lv[L].iy,
                       s->lv[L].gxx, s->lv[L].gxy, s->lv[L].gyy};
        for (size_t k = 0; k < sizeof a / sizeof a[0]; k++)
            free(a[k]);
        free(s->lv[L].amb);
    }
    free(s->lv);
    s->lv = NULL;
}

static bool alloc_level(level *l, size_t w, size_t h)
{
    size_t n = w * h;
    l->w = w;
    l->h = h;
    double **a[] = {&l->i, &l->j, &l->ix, &l->iy, &l->gxx, &l->gxy, &l->gyy};
    bool ok = true;
    for (size_t k = 0; k < sizeof a / sizeof a[0]; k++)
        ok &= (*a[k] = malloc(n * sizeof(double))) != NULL;
    l->amb = malloc(n);
    return ok && l->amb;
}

/* The reference's own flow: every level from its own coarser flow (float between levels, as a device's). */
static bool own_flow(of_state *s, of_ref_px *out)
{
    s->exit_iters = 0;
    size_t np = of_level_points(s, 0);
    float *fl[2] = {malloc(2 * np * sizeof(float)), malloc(2 * np * sizeof(float))};
    bool ok = fl[0] && fl[1];
    for (int L = s->levels - 1; ok && L >= 0; L--) {
        float *f = fl[L & 1];
        of_ref_level(s, L, L + 1 < s->levels ? fl[(L + 1) & 1] : NULL, out);
        for (size_t i = 0; i < of_level_points(s, L); i++) {
            f[2 * i] = out[i].dx;
            f[2 * i + 1] = out[i].dy;
            s->exit_iters += out[i].exit_iters;
        }
    }
    for (size_t i = 0; ok && i < np; i++) {
        s->ref_flow[2 * i] = out[i].dx;
        s->ref_flow[2 * i + 1] = out[i].dy;
        s->ref_st[i] = out[i].status;
    }
    free(fl[0]);
    free(fl[1]);
    return ok;
}

cg_status of_reference(of_state *s)
{
    double *tmp = malloc(s->n * sizeof *tmp);
    bool ok = tmp && (s->lv = calloc((size_t)s->levels, sizeof *s->lv)) != NULL;
    for (int L = 0; L < s->levels && ok; L++)
        ok = alloc_level(&s->lv[L], s->lw[L], s->lh[L]);
    if (ok) {
        level *lv = s->lv;
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
        ok = own_flow(s, s->lref);
    }
    free(tmp);
    if (ok) return CG_OK;
    CG_ERROR("opticalflow: out of host memory for the reference of a %zux%zu pair", s->w, s->h);
    return CG_E_RUNTIME;
}
