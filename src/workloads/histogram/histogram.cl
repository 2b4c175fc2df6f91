/* The histogram ladder: 256 bins of N bytes, in OpenCL 1.2.
 *
 * Build options (from the rung's parameters, see histogram.c):
 *   WG      work-group size, a power of two; every kernel requires exactly this local size
 *   COPIES  sub-histograms per group in local memory; work-item lid counts into copy lid % COPIES. The layout
 *           is h[bin * COPIES + copy], so with COPIES = 32 the 32 lanes of a warp always hit 32 different
 *           banks, whatever their bytes (all-equal data included)
 *   LOADS   hist_vec: uint4 loads per work-item per step (16 bytes each), issued before any is counted
 *
 * hist_global covers the input with one work-item per byte. The other kernels run a fixed grid of groups that
 * stride over the whole input, count into local memory, and add their histogram into the global one once per
 * group. Every kernel adds into `out`, which the host zeroes first. Loads past n are guarded everywhere. */

#ifndef WG
#define WG 256
#endif
#ifndef COPIES
#define COPIES 1
#endif
#ifndef LOADS
#define LOADS 1
#endif

#define REQD_WG __attribute__((reqd_work_group_size(WG, 1, 1)))
#define LBINS   (256 * COPIES)

/* 1. One global atomic per input byte: every update goes to one of 256 words in global memory (L2 atomics),
 * and on all-equal data every work-item of the device hits the same word. */
__kernel REQD_WG void hist_global(__global const uchar *in, __global uint *out, uint n)
{
    uint i = get_global_id(0);
    if (i < n) atomic_inc(&out[in[i]]);
}

void local_zero(__local uint *h)
{
    for (uint i = get_local_id(0); i < LBINS; i += WG)
        h[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Sums the group's copies of each bin and adds the total into the global histogram: one global atomic per
 * bin per group. Copy c' = (c + bin) % COPIES staggers the reads so neighbouring work-items use other banks. */
void local_merge(__local uint *h, __global uint *out)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = get_local_id(0); b < 256; b += WG) {
        uint s = 0;
        for (uint c = 0; c < COPIES; c++)
            s += h[b * COPIES + (c + b) % COPIES];
        if (s) atomic_add(&out[b], s);
    }
}

#define COUNT(h, copy, byte) atomic_inc(&(h)[(uint)(byte) * COPIES + (copy)])

/* 2 and 3. Local histograms: byte loads striding over the input, a local atomic per byte. COPIES = 1: one
 * histogram per group; COPIES = 32: one per lane of a warp, so simultaneous updates never share a bank. */
__kernel REQD_WG void hist_local(__global const uchar *in, __global uint *out, uint n)
{
    __local uint h[LBINS];
    local_zero(h);
    uint copy = get_local_id(0) % COPIES;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        COUNT(h, copy, in[i]);
    local_merge(h, out);
}

void count4(__local uint *h, uint copy, uint x)
{
    COUNT(h, copy, x & 0xFF);
    COUNT(h, copy, (x >> 8) & 0xFF);
    COUNT(h, copy, (x >> 16) & 0xFF);
    COUNT(h, copy, x >> 24);
}

void count16(__local uint *h, uint copy, uint4 v)
{
    count4(h, copy, v.x);
    count4(h, copy, v.y);
    count4(h, copy, v.z);
    count4(h, copy, v.w);
}

/* 4 and 5. Packed bytes: uint4 loads (16 bytes each, LOADS of them in flight per step), each byte counted from
 * registers. The last n % 16 bytes are counted one per work-item of the first groups. */
__kernel REQD_WG void hist_vec(__global const uint4 *in, __global uint *out, uint n)
{
    __local uint h[LBINS];
    local_zero(h);
    uint copy = get_local_id(0) % COPIES;
    uint nv = n / 16, stride = get_global_size(0);
    uint i = get_global_id(0);
    for (; i + (LOADS - 1) * stride < nv; i += LOADS * stride) {
        uint4 v[LOADS];
        for (uint k = 0; k < LOADS; k++)
            v[k] = in[i + k * stride];
        for (uint k = 0; k < LOADS; k++)
            count16(h, copy, v[k]);
    }
    for (; i < nv; i += stride)
        count16(h, copy, in[i]);
    uint t = nv * 16 + get_global_id(0);
    if (t < n) COUNT(h, copy, ((__global const uchar *)in)[t]);
    local_merge(h, out);
}
