/* opticalflow: dense pyramidal Lucas-Kanade (docs/workloads/opticalflow.md). Every level of both frames lives
 * in one float buffer (pi: the first frame, pj: the second), a level at offset `off` with w x h pixels; the
 * flow of every level in one float2 buffer the same way. Borders clamp to the edge everywhere: the pyramid's
 * taps, the Scharr taps, the window (a window pixel off the level is its clamped pixel) and the bilinear
 * sample of the second frame. Build options: R (window radius: 2R+1 a side), ITERS, MIN_EIG (a point is
 * solved where the smallest eigenvalue of G / window pixels is at least this), TX and TY (local-tile's
 * work-group, the tile it keeps in local memory), EPS (early-exit's stop, px), SPARSE (defined: the solves
 * run one work-item per point of a list, below). Indices are int: the host keeps all levels below 2^28
 * pixels. */

#ifndef R
#define R 10
#endif
#ifndef ITERS
#define ITERS 10
#endif
#ifndef MIN_EIG
#define MIN_EIG 1.0
#endif
#ifndef EPS
#define EPS 0.01
#endif
#ifndef TX
#define TX 16
#endif
#ifndef TY
#define TY 16
#endif
#define NWIN ((2 * R + 1) * (2 * R + 1))

enum { OF_INVALID = 0, OF_TRACKED = 1, OF_LOST = 2 };

/* ---- pyramid and derivatives -------------------------------------------------------------------------- */

__kernel void of_level0(__global const uchar *a, __global const uchar *b, __global float *pi,
                        __global float *pj, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        pi[i] = a[i];
        pj[i] = b[i];
    }
}

/* Level L+1 of both frames: the [1 4 6 4 1]/16 Gaussian both ways around (2x, 2y) of level L. */
__kernel void of_down(__global float *pi, __global float *pj, int so, int sw, int sh, int dof, int dw, int dh)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= dw || y >= dh) return;
    const float k[5] = {1.0f, 4.0f, 6.0f, 4.0f, 1.0f};
    float si = 0.0f, sj = 0.0f;
    for (int j = 0; j < 5; j++) {
        int row = so + clamp(2 * y + j - 2, 0, sh - 1) * sw;
        float ri = 0.0f, rj = 0.0f;
        for (int i = 0; i < 5; i++) {
            int c = row + clamp(2 * x + i - 2, 0, sw - 1);
            ri += k[i] * pi[c];
            rj += k[i] * pj[c];
        }
        si += k[j] * ri;
        sj += k[j] * rj;
    }
    pi[dof + y * dw + x] = si * (1.0f / 256.0f);
    pj[dof + y * dw + x] = sj * (1.0f / 256.0f);
}

/* Scharr: x derivative [-1 0 1] across, [3 10 3] down, / 32 (and transposed for y), clamped taps. */
float2 scharr(__global const float *p, int x, int y, int w, int h)
{
    int xl = max(x - 1, 0), xr = min(x + 1, w - 1);
    __global const float *t = p + max(y - 1, 0) * w, *m = p + y * w, *b = p + min(y + 1, h - 1) * w;
    float ix = 3.0f * (t[xr] - t[xl]) + 10.0f * (m[xr] - m[xl]) + 3.0f * (b[xr] - b[xl]);
    float iy = 3.0f * (b[xl] - t[xl]) + 10.0f * (b[x] - t[x]) + 3.0f * (b[xr] - t[xr]);
    return (float2)(ix, iy) * (1.0f / 32.0f);
}

__kernel void of_grad(__global const float *pi, __global float2 *d, int off, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h) d[off + y * w + x] = scharr(pi + off, x, y, w, h);
}

/* best: the level and its derivatives in one float4 (I, Ix, Iy, 0): one load per window pixel. */
__kernel void of_grad4(__global const float *pi, __global float4 *d, int off, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    float2 g = scharr(pi + off, x, y, w, h);
    d[off + y * w + x] = (float4)(pi[off + y * w + x], g.x, g.y, 0.0f);
}

/* G = sum over the window of (Ix^2, IxIy, Iy^2), window by window. */
__kernel void of_tensor(__global const float2 *d, __global float4 *g, int off, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    float xx = 0.0f, xy = 0.0f, yy = 0.0f;
    for (int j = -R; j <= R; j++) {
        __global const float2 *row = d + off + clamp(y + j, 0, h - 1) * w;
        for (int i = -R; i <= R; i++) {
            float2 v = row[clamp(x + i, 0, w - 1)];
            xx += v.x * v.x;
            xy += v.x * v.y;
            yy += v.y * v.y;
        }
    }
    g[off + y * w + x] = (float4)(xx, xy, yy, 0.0f);
}

