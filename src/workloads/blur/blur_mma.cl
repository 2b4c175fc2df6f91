/* blur's tensor-core rung (f16x3-sep): both separable passes as Toeplitz matrix products on tensor cores,
 * through inline PTX mma.sync m16n8k16 (fp16 inputs, fp32 accumulators, NVIDIA sm_80 and later), with
 * convolution's f16x3 split (docs/workloads/convolution.md, section 14): each value is hi + lo in fp16 pieces
 * and three products (hi hi, lo hi, hi lo) give fp32 accuracy. With EMULATE_MMA an OpenCL C stand-in replaces
 * the PTX (a test of the index logic on devices without nvidia-mma). Clamp-to-edge borders, as blur.cl's.
 * Build options: R (the radius: 2R+1 taps), LY (warps a group, side by side), PY (output rows a warp walks: a
 * multiple of 16), HS (H's scale, below), VEC (f16x3-vec: float4 loads, below), ST4 (f16x3-st4, with VEC:
 * float4 stores, below), PF (f16x3-pf, with both: L2 prefetches, in the kernel), EMULATE_MMA.
 *
 * A warp owns 16 output columns x0 .. x0 + 15 and walks PY output rows down, 16 at a time. With KOFF = 16
 * ceil(R / 16) and NCH = 1 + 2 ceil(R / 16) chunks of 16, the taps form NCH Toeplitz blocks, the same for
 * both passes: A_j[m][k] = g[16 j + k - m - KOFF + R] (zero outside 0 .. 2R). Output m of a block of 16 takes
 * input k of chunk j, at offset 16 j + k - KOFF from the block's first.
 * - Row pass: H^T = sum_j A_j In_j^T, m the 16 output columns, k the chunk's input columns, n 8 rows: one
 *   product gives 16 columns x 8 rows of the row-filtered picture H, and a lane's accumulators hold H at
 *   (column g, rows 2t, 2t + 1) and (column g + 8, rows 2t, 2t + 1).
 * - Column pass: Out = sum_j A_j H_j, m 16 output rows, k 16 rows of H, n 8 columns. Its B fragment (rows
 *   2t, 2t + 1 and 2t + 8, 2t + 9 of column g) is what a lane's row-pass accumulators of two 8-row halves
 *   hold: H never leaves the registers (f16x3-vec orders k differently in both passes: COL_OF below). The
 * warp keeps the NCH chunks of H that the next 16 output rows need (a ring of B fragments) and computes one
 * new chunk per step. The split (power-of-two scales, exact): inputs and taps x 2^10, so any value from 2^-24
 * up has a normal hi; lo pieces x 2^15 more; the small products' accumulator is scaled back by 2^-15, the sum
 * by 2^-20. Holds for inputs below 1 or integers below 2^11 (their lo pieces are 0) and taps of at most 1:
 * the workload's data. H, a weighted mean of the inputs, is no integer: it is scaled by 2^HS, with
 * HS = 11 - ceil(log2(largest input + 1)) (the host's: 10 for pixels / 255, 7 for --check exact's 1 .. 15),
 * so that H 2^HS < 2^11 and its lo piece x 2^15 stays below fp16's largest value. Fragments (PTX ISA,
 * m16n8k16 .f16; g = lane / 4, t = lane % 4): a0 (g, 2t..2t+1), a1 (g + 8, 2t..), a2 (g, 2t + 8..), a3 (g +
 * 8, 2t + 8..); b0 (2t..2t+1, g), b1 (2t + 8.., g); d0 (g, 2t), d1 (g, 2t + 1), d2 (g + 8, 2t), d3 (g + 8, 2t
 * + 1). */

