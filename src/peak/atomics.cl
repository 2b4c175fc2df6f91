/* Atomic-add throughput, built with -DLSZ=<work-group size>. Work-item i adds 1 to counter (i & mask) iters
 * times: mask 0 puts every work-item on one address, a larger mask spreads them. */
#ifndef LSZ
#define LSZ 256
#endif

__kernel void atomic_global(__global uint *ctr, uint mask, uint iters)
{
    volatile __global uint *p = ctr + (get_global_id(0) & mask);
    for (uint i = 0; i < iters; i++)
        atomic_add(p, 1u);
}

/* The same on a group's local counters; work-item 0 writes the group's total. */
__kernel __attribute__((reqd_work_group_size(LSZ, 1, 1))) void atomic_local(__global uint *out, uint mask,
                                                                            uint iters)
{
    __local uint cnt[LSZ];
    uint lid = get_local_id(0);
    cnt[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    volatile __local uint *p = cnt + (lid & mask);
    for (uint i = 0; i < iters; i++)
        atomic_add(p, 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        uint s = 0;
        for (uint j = 0; j < LSZ; j++)
            s += cnt[j];
        out[get_group_id(0)] = s;
    }
}
