/* The convolution ladder's tensor-core kernels (convolution.cl has the others): conv_mma (tf32, tf32x3),
 * conv_mma16 (f16x3, f16x3-split, f16x3-halves, f16x3-order) and conv_mma_rows (tf32x3-rows), through inline
 * PTX on NVIDIA (sm_80 and later), or with EMULATE_MMA through an OpenCL C stand-in for it (a test of their logic). The
 * layout is convolution.cl's: out[y][x] = sum over j < FH, i < FW of in[y + j][x + i] * f[j][i], the input
 * pitched (ip floats a row, zeros past the valid region). Build options: FW, FH (the filter size), LY (warps a
 * group; LX is 32), BX, BY (a warp's outputs; conv_mma_rows: 16 columns, a strip of BY rows), MMA (1: TF32
 * products; 3: the 3xTF32 split), and ROWS, F16, PRESPLIT, HALVES, ORDER, EMULATE_MMA as described where
 * used. */

/* convolution.cl's kernel arguments (the host sets the same for every rung); the filter is in global memory */
#define CONV_ARGS                                                                                            \
    __global const float *restrict in, int ip, __global const float *restrict filt, __global float *restrict out, \
        int w, int h, int fw, int fh

/* Tensor cores through inline PTX (NVIDIA, sm_80 and later): mma.sync m16n8k8 with TF32 inputs and fp32
 * accumulators. For filter row i the convolution is a matrix product per warp: A[m][k] = in[y0 + m + i]
 * [x0 + 8q + k] (16 output rows, 8 input columns of chunk q) times the Toeplitz block B_c[k][n] =
 * f[i][8c + k - n] (zero outside 0..FW-1) gives outputs x0 + 8(q - c) + n, so the NB column blocks of a warp
 * take chunks q = nb + c, c < NC = ceil((FW + 7) / 8) (8 NC >= FW + 7 covers every tap of all 8 columns n):
 * every A fragment loaded serves up to NC products.
 * MMA=1: one product of TF32 values (10-bit mantissas), rounded to nearest once, as the tile and the filter
 * are stored (cvt.rna). MMA=3: the 3xTF32 split at each use, a = a_hi + a_lo with a_hi = a with its low 13
 * bits cleared and a_lo = a - a_hi (exact) cleared the same way, the sum a_hi b_hi + a_hi b_lo + a_lo b_hi
 * (a_lo b_lo dropped), the two small products in their own accumulator (their rounding scaled by 2^-10),
 * added at the end.
 * A work-group is LY warps (32 x LY work-items) stacked down the picture; a warp owns BY = 16 MT rows and
 * BX = 8 NB columns of outputs. The group's input tile (BY LY + FH - 1 rows of 8 (NB + NC - 1) floats) and
 * the filter (zero-padded by 8 on each side) sit in local memory. In the tile each run of 8 columns is stored
 * in the order 0 4 1 5 2 6 3 7, so a lane's two A elements of a row (columns t and t + 4) are one 8-byte
 * load; the pitch TP = 8 (mod 32) makes a half-warp's 16 such loads hit 32 different banks.
 * Fragments (PTX ISA, mma.m16n8k8 .tf32; g = lane / 4, t = lane % 4): a0 (g, t), a1 (g + 8, t), a2 (g, t + 4),
 * a3 (g + 8, t + 4); b0 (t, g), b1 (t + 4, g); d0 (g, 2t), d1 (g, 2t + 1), d2 (g + 8, 2t), d3 (g + 8, 2t + 1). */
#define NB (BX / 8)
#define MT (BY / 16)
#define NC ((FW + 14) / 8)
#define NQ (NB + NC - 1)
#define TW (8 * NQ)
#define TP (TW + ((40 - TW % 32) % 32))
#define TR (BY * LY + FH - 1)
#define FP (8 * NC + 16)