#ifndef R
#define R 15
#endif
#ifndef LY
#define LY 4
#endif
#ifndef PY
#define PY 128
#endif
#define T    (2 * R + 1)
#define KOFF (16 * ((R + 15) / 16))
#define NCH  (1 + 2 * ((R + 15) / 16))
#ifndef HS
#define HS 10
#endif
#define SCALE_IN 0x1p10f
#define SCALE_LO 0x1p15f
#define H_DOWN   (1.0f / (float)(1 << (20 - HS))) /* the row pass's sum (x 2^20) to H x 2^HS */
#define OUT_DOWN (1.0f / (float)(1 << (10 + HS))) /* the column pass's (x 2^(10 + HS)) to the output */

#ifdef EMULATE_MMA
/* Test mode (CLGAUGE_EMULATE_MMA=1 on a device without nvidia-mma): mma.sync and the fp16 conversion in
 * OpenCL C. A warp is 32 work-items of a group (local id 0 the lane, 1 the warp); its lanes exchange
 * fragments through local memory between two group barriers, which every call reaches with the whole group. A
 * product's 16 terms (exact in double) are summed in double and added to the accumulator with one rounding.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define EMU_W     8 /* words a lane: A's 4, then B's 2 */
#define EMU_DECL  __local uint emu[LY * 32 * EMU_W];
#define EMU_PARAM , __local uint *emu
#define EMU_ARG   , emu

/* Element A[m][k] (is_b 0) or B[k][n] (is_b 1, row = k, col = n) of the warp's words w. */
float emu_frag(__local const uint *w, bool is_b, int row, int col)
{
    int m = is_b ? col : row, k = is_b ? row : col;
    int lane = (m & 7) * 4 + ((k & 7) >> 1), reg = is_b ? 4 + (k >> 3) : (m >> 3) + 2 * (k >> 3);
    return vload_half(2 * (lane * EMU_W + reg) + (k & 1), (__local const half *)w);
}

void emu_mma(float *d, const uint *a, const uint *b, __local uint *emu)
{
    int lane = get_local_id(0), g = lane >> 2, t = lane & 3;
    __local uint *w = emu + get_local_id(1) * 32 * EMU_W;
    for (int r = 0; r < 4; r++)
        w[lane * EMU_W + r] = a[r];
    for (int r = 0; r < 2; r++)
        w[lane * EMU_W + 4 + r] = b[r];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = 0; e < 4; e++) {
        int m = g + 8 * (e >> 1), n = 2 * t + (e & 1);
        double sum = 0.0;
        for (int k = 0; k < 16; k++)
            sum += (double)emu_frag(w, false, m, k) * (double)emu_frag(w, true, k, n);
        d[e] = (float)((double)d[e] + sum);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}
#define MMA_F16(d, a, b) emu_mma(d, a, b, emu)
#define PREFETCH_L2(p)   /* a hint: the emulation has none */
#else
#define EMU_DECL
#define EMU_PARAM
#define EMU_ARG
#define MMA_F16(d, a, b)                                                                                     \
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "   \
        "{%0, %1, %2, %3};"                                                                                  \
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                                     \
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#define PREFETCH_L2(p) asm volatile("prefetch.global.L2 [%0];" ::"l"(p))
#endif

/* Where a lane's fragment elements lie (k the product's inner index; the same order in A and B, so any order
 * gives the same sum). Plain: a B fragment's k = 2t, 2t + 1, 2t + 8, 2t + 9 are the chunk's columns (row
 * pass) or rows (column pass) of those numbers. VEC (f16x3-vec): they are 4t .. 4t + 3, so that a lane's four
 * input columns are one float4; the row pass's n (the 8 rows of half i, lane g) is ordered to match, row
 * 4 (g / 2) + g % 2 + 2i, and its accumulators, the column pass's B fragment, then hold H in that k order
 * too. COL_OF(e): the lane's e-th k (e = 0 .. 3); ROW_OF(i): the lane's input row in half i. */
#ifdef VEC
#define COL_OF(e) (4 * t + (e))
#define ROW_OF(i) (4 * (g >> 1) + (g & 1) + 2 * (i))
#else
#define COL_OF(e) (2 * t + ((e)&1) + 8 * ((e) >> 1))
#define ROW_OF(i) (8 * (i) + g)
#endif

