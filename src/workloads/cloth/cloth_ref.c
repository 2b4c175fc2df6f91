/* The cloth ladder's host references: each deterministic scheme of cloth.cl replayed on the CPU with the same
 * float operations in the same order (+, - and * only, contraction off: -std=c11 turns it off in GCC, the
 * pragma in clang; with cloth_params.fma, the kernels' -DFMA, each fused multiply-add as fmaf, which rounds
 * once as OpenCL's fma() must), so that a correct rung's result equals the reference bit for bit; the
 * residual (relative spring stretch) of a state in double; the spring colours' layout the launches share; and
 * the timed CPU-order reference (Gauss-Seidel over the spring list in place, as a CPU program runs it). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "workloads/cloth/cloth.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

typedef struct v4 {
    float x, y, z, w;
} v4;

static const int OX[12] = {1, -1, 0, 0, 1, -1, 1, -1, 2, -2, 0, 0};
static const int OY[12] = {0, 0, 1, -1, 1, -1, -1, 1, 0, 0, 2, -2};

float cloth_rsqrt(float x, bool fma, int steps)
{
    int32_t i;
    float y;
    memcpy(&i, &x, sizeof i);
    i = 0x5f3759df - (i >> 1);
    memcpy(&y, &i, sizeof y);
    float h = 0.5f * x;
    for (int k = 0; k < steps; k++)
        y = fma ? y * fmaf(-h, y * y, 1.5f) : y * (1.5f - h * y * y);
    return y;
}

static float share(float wa, float wb)
{
    float ws = wa + wb;
    return wa * (ws > 1.5f ? 0.5f : 1.0f);
}

static float spring_factor(v4 a, v4 b, float L, float k, bool fma, int steps)
{
    float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
    float l2 = fma ? fmaf(dz, dz, fmaf(dy, dy, dx * dx)) : dx * dx + dy * dy + dz * dz;
    if (!(l2 > 0.0f)) return 0.0f;
    float r = cloth_rsqrt(l2, fma, steps);
    return fma ? fmaf(l2, r, -L) * r * k : (l2 * r - L) * r * k;
}

/* a + d * f as the kernels compute it (ACC): one fma() with -DFMA, else a product and a sum (a - d * f is
 * acc(a, -d, f): the same bits). */
static inline float acc(float a, float d, float f, bool fma)
{
    return fma ? fmaf(d, f, a) : a + d * f;
}

size_t cloth_spring_total(int w, int h)
{
    size_t W = (size_t)w, H = (size_t)h;
    size_t bx = W > 2 ? (W - 2) * H : 0, by = H > 2 ? W * (H - 2) : 0;
    return (W - 1) * H + W * (H - 1) + 2 * (W - 1) * (H - 1) + bx + by;
}

/* Anchors of parity par among n along the coloured axis: every other one, or (bend) pairs four apart. */
static size_t parity_count(int fam, int par, size_t n)
{
    if (fam < F_BEND_X) return n > (size_t)par ? (n - (size_t)par + 1) / 2 : 0;
    size_t full = n / 4 * 2, rest = n % 4, lo = 2 * (size_t)par;
    return full + (rest > lo ? (rest - lo < 2 ? rest - lo : 2) : 0);
}

size_t cloth_colour_count(const cloth_params *p, int c, size_t *na)
{
    int fam = c / 2, par = c % 2;
    size_t W = (size_t)p->w, H = (size_t)p->h;
    size_t span[F_COUNT] = {W - 1, H - 1, W - 1, W - 1, W > 2 ? W - 2 : 0, H > 2 ? H - 2 : 0};
    size_t other[F_COUNT] = {H, W, H - 1, H - 1, H, W};
    *na = parity_count(fam, par, span[fam]);
    return *na * other[fam];
}

static size_t colour_coord(int fam, int par, size_t t)
{
    return fam >= F_BEND_X ? 4 * (t >> 1) + 2 * (size_t)par + (t & 1) : 2 * t + (size_t)par;
}

