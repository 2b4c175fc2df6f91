/* Tensor-core ceiling (NVIDIA, compute capability 8.0 or above, inline PTX): NCH independent accumulators per
 * warp, each taking mma.sync products of fixed fragments, 4 x iters times (-DNCH=2, 4 or 8): m16n8k8 with
 * TF32 inputs, or with -DF16 m16n8k16 with fp16 inputs (two in a register). The fragments depend on the lane
 * (TF32: A[m][k] = av (1 + k % 4), B[k][n] = bv (1 + n % 4); F16: A[m][k] = av (1 + (k % 8) / 2), B as
 * TF32's), and every accumulator goes into the work-item's sum, which the host replays. */
#ifdef F16
#define MMA(d)                                                                                                \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "    \
                 "{%8, %9}, {%0, %1, %2, %3};"                                                                \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                             \
                 : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b))

/* x in both halves of an f16x2 word */
uint both_f16(float x)
{
    uint r;
    asm("cvt.rn.f16x2.f32 %0, %1, %1;" : "=r"(r) : "f"(x));
    return r;
}
#define FRAG(x) both_f16(x)
#else
#define MMA(d)                                                                                                \
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "   \
                 "{%8, %9}, {%0, %1, %2, %3};"                                                                \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                             \
                 : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b))
#define FRAG(x) as_uint(x)
#endif

__kernel void mma_chains(__global float *restrict out, float av, float bv, uint iters)
{
    int lane = get_local_id(0) & 31;
    uint a = FRAG(av * (float)(1 + (lane & 3))), b = FRAG(bv * (float)(1 + ((lane >> 2) & 3)));
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