/* Which output a product's row m is (m = 0 .. 15; the same in both passes, as they share the taps). Plain:
 * output m. ST4 (f16x3-st4): output 4 ((m / 2) % 4) + 2 (m / 8) + m % 2, a permutation of the taps' rows. Row
 * m of the row pass is H's column M_OF(m), which is the column pass's n (column 8c + n of block c): a lane's
 * four column-pass outputs of a row, (c, n) = (0, 2t), (0, 2t + 1), (1, 2t), (1, 2t + 1), are then columns
 * 4t .. 4t + 3, one float4 store; its rows are M_OF(g) and M_OF(g + 8). Each output's sum is the same. */
#ifdef ST4
#define M_OF(m) (4 * (((m) >> 1) & 3) + 2 * ((m) >> 3) + ((m)&1))
#else
#define M_OF(m) (m)
#endif

/* lo and hi (k and k + 1) as one f16x2 word, rounded to nearest. */
uint pack_f16(float lo, float hi)
{
    uint r;
#ifdef EMULATE_MMA
    vstore_half_rte(lo, 0, (__private half *)&r);
    vstore_half_rte(hi, 1, (__private half *)&r);
#else
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
#endif
    return r;
}

/* Two scaled values (x 2^10) as their fp16 pieces: *h the 11-bit truncations, *l the rests x 2^15. */
void split2(float a0, float a1, uint *h, uint *l)
{
    float h0 = as_float(as_uint(a0) & 0xffffe000u), h1 = as_float(as_uint(a1) & 0xffffe000u);
    *h = pack_f16(h0, h1);
    *l = pack_f16((a0 - h0) * SCALE_LO, (a1 - h1) * SCALE_LO);
}

/* The three products of the split for two independent outputs, u and v (B fragments bh[u], bl[u] and
 * bh[v], bl[v]): acc[] takes hi hi, small[] lo hi then hi lo. Interleaved so that no product waits on the one
 * issued just before it (convolution's f16x3-order). */
#define MMA3X2(acc, small, ah, al, bh, bl)                                                                   \
    do {                                                                                                     \
        MMA_F16(small[0], al, bh[0]);                                                                        \
        MMA_F16(small[1], al, bh[1]);                                                                        \
        MMA_F16(acc[0], ah, bh[0]);                                                                          \
        MMA_F16(acc[1], ah, bh[1]);                                                                          \
        MMA_F16(small[0], ah, bl[0]);                                                                        \
        MMA_F16(small[1], ah, bl[1]);                                                                        \
    } while (0)

/* Both accumulator sets of two outputs' products (acc: hi x hi; small: the lo products, x 2^15) cleared. */
__attribute__((always_inline)) void zero_acc(float acc[2][4], float small[2][4])
{
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int e = 0; e < 4; e++)
            acc[i][e] = small[i][e] = 0.0f;
}

/* An output of the split's products, still scaled: the small products brought down by 2^-15, added to acc. */
#define UNSPLIT(acc, small) fma(small, 0x1p-15f, acc)

/* The lane's inputs for one chunk of H (rows yb .. yb + 15, clamped to the picture): v[j][i][e] is input
 * chunk j, half i (row ROW_OF(i)), k = COL_OF(e). A function of its own: with the loads and the split in one
 * body, clang merged the float4 path and the clamped one into scalar loads of selected addresses. */
