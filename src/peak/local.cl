/* Local-memory ceilings, built with -DLSZ=<work-group size> (a power of two, at most 256). */
#ifndef LSZ
#define LSZ 256
#endif

/* Four float4 reads per step from a group's LSZ-float4 array; the index moves with the step, so the reads
 * cannot be hoisted, and neighbouring work-items read neighbouring float4s (conflict-free). */
__kernel __attribute__((reqd_work_group_size(LSZ, 1, 1))) void local_read(__global float *out, uint iters)
{
    __local float4 buf[LSZ];
    uint lid = get_local_id(0);
    buf[lid] = (float4)(lid, lid + 1, lid + 2, lid + 3);
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 a = 0, b = 0, c = 0, d = 0;
    for (uint i = 0; i < iters; i++) {
        a += buf[(lid + i) & (LSZ - 1)];
        b += buf[(lid + i + LSZ / 4) & (LSZ - 1)];
        c += buf[(lid + i + LSZ / 2) & (LSZ - 1)];
        d += buf[(lid + i + 3 * LSZ / 4) & (LSZ - 1)];
    }
    a += b + c + d;
    out[get_global_id(0)] = a.x + a.y + a.z + a.w;
}

/* Four float reads per step at word lid * stride (+ the step): a stride of s words puts s work-items of a
 * warp on one bank (up to the bank count), so the slowdown against stride 1 shows the conflicts. */
__kernel __attribute__((reqd_work_group_size(LSZ, 1, 1))) void local_bank(__global float *out, uint iters,
                                                                          uint stride)
{
    __local float buf[4096];
    uint lid = get_local_id(0), base = lid * stride;
    for (uint j = lid; j < 4096; j += LSZ)
        buf[j] = (float)j;
    barrier(CLK_LOCAL_MEM_FENCE);
    float a = 0, b = 0, c = 0, d = 0;
    for (uint i = 0; i < iters; i++) {
        a += buf[(base + i) & 4095];
        b += buf[(base + i + 1024) & 4095];
        c += buf[(base + i + 2048) & 4095];
        d += buf[(base + i + 3072) & 4095];
    }
    out[get_global_id(0)] = a + b + c + d;
}