#ifdef EMULATE_MMA
/* Test mode (CLGAUGE_EMULATE_MMA=1 on a device without nvidia-mma, such as PoCL in CI): the inline PTX below
 * (mma.sync, shfl.sync, the fp16 and TF32 conversions) is replaced by OpenCL C, so the tensor-core kernels'
 * index logic runs and is checked without an NVIDIA GPU. A warp is 32 work-items of a group (local id 0 the
 * lane, local id 1 the warp, as reqd_work_group_size fixes); its lanes exchange fragments through local
 * memory between two group barriers, which every call site reaches with the whole group. A product's 8 or 16
 * terms (exact in double) are summed in double and added to the accumulator with one rounding: within the
 * bound's 4u a step. Slow, and its times are not tensor-core times. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define EMU_W     8 /* words a lane: A's 4, then B's */
#define EMU_DECL  __local uint emu[LY * 32 * EMU_W];
#define EMU_PARAM , __local uint *emu
#define EMU_ARG   , emu
enum { EMU_TF32, EMU_F16, EMU_F16_K8 };

/* Fragment element A[m][k] or B[k][n] (m16n8k8 .tf32, m16n8k16 and m16n8k8 .f16: PTX ISA's layouts) from the
 * warp's words w. */
float emu_frag(__local const uint *w, int kind, bool is_b, int row, int col)
{
    int m = is_b ? col : row, k = is_b ? row : col, lane, reg;
    if (kind == EMU_TF32) {
        lane = (m & 7) * 4 + (k & 3);
        reg = is_b ? 4 + (k >> 2) : (m >> 3) + 2 * (k >> 2);
        return as_float(w[lane * EMU_W + reg]);
    }
    lane = (m & 7) * 4 + ((k & 7) >> 1);
    reg = is_b ? 4 + (k >> 3) : (m >> 3) + 2 * (k >> 3);
    return vload_half(2 * (lane * EMU_W + reg) + (k & 1), (__local const half *)w);
}

