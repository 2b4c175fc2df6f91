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
 *   LAST_GROUP  hist_vec in one launch, nothing zeroed by the host: after its merge (its row with MERGE_ROWS,
 *               else atomics into a hidden accumulator the kernel keeps zeroed) each group takes a ticket, and
 *               the last group writes the bins (below, last_group); two more arguments
 *   NV_FENCE    NVIDIA: LAST_GROUP's device-scope fence is PTX membar.gl (as in scan.cl)
 *   CHUNKED     hist_vec: each group walks its own contiguous chunk of the uint4s, not the grid-wide stride
 *   NV_MATCH    NVIDIA only: warp-aggregated local updates, lanes with one bin (PTX match.any.sync) elect one
 *               that adds their count
 *   NV_NC       NVIDIA only: hist_vec's uint4 loads as PTX ld.global.nc.L1::no_allocate (the read-only path, no
 *               L1 line kept for data read once)
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

#ifdef NV_MATCH
/* Warp-aggregated: the active lanes holding the same bin (match.any.sync over the active mask) elect their
 * lowest lane, which adds their number in one local atomic; all-equal data makes one atomic per warp step. */
void count_match(__local uint *h, uint copy, uint bin)
{
    uint active, peers, lane;
    asm volatile("activemask.b32 %0;" : "=r"(active));
    asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(peers) : "r"(bin), "r"(active));
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    if ((peers & ((1u << lane) - 1u)) == 0) atomic_add(&h[bin * COPIES + copy], popcount(peers));
}
#define COUNT(h, copy, byte) count_match((h), (copy), (uint)(byte))
#else
#define COUNT(h, copy, byte) atomic_inc(&(h)[(uint)(byte) * COPIES + (copy)])
#endif

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

#ifdef LAST_GROUP
#ifdef NV_FENCE
#define DEVICE_FENCE() asm volatile("membar.gl;" ::: "memory")
#else
#define DEVICE_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
#define TICKET      256 /* state[0..255]: the accumulator (MERGE_ROWS 0); state[256]: the ticket counter */
#define ROWS_FLIGHT 8   /* row loads in flight per work-item in sum_rows */

/* The last group's sum of the get_num_groups(0) rows of 256 (MERGE_ROWS): work-item lid adds column lid % 64
 * (4 bins as a uint4) of every (WG / 64)-th row, ROWS_FLIGHT loads in flight; the WG / 64 partial sums of
 * each bin meet in h by local atomics (h holds at least 256 uints), then every bin is written. The rows are
 * read volatile: they were written by other groups during this launch. */
void sum_rows(__local uint *h, __global const uint *rows, __global uint *bins)
{
    uint lid = get_local_id(0), nrows = get_num_groups(0);
#if WG >= 64
    volatile __global const uint4 *r4 = (volatile __global const uint4 *)rows;
    uint col = lid % 64, step = WG / 64, r = lid / 64;
    uint4 s = 0;
    for (; r + (ROWS_FLIGHT - 1) * step < nrows; r += ROWS_FLIGHT * step) {
        uint4 v[ROWS_FLIGHT];
        for (uint k = 0; k < ROWS_FLIGHT; k++)
            v[k] = r4[(r + k * step) * 64 + col];
        for (uint k = 0; k < ROWS_FLIGHT; k++)
            s += v[k];
    }
    for (; r < nrows; r += step)
        s += r4[r * 64 + col];
    for (uint b = lid; b < 256; b += WG)
        h[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&h[col * 4], s.x);
    atomic_add(&h[col * 4 + 1], s.y);
    atomic_add(&h[col * 4 + 2], s.z);
    atomic_add(&h[col * 4 + 3], s.w);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < 256; b += WG)
        bins[b] = h[b];
#else
    volatile __global const uint *rv = rows;
    for (uint b = lid; b < 256; b += WG) {
        uint s = 0;
        for (uint r = 0; r < nrows; r++)
            s += rv[r * 256 + b];
        bins[b] = s;
    }
#endif
}

/* One launch, no fill: each work-item fences its part of the group's merge (row stores or accumulator
 * atomics) at device scope, the group meets at a barrier, and work-item 0 takes a ticket; the group that
 * draws the last ticket has every other group's merge visible (after its own fence), writes all 256 bins
 * (the sum of the rows, or the accumulator, which it zeroes again by atomic_xchg) and resets the ticket to 0
 * for the next launch. The state buffer is the rung's own, created zeroed and never poisoned: a launch that
 * finds it non-zero (a broken kernel before) writes no bins or wrong ones, and the check fails. */
void last_group(__local uint *h, __local uint *last, __global uint *part, __global uint *bins,
                volatile __global uint *state)
{
    uint lid = get_local_id(0);
    DEVICE_FENCE();
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0) *last = atomic_inc(&state[TICKET]) == get_num_groups(0) - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!*last) return;
    DEVICE_FENCE();
#if MERGE_ROWS
    sum_rows(h, part, bins);
