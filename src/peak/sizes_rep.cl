/* Repeated reads of one buffer of mask + 1 elements (a power of two; VT = float4 on a GPU, float16 on a CPU)
 * within one launch, so that a buffer that fits a cache is measured at the cache's bandwidth, not at the
 * launch's overhead. The work-items form units of w consecutive items (w = 256, a work-group, on a GPU: its
 * loads are coalesced; w = 1 on a CPU: each item streams through a contiguous run). Each unit reads k8 * 8
 * blocks of w consecutive elements, one block a step, its w items one element each; the mask keeps every
 * address in the buffer, so the buffer is the working set of every cache level.
 * - read_rep (a CPU, whose cores run units one after another): unit u's blocks follow one another from u * k8
 *   * 8 * w, so the runs of the units follow one another and each core streams round the buffer.
 * - read_rep_perm (a GPU, where all units are resident at once): unit u visits the buffer's blocks in an
 *   order of its own, start u * blocks / U and stride 2u + 1 (odd: every block once a lap). On a GPU units
 *   that walk the same path (runs one after another, or evenly spread starts) form convoys: one that trails
 *   another reads the lines that one just fetched, hits in L2, catches up and shares its fetches, and a buffer
 *   twice the L2 read at the L2's rate (H100, 2026-11-27). With a stride of its own no unit follows another.
 * The mask and the stride are arguments: no load can be hoisted out of the loop, and each work-item writes the
 * sum of what it read. */
#ifndef VT
#define VT float4
#define VW 4
#endif
#if VW == 4
#define HSUM(x) ((x).s0 + (x).s1 + (x).s2 + (x).s3)
#elif VW == 8
#define HSUM(x) ((x).s0 + (x).s1 + (x).s2 + (x).s3 + (x).s4 + (x).s5 + (x).s6 + (x).s7)
#else
#define HSUM(x) ((x).s0 + (x).s1 + (x).s2 + (x).s3 + (x).s4 + (x).s5 + (x).s6 + (x).s7 + (x).s8 + (x).s9 + \
                 (x).sa + (x).sb + (x).sc + (x).sd + (x).se + (x).sf)
#endif

__kernel void read_rep(__global const VT *restrict in, __global float *restrict out, uint mask, uint w,
                       uint k8)
{
    uint gid = get_global_id(0), i = (gid / w) * k8 * 8 * w + gid % w;
    VT a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;
    for (uint k = 0; k < k8; k++, i += 8 * w) {
        a += in[i & mask];
        b += in[(i + w) & mask];
        c += in[(i + 2 * w) & mask];
        d += in[(i + 3 * w) & mask];
        e += in[(i + 4 * w) & mask];
        f += in[(i + 5 * w) & mask];
        g += in[(i + 6 * w) & mask];
        h += in[(i + 7 * w) & mask];
    }
    a += b + c + d + e + f + g + h;
    out[gid] = HSUM(a);
}

__kernel void read_rep_perm(__global const VT *restrict in, __global float *restrict out, uint mask, uint w,
                            uint k8)
{
    uint gid = get_global_id(0), u = gid / w, lane = gid % w, units = get_global_size(0) / w;
    uint bmask = (mask + 1) / w - 1, stride = 2 * u + 1;
    uint blk = (uint)((ulong)u * (bmask + 1) / units);
    VT a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;
    for (uint k = 0; k < k8; k++, blk += 8 * stride) {
        a += in[(blk & bmask) * w + lane];
        b += in[((blk + stride) & bmask) * w + lane];
        c += in[((blk + 2 * stride) & bmask) * w + lane];
        d += in[((blk + 3 * stride) & bmask) * w + lane];
        e += in[((blk + 4 * stride) & bmask) * w + lane];
        f += in[((blk + 5 * stride) & bmask) * w + lane];
        g += in[((blk + 6 * stride) & bmask) * w + lane];
        h += in[((blk + 7 * stride) & bmask) * w + lane];
    }
    a += b + c + d + e + f + g + h;
    out[gid] = HSUM(a);
}