/* best: G as a separable box sum with clamped borders: rows of products into t, then columns into g. */
__kernel void of_box_rows(__global const float4 *d, __global float4 *t, int off, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    __global const float4 *row = d + off + y * w;
    float4 s = 0.0f;
    for (int i = -R; i <= R; i++) {
        float4 v = row[clamp(x + i, 0, w - 1)];
        s += (float4)(v.y * v.y, v.y * v.z, v.z * v.z, 0.0f);
    }
    t[y * w + x] = s;
}

__kernel void of_box_cols(__global const float4 *t, __global float4 *g, int off, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    float4 s = 0.0f;
    for (int j = -R; j <= R; j++)
        s += t[clamp(y + j, 0, h - 1) * w + x];
    g[off + y * w + x] = s;
}

/* ---- the per-pixel solve ------------------------------------------------------------------------------ */

/* The second frame at (px, py), bilinear by hand, clamp to edge. */
float bilinear(__global const float *p, int w, int h, float px, float py)
{
    px = clamp(px, -1.0f, (float)w);
    py = clamp(py, -1.0f, (float)h);
    float fx = floor(px), fy = floor(py), ax = px - fx, ay = py - fy;
    int x0 = (int)fx, y0 = (int)fy;
    int xa = clamp(x0, 0, w - 1), xb = clamp(x0 + 1, 0, w - 1);
    __global const float *ra = p + clamp(y0, 0, h - 1) * w, *rb = p + clamp(y0 + 1, 0, h - 1) * w;
    float t = ra[xa] + ax * (ra[xb] - ra[xa]);
    float b = rb[xa] + ax * (rb[xb] - rb[xa]);
    return t + ay * (b - t);
}

/* The coarser level's flow at (x/2, y/2), doubled; 0 at the coarsest level (coff < 0). */
float2 guess(__global const float2 *flow, int coff, int cw, int ch, int x, int y)
{
    if (coff < 0) return (float2)(0.0f, 0.0f);
    return 2.0f * flow[coff + min(y >> 1, ch - 1) * cw + min(x >> 1, cw - 1)];
}

bool solvable(float4 g)
{
    float a = 0.5f * (g.x + g.z), b = 0.5f * (g.x - g.z);
    return a - sqrt(b * b + g.y * g.y) >= (float)(MIN_EIG) * (float)NWIN;
}

/* One Lucas-Kanade step: G^-1 b. */
float2 lk_step(float4 g, float bx, float by)
{
    float inv = 1.0f / (g.x * g.z - g.y * g.y);
    return (float2)(g.z * bx - g.y * by, g.x * by - g.y * bx) * inv;
}

/* The level's flow flow[k], and at the finest level (fine) the status status[k] of pixel (x, y): invalid
 * points get 0, points whose end lies off the frame are lost. */
void store(__global float2 *flow, __global uchar *status, int k, int x, int y, int w, int h, int fine,
           bool valid, float2 d)
{
    if (fine) {
        uchar s = OF_TRACKED;
        float ex = x + d.x, ey = y + d.y;
        if (!valid) {
            s = OF_INVALID;
            d = (float2)(0.0f, 0.0f);
        } else if (ex < 0.0f || ex > (float)(w - 1) || ey < 0.0f || ey > (float)(h - 1)) {
            s = OF_LOST;
        }
        status[k] = s;
    }
    flow[k] = d;
}

#define DENSE_ARGS                                                                                           \
    __global float2 *flow, __global uchar *status, int off, int w, int h, int coff, int cw, int ch, int fine

/* The solve kernels' point: dense, work-item (x, y) is pixel (x, y) of the level, its flow at off + y w + x
 * and status at y w + x, its guess the coarser level's pixel (x/2, y/2). Sparse, work-item pid is point pid
 * of pts (np points of level 0), pixel (x >> lvl, y >> lvl) of level lvl; flow holds np float2 a level
 * (level lvl at lvl np), status one a point, and the guess is the point's own flow at the coarser level: the
 * pixel (x/2, y/2) there, so that a point's flow is the dense flow of its pixel. */
#ifdef SPARSE
#define SOLVE_ARGS DENSE_ARGS, __global const int2 *pts, int np, int lvl
#define POINT()                                                                                              \
    int pid = get_global_id(0);                                                                              \
    if (pid >= np) return;                                                                                   \
    int x = pts[pid].x >> lvl, y = pts[pid].y >> lvl
#define GUESS() (coff < 0 ? (float2)(0.0f, 0.0f) : 2.0f * flow[(lvl + 1) * np + pid])
#define STORE(valid, d) store(flow + lvl * np, status, pid, x, y, w, h, fine, valid, d)
#else
#define SOLVE_ARGS DENSE_ARGS
#define POINT()                                                                                              \
    int x = get_global_id(0), y = get_global_id(1);                                                          \
    if (x >= w || y >= h) return
