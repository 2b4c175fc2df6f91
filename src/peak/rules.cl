/* The rules a programmer should follow (seed 004, the WWDC 2010 talk's NVIDIA part): coalesced access and
 * branch granularity. Built with -DLSZ=<work-group size> (the float3 staging and the divergence kernel). */
#ifndef LSZ
#define LSZ 256
#endif

/* ---- coalescing: read a float, add 1, write it. Work-item i moves float j(i) of in to out. */

__kernel void co_coalesced(__global const float *restrict in, __global float *restrict out)
{
    uint i = get_global_id(0);
    out[i] = in[i] + 1.0f;
}

/* One work-item in 16 does nothing (the talk: one thread of a half-warp not taking part). */
__kernel void co_idle(__global const float *restrict in, __global float *restrict out)
{
    uint i = get_global_id(0);
    if ((i & 15) != 1) out[i] = in[i] + 1.0f;
}

/* Each 32-float (128-byte) segment is still read whole, but work-item i takes float (i * 7 + 3) mod 32 of
 * it: the same bytes, out of order. */
__kernel void co_permuted(__global const float *restrict in, __global float *restrict out)
{
    uint i = get_global_id(0), j = (i & ~31u) | ((i * 7u + 3u) & 31u);
    out[j] = in[j] + 1.0f;
}

/* Everything shifted by one float: no access starts a segment. */
__kernel void co_misaligned(__global const float *restrict in, __global float *restrict out)
{
    uint i = get_global_id(0) + 1;
    out[i] = in[i] + 1.0f;
}

/* One float3 (12 bytes, packed) per work-item, loaded and stored directly. */
__kernel void co_float3(__global const float *restrict in, __global float *restrict out)
{
    uint i = get_global_id(0);
    vstore3(vload3(i, in) + 1.0f, i, out);
}

/* The same float3s staged through local memory: the group reads its 3 * LSZ floats as consecutive floats
 * (coalesced), each work-item adds 1 to its float3 in local memory, the group writes them back the same way. */
__kernel __attribute__((reqd_work_group_size(LSZ, 1, 1))) void co_float3_local(__global const float *restrict in,
                                                                               __global float *restrict out)
{
    __local float buf[3 * LSZ];
    uint l = get_local_id(0), base = get_group_id(0) * 3 * LSZ;
    for (uint k = 0; k < 3; k++)
        buf[l + k * LSZ] = in[base + l + k * LSZ];
    barrier(CLK_LOCAL_MEM_FENCE);
    vstore3(vload3(l, buf) + 1.0f, l, buf);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 3; k++)
        out[base + l + k * LSZ] = buf[l + k * LSZ];
}

/* ---- divergence: work-items whose (gid / g) is even run a float MAD chain, the others an integer LCG: two
 * loops no compiler can merge into one. Where g is under the SIMD width, a SIMD unit runs both. */
__kernel __attribute__((reqd_work_group_size(LSZ, 1, 1))) void diverge(__global float *restrict out, uint g,
                                                                       float a, float b, uint iters)
{
    uint gid = get_global_id(0);
    float r;
    if ((gid / g) & 1) {
        uint u = gid;
        for (uint i = 0; i < iters; i++) {
            u = u * 1664525u + 1013904223u;
            u = u * 1664525u + 1013904223u;
            u = u * 1664525u + 1013904223u;
            u = u * 1664525u + 1013904223u;
        }
        r = -(float)(u >> 8);
    } else {
        float x = (float)(gid & 63) * 0.01f;
        for (uint i = 0; i < iters; i++) {
            x = mad(x, a, b);
            x = mad(x, a, b);
            x = mad(x, a, b);
            x = mad(x, a, b);
        }
        r = x;
    }
    out[gid] = r;
}
