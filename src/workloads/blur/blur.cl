/* blur: a Gaussian blur of a float picture with clamp-to-edge borders by convolution: the direct 2D
 * convolution with the (2R+1)^2 sampled Gaussian, the separable convolution (a row pass, then a column pass),
 * the same through local-memory tiles, both passes fused in one kernel (fused, fused-ring and the CPU's
 * cpu-ring). The recursive filters, whose cost does not grow with sigma, are in blur_rec.cl. Build options:
 * R (the radius: 2R+1 taps), WGX, WGY (the work-group shape), PY (output rows per work-item of the fused
 * kernel), and fused-ring's CX, U, BLK and GTAPS (below). Weights come in a __constant buffer g[2R+1]
 * (g2[(2R+1)^2] for the 2D kernel). Pixel indices are int: the host refuses 2^31 pixels.
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