__attribute__((always_inline)) void row_load(__global const float *in, int w, int h, int x0, int yb,
                                             float v[NCH][2][4])
{
    int lane = get_local_id(0), g = lane >> 2, t = lane & 3;
#ifdef VEC /* a warp whose input chunks lie inside the picture, rows 16-byte aligned: float4 loads */
    bool inner = (w & 3) == 0 && x0 - KOFF >= 0 && x0 - KOFF + 16 * NCH <= w;
#endif
#pragma unroll
    for (int i = 0; i < 2; i++) {
        __global const float *src = in + clamp(yb + ROW_OF(i), 0, h - 1) * w;
#pragma unroll
        for (int j = 0; j < NCH; j++) {
            int c = x0 - KOFF + 16 * j; /* the chunk's first column */
#ifdef VEC
            if (inner) {
                float4 p = *(__global const float4 *)(src + c + 4 * t);
                v[j][i][0] = p.x, v[j][i][1] = p.y, v[j][i][2] = p.z, v[j][i][3] = p.w;
                continue;
            }
#endif
#pragma unroll
            for (int e = 0; e < 4; e++)
                v[j][i][e] = src[clamp(c + COL_OF(e), 0, w - 1)];
        }
    }
}

/* One chunk of H, rows yb .. yb + 15 (clamped to the picture) and the warp's 16 columns, as the column pass's
 * B fragments: bh[c][i], bl[c][i] for column block c (columns 8c .. 8c + 7) and register i (the chunk's rows
 * k = COL_OF(2i), COL_OF(2i + 1): 8i + 2t, 8i + 2t + 1 plain), the values scaled by 2^10 and split. */
__attribute__((always_inline)) void row_chunk(__global const float *in, int w, int h, int x0, int yb,
                                              const uint ah[NCH][4], const uint al[NCH][4], uint bh[2][2],
                                              uint bl[2][2] EMU_PARAM)
{
    float v[NCH][2][4], acc[2][4], small[2][4];
    row_load(in, w, h, x0, yb, v);
    zero_acc(acc, small);
#pragma unroll
    for (int j = 0; j < NCH; j++) {
        uint xh[2][2], xl[2][2]; /* half i's B fragment */
#pragma unroll
        for (int i = 0; i < 2; i++) {
            split2(v[j][i][0] * SCALE_IN, v[j][i][1] * SCALE_IN, &xh[i][0], &xl[i][0]);
            split2(v[j][i][2] * SCALE_IN, v[j][i][3] * SCALE_IN, &xh[i][1], &xl[i][1]);
        }
        MMA3X2(acc, small, ah[j], al[j], xh, xl);
    }
#pragma unroll
    for (int i = 0; i < 2; i++) {
        /* H x 2^HS: columns g (accumulators 0, 1) and g + 8 (2, 3), k = COL_OF(2i), COL_OF(2i + 1) */
        float hv[4];
#pragma unroll
        for (int e = 0; e < 4; e++)
            hv[e] = UNSPLIT(acc[i][e], small[i][e]) * H_DOWN;
        split2(hv[0], hv[1], &bh[0][i], &bl[0][i]);
        split2(hv[2], hv[3], &bh[1][i], &bl[1][i]);
    }
}

/* REGCAP (the search's register cap, -cl-nv-maxrregcount): no required size. With it NVIDIA's compiler
 * ignored the cap (an H200, session 21: 122 registers whatever the cap); without it the cap takes (session
 * 22: 96, 80, 64). Likely: the required size reaches ptxas as launch bounds, which override a cap. */
