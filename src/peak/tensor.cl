/* Tensor-core ceiling (NVIDIA, compute capability 8.0 or above, inline PTX): NCH independent accumulators per
 * warp, each taking mma.sync.m16n8k8 TF32 products of fixed fragments, 4 x iters times (-DNCH=2, 4 or 8).
 * The fragments are TF32 values that depend on the lane (A[m][k] = av (1 + k % 4), B[k][n] = bv (1 + n % 4)),
 * and every accumulator goes into the work-item's sum, which the host replays. */
#define MMA(d)                                                                                                \
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "   \
                 "{%8, %9}, {%0, %1, %2, %3};"                                                                \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                             \
                 : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b))

__kernel void mma_chains(__global float *restrict out, float av, float bv, uint iters)
{
    int lane = get_local_id(0) & 31;
    uint a = as_uint(av * (float)(1 + (lane & 3))), b = as_uint(bv * (float)(1 + ((lane >> 2) & 3)));
    float d[NCH][4];
#pragma unroll
    for (int c = 0; c < NCH; c++)
        d[c][0] = d[c][1] = d[c][2] = d[c][3] = 0.0f;
    for (uint i = 0; i < iters; i++) {
#pragma unroll
        for (int s = 0; s < 4; s++)
#pragma unroll
            for (int c = 0; c < NCH; c++)
                MMA(d[c]);
    }
    float sum = 0.0f;
#pragma unroll
    for (int c = 0; c < NCH; c++)
        sum += (d[c][0] + d[c][1]) + (d[c][2] + d[c][3]);
    out[get_global_id(0)] = sum;
}
