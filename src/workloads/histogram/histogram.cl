/* The histogram ladder: 256 bins of N pixels, in OpenCL 1.2.
 *
 * Build options (from the rung's parameters and --pixel, see histogram.c):
 *   WG          work-group size, a power of two; every kernel requires exactly this local size
 *   COPIES      sub-histograms per group in local memory; work-item lid counts into copy lid % COPIES. The
 *               layout is h[bin * COPIES + copy] (the seed's Image[idx] * spread + offset), so with COPIES = 32
 *               the 32 lanes of a warp always hit 32 different banks, whatever their pixels (all-equal data
 *               included)
 *   LOADS       hist_vec: uint4 loads per work-item per step (16 bytes each), issued before any is counted
 *   MERGE_ROWS  0: each group adds its histogram into `out` with global atomics (out zeroed by the host);
 *               1: each group writes its 256 bins to row get_group_id(0) of `out` (the rows buffer) and
 *               hist_reduce sums the rows (the seed's "write out to __global for further reduction")
 *   PIXEL       8: a pixel is a byte, a uint4 holds 16; 32: a pixel is a uint whose value is its bin (the
 *               seed's kernels index the bins with the 32-bit value itself: atom_inc(subhists + temp.x)), a
 *               uint4 holds 4
 *
 * hist_global covers the input with one work-item per pixel. The other kernels run a fixed grid that strides
 * over the whole input. Loads past n are guarded everywhere; the last n % PPV pixels of the uint4 kernels are
 * counted one per work-item. */

#ifndef WG
#define WG 256
#endif
#ifndef COPIES
#define COPIES 1
#endif
#ifndef LOADS
#define LOADS 1
#endif
#ifndef MERGE_ROWS
#define MERGE_ROWS 0
#endif
#ifndef PIXEL
#define PIXEL 8
#endif

#if PIXEL == 32
typedef uint pixel;
#define PPV 4 /* pixels per uint4 */
#else
typedef uchar pixel;
#define PPV 16
#endif

#define REQD_WG __attribute__((reqd_work_group_size(WG, 1, 1)))
#define LBINS   (256 * COPIES)

/* One global atomic per input pixel: every update goes to one of 256 words in global memory (L2 atomics),
 * and on all-equal data every work-item of the device hits the same word. */
__kernel REQD_WG void hist_global(__global const pixel *in, __global uint *out, uint n)
{
    uint i = get_global_id(0);
    if (i < n) atomic_inc(&out[in[i]]);
}

/* The seed's multiBinHistogram: work-item id owns row id of `rows` (256 bins in global memory), zeroes it and
 * counts its uint4s into it with a plain ++ (no other work-item touches the row): every update a scattered
 * global read-modify-write. hist_reduce then sums the get_global_size(0) rows. */
#if PIXEL == 32
#define SUB_VEC(row, v)                                                                                      \
    do {                                                                                                     \
        (row)[(v).x]++;                                                                                      \
        (row)[(v).y]++;                                                                                      \
        (row)[(v).z]++;                                                                                      \
        (row)[(v).w]++;                                                                                      \
    } while (0)
#else
void sub_word(__global uint *row, uint x)
{
    row[x & 0xFF]++;
    row[(x >> 8) & 0xFF]++;
    row[(x >> 16) & 0xFF]++;
    row[x >> 24]++;
}
#define SUB_VEC(row, v)                                                                                      \
    do {                                                                                                     \
        sub_word(row, (v).x);                                                                                \
        sub_word(row, (v).y);                                                                                \
        sub_word(row, (v).z);                                                                                \
        sub_word(row, (v).w);                                                                                \
    } while (0)
#endif

__kernel REQD_WG void hist_subhist(__global const uint4 *in, __global uint *rows, uint n)
{
    uint id = get_global_id(0), nwi = get_global_size(0);
    __global uint *row = rows + id * 256;
    for (uint b = 0; b < 256; b++)
        row[b] = 0;
    uint nv = n / PPV;
    for (uint idx = id; idx < nv; idx += nwi) {
        uint4 v = in[idx];
        SUB_VEC(row, v);
    }
    uint tail = nv * PPV + id;
    if (tail < n) row[((__global const pixel *)in)[tail]]++;
}

