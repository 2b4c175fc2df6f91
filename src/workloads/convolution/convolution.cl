/* Kernels of the convolution ladder: out[y][x] = sum over j < FH, i < FW of in[y + j][x + i] * f[j][i], a
 * "valid" 2D filter over an input padded by the filter size (the AMD tutorial's layout: no border branches).
 * The input is pitched: `ip` floats per row, a multiple of 4, with zeros past the valid columns and rows so
 * that blocked kernels may read beyond the picture; the output is dense, w floats per row.
 *
 * Build options (from the rung's data): FW, FH the filter size as compile-time constants (absent for the
 * naive and unroll4 rungs, which read fw and fh at run time); FW4 the filter width rounded up to 4;
 * FILT_SPACE the address space of the filter argument (__global or __constant); LX, LY the work-group shape;
 * BX, BY the outputs per work-item (block kernel); OUT4 1 when w % 4 == 0 (float4 stores are aligned).
 * The tensor-core kernels are in convolution_mma.cl. */

#ifdef FW
#define FWID FW
#define FHGT FH
#else
#define FWID fw
#define FHGT fh
#endif
#ifndef TAIL_IF
#define TAIL_IF 0
#endif
#ifndef FILT_SPACE
#define FILT_SPACE __global
#endif

#define CONV_ARGS                                                                                            \
    __global const float *restrict in, int ip, FILT_SPACE const float *restrict filt, __global float *restrict out, \
        int w, int h, int fw, int fh

/* One work-item per output, two nested loops, every tap read from global memory. */
__kernel void conv_naive(CONV_ARGS)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    float sum = 0.0f;
    for (int j = 0; j < FHGT; j++)
        for (int i = 0; i < FWID; i++)
            sum += in[(y + j) * ip + x + i] * filt[j * FWID + i];
    out[y * w + x] = sum;
}

/* Taps i .. FWID - 1 of one filter row (fewer than 4) as an if-else on their count instead of a loop. */
#define TAIL_IF_ADD(acc, row, f, i)                                                                          \
    do {                                                                                                     \
        int rem_ = FWID - (i);                                                                               \
        if (rem_ == 3) {                                                                                     \
            acc += (row)[i] * (f)[i];                                                                        \
            acc += (row)[(i) + 1] * (f)[(i) + 1];                                                            \
            acc += (row)[(i) + 2] * (f)[(i) + 2];                                                            \
        } else if (rem_ == 2) {                                                                              \
            acc += (row)[i] * (f)[i];                                                                        \
            acc += (row)[(i) + 1] * (f)[(i) + 1];                                                            \
        } else if (rem_ == 1) {                                                                              \
            acc += (row)[i] * (f)[i];                                                                        \
        }                                                                                                    \
    } while (0)

/* The inner loop unrolled by 4 by hand, the remainder (FW % 4 taps) in a second loop, or with -DTAIL_IF=1 in
 * an if-else on their count (the AMD chapter's Unroll_If). */
__kernel void conv_unroll4(CONV_ARGS)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    float sum = 0.0f;
    for (int j = 0; j < FHGT; j++) {
        __global const float *row = in + (y + j) * ip + x;
        FILT_SPACE const float *f = filt + j * FWID;
        int i = 0;
        for (; i + 4 <= FWID; i += 4) {
            sum += row[i] * f[i];
            sum += row[i + 1] * f[i + 1];
            sum += row[i + 2] * f[i + 2];
            sum += row[i + 3] * f[i + 3];
        }
#if TAIL_IF
        TAIL_IF_ADD(sum, row, f, i);
#else
        for (; i < FWID; i++)
            sum += row[i] * f[i];
#endif
    }
    out[y * w + x] = sum;
}

/* float4 over the taps with the filter as it is (the AMD chapter's ConvolveFloat4): vload4 of 4 taps and 4
 * input floats, one float4 MAD; the FWID % 4 taps left in a row go to sum4.x in a loop, or with -DTAIL_IF=1
 * in an if-else on their count (ConvolveFloat4_If). */
__kernel void conv_float4(CONV_ARGS)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    float4 sum4 = (float4)(0.0f);
    for (int j = 0; j < FHGT; j++) {
        __global const float *row = in + (y + j) * ip + x;
        FILT_SPACE const float *f = filt + j * FWID;
        int c = 0;
        for (; c + 4 <= FWID; c += 4)
            sum4 += vload4(0, row + c) * vload4(0, f + c);
#if TAIL_IF
        TAIL_IF_ADD(sum4.x, row, f, c);
#else
        for (; c < FWID; c++)
            sum4.x += row[c] * f[c];
#endif
    }
    out[y * w + x] = sum4.x + sum4.y + sum4.z + sum4.w;
}

#ifdef FW
/* Needs FW: the inner loop fully unrolled (the width is a compile-time constant). */
__kernel void conv_unroll_full(CONV_ARGS)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    float sum = 0.0f;
    for (int j = 0; j < FH; j++) {
        __global const float *row = in + (y + j) * ip + x;
        FILT_SPACE const float *f = filt + j * FW;
#pragma unroll
        for (int i = 0; i < FW; i++)
            sum += row[i] * f[i];
    }
    out[y * w + x] = sum;
}

