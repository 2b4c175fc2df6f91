/* The convolution workload's tensor-core rungs on the host side: local memory, the shapes their kernels
 * cannot take, and their error bound (convolution_mma.h). */
#include "workloads/convolution/convolution_mma.h"
#include <math.h>
#include <stdio.h>

size_t conv_mma_local_need(int flags, int bx, int by, size_t ly, size_t fw, size_t fh)
{
    if (flags & F_ROWS) return ROWS_BYTES(fh, ly);
    if (flags & F_F16) return MMA16_BYTES((size_t)bx, (size_t)by, ly, fw, fh);
    return MMA_BYTES((size_t)bx, (size_t)by, ly, fw, fh);
}

bool conv_mma_unsupported(int flags, int bx, int by, int lx, int ly, int fh, char *why, size_t len)
{
    if (flags & F_ROWS) {
        int nt = (fh + 7) / 8;
        if (bx != 16 || lx != 32)
            snprintf(
                why, len,
                "bx=%d, lx=%d: the row-product kernel's warp takes 16 output columns (bx 16) and its group "
                "is one warp wide (lx 32)",
                bx, lx);
        /* its groups (its reads need no check: input_shape pads the pitch for them) */
        else if ((nt + ROWS_NTW(fh, ly) - 1) / ROWS_NTW(fh, ly) != ly)
            snprintf(
                why, len,
                "ly=%d: the filter's %d rows make %d tiles of 8, which %d warps cannot share without one "
                "left with none (at most %d)",
                ly, fh, nt, ly, nt);
        else
            return false;
        return true;
    }
    if (bx % 8 == 0 && by % 16 == 0 && lx == 32) return false;
    snprintf(why, len,
             "bx=%d, by=%d, lx=%d: the tensor-core kernel's warp takes 8-column and 16-row blocks (bx a "
             "multiple of 8, by of 16) and its group is one warp wide (lx 32)",
             bx, by, lx);
    return true;
}

double conv_mma_bound(int fw, int fh, int flags)
{
    /* Relative to the output (all terms >= 0), u = 2^-24. Each mma.sync adds its 8 products (exact: TF32 x
     * TF32 fits in fp32) to the accumulator with an error below 4u of the running sum (truncation in the
     * alignment and the normalisation, Fasi et al. 2021 measured round-toward-zero in NVIDIA's tensor cores);
     * a warp's output takes FH x NC of them. TF32: each product within 2^-10 + 2^-22 of a x b (both rounded
     * to nearest 11-bit values). 3xTF32 (truncating splits): a - hi < 2^-10 |a|, a - (hi + lo) < 2^-20 |a|,
     * so the three products miss a b by less than 3 x 2^-20 = 48u; the small products' own rounding is
     * scaled by 2^-10 (below 1u), the final add 1u. */
    double u = ldexp(1.0, -24);
    double rep = (flags & F_MMA3) ? 50.0 * u : ldexp(1.0, -10) + ldexp(1.0, -22);
    /* ROWS: each row's product takes 3 ceil(FW / 8) mma.sync (all three products in one accumulator) from
     * zero, each within 4u of that product's sum (below the output); then the FH row products are summed in
     * fp32 in a tree (a lane's ring slot, the four lanes, the warps' parts): FH - 1 adds that are not of a
     * zero, each within u of the output (counted as FH + 2). */
    if (flags & F_ROWS) return rep + 4.0 * u * 3.0 * ((fw + 7) / 8) + u * (fh + 2);
    /* F16 (conv_mma16): hi truncated as above, lo rounded to nearest (2^-11 of a - hi, so 2^-21 |a|): the
     * three products miss a b by less than 2^-20 (lo x lo) + 2 x 2^-21 = 32u, the small products' rounding
     * and the final fma below 2u, the scalings exact; fp16 lo pieces below 2^-14 are the floor
     * (conv_verify's). Each m16n8k16 adds 16 products: counted as two of the 8-product steps above (8u),
     * ceil((DMAX + 2) / 2) chunks a filter row. */
    if (flags & F_F16) return 34.0 * u + 8.0 * u * (double)fh * ((MMA16_DMAX(fw) + 3) / 2);
    return rep + 4.0 * u * (double)fh * MMA_NC(fw);
}