void emu_mma(float *d, const uint *a, const uint *b, int kind, __local uint *emu)
{
    int lane = get_local_id(0), na = kind == EMU_F16_K8 ? 2 : 4, nb = kind == EMU_F16_K8 ? 1 : 2;
    int nk = kind == EMU_F16 ? 16 : 8, g = lane >> 2, t = lane & 3;
    __local uint *w = emu + get_local_id(1) * 32 * EMU_W;
    for (int r = 0; r < na; r++)
        w[lane * EMU_W + r] = a[r];
    for (int r = 0; r < nb; r++)
        w[lane * EMU_W + 4 + r] = b[r];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = 0; e < 4; e++) {
        int m = g + 8 * (e >> 1), n = 2 * t + (e & 1);
        double sum = 0.0;
        for (int k = 0; k < nk; k++)
            sum += (double)emu_frag(w, kind, false, m, k) * (double)emu_frag(w, kind, true, k, n);
        d[e] = (float)((double)d[e] + sum);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* shfl.sync.idx: lane src's v */
float emu_shfl(float v, int src, __local uint *emu)
{
    __local uint *w = emu + get_local_id(1) * 32 * EMU_W;
    w[get_local_id(0) * EMU_W] = as_uint(v);
    barrier(CLK_LOCAL_MEM_FENCE);
    float r = as_float(w[src * EMU_W]);
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
#else
#define EMU_DECL
#define EMU_PARAM
#define EMU_ARG
#endif

#if MMA == 1
/* x rounded to TF32 (nearest, ties away), as a float whose low 13 bits are zero. */
float tf32(float x)
{
#ifdef EMULATE_MMA
    return as_float((as_uint(x) + 0x1000u) & 0xffffe000u); /* half an ulp of TF32 added to the magnitude */
#else
    uint r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return as_float(r);
#endif
}
#define STORE_TF32(x) tf32(x)
#else
#define STORE_TF32(x) (x)
#endif
#define HI(x)    (as_uint(x) & 0xffffe000u)                /* x truncated to TF32 */
#define LO(x, h) (as_uint((x) - as_float(h)) & 0xffffe000u) /* the rest (exact in fp32), truncated */

#ifdef EMULATE_MMA
#define MMA_TF32(d, a, b) emu_mma(d, a, b, EMU_TF32, emu)
#else
#define MMA_TF32(d, a, b)                                                                                     \
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "   \
        "{%0, %1, %2, %3};"                                                                                   \
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                                      \
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#endif

#if defined(F16)
/* conv_mma16 (MMA=3 with F16): conv_mma's 3xTF32 products, the pieces held as fp16 and multiplied by
 * mma.sync m16n8k16 (fp16 inputs, fp32 accumulators): an fp16 significand has TF32's 11 bits, so a = hi + lo
 * splits the same way, and one instruction takes 16 taps instead of 8.
 * For filter row i and chunk q of 16 input columns, A[m][k] = in[y0 + m + i][x0 + 16q + k] (16 output rows)
 * times B_d[k][n] = f[i][8d + k - n] (zero outside 0..FW-1, d = 2q - nb) gives outputs x0 + 8nb + n; block
 * nb needs d = -1 .. DMAX, about half as many chunks as conv_mma's 8-column ones (3 against 5 at 32 taps).
 * fp16 has 5 exponent bits, so the values are scaled by powers of two (exact): inputs and taps by 2^10 (any
 * value from 2^-24 up keeps a normal hi, whose 11-bit truncation fp16 holds exactly), the lo pieces by 2^15
 * more (a lo piece of a scaled value below 2^10 stays below 2^14). The small products' accumulator is
 * scaled back by 2^-15 and the sum by 2^-20. A lo piece below fp16's normal range (2^-14) loses bits: at most
 * 2^-25 of it, 2^-50 of the value (the check's floor). Holds for inputs below 1 or integers below 2^11 and
 * taps of at most 1 (the workload's data).
 * Each pair of columns (2c, 2c + 1) is one word per piece (the lower column in the lower half). PRESPLIT: the
 * tile and the filter are split once as they go into local memory, a (hi, lo) word pair each; without it
 * they sit there as floats (inputs already scaled) and every use splits them, as conv_mma does. A lane's
 * A fragment of chunk q is 4 such pairs (rows g, g + 8; pairs 8q + t and 8q + 4 + t); the pitch HP = 4 (mod
 * 16) pairs makes a half-warp's 16 8-byte loads hit 32 different banks.
 * Fragments (PTX ISA, mma.m16n8k16 .f16; g = lane / 4, t = lane % 4): a0 (g, 2t..2t+1), a1 (g + 8, 2t..),
 * a2 (g, 2t + 8..), a3 (g + 8, 2t + 8..); b0 (2t..2t+1, g), b1 (2t + 8.., g); d as m16n8k8. */
#define DMAX ((FW + 6) / 8)                   /* the Toeplitz blocks B_d, d = -1 .. DMAX */
#define HQ   ((8 * (NB - 1) + FW + 6) / 16 + 1) /* chunks of 16 columns in the tile */
#define HW   (8 * HQ)                           /* the tile's width in pairs */
#define HP   (HW + (20 - HW % 16) % 16)         /* its pitch in pairs: 4 (mod 16) */
#define HF   (8 * DMAX + 32)                    /* filter pairs a row: offsets -16 .. 8 DMAX + 15 */
#define SCALE_IN 0x1p10f
#define SCALE_LO 0x1p15f
/* ORDER: a chunk's three products are issued in three passes over the column blocks (every block's al bh,
 * then every ah bh, then every ah bl), so a product does not wait on the one issued just before it into the
 * same accumulator; each accumulator still takes its products in the same order. Without it, one pass. */
#ifdef ORDER
#define NPASS  3
#define P_HH   1 /* the pass of ah bh (into acc) */
#define P_HL   2 /* the pass of ah bl (into small, after al bh) */
#else
#define NPASS  1
#define P_HH   0
#define P_HL   0
#endif

/* lo and hi (columns 2c and 2c + 1) as one f16x2 word, rounded to nearest. */
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

/* Two scaled values (x 2^10) as their (hi, lo) fp16 pieces: hi the 11-bit truncation, lo the rest x 2^15. */
uint2 split2(float a0, float a1)
{
    float h0 = as_float(HI(a0)), h1 = as_float(HI(a1));
    return (uint2)(pack_f16(h0, h1), pack_f16((a0 - h0) * SCALE_LO, (a1 - h1) * SCALE_LO));
}

#ifdef PRESPLIT
typedef uint2 pair_t;
#define PAIR_STORE(a0, a1) split2(a0, a1)
#define PAIR_USE(v)        (v)
#else
typedef float2 pair_t;
#define PAIR_STORE(a0, a1) ((float2)((a0), (a1)))
#define PAIR_USE(v)        split2((v).x, (v).y)
#endif

#ifdef EMULATE_MMA
#define MMA_F16(d, a, b)    emu_mma(d, a, b, EMU_F16, emu)
#define MMA_F16_K8(d, a, b) emu_mma(d, a, &(b), EMU_F16_K8, emu)
#else
#define MMA_F16(d, a, b)                                                                                      \
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "    \
        "{%0, %1, %2, %3};"                                                                                   \
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                                      \
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))

/* m16n8k8 with fp16 inputs: A a0 (g, 2t..2t+1), a1 (g + 8, 2t..); B b0 (2t..2t+1, g) */
#define MMA_F16_K8(d, a, b)                                                                                   \
    asm("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};" \
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                                      \
        : "r"(a[0]), "r"(a[1]), "r"(b))
#endif

__kernel __attribute__((reqd_work_group_size(32, LY, 1))) void conv_mma16(CONV_ARGS)
{
    __local pair_t tile[TR * HP];
    EMU_DECL
    __local pair_t lf[FH * HF];
    int lane = get_local_id(0), warp = get_local_id(1), lid = warp * 32 + lane;
    int gx0 = get_group_id(0) * BX, gy0 = get_group_id(1) * (BY * LY);
    for (int k = lid; k < FH * HF; k += 32 * LY) {
        int i = k / HF, j = k - i * HF - 16;
        float v0 = j >= 0 && j < FW ? filt[i * FW + j] : 0.0f;
        float v1 = j + 1 >= 0 && j + 1 < FW ? filt[i * FW + j + 1] : 0.0f;
        lf[k] = PAIR_STORE(v0 * SCALE_IN, v1 * SCALE_IN);
    }
    for (int k = lid; k < TR * HW; k += 32 * LY) {
        int r = k / HW, c = k - r * HW;
        float2 v = ((__global const float2 *)(in + (gy0 + r) * ip + gx0))[c]; /* ip, gx0 even: aligned */
        tile[r * HP + c] = PAIR_STORE(v.x * SCALE_IN, v.y * SCALE_IN);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int g = lane >> 2, t = lane & 3;
    float acc[MT][NB][4], small[MT][NB][4];
#pragma unroll
    for (int m = 0; m < MT; m++)
#pragma unroll
        for (int nb = 0; nb < NB; nb++)
#pragma unroll
            for (int e = 0; e < 4; e++)
                acc[m][nb][e] = small[m][nb][e] = 0.0f;
    for (int i = 0; i < FH; i++) {
        uint2 pf[DMAX + 3]; /* the pair at offset 8 (e - 1) + 2t - g of filter row i: B_d = (pf[d + 1], pf[d + 2]) */
        pf[0] = (uint2)(0u, 0u); /* offsets -15 .. -2: no taps */
#pragma unroll
        for (int e = 1; e < DMAX + 3; e++)
            pf[e] = PAIR_USE(lf[i * HF + 8 * (e - 1) + 2 * t - g + 16]);
#pragma unroll
        for (int m = 0; m < MT; m++) {
            __local const pair_t *r0 = tile + (warp * BY + m * 16 + g + i) * HP + t, *r8 = r0 + 8 * HP;
#pragma unroll
            for (int q = 0; q < HQ; q++) {
                uint2 x0 = PAIR_USE(r0[8 * q]), x1 = PAIR_USE(r8[8 * q]);
                uint2 x2 = PAIR_USE(r0[8 * q + 4]), x3 = PAIR_USE(r8[8 * q + 4]);
                uint ah[4] = {x0.x, x1.x, x2.x, x3.x}, al[4] = {x0.y, x1.y, x2.y, x3.y};
#pragma unroll
                for (int p = 0; p < NPASS; p++)
#pragma unroll
                for (int nb = 0; nb < NB; nb++) {
                    int d = 2 * q - nb;
                    if (d < -1 || d > DMAX) continue;
                    uint bh[2] = {pf[d + 1].x, pf[d + 2].x}, bl[2] = {pf[d + 1].y, pf[d + 2].y};
#ifdef HALVES
                    /* B_d's first 8 rows hold taps 8d - 7 .. 8d + 7, its last 8 taps 8d + 1 .. 8d + 15: a half
                     * with none is left out, the other half taken by m16n8k8 */
                    if (d < 0 || 8 * d > FW - 2) {
                        int hf = d < 0; /* 1: the last 8 rows (A's columns 8..15: registers 2, 3) */
                        uint a_h[2] = {ah[2 * hf], ah[2 * hf + 1]}, a_l[2] = {al[2 * hf], al[2 * hf + 1]};
                        if (p == 0) MMA_F16_K8(small[m][nb], a_l, bh[hf]);
                        if (p == P_HL) MMA_F16_K8(small[m][nb], a_h, bl[hf]);
                        if (p == P_HH) MMA_F16_K8(acc[m][nb], a_h, bh[hf]);
                        continue;
                    }
#endif
                    if (p == 0) MMA_F16(small[m][nb], al, bh);
                    if (p == P_HL) MMA_F16(small[m][nb], ah, bl);
                    if (p == P_HH) MMA_F16(acc[m][nb], ah, bh);
                }
            }
        }
    }
#pragma unroll
    for (int m = 0; m < MT; m++)
#pragma unroll
        for (int nb = 0; nb < NB; nb++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                int y = gy0 + warp * BY + m * 16 + g + (e >> 1) * 8, x = gx0 + nb * 8 + 2 * t + (e & 1);
                float v = fma(small[m][nb][e], 0x1p-15f, acc[m][nb][e]) * 0x1p-20f;
                if (x < w && y < h) out[y * w + x] = v;
            }
}
#elif !defined(ROWS)
__kernel __attribute__((reqd_work_group_size(32, LY, 1))) void conv_mma(CONV_ARGS)
{
    __local float2 tile2[TR * TP / 2]; /* float2: the 8-byte loads below are aligned */
    EMU_DECL
    __local float *tile = (__local float *)tile2;
    __local float lf[FH * FP];
    int lane = get_local_id(0), warp = get_local_id(1), lid = warp * 32 + lane;
    int gx0 = get_group_id(0) * BX, gy0 = get_group_id(1) * (BY * LY);
    for (int k = lid; k < FH * FP; k += 32 * LY) {
        int i = k / FP, j = k - i * FP - 8;
        lf[k] = j >= 0 && j < FW ? STORE_TF32(filt[i * FW + j]) : 0.0f;
    }
    for (int k = lid; k < TR * TW; k += 32 * LY) {
        int r = k / TW, c = k - r * TW;
        tile[r * TP + (c & ~7) + ((c & 3) << 1) + ((c >> 2) & 1)] = STORE_TF32(in[(gy0 + r) * ip + gx0 + c]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int g = lane >> 2, t = lane & 3;
    float acc[MT][NB][4];
#if MMA == 3
    float small[MT][NB][4];
#endif
#pragma unroll
    for (int m = 0; m < MT; m++)
#pragma unroll
        for (int nb = 0; nb < NB; nb++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                acc[m][nb][e] = 0.0f;
#if MMA == 3
                small[m][nb][e] = 0.0f;
#endif
            }
    for (int i = 0; i < FH; i++) {
        uint bh[NC][2];
#if MMA == 3
        uint bl[NC][2];
#endif
#pragma unroll
        for (int c = 0; c < NC; c++) {
            float v0 = lf[i * FP + 8 * c + t - g + 8], v1 = lf[i * FP + 8 * c + t + 12 - g];
#if MMA == 3
            bh[c][0] = HI(v0);
            bh[c][1] = HI(v1);
            bl[c][0] = LO(v0, bh[c][0]);
            bl[c][1] = LO(v1, bh[c][1]);
#else
            bh[c][0] = as_uint(v0);
            bh[c][1] = as_uint(v1);
#endif
        }
#pragma unroll
        for (int m = 0; m < MT; m++) {
            __local const float2 *r0 = tile2 + ((warp * BY + m * 16 + g + i) * TP + 2 * t) / 2;
            __local const float2 *r8 = r0 + 4 * TP;
            /* chunk q at a time: its A fragment feeds the blocks nb = q - c of every c */
#pragma unroll
            for (int q = 0; q < NQ; q++) {
                float2 u = r0[4 * q], v = r8[4 * q];
#if MMA == 3
                uint ah[4] = {HI(u.x), HI(v.x), HI(u.y), HI(v.y)};
                uint al[4] = {LO(u.x, ah[0]), LO(v.x, ah[1]), LO(u.y, ah[2]), LO(v.y, ah[3])};
#else
                uint ah[4] = {as_uint(u.x), as_uint(v.x), as_uint(u.y), as_uint(v.y)};
#endif
#pragma unroll
                for (int c = 0; c < NC; c++) {
                    int nb = q - c;
                    if (nb < 0 || nb >= NB) continue;
#if MMA == 3
                    MMA_TF32(small[m][nb], al, bh[c]);
                    MMA_TF32(small[m][nb], ah, bl[c]);
#endif
                    MMA_TF32(acc[m][nb], ah, bh[c]);
                }
            }
        }
    }
#pragma unroll
    for (int m = 0; m < MT; m++)
#pragma unroll
        for (int nb = 0; nb < NB; nb++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                int y = gy0 + warp * BY + m * 16 + g + (e >> 1) * 8, x = gx0 + nb * 8 + 2 * t + (e & 1);
#if MMA == 3
                float v = acc[m][nb][e] + small[m][nb][e];
#else
                float v = acc[m][nb][e];
#endif
                if (x < w && y < h) out[y * w + x] = v;
            }
}
#else /* ROWS */
/* conv_mma_rows (MMA=3 with ROWS): each input row times the dense filter. For input row r the products
 * P_r[m][i] = sum_j in[r][x0 + m + j] f[i][j] are one matrix product per warp, A[m][j] = in[r][x0 + m + j]
 * (16 outputs m, a Hankel matrix: the 8-tap chunks share values) times B[j][i] = f[i][j] (taps j, filter rows
 * i: every entry a tap, no Toeplitz zeros but the padding of FW and FH to 8). Output row y is the sum along a
 * diagonal, out[y][x0 + m] = sum_i P_(y+i)[m][i]: fp32 adds into a ring of partial rows in registers as the
 * group walks down its strip of BY output rows and 16 columns, one input row a step (the filter's height of
 * halo a strip).
 * The group's LY warps split the filter rows: warp h takes rows IB = 8 NTW h to IB + IH - 1 (NTW = ceil(NT /
 * LY) tiles of 8; IH = FH with one warp), so its ring and its taps are 1 / LY of the filter's. All walk the
 * same input rows; warp h completes its part of output row y at step r = y + IB + IH - 1, the warps before the
 * last leave it in local memory (PB rows a warp, a barrier every U steps) and the last adds them in order and
 * stores the row.
 * Fragments as conv_mma's. A lane's C elements are filter rows i = IB + 8 nt + 2t + e (e = 0, 1) of columns g
 * and g + 8; it keeps its own partial sum of each output row in flight, over its rows i, in slot
 * s = y + IB - (r0 - IH + 1) + 2t of the ring R (r0: the first row of the current block of U steps), so a
 * product of step u goes to slot u - 8 nt - e + IH - 1 whatever t is (static register indices: the ring stays
 * in registers). A lane's first product of a row (nt = 0, e = 0) is stored into the slot, the others added.
 * The row completes at step u = s - 2t of lane t: its sum is lane (g, k)'s slot u + 2k over k = 0..3, four
 * shuffles. After each block of U steps the ring moves down by U slots. The taps' TF32 pairs (hi, lo) sit in
 * registers for the whole strip; each step loads a lane's 2 NK + 2 input values (columns g + t + 4q), splits
 * them once and issues 3 NK mma.sync per 8 filter rows, all three products in one accumulator. */
#define U    4 /* steps a block: 4 calls of ROWS_STEP (s18e, s18f: 1.06x 8 steps and 1.7x 2 at 32x32) */
#define RNT  ((FH + 7) / 8)
#define RNK  ((FW + 7) / 8)
#define RNQ  (2 * RNK + 2)
#define NTW  ((RNT + LY - 1) / LY)
#define ONEW (LY == 1) /* one warp: the filter's own height, no tile past it */
#define IH   (ONEW ? FH : 8 * NTW)
#define RS   (IH + U - 1 > U + 6 ? IH + U - 1 : U + 6)
#define PB   (8 * NTW * (LY - 1) + U) /* rows of a warp's completed parts kept in local memory */
#define REND (8 * NTW * (LY - 1) + IH - 1) /* steps past the strip's last row until the last warp is done */

#ifdef EMULATE_MMA
#define shfl_idx(v, src) emu_shfl(v, src, emu)
#else
float shfl_idx(float v, int src)
{
    uint r;
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(as_uint(v)), "r"(src));
    return as_float(r);
}
#endif

/* One step of conv_mma_rows: input row r = r0 + u (row: its lane's first value), its products added into the
 * ring; returns this warp's part of the row it completes (columns g and g + 8). Called with u a constant (the
 * caller unrolls by hand): every ring index is then static and the ring stays in registers (a loop over u was
 * left rolled and the ring went to private memory). */
__attribute__((always_inline)) inline float2 rows_step(float (*R)[2], const uint (*bh)[RNK][2],
                                                       const uint (*bl)[RNK][2], __global const float *row,
                                                       int u, int lane EMU_PARAM)
{
    uint ah[RNQ], al[RNQ];
#pragma unroll
    for (int q = 0; q < RNQ; q++) {
        float v = row[4 * q];
        ah[q] = HI(v);
        al[q] = LO(v, ah[q]);
    }
#pragma unroll
    for (int nt = 0; nt < NTW; nt++) {
        /* only zero taps (one warp: rows past FH), or rows completed before the strip */
        if ((ONEW && 8 * nt >= FH) || u + IH - 1 - 8 * nt < 0) continue;
        float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
        for (int c = 0; c < RNK; c++) {
            uint a_h[4] = {ah[2 * c], ah[2 * c + 2], ah[2 * c + 1], ah[2 * c + 3]};
            uint a_l[4] = {al[2 * c], al[2 * c + 2], al[2 * c + 1], al[2 * c + 3]};
            MMA_TF32(d, a_l, bh[nt][c]);
            MMA_TF32(d, a_h, bl[nt][c]);
            MMA_TF32(d, a_h, bh[nt][c]);
        }
#pragma unroll
        for (int e = 0; e < 2; e++) {
            int s = u - 8 * nt - e + IH - 1;
            if (s < 0 || (ONEW && 8 * nt + e >= FH)) continue;
            if (nt == 0 && e == 0) { /* lane t's first row, i = IB + 2t: the slot's first product for row y */
                R[s][0] = d[e];
                R[s][1] = d[2 + e];
            } else {
                R[s][0] += d[e];
                R[s][1] += d[2 + e];
            }
        }
    }
    /* the sum of lane (g, k)'s slot u + 2k over k, each fetched by a shuffle with a static slot (a select of
     * lane t's own slot became a dynamic index: the ring went to private memory) */
    float2 v = (float2)(0.0f, 0.0f);
#pragma unroll
    for (int k = 0; k < 4; k++) {
        v.x += shfl_idx(R[u + 2 * k][0], (lane & ~3) + k);
        v.y += shfl_idx(R[u + 2 * k][1], (lane & ~3) + k);
    }
    return v;
}

__kernel __attribute__((reqd_work_group_size(32, LY, 1))) void conv_mma_rows(CONV_ARGS)
{
    int lane = get_local_id(0), g = lane >> 2, t = lane & 3, wh = get_local_id(1), ib = 8 * NTW * wh;
    int x0 = get_group_id(0) * 16, y0 = get_group_id(1) * BY, x = x0 + g + 8 * t;
    int ylast = min(y0 + BY, h), rmax = h + FH - 2;
    EMU_DECL
    if (y0 >= h) return;
    uint bh[NTW][RNK][2], bl[NTW][RNK][2];
#pragma unroll
    for (int nt = 0; nt < NTW; nt++)
#pragma unroll
        for (int c = 0; c < RNK; c++)
#pragma unroll
            for (int e = 0; e < 2; e++) {
                int i = ib + 8 * nt + g, j = 8 * c + t + 4 * e;
                float v = i < FH && j < FW ? filt[i * FW + j] : 0.0f;
                bh[nt][c][e] = HI(v);
                bl[nt][c][e] = LO(v, bh[nt][c][e]);
            }
    float R[RS][2];
#pragma unroll
    for (int s = 0; s < RS; s++)
        R[s][0] = R[s][1] = 0.0f;
#if LY > 1
    __local float part[(LY - 1) * PB * 16]; /* warp h's completed parts: [h][row % PB][16 columns] */
#endif
    __global const float *col = in + x0 + g + t;
    bool st = t < 2 && x < w; /* lanes t = 0, 1 keep columns g, g + 8 */

    for (int r0 = y0; r0 < ylast + REND; r0 += U) {
#if LY > 1
#define ROWS_KEEP(y, v)                                                                                       \
    float o = t ? (v).y : (v).x; /* lanes t = 0, 1: columns g, g + 8 */                                      \
    if (wh < LY - 1) {                                                                                        \
        if (t < 2) part[(wh * PB + ((y)-y0) % PB) * 16 + g + 8 * t] = o;                                     \
    } else {                                                                                                  \
        for (int k = 0; k < LY - 1; k++)                                                                      \
            o += part[(k * PB + ((y)-y0) % PB) * 16 + g + 8 * (t & 1)];                                       \
        if (st) out[(y)*w + x] = o;                                                                           \
    }
#else
#define ROWS_KEEP(y, v)                                                                                       \
    if (st) out[(y)*w + x] = t ? (v).y : (v).x;
#endif
#define ROWS_STEP(u)                                                                                          \
    {                                                                                                         \
        float2 v = rows_step(R, bh, bl, col + min(r0 + (u), rmax) * ip, (u), lane EMU_ARG);                         \
        int y = r0 + (u)-IH + 1 - ib;                                                                         \
        if (y >= y0 && y < ylast) {                                                                           \
            ROWS_KEEP(y, v)                                                                                   \
        }                                                                                                     \
    }
        ROWS_STEP(0);
        ROWS_STEP(1);
        ROWS_STEP(2);
        ROWS_STEP(3);
#if LY > 1
        barrier(CLK_LOCAL_MEM_FENCE); /* the parts written in this block, read U or more steps later */
#endif
        /* the ring moves down U slots; the U new ones need no zeros: a lane's first product of a row is
         * stored, not added */
#pragma unroll
        for (int s = 0; s < RS - U; s++) {
            R[s][0] = R[s + U][0];
            R[s][1] = R[s + U][1];
        }
    }
}
#endif /* ROWS */
