/* Global-memory bandwidth kernels, built once per vector type: -DVT=float4 -DVW=4. Each work-item writes one
 * float of its sums so that no load is dead (under 0.1% of the bytes read, not counted). */
#ifndef VT
#define VT float
#define VW 1
#endif

#if VW == 1
#define HSUM(x) (x)
#elif VW == 2
#define HSUM(x) ((x).s0 + (x).s1)
#elif VW == 4
#define HSUM(x) ((x).s0 + (x).s1 + (x).s2 + (x).s3)
#elif VW == 8
#define HSUM(x) ((x).s0 + (x).s1 + (x).s2 + (x).s3 + (x).s4 + (x).s5 + (x).s6 + (x).s7)
#else
#define HSUM(x) ((x).s0 + (x).s1 + (x).s2 + (x).s3 + (x).s4 + (x).s5 + (x).s6 + (x).s7 + (x).s8 + (x).s9 + \
                 (x).sa + (x).sb + (x).sc + (x).sd + (x).se + (x).sf)
#endif

static uint hash32(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* Random floats in [1, 2): a random 23-bit mantissa defeats memory compression, no NaN or denormal. */
__kernel void fill_random(__global uint *p, uint seed)
{
    uint i = get_global_id(0);
    p[i] = 0x3f800000u | (hash32(i * 0x9e3779b9u ^ seed) >> 9);
}

/* Grid-stride read with eight independent accumulators: eight loads in flight per work-item, and each step's
 * loads are a whole grid apart, so every warp's loads are coalesced. */
__kernel void read_grid(__global const VT *restrict in, __global float *restrict out, uint n)
{
    uint g = get_global_size(0), i = get_global_id(0);
    VT a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h = 0, k = 0;
    for (; i + 7 * g < n; i += 8 * g) {
        a += in[i];
        b += in[i + g];
        c += in[i + 2 * g];
        d += in[i + 3 * g];
        e += in[i + 4 * g];
        f += in[i + 5 * g];
        h += in[i + 6 * g];
        k += in[i + 7 * g];
    }
    for (; i < n; i += g)
        a += in[i];
    a += b + c + d + e + f + h + k;
    out[get_global_id(0)] = HSUM(a);
}

/* One pass over the buffer: n / UNR work-items each read UNR elements a grid apart (-DUNR, default 16) and
 * write one float: no loop, the most work-items in flight (the layout of clpeak's kernels). */
#ifndef UNR
#define UNR 16
#endif
/* -DREQD=n: the one-pass kernels declare groups of n work-items (reqd_work_group_size), so that the compiler
 * must fit n work-items' registers in a group: without it NVIDIA's compiler gives them at most 256. */
#ifdef REQD
#define ONE_PASS __kernel __attribute__((reqd_work_group_size(REQD, 1, 1))) void
#else
#define ONE_PASS __kernel void
#endif
ONE_PASS read_pass(__global const VT *restrict in, __global float *restrict out, uint n)
{
    uint g = get_global_size(0), i = get_global_id(0);
    VT s = in[i];
#pragma unroll
    for (uint u = 1; u < UNR; u++)
        s += in[i + u * g];
    out[i] = HSUM(s);
}

/* clpeak's other layout (its "local offset" kernels): group g reads the UNR * local-size elements from
 * g * UNR * local-size on, work-item l the elements l, l + local-size, ...: each group streams one contiguous
 * block instead of strips a whole grid apart. */
ONE_PASS read_block(__global const VT *restrict in, __global float *restrict out, uint n)
{
    uint l = get_local_size(0), i = get_group_id(0) * l * UNR + get_local_id(0);
    VT s = in[i];
#pragma unroll
    for (uint u = 1; u < UNR; u++)
        s += in[i + u * l];
    out[get_global_id(0)] = HSUM(s);
    (void)n;
}

/* read_pass and read_block as clpeak declares its kernels: a plain pointer (neither const nor restrict), so that
 * the compiler may not route the loads through a read-only data path; the same loads otherwise. */
ONE_PASS read_pass_plain(__global VT *in, __global float *out, uint n)
{
    uint g = get_global_size(0), i = get_global_id(0);
    VT s = in[i];
#pragma unroll
    for (uint u = 1; u < UNR; u++)
        s += in[i + u * g];
    out[i] = HSUM(s);
    (void)n;
}

ONE_PASS read_block_plain(__global VT *in, __global float *out, uint n)
{
    uint l = get_local_size(0), i = get_group_id(0) * l * UNR + get_local_id(0);
    VT s = in[i];
#pragma unroll
    for (uint u = 1; u < UNR; u++)
        s += in[i + u * l];
    out[get_global_id(0)] = HSUM(s);
    (void)n;
}

/* read_block_plain with clpeak's index arithmetic as well: a signed index that advances by the group's size
 * after each fetch, a sum from 0, no count argument (issue 21: our float16 read trailed clpeak's on the H200
 * with the same layout, pointers and groups). */
ONE_PASS read_block_int(__global VT *in, __global float *out)
{
    int l = (int)get_local_size(0), id = (int)get_group_id(0) * l * UNR + (int)get_local_id(0);
    VT s = 0;
#pragma unroll
    for (int u = 0; u < UNR; u++) {
        s += in[id];
        id += l;
    }
    out[get_global_id(0)] = HSUM(s);
}

/* The CPU's layout: each work-item sums one contiguous run (a CPU runs a group's items one after another on
 * one core, so contiguous runs stream through its prefetchers). */
__kernel void read_chunked(__global const VT *restrict in, __global float *restrict out, uint n)
{
    uint per = (n + get_global_size(0) - 1) / get_global_size(0);
    uint lo = min((uint)get_global_id(0) * per, n), hi = min(lo + per, n), i = lo;
    VT a = 0, b = 0, c = 0, d = 0;
    for (; i + 4 <= hi; i += 4) {
        a += in[i];
        b += in[i + 1];
        c += in[i + 2];
        d += in[i + 3];
    }
    for (; i < hi; i++)
        a += in[i];
    a += b + c + d;
    out[get_global_id(0)] = HSUM(a);
}

/* One element per work-item, a value that depends on the index (a constant could be compressed). */
__kernel void write_flat(__global VT *restrict out, float v)
{
    uint i = get_global_id(0);
    out[i] = (VT)((float)i * v);
}

__kernel void copy_flat(__global const VT *restrict in, __global VT *restrict out)
{
    uint i = get_global_id(0);
    out[i] = in[i];
}

/* m floats at a stride of s elements (element j at j * s), grid-stride, four in flight. */
__kernel void read_stride(__global const float *restrict in, __global float *restrict out, uint m, uint s)
{
    uint g = get_global_size(0), j = get_global_id(0);
    float a = 0, b = 0, c = 0, d = 0;
    for (; j + 3 * g < m; j += 4 * g) {
        a += in[j * s];
        b += in[(j + g) * s];
        c += in[(j + 2 * g) * s];
        d += in[(j + 3 * g) * s];
    }
    for (; j < m; j += g)
        a += in[j * s];
    out[get_global_id(0)] = a + b + c + d;
}

/* m floats at random indices below mask + 1 (a power of two), four in flight. */
__kernel void read_gather(__global const float *restrict in, __global float *restrict out, uint m, uint mask)
{
    uint g = get_global_size(0), j = get_global_id(0);
    float a = 0, b = 0, c = 0, d = 0;
    for (; j + 3 * g < m; j += 4 * g) {
        a += in[hash32(j) & mask];
        b += in[hash32(j + g) & mask];
        c += in[hash32(j + 2 * g) & mask];
        d += in[hash32(j + 3 * g) & mask];
    }
    for (; j < m; j += g)
        a += in[hash32(j) & mask];
    out[get_global_id(0)] = a + b + c + d;
}

/* n4 float4s read with vload4 from in + off floats: off 1..3 makes every load misaligned for a float4. */
__kernel void read_offset(__global const float *restrict in, __global float *restrict out, uint n4, uint off)
{
    uint g = get_global_size(0), i = get_global_id(0);
    __global const float *p = in + off;
    float4 a = 0, b = 0, c = 0, d = 0;
    for (; i + 3 * g < n4; i += 4 * g) {
        a += vload4(i, p);
        b += vload4(i + g, p);
        c += vload4(i + 2 * g, p);
        d += vload4(i + 3 * g, p);
    }
    for (; i < n4; i += g)
        a += vload4(i, p);
    a += b + c + d;
    out[get_global_id(0)] = a.x + a.y + a.z + a.w;
}
