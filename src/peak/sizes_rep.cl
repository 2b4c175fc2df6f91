/* Repeated reads of one buffer of mask + 1 elements (a power of two; VT = float4 on a GPU, float16 on a CPU)
 * within one launch, so that a buffer that fits a cache is measured at the cache's bandwidth, not at the
 * launch's overhead. The work-items form units of w consecutive items (w = 256, a work-group, on a GPU: its
 * loads are coalesced; w = 1 on a CPU: each item streams through a contiguous run). Unit u of U reads k8 * 8
 * * w consecutive elements, w a step, wrapped around the buffer by the mask, from its start:
 * - spread (a GPU, where all units are resident and move at one pace): u * (mask + 1) / U, rounded down to a
 *   step. The units start evenly over the buffer, so an address is read again (by unit u - 1, or by u after a
 *   lap) only once the grid has read about the whole buffer in between, and no two units read the same lines
 *   at the same time (one fetch shared by both would overstate the rate: the first version, runs one after
 *   another, read 1 GiB at 3.8 TB/s on an H100, above its HBM);
 * - otherwise (a CPU, whose cores run units one after another): u * k8 * 8 * w, the runs follow one another,
 *   so each core streams round the buffer.
 * Either way the working set of every cache level is the buffer. The mask and the step are arguments: no load
 * can be hoisted out of the loop, and each work-item writes the sum of what it read. */
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
                       uint k8, uint spread)
{
    uint gid = get_global_id(0), u = gid / w, units = get_global_size(0) / w;
    uint i = (spread ? (uint)(((ulong)u * ((ulong)mask + 1) / units) / w * w) : u * k8 * 8 * w) + gid % w;
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
