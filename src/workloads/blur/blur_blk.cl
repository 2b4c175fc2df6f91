/* blur's block-parallel recursive rungs (Nehab, Maximo, Lima, Hoppe 2011): the Young-van Vliet recursive
 * Gaussian of blur_rec.cl (yvv_line's arithmetic, its c = (B, b1/b0, b2/b0, b3/b0) and Triggs-Sdika m) with each
 * line cut into blocks and the blocks' carries fixed up; the rows through local tiles (TILES), the fix-ups
 * staged through local memory (FIXL), a group a whole row (WHOLE), the columns' carries from the rows' tiles
 * (COLC), two columns a work-item in the columns' pass 3 (V2). Build option: BLK (the block length: every
 * kernel here exists only with it). Pixel indices are int: the host refuses 2^31 pixels.
 */

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

/* The anti-causal pass's start at the line's far end e (Triggs and Sdika, as yvv_line's): e plus m times the
 * causal pass's last state s less e. */
float3 far_start(float16 m, float e, float3 s)
{
    float3 d = s - e;
    return e + (float3)(m.s0 * d.x + m.s1 * d.y + m.s2 * d.z, m.s3 * d.x + m.s4 * d.y + m.s5 * d.z,
                        m.s6 * d.x + m.s7 * d.y + m.s8 * d.z);
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
    float3 t = far_start(m, e, s);
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

#ifdef V2
/* recursive-v2: blk_out on the two neighbouring columns x, x + 1 side by side, each a lane of a float2 (one
 * 8-byte load and store a row; the carries as float2 too): per lane blk_causal's and blk_anti's sums in their
 * order. Every row's pair must be 8-byte aligned: the caller takes this path only where the width is even. */
void blk_out2(__global const float *x, __global float *out, __global const float *carry, int n, int stride,
              int lines, float4 c)
{
    int k = get_global_id(1), nb = (n + BLK - 1) / BLK, L = min(BLK, n - k * BLK);
    float2 u[BLK], p1, p2, p3;
    p1 = vload2(0, carry + (0 * nb + k) * lines);
    p2 = vload2(0, carry + (1 * nb + k) * lines);
    p3 = vload2(0, carry + (2 * nb + k) * lines);
    __global const float2 *xk = (__global const float2 *)(x + k * BLK * stride);
#pragma unroll
    for (int i = 0; i < BLK; i++)
        if (i < L) {
            float2 v = c.x * xk[i * (stride / 2)] + c.y * p1 + c.z * p2 + c.w * p3;
            u[i] = v;
            p3 = p2;
            p2 = p1;
            p1 = v;
        }
    p1 = vload2(0, carry + (3 * nb + k) * lines);
    p2 = vload2(0, carry + (4 * nb + k) * lines);
    p3 = vload2(0, carry + (5 * nb + k) * lines);
#pragma unroll
    for (int i = BLK - 1; i >= 0; i--)
        if (i < L) {
            float2 v = c.x * u[i] + c.y * p1 + c.z * p2 + c.w * p3;
            u[i] = v;
            p3 = p2;
            p2 = p1;
            p1 = v;
        }
    __global float2 *o = (__global float2 *)(out + k * BLK * stride);
#pragma unroll
    for (int i = 0; i < BLK; i++)
        if (i < L) o[i * (stride / 2)] = u[i];
}
#endif

/* Under V2 (recursive-v2) work-item x takes columns 2x and 2x + 1 (the host launches (w + 1) / 2): as one
 * float2 where w is even, else one after the other with blk_out. */
__kernel void blur_rgb_cols_out(__global const float *in, __global float *out, int w, int h, float4 c,
                                float16 m, __global float *carry, float16 M, float16 Ml, float16 F,
                                float16 Fl)
{
    int x = get_global_id(0);
#ifdef V2
    if (w % 2 == 0) {
        if (2 * x < w) blk_out2(in + 2 * x, out + 2 * x, carry + 2 * x, h, w, w, c);
    } else
        for (int i = 2 * x; i < min(2 * x + 2, w); i++)
            blk_out(in + i, out + i, carry + i, h, w, w, c);
#else
    if (x < w) blk_out(in + x, out + x, carry + x, h, w, w, c);
#endif
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

/* blk_causal over a line of a local tile: t[0], t[stride], ... t[(L - 1) stride] from state p into u. */
void tile_causal(__local const float *t, int stride, int L, float4 c, float *u, float *p)
{
    float p1 = p[0], p2 = p[1], p3 = p[2];
#pragma unroll
    for (int i = 0; i < BLK; i++)
        if (i < L) {
            float v = c.x * t[i * stride] + c.y * p1 + c.z * p2 + c.w * p3;
            u[i] = v;
            p3 = p2;
            p2 = p1;
            p1 = v;
        }
    p[0] = p1;
    p[1] = p2;
    p[2] = p3;
}

#ifdef TILES
/* rgH-tiles, recursive-tiles: the rows' passes 1 and 3 through local tiles (pass 2 is blur_rgb_rows_fix). A
 * group of 32 x TG work-items takes 32 rows and TG consecutive blocks of them; warp g loads block g's 32 rows
 * a row at a time (a row's BLK contiguous floats: coalesced, where blk_carry's neighbouring work-items read a
 * row apart) into its tile, whose rows are padded to BLK + 1 floats so that the 32 work-items walking their
 * own rows of it read 32 different banks. Pass 3 writes its outputs back into the tile, then stores them a
 * row at a time. The carries are the block rungs' (neighbouring rows, neighbouring floats). */
#define TG   (WGX / 32)
#define TROW (BLK + 1)

#define TI   ((BLK + 31) / 32) /* a lane's pixels in a tile row */

/* Block k of rows y0 .. y0 + 31 into t; pixels past the picture are 0 (no pass reads them). All 32 x TI loads
 * of a lane are issued before the first is stored: one memory latency per tile. */
void tile_load(__local float *t, __global const float *in, int w, int h, int y0, int k)
{
    int lane = get_local_id(0);
    float v[32][TI];
#pragma unroll
    for (int r = 0; r < 32; r++)
#pragma unroll
        for (int j = 0; j < TI; j++) {
            int y = y0 + r, i = lane + 32 * j, x = k * BLK + i;
            v[r][j] = i < BLK && y < h && x < w ? in[y * w + x] : 0.0f;
        }
#pragma unroll
    for (int r = 0; r < 32; r++)
#pragma unroll
        for (int j = 0; j < TI; j++)
            if (lane + 32 * j < BLK) t[r * TROW + lane + 32 * j] = v[r][j];
}

/* The tile's block k of rows y0 .. y0 + 31 to the picture, a row at a time. */
void tile_store(__local const float *t, __global float *out, int w, int h, int y0, int k)
{
    int lane = get_local_id(0);
    for (int r = 0; r < 32; r++)
        for (int i = lane; i < BLK; i += 32) {
            int y = y0 + r, x = k * BLK + i;
            if (y < h && x < w) out[y * w + x] = t[r * TROW + i];
        }
}

/* Pass 1: work-item (r, g) gives row y0 + r's block get_global_id(1) its zero-state carries z and a. */
__kernel __attribute__((reqd_work_group_size(32, TG, 1))) void
blur_rgb_rows_carry_t(__global const float *in, __global float *out, int w, int h, float4 c, float16 m,
                      __global float *carry, float16 M, float16 Ml, float16 F, float16 Fl)
{
    __local float tiles[TG * 32 * TROW];
    __local float *t = tiles + get_local_id(1) * 32 * TROW;
    int r = get_local_id(0), y0 = get_group_id(0) * 32, y = y0 + r, k = get_global_id(1);
    int nb = (w + BLK - 1) / BLK;
    if (k < nb) tile_load(t, in, w, h, y0, k);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (y >= h || k >= nb) return;
    int L = min(BLK, w - k * BLK);
    float u[BLK], p[3] = {0.0f, 0.0f, 0.0f}, q[3] = {0.0f, 0.0f, 0.0f};
    tile_causal(t + r * TROW, 1, L, c, u, p);
    blk_anti(u, L, c, q);
    for (int j = 0; j < 3; j++) {
        carry[(j * nb + k) * h + y] = p[j];
        carry[((j + 3) * nb + k) * h + y] = q[j];
    }
}

#ifdef COLC
/* recursive-colc: the columns' pass 1 (blk_carry) on a tile the rows' pass 3 has just filtered, whose 32 rows
 * (BLK = 32: the host refuses other lengths) are the columns' block y0 / 32: lane i walks column i of the
 * tile, the same floats the columns' pass would read back from the picture, and writes their zero-state
 * carries to cc (the columns' layout: slot j of block kc of column x at cc[(j * nbc + kc) * w + x]). */
void tile_col_carry(__local const float *t, __global float *cc, int w, int h, int y0, int k, float4 c)
{
    int i = get_local_id(0), x = k * BLK + i, kc = y0 / BLK, nbc = (h + BLK - 1) / BLK, L = min(BLK, h - y0);
    if (i >= BLK || x >= w) return;
    float u[BLK], p[3] = {0.0f, 0.0f, 0.0f}, q[3] = {0.0f, 0.0f, 0.0f};
    tile_causal(t + i, TROW, L, c, u, p);
    blk_anti(u, L, c, q);
    for (int j = 0; j < 3; j++) {
        cc[(j * nbc + kc) * w + x] = p[j];
        cc[((j + 3) * nbc + kc) * w + x] = q[j];
    }
}
#endif

/* Pass 3: both passes from the true states, into the tile, then stored (and under COLC the columns' pass 1 on
 * the tile, into cc). */
__kernel __attribute__((reqd_work_group_size(32, TG, 1))) void
blur_rgb_rows_out_t(__global const float *in, __global float *out, int w, int h, float4 c, float16 m,
                    __global float *carry, float16 M, float16 Ml, float16 F, float16 Fl
#ifdef COLC
                    ,
                    __global float *cc
#endif
)
{
    __local float tiles[TG * 32 * TROW];
    __local float *t = tiles + get_local_id(1) * 32 * TROW;
    int r = get_local_id(0), y0 = get_group_id(0) * 32, y = y0 + r, k = get_global_id(1);
    int nb = (w + BLK - 1) / BLK;
    if (k < nb) tile_load(t, in, w, h, y0, k);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (y < h && k < nb) {
        int L = min(BLK, w - k * BLK);
        float u[BLK], p[3], q[3];
        for (int j = 0; j < 3; j++) {
            p[j] = carry[(j * nb + k) * h + y];
            q[j] = carry[((j + 3) * nb + k) * h + y];
        }
        tile_causal(t + r * TROW, 1, L, c, u, p);
        blk_anti(u, L, c, q);
#pragma unroll
        for (int i = 0; i < BLK; i++) /* its own row: no other work-item reads it */
            if (i < L) t[r * TROW + i] = u[i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (k < nb) tile_store(t, out, w, h, y0, k);
#ifdef COLC
    if (k < nb) tile_col_carry(t, cc, w, h, y0, k, c);
#endif
}
#endif /* TILES */

#ifdef WHOLE
/* rgH-whole, recursive-whole: the rows' three passes in one kernel. A group of WGX work-items takes a whole
 * row (RW pixels, the picture's width, sizes the local row): it loads the row into local memory (coalesced,
 * every load of a work-item issued before the first is stored), gives each of its blocks (work-item i: blocks
 * i, i + WGX, ...) its zero-state carries into local memory, work-item 0 runs the row's fix-up there (blk_fix's
 * arithmetic in its order), each block is filtered again from its true states into the local row, and the
 * group stores the row. The row is read from and written to global memory once; the carries never leave the
 * group. Local: the row's blocks padded to BLK + 1 floats (the work-items walking their blocks read 32
 * different banks) and 6 floats a block (LOCAL_WHOLE in blur.h). */
#define WROW (BLK + 1)
#define WNB  ((RW + BLK - 1) / BLK) /* blocks of the row */
#define WLD  ((RW + WGX - 1) / WGX) /* a work-item's loads and stores of the row */

/* Local slot j of block k of the row's carries. */
#define WCS(j, k) cs[(j)*WNB + (k)]

__kernel __attribute__((reqd_work_group_size(WGX, 1, 1))) void
blur_rgb_rows_whole(__global const float *in, __global float *out, int w, int h, float4 c, float16 m,
                    __global float *carry, float16 M, float16 Ml, float16 F, float16 Fl)
{
    __local float t[WNB * WROW], cs[6 * WNB];
    int lid = get_local_id(0), y = get_global_id(1), nb = (w + BLK - 1) / BLK;
    __global const float *x = in + y * w;
    float v[WLD];
#pragma unroll
    for (int j = 0; j < WLD; j++) {
        int i = lid + j * WGX;
        v[j] = i < w ? x[i] : 0.0f;
    }
#pragma unroll
    for (int j = 0; j < WLD; j++) {
        int i = lid + j * WGX;
        if (i < w) t[i / BLK * WROW + i % BLK] = v[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = lid; k < nb; k += WGX) { /* pass 1: zero-state carries */
        int L = min(BLK, w - k * BLK);
        float u[BLK], p[3] = {0.0f, 0.0f, 0.0f}, q[3] = {0.0f, 0.0f, 0.0f};
        tile_causal(t + k * WROW, 1, L, c, u, p);
        blk_anti(u, L, c, q);
        for (int j = 0; j < 3; j++) {
            WCS(j, k) = p[j];
            WCS(j + 3, k) = q[j];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) { /* pass 2: blk_fix's sums, in its order */
        float3 s = (float3)(t[0]);
        for (int k = 0; k < nb; k++) {
            float3 z = (float3)(WCS(0, k), WCS(1, k), WCS(2, k));
            WCS(0, k) = s.x;
            WCS(1, k) = s.y;
            WCS(2, k) = s.z;
            s = mat3(k == nb - 1 ? Ml : M, s) + z;
        }
        float3 tt = far_start(m, t[(w - 1) / BLK * WROW + (w - 1) % BLK], s);
        for (int k = nb - 1; k >= 0; k--) {
            float3 a = (float3)(WCS(3, k), WCS(4, k), WCS(5, k)), sk = (float3)(WCS(0, k), WCS(1, k), WCS(2, k));
            WCS(3, k) = tt.x;
            WCS(4, k) = tt.y;
            WCS(5, k) = tt.z;
            tt = mat3(k == nb - 1 ? Ml : M, tt) + a + mat3(k == nb - 1 ? Fl : F, sk);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = lid; k < nb; k += WGX) { /* pass 3: from the true states, into the work-item's own block */
        int L = min(BLK, w - k * BLK);
        float u[BLK], p[3], q[3];
        for (int j = 0; j < 3; j++) {
            p[j] = WCS(j, k);
            q[j] = WCS(j + 3, k);
        }
        tile_causal(t + k * WROW, 1, L, c, u, p);
        blk_anti(u, L, c, q);
#pragma unroll
        for (int i = 0; i < BLK; i++)
            if (i < L) t[k * WROW + i] = u[i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __global float *o = out + y * w;
#pragma unroll
    for (int j = 0; j < WLD; j++) {
        int i = lid + j * WGX;
        if (i < w) o[i] = t[i / BLK * WROW + i % BLK];
    }
}
#endif /* WHOLE */

#ifdef FIXL
/* recursive-fixl: pass 2 (blk_fix's arithmetic, in its order) with the carries staged through local memory.
 * A group of 32 x WGY work-items takes 32 lines: work-item (l, r) loads and stores the slots of its line l
 * for blocks r, r + WGY, ... of a chunk of FIX_CB blocks (32 neighbouring lines, 32 neighbouring floats:
 * coalesced), so a group has WGY times the loads in flight that blk_fix's one work-item a line has; between
 * two barriers work-item (l, 0) runs the line's chunk in sequence from local memory. Local
 * [block][slot][line]: the 32 lines are 32 banks. The chunk's length is the build option PY (the rung's cb). */
#define FIX_CB PY

/* Slots j0 .. j0 + 2 of blocks k0 .. k0 + FIX_CB - 1 of line `line` between global cz (slots nb * lines
 * apart, as slots()) and local t[kk][j][l]; to_local: load, else store. Blocks past nb are left alone. */
void fix_stage(__global float *cz, __local float *t, int k0, int j0, int nb, int lines, int line,
               bool to_local)
{
    int l = get_local_id(0);
    if (line >= lines) return;
    for (int kk = get_local_id(1); kk < FIX_CB && k0 + kk < nb; kk += WGY)
        for (int j = 0; j < 3; j++) {
            __global float *g = cz + ((j0 + j) * nb + k0 + kk) * lines;
            if (to_local)
                t[(kk * 3 + j) * 32 + l] = g[0];
            else
                g[0] = t[(kk * 3 + j) * 32 + l];
        }
}

float3 lslots(__local const float *t, int kk)
{
    int l = get_local_id(0);
    return (float3)(t[(kk * 3) * 32 + l], t[(kk * 3 + 1) * 32 + l], t[(kk * 3 + 2) * 32 + l]);
}

void put_lslots(__local float *t, int kk, float3 v)
{
    int l = get_local_id(0);
    t[(kk * 3) * 32 + l] = v.x;
    t[(kk * 3 + 1) * 32 + l] = v.y;
    t[(kk * 3 + 2) * 32 + l] = v.z;
}

/* The line's pass 2 (x its first sample, n samples stride apart; cz its carries), every work-item of the
 * group calling it (the barriers). ts, ta: FIX_CB x 3 x 32 floats each (LOCAL_FIXL in blur.h). */
void blk_fix_l(__global const float *x, __global float *cz, int n, int stride, int lines, int line, float16 m,
               float16 M, float16 Ml, float16 F, float16 Fl, __local float *ts, __local float *ta)
{
    int nb = (n + BLK - 1) / BLK;
    bool seq = get_local_id(1) == 0 && line < lines; /* the work-item that runs the line */
    float3 s = seq ? (float3)(x[0]) : (float3)(0.0f);
    for (int k0 = 0; k0 < nb; k0 += FIX_CB) { /* causal: slots 0-2 hold z, then the state entering */
        fix_stage(cz, ts, k0, 0, nb, lines, line, true);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (seq)
            for (int kk = 0; kk < FIX_CB && k0 + kk < nb; kk++) {
                int k = k0 + kk;
                float3 z = lslots(ts, kk);
                put_lslots(ts, kk, s);
                s = mat3(k == nb - 1 ? Ml : M, s) + z;
            }
        barrier(CLK_LOCAL_MEM_FENCE);
        fix_stage(cz, ts, k0, 0, nb, lines, line, false);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float3 t = seq ? far_start(m, x[(n - 1) * stride], s) : (float3)(0.0f);
    /* anti-causal, chunks from the last: slots 3-5 hold a, then the state entering from the far side; the
     * causal states (slots 0-2, fixed above) come along read-only */
    for (int k0 = (nb - 1) / FIX_CB * FIX_CB; k0 >= 0; k0 -= FIX_CB) {
        fix_stage(cz, ts, k0, 0, nb, lines, line, true);
        fix_stage(cz, ta, k0, 3, nb, lines, line, true);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (seq)
            for (int kk = min(FIX_CB, nb - k0) - 1; kk >= 0; kk--) {
                int k = k0 + kk;
                float3 a = lslots(ta, kk), sk = lslots(ts, kk);
                put_lslots(ta, kk, t);
                t = mat3(k == nb - 1 ? Ml : M, t) + a + mat3(k == nb - 1 ? Fl : F, sk);
            }
        barrier(CLK_LOCAL_MEM_FENCE);
        fix_stage(cz, ta, k0, 3, nb, lines, line, false);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

__kernel __attribute__((reqd_work_group_size(32, WGY, 1))) void
blur_rgb_cols_fix_l(__global const float *in, __global float *out, int w, int h, float4 c, float16 m,
                    __global float *carry, float16 M, float16 Ml, float16 F, float16 Fl)
{
    __local float ts[FIX_CB * 3 * 32], ta[FIX_CB * 3 * 32];
    int x = get_global_id(0);
    blk_fix_l(in + min(x, w - 1), carry + x, h, w, w, x, m, M, Ml, F, Fl, ts, ta);
}

__kernel __attribute__((reqd_work_group_size(32, WGY, 1))) void
blur_rgb_rows_fix_l(__global const float *in, __global float *out, int w, int h, float4 c, float16 m,
                    __global float *carry, float16 M, float16 Ml, float16 F, float16 Fl)
{
    __local float ts[FIX_CB * 3 * 32], ta[FIX_CB * 3 * 32];
    int y = get_global_id(0);
    blk_fix_l(in + min(y, h - 1) * w, carry + y, w, 1, h, y, m, M, Ml, F, Fl, ts, ta);
}
#endif /* FIXL */
#endif
