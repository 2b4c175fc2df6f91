/* blur: a Gaussian blur of a float picture with clamp-to-edge borders, six ways: the direct 2D convolution
 * with the (2R+1)^2 sampled Gaussian, the separable convolution (a row pass, then a column pass), the same
 * through local-memory tiles, both passes fused in one kernel, the Young-van Vliet recursive Gaussian
 * (a work-item per line, or with lines cut into blocks and a carry fix-up), and Deriche's (the guide's own
 * 4+4 taps; k, a float16 of coefficients). Build options: R (the radius:
 * 2R+1 taps), WGX, WGY (the work-group shape), PY (output rows per work-item of the fused kernel), BLK (the
 * block rungs' block length: their kernels exist only with it). Weights come in a __constant buffer g[2R+1]
 * (g2[(2R+1)^2] for the 2D kernel); the recursive kernels take c = (B, b1/b0, b2/b0, b3/b0). Pixel indices
 * are int: the host refuses 2^31 pixels.
 */

#ifndef R
#define R 15
#endif
#ifndef WGX
#define WGX 32
#endif
#ifndef WGY
#define WGY 8
#endif
#ifndef PY
#define PY 8
#endif
#define T (2 * R + 1)

int clampi(int i, int n)
{
    return clamp(i, 0, n - 1);
}

/* ---- the direct 2D convolution: (2R+1)^2 reads and MADs per pixel --------------------------------- */

__kernel void blur_conv2d(__global const float *in, __global float *out, int w, int h,
                          __global const float *g2)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    float s = 0.0f;
    for (int j = -R; j <= R; j++) {
        __global const float *row = in + clampi(y + j, h) * w;
        __global const float *wr = g2 + (j + R) * T + R;
        for (int i = -R; i <= R; i++)
            s += wr[i] * row[clampi(x + i, w)];
    }
    out[y * w + x] = s;
}

/* ---- separable: a row pass into tmp, then a column pass, each reading 2R+1 taps from global ---------- */

__kernel void blur_rows(__global const float *in, __global float *out, int w, int h, __constant float *g)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    __global const float *row = in + y * w;
    float s = 0.0f;
    for (int i = -R; i <= R; i++)
        s += g[i + R] * row[clampi(x + i, w)];
    out[y * w + x] = s;
}

__kernel void blur_cols(__global const float *in, __global float *out, int w, int h, __constant float *g)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    float s = 0.0f;
    for (int j = -R; j <= R; j++)
        s += g[j + R] * in[clampi(y + j, h) * w + x];
    out[y * w + x] = s;
}

/* ---- separable through local tiles: each input read from global once per group (plus the halo) ------- */