#define GUESS()         guess(flow, coff, cw, ch, x, y)
#define STORE(valid, d) store(flow + off, status, y * w + x, x, y, w, h, fine, valid, d)
#endif

/* buffers: derivatives recomputed from the level for every window pixel, G summed before the iterations. */
__kernel void of_solve_naive(__global const float *pi, __global const float *pj, SOLVE_ARGS)
{
    POINT();
    __global const float *I = pi + off, *J = pj + off;
    float2 g0 = GUESS(), v = (float2)(0.0f, 0.0f);
    float4 g = 0.0f;
    for (int j = -R; j <= R; j++)
        for (int i = -R; i <= R; i++) {
            float2 d = scharr(I, clamp(x + i, 0, w - 1), clamp(y + j, 0, h - 1), w, h);
            g += (float4)(d.x * d.x, d.x * d.y, d.y * d.y, 0.0f);
        }
    bool valid = solvable(g);
    for (int k = 0; valid && k < ITERS; k++) {
        float2 p = g0 + v;
        float bx = 0.0f, by = 0.0f;
        for (int j = -R; j <= R; j++) {
            int yy = clamp(y + j, 0, h - 1);
            for (int i = -R; i <= R; i++) {
                int xx = clamp(x + i, 0, w - 1);
                float2 d = scharr(I, xx, yy, w, h);
                float e = I[yy * w + xx] - bilinear(J, w, h, xx + p.x, yy + p.y);
                bx += e * d.x;
                by += e * d.y;
            }
        }
        v += lk_step(g, bx, by);
    }
    STORE(valid, g0 + v);
}

/* precomputed: the level's derivatives and G read from buffers. */
__kernel void of_solve_pre(__global const float *pi, __global const float *pj, __global const float2 *dg,
                           __global const float4 *gt, SOLVE_ARGS)
{
    POINT();
    __global const float *I = pi + off, *J = pj + off;
    __global const float2 *D = dg + off;
    float2 g0 = GUESS(), v = (float2)(0.0f, 0.0f);
    float4 g = gt[off + y * w + x];
    bool valid = solvable(g);
    for (int k = 0; valid && k < ITERS; k++) {
        float2 p = g0 + v;
        float bx = 0.0f, by = 0.0f;
        for (int j = -R; j <= R; j++) {
            int yy = clamp(y + j, 0, h - 1);
            for (int i = -R; i <= R; i++) {
                int xx = clamp(x + i, 0, w - 1);
                float2 d = D[yy * w + xx];
                float e = I[yy * w + xx] - bilinear(J, w, h, xx + p.x, yy + p.y);
                bx += e * d.x;
                by += e * d.y;
            }
        }
        v += lk_step(g, bx, by);
    }
    STORE(valid, g0 + v);
}

/* local-tile: as of_solve_pre, one work-group per TX x TY tile; the tile and its window's halo (clamped)
 * of the level and its derivatives loaded into local memory once, then every iteration reads them there. */
