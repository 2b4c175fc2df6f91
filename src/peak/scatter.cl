/* Random scatter against random gather (seed 000: on a CPU they cost about the same, a GPU wants coalesced
 * writes) and strided columns at power-of-two pitches against pitches one float longer (seed 002: the
 * address bits above the lowest few pick the memory channel). Each work-item reads a float, adds 1, writes. */

/* A bijection of [0, 2^m): multiplications by odd constants and xor-shifts, each invertible mod 2^m. */
static uint perm(uint x, uint m)
{
    uint mask = m >= 32 ? 0xffffffffu : (1u << m) - 1u, s = m / 2 > 0 ? m / 2 : 1;
    x = (x * 0x2545f491u) & mask;
    x ^= x >> s;
    x = (x * 0x9e3779b1u) & mask;
    x ^= x >> s;
    return x;
}

__kernel void sc_linear(__global const float *restrict in, __global float *restrict out, uint m)
{
    uint i = get_global_id(0);
    out[i] = in[i] + 1.0f;
}

__kernel void sc_gather(__global const float *restrict in, __global float *restrict out, uint m)
{
    uint i = get_global_id(0);
    out[i] = in[perm(i, m)] + 1.0f;
}

__kernel void sc_scatter(__global const float *restrict in, __global float *restrict out, uint m)
{
    uint i = get_global_id(0);
    out[perm(i, m)] = in[i] + 1.0f;
}

/* A rows x cols matrix with a row pitch of `pitch` floats read down its columns: work-item i reads row
 * i % rows of column i / rows, so neighbouring work-items are a pitch apart; the write is coalesced. */
__kernel void sc_columns(__global const float *restrict in, __global float *restrict out, uint rows, uint pitch)
{
    uint i = get_global_id(0);
    out[i] = in[(i % rows) * pitch + i / rows] + 1.0f;
}
