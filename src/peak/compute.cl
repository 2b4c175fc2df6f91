/* Compute ceilings: eight independent multiply-add chains per work-item, x = x * a + b, built per type and
 * width: -DST=float -DVT=float4 -DVW=4 -DAT=float -DOT=float -DNCH=8, plus -DFP64 / -DFP16 / -DINTMAD /
 * -DINT24 / -DSAME_ADDEND.
 * Every lane starts from a different value (identical lanes could be folded into one scalar) and the sum of
 * all chains is written, so no work is dead; the host replays a few work-items to check the result. */
#ifdef FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifdef FP16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
#ifndef VT
#define ST float
#define VT float
#define VW 1
#define AT float
#define OT float
#endif

#if VW == 1
#define LANES ((VT)(0))
#define HSUM(x) (x)
#elif VW == 2
#define LANES ((VT)(0, 1))
#define HSUM(x) ((x).s0 + (x).s1)
#elif VW == 4
#define LANES ((VT)(0, 1, 2, 3))
#define HSUM(x) ((x).s0 + (x).s1 + (x).s2 + (x).s3)
#elif VW == 8
#define LANES ((VT)(0, 1, 2, 3, 4, 5, 6, 7))
#define HSUM(x) ((x).s0 + (x).s1 + (x).s2 + (x).s3 + (x).s4 + (x).s5 + (x).s6 + (x).s7)
#else
#define LANES ((VT)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#define HSUM(x) ((x).s0 + (x).s1 + (x).s2 + (x).s3 + (x).s4 + (x).s5 + (x).s6 + (x).s7 + (x).s8 + (x).s9 + \
                 (x).sa + (x).sb + (x).sc + (x).sd + (x).se + (x).sf)
#endif

#if defined(INT24)
#define MAD(x) x = mad24(x, a, b)
#elif defined(INTMAD) || defined(FP16)
#define MAD(x) x = x * a + b /* NVIDIA's headers have no half mad(); contraction makes it one FMA */
#elif defined(SAME_ADDEND)
#define MAD(x) x = mad(x, a, a) /* two source registers instead of three: more register-file headroom */
#else
#define MAD(x) x = mad(x, a, b)
#endif
#ifndef NCH
#define NCH 8
#endif
#if NCH == 8
#define STEP                                                                                                 \
    MAD(x0);                                                                                                 \
    MAD(x1);                                                                                                 \
    MAD(x2);                                                                                                 \
    MAD(x3);                                                                                                 \
    MAD(x4);                                                                                                 \
    MAD(x5);                                                                                                 \
    MAD(x6);                                                                                                 \
    MAD(x7)
#else
#define STEP                                                                                                 \
    MAD(x0);                                                                                                 \
    MAD(x1);                                                                                                 \
    MAD(x2);                                                                                                 \
    MAD(x3)
#endif

/* iters x 4 steps x NCH chains (8, or 4 where 8 would not fit the registers) x VW lanes multiply-adds per
 * work-item. */
__kernel void mad_chains(__global OT *restrict out, AT a_, AT b_, AT s_, AT t_, uint iters)
{
    VT a = (VT)((ST)a_), b = (VT)((ST)b_);
    VT base = ((VT)((ST)(get_global_id(0) & 63)) + LANES) * (VT)((ST)s_);
    VT x0 = base, x1 = base + (ST)t_, x2 = base + (ST)(2 * t_), x3 = base + (ST)(3 * t_);
#if NCH == 8
    VT x4 = base + (ST)(4 * t_), x5 = base + (ST)(5 * t_), x6 = base + (ST)(6 * t_), x7 = base + (ST)(7 * t_);
#endif
    for (uint i = 0; i < iters; i++) {
        STEP;
        STEP;
        STEP;
        STEP;
    }
    VT r = (x0 + x1) + (x2 + x3);
#if NCH == 8
    r += (x4 + x5) + (x6 + x7);
#endif
    out[get_global_id(0)] = (OT)HSUM(r);
}