__kernel __attribute__((reqd_work_group_size(TX, TY, 1))) void
of_solve_local(__global const float *pi, __global const float *pj, __global const float2 *dg,
               __global const float4 *gt, DENSE_ARGS)
{
    __local float4 tile[(TY + 2 * R) * (TX + 2 * R)];
    const int tw = TX + 2 * R, lx = get_local_id(0), ly = get_local_id(1);
    const int x0 = get_group_id(0) * TX - R, y0 = get_group_id(1) * TY - R;
    int x = get_global_id(0), y = get_global_id(1);
    __global const float *I = pi + off, *J = pj + off;
    __global const float2 *D = dg + off;
    for (int k = ly * TX + lx; k < tw * (TY + 2 * R); k += TX * TY) {
        int q = clamp(y0 + k / tw, 0, h - 1) * w + clamp(x0 + k % tw, 0, w - 1);
        float2 d = D[q];
        tile[k] = (float4)(I[q], d.x, d.y, 0.0f);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (x >= w || y >= h) return;
    float2 g0 = guess(flow, coff, cw, ch, x, y), v = (float2)(0.0f, 0.0f);
    float4 g = gt[off + y * w + x];
    bool valid = solvable(g);
    for (int k = 0; valid && k < ITERS; k++) {
        float2 p = g0 + v;
        float bx = 0.0f, by = 0.0f;
        for (int j = -R; j <= R; j++) {
            int yy = clamp(y + j, 0, h - 1);
            __local const float4 *row = tile + (ly + R + j) * tw + lx + R;
            for (int i = -R; i <= R; i++) {
                float4 t = row[i];
                float e = t.x - bilinear(J, w, h, clamp(x + i, 0, w - 1) + p.x, yy + p.y);
                bx += e * t.y;
                by += e * t.z;
            }
        }
        v += lk_step(g, bx, by);
    }
    store(flow + off, status, y * w + x, x, y, w, h, fine, valid, g0 + v);
}

/* Texture hardware: unnormalised coordinates, clamp to edge, bilinear; pixel centres at +0.5. */
__constant sampler_t lin = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

/* image-linear: as of_solve_pre, the second frame read through the linear sampler. */
__kernel void of_solve_img(__global const float *pi, __read_only image2d_t jimg, __global const float2 *dg,
                           __global const float4 *gt, SOLVE_ARGS)
{
    POINT();
    __global const float *I = pi + off;
    __global const float2 *D = dg + off;
    float2 g0 = GUESS(), v = (float2)(0.0f, 0.0f);
    float4 g = gt[off + y * w + x];
    bool valid = solvable(g);
    for (int k = 0; valid && k < ITERS; k++) {
        float2 p = g0 + v + 0.5f;
        float bx = 0.0f, by = 0.0f;
        for (int j = -R; j <= R; j++) {
            int yy = clamp(y + j, 0, h - 1);
            for (int i = -R; i <= R; i++) {
                int xx = clamp(x + i, 0, w - 1);
                float2 d = D[yy * w + xx];
                float e = I[yy * w + xx] - read_imagef(jimg, lin, (float2)(xx + p.x, yy + p.y)).x;
                bx += e * d.x;
                by += e * d.y;
            }
        }
        v += lk_step(g, bx, by);
    }
    STORE(valid, g0 + v);
}

/* best: as of_solve_img, the level and its derivatives from one float4 per window pixel; unorm16: the same
 * with J read from a unorm16 image (0..1) and scaled back by 255; early-exit: unorm16's, a point stopping at
 * the first step shorter than EPS px, which it does not take (its flow is then a point from which the step is
 * below EPS: what the check verifies). SOLVE_PACKED(name, JS, STOP): the kernel, J's samples times JS (1:
 * exact, the compiler drops it), STOP 1 for the early exit (0: the compiler drops the test). */
#define SOLVE_PACKED(name, JS, STOP)                                                                         \
    __kernel void name(__global const float4 *dp, __read_only image2d_t jimg, __global const float4 *gt,     \
                       SOLVE_ARGS)                                                                           \
    {                                                                                                        \
        POINT();                                                                                             \
        __global const float4 *D = dp + off;                                                                 \
        float2 g0 = GUESS(), v = (float2)(0.0f, 0.0f);                                                       \
        float4 g = gt[off + y * w + x];                                                                      \
        bool valid = solvable(g);                                                                            \
        for (int k = 0; valid && k < ITERS; k++) {                                                           \
            float2 p = g0 + v + 0.5f;                                                                        \
            float bx = 0.0f, by = 0.0f;                                                                      \
            for (int j = -R; j <= R; j++) {                                                                  \
                int yy = clamp(y + j, 0, h - 1);                                                             \
                for (int i = -R; i <= R; i++) {                                                              \
                    int xx = clamp(x + i, 0, w - 1);                                                         \
                    float4 d = D[yy * w + xx];                                                               \
                    float e = d.x - (JS) * read_imagef(jimg, lin, (float2)(xx + p.x, yy + p.y)).x;           \
                    bx += e * d.y;                                                                           \
                    by += e * d.z;                                                                           \
                }                                                                                            \
            }                                                                                                \
            float2 st = lk_step(g, bx, by);                                                                  \
            if ((STOP) && dot(st, st) < (float)(EPS) * (float)(EPS)) break;                                  \
            v += st;                                                                                         \
        }                                                                                                    \
        STORE(valid, g0 + v);                                                                                \
    }
SOLVE_PACKED(of_solve_best, 1.0f, 0)

/* unorm16: level L of the second frame into its CL_R CL_UNORM_INT16 image as v / 255 (0..255 to 0..1; the
 * conversion rounds to 1/65535; level 0's integers stay exact: v x 257). */
__kernel void of_to_u16(__global const float *pj, __write_only image2d_t img, int off, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h) write_imagef(img, (int2)(x, y), (float4)(pj[off + y * w + x] / 255.0f));
}

SOLVE_PACKED(of_solve_u16, 255.0f, 0)

/* half: level L of the second frame into its CL_R CL_HALF_FLOAT image as it is (the write rounds to half; level
 * 0's integers stay exact); the solve is best's, reading this image. */
__kernel void of_to_half(__global const float *pj, __write_only image2d_t img, int off, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h) write_imagef(img, (int2)(x, y), (float4)(pj[off + y * w + x]));
}
SOLVE_PACKED(of_solve_exit, 255.0f, 1)