/* The second pass of the two-pass merge: group b sums bin b over the nrows rows of 256 that the first kernel
 * wrote (one per group, or one per work-item for hist_subhist) and writes it: every bin written once, no
 * atomics and no zeroing. */
__kernel REQD_WG void hist_reduce(__global const uint *rows, __global uint *out, uint nrows)
{
    __local uint part[WG];
    uint b = get_group_id(0), lid = get_local_id(0);
    uint s = 0;
    for (uint r = lid; r < nrows; r += WG)
        s += rows[r * 256 + b];
    part[lid] = s;
    for (uint w = WG / 2; w > 0; w /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < w) part[lid] += part[lid + w];
    }
    if (lid == 0) out[b] = part[0];
}

void local_zero(__local uint *h)
{
    for (uint i = get_local_id(0); i < LBINS; i += WG)
        h[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Sums the group's copies of each bin; adds the total into the global histogram (one global atomic per bin
 * per group), or with MERGE_ROWS writes it to the group's row. Copy c' = (c + bin) % COPIES staggers the reads
 * so neighbouring work-items use other banks. */
void local_merge(__local uint *h, __global uint *out)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = get_local_id(0); b < 256; b += WG) {
        uint s = 0;
        for (uint c = 0; c < COPIES; c++)
            s += h[b * COPIES + (c + b) % COPIES];
#if MERGE_ROWS
        out[get_group_id(0) * 256 + b] = s;
#else
        if (s) atomic_add(&out[b], s);
#endif
    }
}

#define COUNT(h, copy, byte) atomic_inc(&(h)[(uint)(byte) * COPIES + (copy)])

/* Local histograms fed by one pixel per load, striding over the input, a local atomic per pixel. COPIES = 1:
 * one histogram per group; COPIES = 32: one per lane of a warp, so simultaneous updates never share a bank. */
__kernel REQD_WG void hist_local(__global const pixel *in, __global uint *out, uint n)
{
    __local uint h[LBINS];
    local_zero(h);
    uint copy = get_local_id(0) % COPIES;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        COUNT(h, copy, in[i]);
    local_merge(h, out);
}

#if PIXEL == 32
/* A uint4 is 4 pixels, each value its own bin (the seed's atom_inc(subhists + temp.x) .. temp.w). */
void count_vec(__local uint *h, uint copy, uint4 v)
{
    COUNT(h, copy, v.x);
    COUNT(h, copy, v.y);
    COUNT(h, copy, v.z);
    COUNT(h, copy, v.w);
}
#else
void count4(__local uint *h, uint copy, uint x)
{
    COUNT(h, copy, x & 0xFF);
    COUNT(h, copy, (x >> 8) & 0xFF);
    COUNT(h, copy, (x >> 16) & 0xFF);
    COUNT(h, copy, x >> 24);
}

/* A uint4 is 16 packed bytes, each counted from registers (shift and mask). */
void count_vec(__local uint *h, uint copy, uint4 v)
{
    count4(h, copy, v.x);
    count4(h, copy, v.y);
    count4(h, copy, v.z);
    count4(h, copy, v.w);
}
#endif

/* uint4 loads (LOADS of them in flight per step), each pixel counted from registers: with LOADS = 1 and
 * MERGE_ROWS the seed's histogramLocal (COPIES = 1) and histogramKernel (COPIES = NBANKS). The last n % PPV
 * pixels are counted one per work-item of the first groups. */
__kernel REQD_WG void hist_vec(__global const uint4 *in, __global uint *out, uint n)
{
    __local uint h[LBINS];
    local_zero(h);
    uint copy = get_local_id(0) % COPIES;
    uint nv = n / PPV, stride = get_global_size(0);
    uint i = get_global_id(0);
    for (; i + (LOADS - 1) * stride < nv; i += LOADS * stride) {
        uint4 v[LOADS];
        for (uint k = 0; k < LOADS; k++)
            v[k] = in[i + k * stride];
        for (uint k = 0; k < LOADS; k++)
            count_vec(h, copy, v[k]);
    }
    for (; i < nv; i += stride)
        count_vec(h, copy, in[i]);
    uint t = nv * PPV + get_global_id(0);
    if (t < n) COUNT(h, copy, ((__global const pixel *)in)[t]);
    local_merge(h, out);
}