#else
    (void)part;
    for (uint b = lid; b < 256; b += WG)
        bins[b] = atomic_xchg(&state[b], 0u);
#endif
    if (lid == 0) atomic_xchg(&state[TICKET], 0u);
}
#define LAST_ARGS , __global uint *bins, volatile __global uint *state
#else
#define LAST_ARGS
#endif

#ifdef CHUNKED
/* Group g's contiguous chunk of the nv uint4s (a multiple of 8 uint4s, 128 bytes, long; the last groups' may
 * be short or empty), its work-items WG apart. */
void chunk_range(uint *i, uint *end, uint *stride, uint nv)
{
    uint g = (uint)get_num_groups(0), chunk = ((nv + g - 1) / g + 7u) & ~7u;
    uint lo = min((uint)get_group_id(0) * chunk, nv);
    *end = min(lo + chunk, nv);
    *i = lo + get_local_id(0);
    *stride = WG;
}
#endif

#ifdef NV_NC
/* The read-only (non-coherent) load, no L1 allocation: the input is read once and never written during the
 * launch, so the L1's lines would only hold data no one reads again. */
uint4 load_nc(__global const uint4 *p)
{
    uint4 v;
    asm("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(p));
    return v;
}
#define LOAD4(p) load_nc(p)
#else
#define LOAD4(p) (*(p))
#endif

/* uint4 loads (LOADS of them in flight per step), each pixel counted from registers: with LOADS = 1 and
 * MERGE_ROWS the seed's histogramLocal (COPIES = 1) and histogramKernel (COPIES = NBANKS). The last n % PPV
 * pixels are counted one per work-item of the first groups. */
__kernel REQD_WG void hist_vec(__global const uint4 *in, __global uint *out, uint n LAST_ARGS)
{
    __local uint h[LBINS];
#ifdef LAST_GROUP
    __local uint last;
#endif
    local_zero(h);
    uint copy = get_local_id(0) % COPIES;
    uint nv = n / PPV, stride = get_global_size(0);
    uint i = get_global_id(0), end = nv;
#ifdef CHUNKED
    chunk_range(&i, &end, &stride, nv);
#endif
    for (; i + (LOADS - 1) * stride < end; i += LOADS * stride) {
        uint4 v[LOADS];
        for (uint k = 0; k < LOADS; k++)
            v[k] = LOAD4(in + i + k * stride);
        for (uint k = 0; k < LOADS; k++)
            count_vec(h, copy, v[k]);
    }
    for (; i < end; i += stride)
        count_vec(h, copy, LOAD4(in + i));
    uint t = nv * PPV + get_global_id(0);
    if (t < n) COUNT(h, copy, ((__global const pixel *)in)[t]);
    local_merge(h, out);
#ifdef LAST_GROUP
    last_group(h, &last, out, bins, state);
#endif
}

/* The CPU's histogram (the AMD chapter's advice for CPUs; issue 21): a group is one work-item (WG 1) that
 * counts its own contiguous chunk of uint4s into COPIES private copies of the 256 bins, with no atomics while
 * counting (consecutive pixels go to consecutive copies, so an increment does not wait on the one before it
 * when bins repeat), then adds its counts into the bins with at most 256 global atomics (out zeroed by the
 * host). The last n % PPV pixels are counted by the last group. */
__kernel REQD_WG void hist_private(__global const uint4 *in, __global uint *out, uint n)
{
    uint h[COPIES][256];
    for (uint c = 0; c < COPIES; c++)
        for (uint b = 0; b < 256; b++)
            h[c][b] = 0;
    uint nv = n / PPV, g = get_num_groups(0), id = get_group_id(0);
    uint per = (nv + g - 1) / g, lo = min(id * per, nv), hi = min(lo + per, nv);
    for (uint i = lo; i < hi; i++) {
        uint4 v = in[i];
#if PIXEL == 32
        h[0 % COPIES][v.x]++;
        h[1 % COPIES][v.y]++;
        h[2 % COPIES][v.z]++;
        h[3 % COPIES][v.w]++;
#else
        uint w[4] = {v.x, v.y, v.z, v.w};
        /* unrolled: PoCL 3.1 left both loops rolled, the uint4 spilled to the stack and each byte's copy and
         * shift computed at run time (1.5x slower on 2 EPYC cores) */
#pragma unroll
        for (uint k = 0; k < 4; k++)
#pragma unroll
            for (uint b = 0; b < 4; b++)
                h[(4 * k + b) % COPIES][(w[k] >> (8 * b)) & 255]++;
#endif
    }
    if (id == g - 1)
        for (uint t = nv * PPV; t < n; t++)
            h[0][((__global const pixel *)in)[t]]++;
    for (uint b = 0; b < 256; b++) {
        uint sum = 0;
        for (uint cp = 0; cp < COPIES; cp++)
            sum += h[cp][b];
        if (sum) atomic_add(&out[b], sum);
    }
}