void cloth_colour_spring(const cloth_params *p, int c, size_t na, size_t t, size_t *a, size_t *b)
{
    int fam = c / 2, par = c % 2;
    size_t W = (size_t)p->w, x, y;
    if (fam == F_STRUCT_Y || fam == F_BEND_Y) {
        x = t % W;
        y = colour_coord(fam, par, t / W);
    } else {
        x = colour_coord(fam, par, t % na);
        y = t / na;
    }
    *a = y * W + x;
    size_t off[F_COUNT] = {1, W, W + 1, W, 2, 2 * W};
    *b = *a + off[fam];
    if (fam == F_SHEAR_A) *a += 1;
}

static void integrate(const cloth_params *p, const v4 *cur, const v4 *prev, v4 *ncur, v4 *nprev)
{
    int W = p->w, H = p->h;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int i = y * W + x;
            v4 c = cur[i], o = prev[i];
            int xl = x > 0 ? x - 1 : 0, xr = x < W - 1 ? x + 1 : W - 1;
            int yu = y > 0 ? y - 1 : 0, yd = y < H - 1 ? y + 1 : H - 1;
            v4 a = cur[y * W + xr], b = cur[y * W + xl], e = cur[yd * W + x], f = cur[yu * W + x];
            float tx = a.x - b.x, txy = a.y - b.y, txz = a.z - b.z;
            float ty = e.x - f.x, tyy = e.y - f.y, tyz = e.z - f.z;
            float nx = txy * tyz - txz * tyy, ny = txz * ty - tx * tyz, nz = tx * tyy - txy * ty;
            float n2 = nx * nx + ny * ny + nz * nz;
            float ax = 0.0f, ay = p->grav, az = 0.0f;
            if (n2 > 0.0f) {
                float r = cloth_rsqrt(n2, p->fma, p->newton);
                float s = (p->wind[0] * nx + p->wind[1] * ny + p->wind[2] * nz) * (r * r);
                ax = ax + nx * s;
                ay = ay + ny * s;
                az = az + nz * s;
            }
            v4 q = {c.x + ((c.x - o.x) * p->damp + ax) * c.w, c.y + ((c.y - o.y) * p->damp + ay) * c.w,
                    c.z + ((c.z - o.z) * p->damp + az) * c.w, c.w};
            ncur[i] = q;
            nprev[i] = c;
        }
}

void cloth_integrate_host(const cloth_params *p, const float *cur, const float *prev, float *ncur,
                          float *nprev)
{
    integrate(p, (const v4 *)cur, (const v4 *)prev, (v4 *)ncur, (v4 *)nprev);
}

/* Spring a-b of family f (structural, shear, bend) relaxed in place: both ends moved by their shares. */
static inline void relax_spring(const cloth_params *p, v4 *pos, size_t a, size_t b, int f)
{
    v4 pa = pos[a], pb = pos[b];
    float k = spring_factor(pa, pb, p->rest[f], p->stiff[f], p->fma, p->newton);
    float fa = k * share(pa.w, pb.w), fb = k * share(pb.w, pa.w);
    float dx = pb.x - pa.x, dy = pb.y - pa.y, dz = pb.z - pa.z;
    pos[a] = (v4){acc(pa.x, dx, fa, p->fma), acc(pa.y, dy, fa, p->fma), acc(pa.z, dz, fa, p->fma), pa.w};
    pos[b] = (v4){acc(pb.x, -dx, fb, p->fma), acc(pb.y, -dy, fb, p->fma), acc(pb.z, -dz, fb, p->fma), pb.w};
}