__kernel void blur_rows_local(__global const float *in, __global float *out, int w, int h,
                              __constant float *g)
{
    __local float t[WGY][WGX + 2 * R];
    int lx = get_local_id(0), ly = get_local_id(1);
    int x0 = get_group_id(0) * WGX - R, y = min((int)get_global_id(1), h - 1);
    for (int i = lx; i < WGX + 2 * R; i += WGX)
        t[ly][i] = in[y * w + clampi(x0 + i, w)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int x = get_global_id(0);
    if (x >= w || get_global_id(1) >= (size_t)h) return;
    float s = 0.0f;
    for (int i = 0; i < T; i++)
        s += g[i] * t[ly][lx + i];
    out[y * w + x] = s;
}

__kernel void blur_cols_local(__global const float *in, __global float *out, int w, int h,
                              __constant float *g)
{
    __local float t[WGY + 2 * R][WGX + 1];
    int lx = get_local_id(0), ly = get_local_id(1);
    int x = min((int)get_global_id(0), w - 1), y0 = get_group_id(1) * WGY - R;
    for (int j = ly; j < WGY + 2 * R; j += WGY)
        t[j][lx] = in[clampi(y0 + j, h) * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int y = get_global_id(1);
    if (get_global_id(0) >= (size_t)w || y >= h) return;
    float s = 0.0f;
    for (int j = 0; j < T; j++)
        s += g[j] * t[ly + j][lx];
    out[y * w + x] = s;
}

#ifdef FUSED /* only in the fused rung's build: its local arrays grow with R (other rungs build at any sigma) */
/* ---- fused: one kernel, one read and one write of each pixel in global memory -------------------------
 * A WGX x WGY group makes a WGX x (WGY*PY) output block: (1) the block's input plus an R halo on each side
 * goes into local memory; (2) the row pass makes WGX filtered values for every input row of the block, four
 * adjacent outputs per work-item sliding over 2R+4 loads; (3) each work-item filters its column over PY
 * consecutive rows from those, sliding over PY+2R loads. The odd row strides keep every local access free
 * of bank conflicts (lanes walk rows in (2), columns in (3)). */
#define FY        (WGY * PY)    /* output rows per group */
#define IN_ROWS   (FY + 2 * R)  /* input rows per group */
#define IN_COLS   (WGX + 2 * R) /* input columns per group */
#define IN_STRIDE (IN_COLS | 1)
#define H_STRIDE  (WGX + 1)

__kernel void blur_fused(__global const float *in, __global float *out, int w, int h, __constant float *g)
{
    __local float t[IN_ROWS * IN_STRIDE];
    __local float hb[IN_ROWS * H_STRIDE];
    int lx = get_local_id(0), ly = get_local_id(1), lid = ly * WGX + lx;
    int x0 = get_group_id(0) * WGX, y0 = get_group_id(1) * FY;
    for (int i = lid; i < IN_ROWS * IN_COLS; i += WGX * WGY) {
        int r = i / IN_COLS, c = i - r * IN_COLS;
        t[r * IN_STRIDE + c] = in[clampi(y0 - R + r, h) * w + clampi(x0 - R + c, w)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = lid; i < IN_ROWS * (WGX / 4); i += WGX * WGY) {
        int q = i / IN_ROWS, r = i - q * IN_ROWS;
        __local const float *src = t + r * IN_STRIDE + 4 * q;
        float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
#pragma unroll
        for (int k = 0; k < T + 3; k++) {
            float v = src[k];
            if (k < T) a0 += g[k] * v;
            if (k >= 1 && k < T + 1) a1 += g[k - 1] * v;
            if (k >= 2 && k < T + 2) a2 += g[k - 2] * v;
            if (k >= 3) a3 += g[k - 3] * v;
        }
        __local float *dst = hb + r * H_STRIDE + 4 * q;
        dst[0] = a0;
        dst[1] = a1;
        dst[2] = a2;
        dst[3] = a3;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc[PY];
#pragma unroll
    for (int m = 0; m < PY; m++)
        acc[m] = 0.0f;
#pragma unroll
    for (int k = 0; k < PY + 2 * R; k++) {
        float v = hb[(ly * PY + k) * H_STRIDE + lx];
#pragma unroll
        for (int m = 0; m < PY; m++)
            if (k - m >= 0 && k - m < T) acc[m] += g[k - m] * v;
    }
    int x = x0 + lx;
    if (x >= w) return;
#pragma unroll
    for (int m = 0; m < PY; m++)
        if (y0 + ly * PY + m < h) out[(y0 + ly * PY + m) * w + x] = acc[m];
}
#endif /* FUSED */

#ifdef RING /* only in fused-ring's build: its registers grow with R */
/* ---- fused-ring: both passes in one kernel, the column sums in registers --------------------------------
 * A group of WGX work-items owns WGX*CX adjacent output columns and a strip of PY output rows. It walks down
 * the strip's PY + 2R input rows, BLK at a time: (1) the BLK rows' RW + 2R pixels go into local memory (one
 * barrier pair per BLK rows, U rows' loads in flight at once); (2) each work-item filters its CX columns of each row from
 * there (CX + 2R values in NV aligned vector loads), then adds the filtered row into a ring of 2R partial
 * sums per column, held in registers: a[c][m] is output row u - 2R + m's sum of the rows before u. The oldest
 * completes with row u and is written; the others shift down one (renamed registers: the loop is unrolled U
 * times), and row u opens the newest. Each input row is loaded and row-filtered once per strip, instead of
 * once per block plus a 2R halo (fused). CX (up to R = 24, 2 on a GPU and 4 on a CPU, then 1, unless tuned:
 * blur_ring_cx) sets how many sums a work-item keeps: CX x 2R registers. */
#ifndef CX
#define CX 4
#endif
#ifndef U
#define U 8
#endif
#ifndef BLK
#define BLK 32
#endif
#if CX == 8
#define VT float8
#define UNPACK(v, j, q)                                                                                      \
    (v[8 * (j)] = (q).s0, v[8 * (j) + 1] = (q).s1, v[8 * (j) + 2] = (q).s2, v[8 * (j) + 3] = (q).s3,          \
     v[8 * (j) + 4] = (q).s4, v[8 * (j) + 5] = (q).s5, v[8 * (j) + 6] = (q).s6, v[8 * (j) + 7] = (q).s7)
#define PACK(o) ((float8)(o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7]))
#elif CX == 4
#define VT              float4
#define UNPACK(v, j, q) (v[4 * (j)] = (q).x, v[4 * (j) + 1] = (q).y, v[4 * (j) + 2] = (q).z, v[4 * (j) + 3] = (q).w)
#define PACK(o)         ((float4)(o[0], o[1], o[2], o[3]))
#elif CX == 2
#define VT              float2
#define UNPACK(v, j, q) (v[2 * (j)] = (q).x, v[2 * (j) + 1] = (q).y)
#define PACK(o)         ((float2)(o[0], o[1]))
#else
#define VT              float
#define UNPACK(v, j, q) (v[j] = (q))
#define PACK(o)         (o[0])
#endif
#define RW   (WGX * CX)                         /* output columns per group */
#define NV   ((2 * R + 2 * CX - 1) / CX)        /* vector loads per work-item and row: CX + 2R values */
#define LSV  (WGX + NV - 1)                     /* a local row in vectors: the RW + 2R pixels, rounded up */
#define LS   (LSV * CX)                         /* the same in floats */
#define NL   ((LS + WGX - 1) / WGX)             /* a row's loads per work-item */
#define ROWS ((PY + 2 * R + BLK - 1) / BLK * BLK) /* input rows walked per strip: PY + 2R, rounded up */

/* GT(k): tap k. With -DGTAPS=a,b,... (the ring-taps rung; the host writes the T taps' exact bits as hex
 * floats) they are compile-time constants, which the multiplies take as immediates; else g[k] (a load from
 * constant memory, or a register it was hoisted into). */
#ifdef GTAPS
__constant float gtaps[T] = {GTAPS};
#define GT(k) gtaps[k]
#else
#define GT(k) g[k]
#endif

__kernel __attribute__((reqd_work_group_size(WGX, 1, 1))) void
blur_ring(__global const float *in, __global float *out, int w, int h, __constant float *g)
{
    __local VT t[BLK * LSV];
    __local float *ts = (__local float *)t;
    int l = get_local_id(0);
    int x0 = get_group_id(0) * RW, y0 = get_group_id(1) * PY, ye = min(y0 + PY, h);
    int xl = x0 + l * CX; /* this work-item's first column */
    bool whole = xl + CX <= w && w % CX == 0; /* its outputs one aligned vector store */
    int col[NL];          /* the clamped columns it loads: local index d = l + k WGX is x0 - R + d */
#pragma unroll
    for (int k = 0; k < NL; k++)
        col[k] = clampi(x0 - R + l + k * WGX, w);
    float a[CX][2 * R];
#pragma unroll
    for (int c = 0; c < CX; c++)
#pragma unroll
        for (int m = 0; m < 2 * R; m++)
            a[c][m] = 0.0f;
    for (int u0 = 0; u0 < ROWS; u0 += BLK) {
        barrier(CLK_LOCAL_MEM_FENCE);
        /* U rows' loads are all issued before the first is stored: one memory latency per U rows */
        for (int r0 = 0; r0 < BLK; r0 += U) {
            float ld[U][NL];
#pragma unroll
            for (int r = 0; r < U; r++) {
                __global const float *src = in + clampi(y0 - R + u0 + r0 + r, h) * w;
#pragma unroll
                for (int k = 0; k < NL; k++)
                    ld[r][k] = l + k * WGX < LS ? src[col[k]] : 0.0f;
            }
#pragma unroll
            for (int r = 0; r < U; r++)
#pragma unroll
                for (int k = 0; k < NL; k++)
                    if (l + k * WGX < LS) ts[(r0 + r) * LS + l + k * WGX] = ld[r][k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j0 = 0; j0 < BLK; j0 += U) {
#pragma unroll
            for (int jj = 0; jj < U; jj++) {
                int j = j0 + jj;
                float v[NV * CX], hs[CX], o[CX];
#pragma unroll
                for (int q = 0; q < NV; q++)
                    UNPACK(v, q, t[j * LSV + l + q]);
#pragma unroll
                for (int c = 0; c < CX; c++) {
                    float s = 0.0f;
#pragma unroll
                    for (int k = 0; k < T; k++)
                        s += GT(k) * v[c + k];
                    hs[c] = s;
                }
#pragma unroll
                for (int c = 0; c < CX; c++) {
                    o[c] = a[c][0] + GT(2 * R) * hs[c];
#pragma unroll
                    for (int m = 0; m < 2 * R - 1; m++)
                        a[c][m] = a[c][m + 1] + GT(2 * R - 1 - m) * hs[c];
                    a[c][2 * R - 1] = GT(0) * hs[c];
                }
                int y = y0 - 2 * R + u0 + j; /* the output row that input row u0 + j completes */
                if (y >= y0 && y < ye) {
                    __global float *dst = out + y * w + xl;
                    if (whole) {
                        *(__global VT *)dst = PACK(o);
                    } else {
#pragma unroll
                        for (int c = 0; c < CX; c++)
                            if (xl + c < w) dst[c] = o[c];
                    }
                }
            }
        }
    }
}
#endif /* RING */

#ifdef CPUR /* only in cpu-ring's build: 2T float8 of private memory a work-item */
/* ---- cpu-ring: both passes in one kernel, a CPU's layout -----------------------------------------------
 * A work-item owns 8 adjacent output columns (one float8: AVX's width) of a strip of PY output rows and walks
 * down the strip's PY + 2R input rows once: each row's 8 columns are filtered across (T taps, T vloads of 8
 * from the input row: L1 hits on a CPU) into a ring of the last T filtered rows in private memory, kept twice
 * (entries p and p + T) so that the T rows under an output are T consecutive entries; each output row is then
 * one T-tap dot product down the ring. Nothing is summed in advance: fused-ring holds 2R running sums per
 * column, which overflow a CPU's 16 vector registers into the stack; here the ring is plain loads from L1.
 * With -DSUMS (the cpu-sums rung, fused-ring's scheme in this layout) each filtered row is instead added at
 * once into the T running sums of the outputs it reaches, and an output is written when its last row came. */
__kernel void blur_cpu_ring(__global const float *in, __global float *out, int w, int h, __constant float *g)
{
    int x0 = get_global_id(0) * 8, y0 = get_global_id(1) * PY;
    if (x0 >= w || y0 >= h) return;
    int ye = min(y0 + PY, h);
    bool inner = x0 - R >= 0 && x0 + 7 + R < w; /* every tap of the 8 columns inside the row: vector loads */
    float gk[T];
#ifdef SUMS
    float8 acc[T]; /* cpu-sums: the running sums of the T outputs a row can reach, output y at (y - y0) % T */
    for (int k = 0; k < T; k++)
        acc[k] = 0.0f;
#else
    float8 ring[2 * T];
#endif
    for (int k = 0; k < T; k++)
        gk[k] = g[k];
    for (int u = y0 - R; u < ye + R; u++) {
        __global const float *row = in + clampi(u, h) * w;
        float8 s = 0.0f;
        if (inner) {
            for (int k = 0; k < T; k++)
                s += gk[k] * vload8(0, row + x0 - R + k);
        } else {
            for (int k = 0; k < T; k++) {
                int c = x0 - R + k;
                float8 v = (float8)(row[clampi(c, w)], row[clampi(c + 1, w)], row[clampi(c + 2, w)],
                                    row[clampi(c + 3, w)], row[clampi(c + 4, w)], row[clampi(c + 5, w)],
                                    row[clampi(c + 6, w)], row[clampi(c + 7, w)]);
                s += gk[k] * v;
            }
        }
#ifdef SUMS
        /* row u is tap u - v + R of every output v from u - R to u + R: added to those in the strip, in the
         * order of their taps, as cpu-ring's dot product adds them */
        for (int k = 0; k < T; k++) {
            int v = u + R - k;
            if (v >= y0 && v < ye) acc[(v - y0) % T] += gk[k] * s;
        }
        int y = u - R; /* the output row whose window (y - R .. y + R) ends at row u: complete */
        if (y < y0) continue;
        float8 o = acc[(y - y0) % T];
        acc[(y - y0) % T] = 0.0f;
#else
        int p = (u - y0 + R) % T;
        ring[p] = s;
        ring[p + T] = s;
        int y = u - R; /* the output row whose window (y - R .. y + R) ends at row u */
        if (y < y0) continue;
        int q = (y - y0) % T; /* row y - R's entry */
        float8 o = 0.0f;
        for (int k = 0; k < T; k++)
            o += gk[k] * ring[q + k];
#endif
        __global float *dst = out + y * w + x0;
        if (x0 + 8 <= w) {
            vstore8(o, 0, dst);
        } else {
            float v[8];
            vstore8(o, 0, v);
            for (int c = 0; c < 8 && x0 + c < w; c++)
                dst[c] = v[c];
        }
    }
}
#endif /* CPUR */

/* ---- the recursive Gaussian (Young-van Vliet): 4 MADs per pixel and pass, whatever sigma ---------------
 * One work-item filters one line of n samples `stride` apart: a causal pass into out, started at the steady
 * state of the first sample (exact for a picture extended by its edge pixel), then an anti-causal pass over
 * out in place, started where the same extension past the last sample puts it (Triggs and Sdika): the
 * steady state plus m (3x3, row-major) times the causal pass's last three deviations from it. */
void yvv_line(__global const float *in, __global float *out, int n, int stride, float4 c, float16 m)
{
    float p1 = in[0], p2 = p1, p3 = p1;
    for (int i = 0; i < n; i++) {
        float v = c.x * in[i * stride] + c.y * p1 + c.z * p2 + c.w * p3;
        out[i * stride] = v;
        p3 = p2;
        p2 = p1;
        p1 = v;
    }
    float e = in[(n - 1) * stride];
    float d0 = out[(n - 1) * stride] - e;
    float d1 = (n > 1 ? out[(n - 2) * stride] : in[0]) - e;
    float d2 = (n > 2 ? out[(n - 3) * stride] : in[0]) - e;
    p1 = e + m.s0 * d0 + m.s1 * d1 + m.s2 * d2;
    p2 = e + m.s3 * d0 + m.s4 * d1 + m.s5 * d2;
    p3 = e + m.s6 * d0 + m.s7 * d1 + m.s8 * d2;
    for (int i = n - 1; i >= 0; i--) {
        float v = c.x * out[i * stride] + c.y * p1 + c.z * p2 + c.w * p3;
        out[i * stride] = v;
        p3 = p2;
        p2 = p1;
        p1 = v;
    }
}

/* rgH: one work-item per row; neighbouring work-items are a row apart, so no load is coalesced on a GPU. */
__kernel void blur_rg_rows(__global const float *in, __global float *out, int w, int h, float4 c, float16 m)
{
    int y = get_global_id(0);
    if (y < h) yvv_line(in + y * w, out + y * w, w, 1, c, m);
}

/* rgV: one work-item per column; neighbouring work-items read neighbouring floats: coalesced. */
__kernel void blur_rg_cols(__global const float *in, __global float *out, int w, int h, float4 c, float16 m)
{
    int x = get_global_id(0);
    if (x < w) yvv_line(in + x, out + x, h, w, c, m);
}

/* The transpose of the recursive-vt rung (out, w rows of h, = in, h rows of w, transposed): a 32x32 tile,
 * local rows padded by one float, 32x8 work-groups (the transpose ladder's tile32 rung). */
__kernel void blur_transpose(__global const float *in, __global float *out, int w, int h)
{
    __local float tile[32][33];
    int lx = get_local_id(0), ly = get_local_id(1);
    int x = get_group_id(0) * 32 + lx, y0 = get_group_id(1) * 32 + ly;
    for (int j = 0; j < 32; j += 8)
        if (x < w && y0 + j < h) tile[ly + j][lx] = in[(y0 + j) * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * 32 + lx, oy0 = get_group_id(0) * 32 + ly;
    for (int j = 0; j < 32; j += 8)
        if (ox < h && oy0 + j < w) out[(oy0 + j) * h + ox] = tile[lx][ly + j];
}

/* The guide's own transpose (Listing 14-6, transposeLS): 16x16 work-groups, one element per work-item, the
 * block transposed on its write into local memory (aux[iy + ix * 16]), and the skew: block row by + bx
 * (mod the number of block rows), bx unchanged. Bounds checks added: the guide assumes multiples of 16. */
__kernel void blur_transpose_ls(__global const float *in, __global float *out, int w, int h)
{
    __local float aux[256];
    int bx = get_group_id(0), by = get_group_id(1);
    int ix = get_local_id(0), iy = get_local_id(1);
    by = (by + bx) % (int)get_num_groups(1); /* the guide's one changed line (cast: int arithmetic) */
    int x = bx * 16 + ix, y = by * 16 + iy;
    if (x < w && y < h) aux[iy + ix * 16] = in[y * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = by * 16 + ix, oy = bx * 16 + iy; /* out is w rows of h */
    if (ox < h && oy < w) out[oy * h + ox] = aux[ix + iy * 16];
}

/* ---- Deriche's recursive Gaussian (the guide's Listing 14-4: 4 feed-forward, 4 feedback taps) ------------
 * One work-item filters one line of n samples `stride` apart: the causal pass y+ into out, from the steady
 * state of the first sample, then the anti-causal pass y- from the steady state of the last, which reads the
 * input (never y+) and adds its output to out: y = y+ + y- (Deriche 1993), 5 accesses and 2 x 8 MADs per pixel.
 * k: s0..s3 the causal feed-forward taps n0..n3, s4..s7 the anti-causal ones m1..m4, s8..sb the feedback
 * d1..d4, sc and sd the steady-state outputs per unit input of the two passes. */
void dr_line(__global const float *in, __global float *out, int n, int stride, float16 k)
{
    float x = in[0];
    float i1 = x, i2 = x, i3 = x, o1 = k.sc * x, o2 = o1, o3 = o1, o4 = o1;
    for (int i = 0; i < n; i++) {
        float i0 = in[i * stride];
        float o0 = k.s0 * i0 + k.s1 * i1 + k.s2 * i2 + k.s3 * i3 - k.s8 * o1 - k.s9 * o2 - k.sa * o3 - k.sb * o4;
        out[i * stride] = o0;
        i3 = i2;
        i2 = i1;
        i1 = i0;
        o4 = o3;
        o3 = o2;
        o2 = o1;
        o1 = o0;
    }
    x = in[(n - 1) * stride];
    float i4 = x;
    i1 = i2 = i3 = x;
    o1 = o2 = o3 = o4 = k.sd * x;
    for (int i = n; i-- > 0;) {
        float o0 = k.s4 * i1 + k.s5 * i2 + k.s6 * i3 + k.s7 * i4 - k.s8 * o1 - k.s9 * o2 - k.sa * o3 - k.sb * o4;
        float i0 = in[i * stride];
        out[i * stride] += o0;
        i4 = i3;
        i3 = i2;
        i2 = i1;
        i1 = i0;
        o4 = o3;
        o3 = o2;
        o2 = o1;
        o1 = o0;
    }
}

/* dH: one work-item per row (the guide's rgH), loads a row apart. */
__kernel void blur_dr_rows(__global const float *in, __global float *out, int w, int h, float16 k)
{
    int y = get_global_id(0);
    if (y < h) dr_line(in + y * w, out + y * w, w, 1, k);
}

/* dV: one work-item per column (the guide's rgV), coalesced. */
__kernel void blur_dr_cols(__global const float *in, __global float *out, int w, int h, float16 k)
{
    int x = get_global_id(0);
    if (x < w) dr_line(in + x, out + x, h, w, k);
}

/* ---- the recursive Gaussian cut into blocks (Nehab, Maximo, Lima, Hoppe 2011), built only with -DBLK ------
 * Each line (a column: samples w apart, neighbouring lines 1 apart; a row: samples 1 apart, lines w apart) is
 * cut into blocks of BLK samples, the last one shorter. Pass 1 (a work-item per line and block): the block
 * filtered causally from a zero state, then anti-causally from a zero state over that; only the final states
 * are written, z = the causal pass's last three values and a = the anti-causal pass's first three. Pass 2 (a
 * work-item per line, sequential over its blocks): the true causal state entering each block, s[k+1] =
 * M s[k] + z[k] from the steady state of the first sample; the Triggs-Sdika start from the last; the true
 * anti-causal state entering each block from below, t[k-1] = M t[k] + a[k] + F s[k]. M (the feedback run over
 * a block of zeros) and F (what a causal state entering a block becomes at its top after both zero-input
 * passes) are 3x3, row-major in a float16, for a full block and for the last one, from the host. Pass 3: each
 * block filtered again from its true states (in private memory) and written. Carries: 6 floats per line and
 * block, slot j of block k at carry[(j * nb + k) * lines + line] (neighbouring lines, neighbouring floats);
 * pass 2 overwrites z with s and a with t. The arithmetic of each step is yvv_line's. */
#ifdef BLK

/* The causal pass over the block's L samples x[0], x[stride], ... from state p (p[0] the newest) into u. */
void blk_causal(__global const float *x, int L, int stride, float4 c, float *u, float *p)
{
    float p1 = p[0], p2 = p[1], p3 = p[2];
#pragma unroll
    for (int i = 0; i < BLK; i++)
        if (i < L) {
            float v = c.x * x[i * stride] + c.y * p1 + c.z * p2 + c.w * p3;
            u[i] = v;
            p3 = p2;
            p2 = p1;
            p1 = v;
        }
    p[0] = p1;
    p[1] = p2;
    p[2] = p3;
}

/* The anti-causal pass over u[0..L) in place, from state p (the values just below the block). */
void blk_anti(float *u, int L, float4 c, float *p)
{
    float p1 = p[0], p2 = p[1], p3 = p[2];
#pragma unroll
    for (int i = BLK - 1; i >= 0; i--)
        if (i < L) {
            float v = c.x * u[i] + c.y * p1 + c.z * p2 + c.w * p3;
            u[i] = v;
            p3 = p2;
            p2 = p1;
            p1 = v;
        }
    p[0] = p1;
    p[1] = p2;
    p[2] = p3;
}

/* Pass 1 for block get_global_id(1) of a line of n samples: its zero-state carries z and a. */
void blk_carry(__global const float *x, __global float *carry, int n, int stride, int lines, float4 c)
{
    int k = get_global_id(1), nb = (n + BLK - 1) / BLK, L = min(BLK, n - k * BLK);
    float u[BLK], p[3] = {0.0f, 0.0f, 0.0f}, q[3] = {0.0f, 0.0f, 0.0f};
    blk_causal(x + k * BLK * stride, L, stride, c, u, p);
    blk_anti(u, L, c, q);
    for (int j = 0; j < 3; j++) {
        carry[(j * nb + k) * lines] = p[j];
        carry[((j + 3) * nb + k) * lines] = q[j];
    }
}

/* M v for a 3x3 map M with its row sums M 1 in s9, sa, sb, as v.x (M 1) + M (v - v.x): at large sigma the
 * entries of M are large (538 at sigma 32 for 32-pixel blocks) and cancel on a smooth state, whose
 * differences are small, so this loses less to rounding than the plain product. */
float3 mat3(float16 M, float3 v)
{
    float d1 = v.y - v.x, d2 = v.z - v.x;
    return v.x * M.s9ab + (float3)(M.s1 * d1 + M.s2 * d2, M.s4 * d1 + M.s5 * d2, M.s7 * d1 + M.s8 * d2);
}

/* Three slots of block k's carries from slot j on (slots nb * lines apart), and a store of three. */
float3 slots(__global const float *cz, int k, int j, int nb, int lines)
{
    __global const float *ck = cz + (j * nb + k) * lines;
    return (float3)(ck[0], ck[nb * lines], ck[2 * nb * lines]);
}

void put_slots(__global float *cz, int k, int j, int nb, int lines, float3 v)
{
    __global float *ck = cz + (j * nb + k) * lines;
    ck[0] = v.x;
    ck[nb * lines] = v.y;
    ck[2 * nb * lines] = v.z;
}

/* Pass 2 for one line: the true states entering every block (M, F: a full block's; Ml, Fl: the last's).
 * The carries of FIX_BATCH blocks are loaded before any of them is used, so that a GPU has that many loads
 * in flight instead of one long-latency load per block (each slot is read before it is overwritten). */
#define FIX_BATCH 8
void blk_fix(__global const float *x, __global float *cz, int n, int stride, int lines, float16 m,
             float16 M, float16 Ml, float16 F, float16 Fl)
{
    int nb = (n + BLK - 1) / BLK;
    float e = x[(n - 1) * stride];
    float3 s = (float3)(x[0]), z[FIX_BATCH], sk[FIX_BATCH], a[FIX_BATCH];
    for (int k0 = 0; k0 < nb; k0 += FIX_BATCH) {
#pragma unroll
        for (int j = 0; j < FIX_BATCH; j++)
            z[j] = slots(cz, min(k0 + j, nb - 1), 0, nb, lines);
#pragma unroll
        for (int j = 0; j < FIX_BATCH; j++) {
            int k = k0 + j;
            if (k < nb) {
                put_slots(cz, k, 0, nb, lines, s);
                s = mat3(k == nb - 1 ? Ml : M, s) + z[j];
            }
        }
    }
    float3 d = s - e;
    float3 t = e + (float3)(m.s0 * d.x + m.s1 * d.y + m.s2 * d.z, m.s3 * d.x + m.s4 * d.y + m.s5 * d.z,
                            m.s6 * d.x + m.s7 * d.y + m.s8 * d.z);
    for (int k0 = nb - 1; k0 >= 0; k0 -= FIX_BATCH) {
#pragma unroll
        for (int j = 0; j < FIX_BATCH; j++) {
            sk[j] = slots(cz, max(k0 - j, 0), 0, nb, lines);
            a[j] = slots(cz, max(k0 - j, 0), 3, nb, lines);
        }
#pragma unroll
        for (int j = 0; j < FIX_BATCH; j++) {
            int k = k0 - j;
            if (k >= 0) {
                put_slots(cz, k, 3, nb, lines, t);
                t = mat3(k == nb - 1 ? Ml : M, t) + a[j] + mat3(k == nb - 1 ? Fl : F, sk[j]);
            }
        }
    }
}

/* Pass 3 for block get_global_id(1): both passes from the true states, written to out. */
void blk_out(__global const float *x, __global float *out, __global const float *carry, int n, int stride,
             int lines, float4 c)
{
    int k = get_global_id(1), nb = (n + BLK - 1) / BLK, L = min(BLK, n - k * BLK);
    float u[BLK], p[3], q[3];
    for (int j = 0; j < 3; j++) {
        p[j] = carry[(j * nb + k) * lines];
        q[j] = carry[((j + 3) * nb + k) * lines];
    }
    blk_causal(x + k * BLK * stride, L, stride, c, u, p);
    blk_anti(u, L, c, q);
    __global float *o = out + k * BLK * stride;
#pragma unroll
    for (int i = 0; i < BLK; i++)
        if (i < L) o[i * stride] = u[i];
}

/* Columns: a work-item per (column, block), neighbouring work-items neighbouring columns (coalesced). The
 * three kernels take the same arguments. */
__kernel void blur_rgb_cols_carry(__global const float *in, __global float *out, int w, int h, float4 c,
                                  float16 m, __global float *carry, float16 M, float16 Ml, float16 F,
                                  float16 Fl)
{
    int x = get_global_id(0);
    if (x < w) blk_carry(in + x, carry + x, h, w, w, c);
}

__kernel void blur_rgb_cols_fix(__global const float *in, __global float *out, int w, int h, float4 c,
                                float16 m, __global float *carry, float16 M, float16 Ml, float16 F,
                                float16 Fl)
{
    int x = get_global_id(0);
    if (x < w) blk_fix(in + x, carry + x, h, w, w, m, M, Ml, F, Fl);
}

__kernel void blur_rgb_cols_out(__global const float *in, __global float *out, int w, int h, float4 c,
                                float16 m, __global float *carry, float16 M, float16 Ml, float16 F,
                                float16 Fl)
{
    int x = get_global_id(0);
    if (x < w) blk_out(in + x, out + x, carry + x, h, w, w, c);
}

/* Rows: a work-item per (row, block), neighbouring work-items a row apart (as rgH). */
__kernel void blur_rgb_rows_carry(__global const float *in, __global float *out, int w, int h, float4 c,
                                  float16 m, __global float *carry, float16 M, float16 Ml, float16 F,
                                  float16 Fl)
{
    int y = get_global_id(0);
    if (y < h) blk_carry(in + y * w, carry + y, w, 1, h, c);
}

__kernel void blur_rgb_rows_fix(__global const float *in, __global float *out, int w, int h, float4 c,
                                float16 m, __global float *carry, float16 M, float16 Ml, float16 F,
                                float16 Fl)
{
    int y = get_global_id(0);
    if (y < h) blk_fix(in + y * w, carry + y, w, 1, h, m, M, Ml, F, Fl);
}

__kernel void blur_rgb_rows_out(__global const float *in, __global float *out, int w, int h, float4 c,
                                float16 m, __global float *carry, float16 M, float16 Ml, float16 F,
                                float16 Fl)
{
    int y = get_global_id(0);
    if (y < h) blk_out(in + y * w, out + y * w, carry + y, w, 1, h, c);
}
#endif