#ifdef REGCAP
#define WG_SIZE
#else
#define WG_SIZE __attribute__((reqd_work_group_size(32, LY, 1)))
#endif
__kernel WG_SIZE void blur_mma(__global const float *in, __global float *out, int w, int h,
                               __constant float *gw)
{
    EMU_DECL
    int lane = get_local_id(0), g = lane >> 2, t = lane & 3;
    int x0 = (get_group_id(0) * LY + get_local_id(1)) * 16, y0 = get_group_id(1) * PY;
    /* the taps' A fragments, scaled and split: rows m = g, g + 8; columns k = COL_OF(0 .. 3) */
    uint ah[NCH][4], al[NCH][4];
#pragma unroll
    for (int j = 0; j < NCH; j++)
#pragma unroll
        for (int q = 0; q < 4; q++) {
            int i = 16 * j + COL_OF(2 * (q >> 1)) - M_OF(g + 8 * (q & 1)) - KOFF + R;
            float a0 = i >= 0 && i < T ? gw[i] : 0.0f, a1 = i + 1 >= 0 && i + 1 < T ? gw[i + 1] : 0.0f;
            split2(a0 * SCALE_IN, a1 * SCALE_IN, &ah[j][q], &al[j][q]);
        }
    /* the ring: chunk j holds rows y - KOFF + 16 j .. + 15 of H for the output rows y .. y + 15 */
    uint rh[NCH][2][2], rl[NCH][2][2];
#pragma unroll
    for (int j = 0; j < NCH - 1; j++)
        row_chunk(in, w, h, x0, y0 - KOFF + 16 * j, ah, al, rh[j], rl[j] EMU_ARG);
    for (int y = y0; y < y0 + PY; y += 16) {
#ifdef PF
        /* The next step's chunk (rows yn .. yn + 15), the warp's own 16 columns (64 bytes a row): lane l < 16
         * asks L2 for row yn + l now, a step before its loads need it. The neighbours' warps ask for the
         * chunk's other columns. Only a hint: what it fetches cannot change a result. Clamped to the picture,
         * as the loads are. (Measured in session 22 on an H200: 2 and 4 steps ahead gained less.) */
        if (lane < 16) PREFETCH_L2(in + min(y - KOFF + 16 * NCH + lane, h - 1) * w + min(x0, w - 1));
#endif
        row_chunk(in, w, h, x0, y - KOFF + 16 * (NCH - 1), ah, al, rh[NCH - 1], rl[NCH - 1] EMU_ARG);
        float acc[2][4], small[2][4]; /* column blocks c = 0, 1 */
        zero_acc(acc, small);
#pragma unroll
        for (int j = 0; j < NCH; j++)
            MMA3X2(acc, small, ah[j], al[j], rh[j], rl[j]);
#ifdef ST4 /* rows M_OF(g), M_OF(g + 8), columns 4t .. 4t + 3: a float4 where the warp's 16 columns are      \
              inside */
#pragma unroll
        for (int i = 0; i < 2; i++) {
            int yo = y + M_OF(g + 8 * i), xo = x0 + 4 * t;
            float o[4] = {UNSPLIT(acc[0][2 * i], small[0][2 * i]) * OUT_DOWN,
                          UNSPLIT(acc[0][2 * i + 1], small[0][2 * i + 1]) * OUT_DOWN,
                          UNSPLIT(acc[1][2 * i], small[1][2 * i]) * OUT_DOWN,
                          UNSPLIT(acc[1][2 * i + 1], small[1][2 * i + 1]) * OUT_DOWN};
            if (yo >= h) continue;
            if ((w & 3) == 0 && x0 + 16 <= w) {
                *(__global float4 *)(out + yo * w + xo) = (float4)(o[0], o[1], o[2], o[3]);
                continue;
            }
#pragma unroll
            for (int e = 0; e < 4; e++)
                if (xo + e < w) out[yo * w + xo + e] = o[e];
        }
#else
#pragma unroll
        for (int c = 0; c < 2; c++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                int yo = y + g + 8 * (e >> 1), xo = x0 + 8 * c + 2 * t + (e & 1);
                if (xo < w && yo < h) out[yo * w + xo] = UNSPLIT(acc[c][e], small[c][e]) * OUT_DOWN;
            }
#endif
#pragma unroll
        for (int j = 0; j < NCH - 1; j++)
#pragma unroll
            for (int c = 0; c < 2; c++)
#pragma unroll
                for (int i = 0; i < 2; i++) {
                    rh[j][c][i] = rh[j + 1][c][i];
                    rl[j][c][i] = rl[j + 1][c][i];
                }
    }
}