static void relax_colours(const cloth_params *p, v4 *pos)
{
    for (int c = 0; c < CLOTH_COLOURS; c++) {
        size_t na, total = cloth_colour_count(p, c, &na);
        int f = c / 2 / 2; /* structural, shear, bend */
        for (size_t t = 0; t < total; t++) {
            size_t a, b;
            cloth_colour_spring(p, c, na, t, &a, &b);
            relax_spring(p, pos, a, b, f);
        }
    }
}

/* relax_spring as a CPU solver writes it: the length by sqrtf and a division (faster on a CPU than the
 * kernels' division-free 1/sqrt; the same physics, rounded differently). */
static inline void relax_spring_cpu(const cloth_params *p, v4 *pos, size_t a, size_t b, int f)
{
    v4 pa = pos[a], pb = pos[b];
    float dx = pb.x - pa.x, dy = pb.y - pa.y, dz = pb.z - pa.z;
    float l = sqrtf(dx * dx + dy * dy + dz * dz);
    float k = l > 0.0f ? (l - p->rest[f]) / l * p->stiff[f] : 0.0f;
    float fa = k * share(pa.w, pb.w), fb = k * share(pb.w, pa.w);
    pos[a] = (v4){pa.x + dx * fa, pa.y + dy * fa, pa.z + dz * fa, pa.w};
    pos[b] = (v4){pb.x - dx * fb, pb.y - dy * fb, pb.z - dz * fb, pb.w};
}

/* The CPU order: the spring list family by family (structural along x, then along y, shear down-right, shear
 * down-left, bend along x, bend along y), each family's springs row by row, every spring relaxed in place at
 * once: Gauss-Seidel in spring order. (Particle by particle, each particle's 6 springs in turn, measured
 * 1.8x slower on one core: consecutive springs share a particle, so each waits for the last.) */
static void relax_cpu_order(const cloth_params *p, v4 *pos)
{
    static const int FX[6] = {1, 0, 1, -1, 2, 0}, FY[6] = {0, 1, 1, 1, 0, 2}, FF[6] = {0, 0, 1, 1, 2, 2};
    size_t W = (size_t)p->w, H = (size_t)p->h;
    for (int o = 0; o < 6; o++) {
        size_t dx = FX[o] > 0 ? (size_t)FX[o] : 0, x0 = FX[o] < 0 ? 1 : 0, off = (size_t)FY[o] * W;
        for (size_t y = 0; y + (size_t)FY[o] < H; y++)
            for (size_t x = x0, a = y * W + x0; x + dx < W; x++, a++)
                relax_spring_cpu(p, pos, a, a + off + (size_t)FX[o], FF[o]);
    }
}

/* Particle (x, y), at buf[bi] (row stride `stride`), relaxed against its springs in turn (gather_seq), or
 * their scaled sum (jacobi). */
static v4 gather(const cloth_params *p, const v4 *buf, int stride, int bi, int x, int y, bool jacobi)
{
    int W = p->w, H = p->h, n = 0;
    v4 q0 = buf[bi], v = q0;
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    for (int o = 0; o < 12; o++) {
        int u = x + OX[o], w = y + OY[o];
        if (u < 0 || u >= W || w < 0 || w >= H) continue;
        v4 q = buf[bi + OY[o] * stride + OX[o]];
        float c = spring_factor(v, q, p->rest[o >> 2], p->stiff[o >> 2], p->fma, p->newton);
        float fa = c * share(v.w, q.w);
        if (jacobi) {
            sx = acc(sx, q.x - v.x, fa, p->fma);
            sy = acc(sy, q.y - v.y, fa, p->fma);
            sz = acc(sz, q.z - v.z, fa, p->fma);
        } else {
            v = (v4){acc(v.x, q.x - v.x, fa, p->fma), acc(v.y, q.y - v.y, fa, p->fma),
                     acc(v.z, q.z - v.z, fa, p->fma), v.w};
        }
        n++;
    }
    if (!jacobi) return v;
    float s = p->jscale[n];
    return (v4){acc(q0.x, sx, s, p->fma), acc(q0.y, sy, s, p->fma), acc(q0.z, sz, s, p->fma), q0.w};
}