/* Needs FW4: float4 over the taps. filt is the filter padded with zeros to FW4 columns (the padded taps
 * cost MADs, as in the tutorial); the input is read with unaligned vload4, up to 3 floats past the taps. */
__kernel void conv_vec4(CONV_ARGS)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    float4 sum = (float4)(0.0f);
    for (int j = 0; j < FH; j++) {
        __global const float *row = in + (y + j) * ip + x;
        FILT_SPACE const float4 *f = (FILT_SPACE const float4 *)(filt + j * FW4);
#pragma unroll
        for (int i4 = 0; i4 < FW4 / 4; i4++)
            sum += vload4(i4, row) * f[i4];
    }
    out[y * w + x] = sum.x + sum.y + sum.z + sum.w;
}

/* The group's input tile ((LX + FW - 1) x (LY + FH - 1) floats) and the filter in local memory, loaded once
 * by the whole group; every tap then comes from local memory. */
#define TW (LX + FW - 1)
#define TH (LY + FH - 1)
__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void conv_local(CONV_ARGS)
{
    __local float tile[TH * TW];
    __local float lf[FH * FW];
    int lx = get_local_id(0), ly = get_local_id(1), lid = ly * LX + lx;
    int x0 = get_group_id(0) * LX, y0 = get_group_id(1) * LY;
    for (int k = lid; k < TH * TW; k += LX * LY) {
        int ty = k / TW;
        tile[k] = in[(y0 + ty) * ip + x0 + k - ty * TW];
    }
    for (int k = lid; k < FH * FW; k += LX * LY)
        lf[k] = filt[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    float sum = 0.0f;
    for (int j = 0; j < FH; j++) {
#pragma unroll
        for (int i = 0; i < FW; i++)
            sum = fma(tile[(ly + j) * TW + lx + i], lf[j * FW + i], sum);
    }
    if (x0 + lx < w && y0 + ly < h) out[(y0 + ly) * w + x0 + lx] = sum;
}

/* Register blocking: BX x BY outputs per work-item (BX a multiple of 4). The work-item walks down the
 * BY + FH - 1 input rows its block needs, loading each row segment (BX + FW - 1 floats) once, as aligned
 * float4s, into registers; every output row whose window holds that input row takes its FW x BX MADs from
 * it. The filter sits in local memory as float4s padded to FW4, read by all lanes at once (a broadcast):
 * one local load feeds 4 x BX MADs. Taps past FW are skipped at compile time, not multiplied by zero. */
#define NV ((BX + FW - 1 + 3) / 4) /* float4s in an input row segment */
__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void conv_block(CONV_ARGS)
{
    __local float4 lf[FH * FW4 / 4];
    for (int k = get_local_id(1) * LX + get_local_id(0); k < FH * FW4 / 4; k += LX * LY) {
        int j = k / (FW4 / 4), i = (k - j * (FW4 / 4)) * 4;
        FILT_SPACE const float *f = filt + j * FW;
        lf[k] = (float4)(f[i], i + 1 < FW ? f[i + 1] : 0.0f, i + 2 < FW ? f[i + 2] : 0.0f,
                         i + 3 < FW ? f[i + 3] : 0.0f);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int x0 = get_global_id(0) * BX, y0 = get_global_id(1) * BY;
    __global const float4 *src = (__global const float4 *)(in + y0 * ip + x0);
    int ip4 = ip / 4;
    float acc[BY][BX];
#pragma unroll
    for (int by = 0; by < BY; by++)
#pragma unroll
        for (int bx = 0; bx < BX; bx++)
            acc[by][bx] = 0.0f;
    for (int r = 0; r < BY + FH - 1; r++) {
        float row[NV * 4];
#pragma unroll
        for (int v = 0; v < NV; v++)
            vstore4(src[r * ip4 + v], v, row);
#pragma unroll
        for (int by = 0; by < BY; by++) {
            int j = r - by;
            if (j < 0 || j >= FH) continue;
#pragma unroll
            for (int i4 = 0; i4 < FW4 / 4; i4++) {
                float4 f = lf[j * (FW4 / 4) + i4];
                float fv[4] = {f.x, f.y, f.z, f.w};
#pragma unroll
                for (int c = 0; c < 4; c++) {
                    if (i4 * 4 + c >= FW) break;
#pragma unroll
                    for (int bx = 0; bx < BX; bx++)
                        acc[by][bx] = fma(fv[c], row[bx + i4 * 4 + c], acc[by][bx]);
                }
            }
        }
    }
#pragma unroll
    for (int by = 0; by < BY; by++) {
        int y = y0 + by;
        if (y >= h) break;
        __global float *o = out + y * w;
#pragma unroll
        for (int bx = 0; bx < BX; bx += 4) {
            int x = x0 + bx;
            if (OUT4 && x + 3 < w) {
                vstore4((float4)(acc[by][bx], acc[by][bx + 1], acc[by][bx + 2], acc[by][bx + 3]), 0, o + x);
            } else {
#pragma unroll
                for (int c = 0; c < 4; c++)
                    if (x + c < w) o[x + c] = acc[by][bx + c];
            }
        }
    }
}
#endif
