/* The reduction ladder (sum of N floats), after Harris, "Optimizing parallel reduction in CUDA", in
 * OpenCL 1.2.
 *
 * Build options (from the rung's parameters, see reduction.c):
 *   WG       work-group size, a power of two; every kernel requires exactly this local size
 *   LOADS    multi-pass kernels: elements each work-item adds while loading (the rungs: 1 or 2; tuning: 1-16);
 *            grid kernels: independent float4 accumulators per work-item (loads in flight)
 *   USE_PTX  NVIDIA only: reduce_vec4's in-group sum uses warp shuffles through inline PTX
 *
 * Multi-pass kernels (reduce_naive, reduce_strided, reduce_seq) turn n values into one partial per
 * work-group; the host launches them again on the partials until one value is left. The grid kernels
 * (reduce_vec4, reduce_chunks) run a fixed number of groups over the whole input, then once more as one
 * group over the partials. Loads past n are guarded everywhere: n need not be a multiple of anything. */

#ifndef WG
#define WG 256
#endif
#ifndef LOADS
#define LOADS 1
#endif

#define REQD_WG __attribute__((reqd_work_group_size(WG, 1, 1)))

/* 1. Interleaved addressing: active work-items are those with lid % (2*s) == 0, so every warp/wave keeps
 * diverging and the modulo is slow. */
__kernel REQD_WG void reduce_naive(__global const float *in, __global float *out, uint n)
{
    __local float s[WG];
    uint lid = get_local_id(0);
    uint gid = get_global_id(0);
    s[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint st = 1; st < WG; st *= 2) {
        if (lid % (2 * st) == 0) s[lid] += s[lid + st];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) out[get_group_id(0)] = s[0];
}

/* 2. Interleaved addressing with a strided index: the first work-items of the group do the work (no
 * divergence inside a warp until the very end), but index 2*s*lid hits the same local-memory banks many
 * times over. */
__kernel REQD_WG void reduce_strided(__global const float *in, __global float *out, uint n)
{
    __local float s[WG];
    uint lid = get_local_id(0);
    uint gid = get_global_id(0);
    s[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint st = 1; st < WG; st *= 2) {
        uint idx = 2 * st * lid;
        if (idx < WG) s[idx] += s[idx + st];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) out[get_group_id(0)] = s[0];
}

/* The in-group tree with sequential addressing: the active half reads the other half at a fixed offset, so
 * consecutive work-items touch consecutive banks (no conflicts) and whole warps retire together. */
float tree_sum(float v, __local float *s)
{
    uint lid = get_local_id(0);
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint st = WG / 2; st > 0; st >>= 1) {
        if (lid < st) s[lid] += s[lid + st];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return s[0];
}

/* 3 and 4. Sequential addressing; with LOADS = 2 each work-item adds two elements (WG apart, so loads stay
 * coalesced) while loading, which halves the number of groups and the idle half of the first tree step. */
__kernel REQD_WG void reduce_seq(__global const float *in, __global float *out, uint n)
{
    __local float s[WG];
    uint lid = get_local_id(0);
    uint base = get_group_id(0) * (WG * LOADS) + lid;
    float v = 0.0f;
    for (uint k = 0; k < LOADS; k++) {
        uint i = base + k * WG;
        if (i < n) v += in[i];
    }
    float r = tree_sum(v, s);
    if (lid == 0) out[get_group_id(0)] = r;
}

#ifdef USE_PTX
#if WG % 32 != 0 || WG > 1024
#error "USE_PTX needs WG a multiple of 32 and at most 1024"
#endif
/* Sum over the 32 lanes of a warp; lane 0 gets the total. */
float warp_sum(float v)
{
    for (uint off = 16; off > 0; off >>= 1) {
        float r;
        asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=f"(r) : "f"(v), "r"(off));
        v += r;
    }
    return v;
}

/* Warp shuffles, one local-memory round trip for the warp totals, shuffles again in the first warp. */
float group_sum(float v, __local float *s)
{
    uint lid = get_local_id(0);
    v = warp_sum(v);
    if ((lid & 31) == 0) s[lid >> 5] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = lid < WG / 32 ? s[lid] : 0.0f;
    if (lid < 32) v = warp_sum(v);
    return v; /* valid in work-item 0 */
}
#else
float group_sum(float v, __local float *s)
{
    return tree_sum(v, s);
}
#endif

/* 5, 6 and 7. Grid-stride loop over float4: a fixed grid (groups = k x compute units) walks the input, each
 * work-item keeping LOADS independent float4 accumulators so that LOADS 16-byte loads are in flight at once;
 * the loads of one step are a whole grid apart, so each one is coalesced. n counts floats; the last n % 4 are
 * added one by one. Run with one group on the partials, the same kernel is the small second stage. */
__kernel REQD_WG void reduce_vec4(__global const float4 *in, __global float *out, uint n)
{
    __local float s[WG];
    uint gid = get_global_id(0);
    uint stride = get_global_size(0);
    uint n4 = n / 4;
    float4 acc[LOADS];
    for (uint k = 0; k < LOADS; k++)
        acc[k] = (float4)(0.0f);
    uint i = gid;
    for (; i + (LOADS - 1) * stride < n4; i += LOADS * stride) {
#pragma unroll
        for (uint k = 0; k < LOADS; k++)
            acc[k] += in[i + k * stride];
    }
    for (; i < n4; i += stride)
        acc[0] += in[i];
    for (uint k = 1; k < LOADS; k++)
        acc[0] += acc[k];
    float v = (acc[0].x + acc[0].y) + (acc[0].z + acc[0].w);
    uint t = n4 * 4 + gid;
    if (t < n) v += ((__global const float *)in)[t];
    float r = group_sum(v, s);
    if (get_local_id(0) == 0) out[get_group_id(0)] = r;
}

/* 8. The CPU's layout: each work-item sums one contiguous run of float4s (LOADS accumulators over
 * consecutive vectors). A CPU runs a group's work-items one after the other on one core, so a contiguous run
 * streams through the cache and its prefetchers; a GPU's warp now touches 32 runs far apart per load and
 * loses coalescing. */
__kernel REQD_WG void reduce_chunks(__global const float4 *in, __global float *out, uint n)
{
    __local float s[WG];
    uint gid = get_global_id(0);
    uint n4 = n / 4;
    uint per = (n4 + get_global_size(0) - 1) / get_global_size(0);
    uint lo = min(gid * per, n4);
    uint hi = min(lo + per, n4);
    float4 acc[LOADS];
    for (uint k = 0; k < LOADS; k++)
        acc[k] = (float4)(0.0f);
    uint i = lo;
    for (; i + LOADS <= hi; i += LOADS) {
#pragma unroll
        for (uint k = 0; k < LOADS; k++)
            acc[k] += in[i + k];
    }
    for (; i < hi; i++)
        acc[0] += in[i];
    for (uint k = 1; k < LOADS; k++)
        acc[0] += acc[k];
    float v = (acc[0].x + acc[0].y) + (acc[0].z + acc[0].w);
    uint t = n4 * 4 + gid;
    if (t < n) v += ((__global const float *)in)[t];
    float r = tree_sum(v, s);
    if (get_local_id(0) == 0) out[get_group_id(0)] = r;
}