/* cloth_tile: each tx x ty tile with a 2-particle halo copied from src into loc, its 5 colours relaxed in
 * turn there, written to dst. */
static void relax_tiles(const cloth_params *p, const v4 *src, v4 *dst, const int tile[2], v4 *loc)
{
    int W = p->w, H = p->h, tx = tile[0], ty = tile[1], tw = tx + 4;
    for (int y0 = 0; y0 < H; y0 += ty)
        for (int x0 = 0; x0 < W; x0 += tx) {
            for (int v = 0; v < ty + 4; v++)
                for (int u = 0; u < tw; u++) {
                    int gx = x0 - 2 + u, gy = y0 - 2 + v;
                    if (gx >= 0 && gx < W && gy >= 0 && gy < H) loc[v * tw + u] = src[gy * W + gx];
                }
            for (int c = 0; c < CLOTH_VCOLOURS; c++)
                for (int y = y0; y < y0 + ty && y < H; y++)
                    for (int x = x0; x < x0 + tx && x < W; x++) {
                        int i = (y - y0 + 2) * tw + x - x0 + 2;
                        if ((x + 2 * y) % 5 == c) loc[i] = gather(p, loc, tw, i, x, y, false);
                    }
            for (int y = y0; y < y0 + ty && y < H; y++)
                for (int x = x0; x < x0 + tx && x < W; x++)
                    dst[y * W + x] = loc[(y - y0 + 2) * tw + x - x0 + 2];
        }
}

/* One iteration of scheme sc on one cloth's pos; true when the result is in tmp (Jacobi, tiles: the caller
 * swaps the two for every cloth at once). loc: a tile's scratch. */
static bool relax(const cloth_state *s, const cloth_params *p, cloth_scheme sc, v4 *pos, v4 *tmp, v4 *loc)
{
    int W = p->w, H = p->h;
    if (sc == S_COLOUR) {
        relax_colours(p, pos);
    } else if (sc == S_TILE) {
        relax_tiles(p, pos, tmp, s->tile, loc);
    } else if (sc == S_JACOBI) {
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                tmp[y * W + x] = gather(p, pos, W, y * W + x, x, y, true);
    } else if (sc == S_VERTEX) {
        for (int c = 0; c < CLOTH_VCOLOURS; c++)
            for (int y = 0; y < H; y++)
                for (int x = ((c - 2 * y) % 5 + 5) % 5; x < W; x += 5)
                    pos[y * W + x] = gather(p, pos, W, y * W + x, x, y, false);
    } else {
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                pos[y * W + x] = gather(p, pos, W, y * W + x, x, y, false);
    }
    return sc == S_JACOBI || sc == S_TILE;
}

cloth_resid cloth_residual(const cloth_params *p, const float *pos, int cloths)
{
    cloth_resid r = {0, 0};
    double sum = 0;
    size_t n = 0, np = (size_t)p->w * (size_t)p->h;
    for (int k = 0; k < cloths; k++) {
        const v4 *q = (const v4 *)pos + (size_t)k * np;
        for (int c = 0; c < CLOTH_COLOURS; c++) {
            size_t na, total = cloth_colour_count(p, c, &na);
            double L = p->rest[c / 4];
            for (size_t t = 0; t < total; t++, n++) {
                size_t a, b;
                cloth_colour_spring(p, c, na, t, &a, &b);
                double dx = (double)q[b].x - q[a].x, dy = (double)q[b].y - q[a].y;
                double dz = (double)q[b].z - q[a].z;
                double e = fabs(sqrt(dx * dx + dy * dy + dz * dz) - L) / L;
                sum += e * e;
                r.max = e > r.max || isnan(e) ? e : r.max;
            }
        }
    }
    r.rms = n ? sqrt(sum / (double)n) : 0;
    return r;
}

