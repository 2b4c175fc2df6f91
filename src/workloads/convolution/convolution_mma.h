/* The convolution workload's tensor-core rungs on the host side (convolution_mma.c; their kernels are in
 * convolution_mma.cl): the flags that pick a kernel and its options, each kernel's local memory and read
 * reach, the shapes they cannot take, and their error bound. convolution.c holds the rest of the workload. */
#ifndef CG_CONVOLUTION_MMA_H
#define CG_CONVOLUTION_MMA_H
#include <stdbool.h>
#include <stddef.h>

/* p[P_FLAGS] bits: the filter size as -D, float4-padded filter rows, tensor cores with TF32 products (MMA1)
 * or the 3xTF32 split (MMA3), the tensor-core product of each input row with the dense filter (ROWS:
 * conv_mma_rows), the split's pieces in fp16 (F16: conv_mma16), split once into local memory (SPLIT), the
 * 16-tap chunks with a half of zeros as 8-tap products (HALVES), a chunk's three products issued in three
 * passes over the column blocks (ORDER). */
enum {
    F_DEFINE = 1,
    F_PAD4 = 2,
    F_MMA1 = 4,
    F_MMA3 = 8,
    F_ROWS = 16,
    F_F16 = 32,
    F_SPLIT = 64,
    F_HALVES = 128,
    F_ORDER = 256
};
#define F_MMA (F_MMA1 | F_MMA3)

/* The tensor-core kernel's local memory (conv_mma in convolution_mma.cl): its input tile of BY LY + FH - 1
 * rows of 8 (NB + NC - 1) floats, NB = BX / 8, NC = ceil((FW + 7) / 8), at a pitch of 8 mod 32 floats; the
 * filter rows padded to 8 NC + 16 floats. */
#define MMA_NC(fw)     (((fw) + 14) / 8)
#define MMA_TW(bx, fw) (8 * ((bx) / 8 + MMA_NC(fw) - 1))
#define MMA_TP(bx, fw) (MMA_TW(bx, fw) + (40 - MMA_TW(bx, fw) % 32) % 32)
#define MMA_BYTES(bx, by, ly, fw, fh)                                                                        \
    ((size_t)(((by) * (ly) + (fh)-1) * MMA_TP(bx, fw) + (fh) * (8 * MMA_NC(fw) + 16)) * 4)
/* conv_mma16's (its HQ, HP, HF in convolution_mma.cl): a tile of BY LY + FH - 1 rows of 16 HQ columns at a
 * pitch of 4 (mod 16) column pairs, and the filter's rows of 8 DMAX + 32 pairs, 8 bytes a pair; its tile
 * reads up to FW + 13 columns right of a block's first (the input's padding covers FW + 14). */
#define MMA16_DMAX(fw)   (((fw) + 6) / 8)
#define MMA16_HW(bx, fw) (8 * ((8 * ((bx) / 8 - 1) + (fw) + 6) / 16 + 1))
#define MMA16_HP(bx, fw) (MMA16_HW(bx, fw) + (20 - MMA16_HW(bx, fw) % 16) % 16)
#define MMA16_BYTES(bx, by, ly, fw, fh)                                                                      \
    ((size_t)(((by) * (ly) + (fh)-1) * MMA16_HP(bx, fw) + (fh) * (8 * MMA16_DMAX(fw) + 32)) * 8)
#define READ_PAST(fw) ((size_t)(fw) + 14)
/* conv_mma_rows (its NTW, PB in convolution_mma.cl): a warp's 16 output columns from x0 read input columns up
 * to x0 + 14 + 8 ceil(FW / 8); ly warps split the ceil(FH / 8) tiles of filter rows, ROWS_NTW each, and the
 * warps before the last keep their parts of PB rows of 16 floats in local memory. */
#define ROWS_READ(fw)      (15 + 8 * (((fw) + 7) / 8))
#define ROWS_NTW(fh, ly)   ((((fh) + 7) / 8 + (ly)-1) / (ly))
#define ROWS_BYTES(fh, ly) ((size_t)((ly)-1) * (8 * ROWS_NTW(fh, ly) * ((ly)-1) + 4) * 16 * sizeof(float))

/* Local memory of the tensor-core kernel a rung with these flags builds (conv_mma, conv_mma16 or
 * conv_mma_rows), for bx x by outputs a warp, ly warps a group and an fw x fh filter. */
size_t conv_mma_local_need(int flags, int bx, int by, size_t ly, size_t fw, size_t fh);

/* Whether that kernel cannot take bx x by outputs a warp in an lx x ly group with fh filter rows; if so,
 * why (one line in why[len]). */
bool conv_mma_unsupported(int flags, int bx, int by, int lx, int ly, int fh, char *why, size_t len);

/* The kernel's error bound relative to the output (inputs and taps are never negative), besides the float
 * reference's own gamma_(taps + 2): convolution.c's check adds the two. */
double conv_mma_bound(int fw, int fh, int flags);

#endif