void cloth_ref_free(cloth_ref *r)
{
    free(r->pos);
    free(r->last);
    r->pos = NULL;
    r->last = NULL;
}

static void swap(v4 **a, v4 **b)
{
    v4 *t = *a;
    *a = *b;
    *b = t;
}

/* Frame f of every cloth: integrate, then K iterations (the last frame's residuals into r->last). */
static void frame(const cloth_state *s, const cloth_params *p, cloth_scheme sc, v4 **st, v4 *loc, bool last,
                  cloth_ref *r)
{
    size_t n = s->n;
    for (int c = 0; c < s->cloths; c++)
        integrate(p, st[0] + c * n, st[1] + c * n, st[2] + c * n, st[3] + c * n);
    swap(&st[0], &st[2]);
    swap(&st[1], &st[3]);
    if (last) r->last[0] = cloth_residual(&s->prm, (const float *)st[0], s->cloths);
    for (int k = 0; k < s->iters; k++) {
        bool moved = false; /* st[2] is free until the next integration */
        for (int c = 0; c < s->cloths; c++)
            moved = relax(s, p, sc, st[0] + c * n, st[2] + c * n, loc);
        if (moved) swap(&st[0], &st[2]);
        if (last) r->last[k + 1] = cloth_residual(&s->prm, (const float *)st[0], s->cloths);
    }
}

void cloth_set_arith(cloth_params *p, int arith)
{
    p->fma = (arith & CLOTH_A_FMA) != 0;
    p->newton = arith & CLOTH_A_RSQ2 ? 2 : 3;
}

cg_status cloth_ref_run(const cloth_state *s, cloth_scheme sc, int arith, cloth_ref *r)
{
    cloth_params p = s->prm;
    cloth_set_arith(&p, arith);
    size_t n = s->total;
    v4 *buf = malloc((4 * n + (size_t)(s->tile[0] + 4) * (size_t)(s->tile[1] + 4)) * sizeof *buf);
    r->last = malloc(((size_t)s->iters + 1) * sizeof *r->last);
    r->pos = malloc(n * sizeof(v4));
    if (!buf || !r->last || !r->pos) {
        free(buf);
        cloth_ref_free(r);
        return CG_E_RUNTIME;
    }
    v4 *st[4] = {buf, buf + n, buf + 2 * n, buf + 3 * n}; /* cur, prev, next cur, next prev */
    memcpy(st[0], s->init, n * sizeof(v4));
    memcpy(st[1], s->init, n * sizeof(v4));
    for (int f = 0; f < s->steps; f++)
        frame(s, &p, sc, st, buf + 4 * n, f == s->steps - 1, r);
    memcpy(r->pos, st[0], n * sizeof(v4));
    free(buf);
    return CG_OK;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

cg_status cloth_cpu_order_run(const cloth_state *s, float *pos, double *seconds)
{
    size_t n = s->total;
    v4 *buf = malloc(4 * n * sizeof *buf);
    if (!buf) return CG_E_RUNTIME;
    v4 *st[4] = {buf, buf + n, buf + 2 * n, buf + 3 * n};
    memcpy(st[0], s->init, n * sizeof(v4));
    memcpy(st[1], s->init, n * sizeof(v4));
    double t0 = now_s();
    for (int f = 0; f < s->steps; f++) {
        for (int c = 0; c < s->cloths; c++)
            integrate(&s->prm, st[0] + c * s->n, st[1] + c * s->n, st[2] + c * s->n, st[3] + c * s->n);
        swap(&st[0], &st[2]);
        swap(&st[1], &st[3]);
        for (int k = 0; k < s->iters; k++)
            for (int c = 0; c < s->cloths; c++)
                relax_cpu_order(&s->prm, st[0] + c * s->n);
    }
    *seconds = now_s() - t0;
    memcpy(pos, st[0], n * sizeof(v4));
    free(buf);
    return CG_OK;
}
