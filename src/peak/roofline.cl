/* The two quick ceilings of the roofline: float4 copy and read bandwidth, and the fp32 MAD rate. */

__kernel void copy4(__global const float4 *restrict in, __global float4 *restrict out)
{
    size_t i = get_global_id(0);
    out[i] = in[i];
}

/* Grid-stride read of n4 float4s with eight independent accumulators, so that eight 16-byte loads per
 * work-item are in flight; each step's loads are a whole grid apart, so every load is coalesced. Each
 * work-item writes one float (so the compiler cannot drop the loads; under 0.1% of the bytes read). */
__kernel void read4(__global const float4 *restrict in, __global float *restrict out, uint n4)
{
    uint g = get_global_size(0), i = get_global_id(0);
    float4 a = (float4)(0.0f), b = a, c = a, d = a, e = a, f = a, h = a, k = a;
    for (; i + 7 * g < n4; i += 8 * g) {
        a += in[i];
        b += in[i + g];
        c += in[i + 2 * g];
        d += in[i + 3 * g];
        e += in[i + 4 * g];
        f += in[i + 5 * g];
        h += in[i + 6 * g];
        k += in[i + 7 * g];
    }
    for (; i < n4; i += g)
        a += in[i];
    a += b + c + d + e + f + h + k;
    out[get_global_id(0)] = a.x + a.y + a.z + a.w;
}

/* The CPU's layout of the same read: each work-item sums one contiguous run of float4s (a CPU runs a
 * group's work-items one after another on one core, so contiguous runs stream through its prefetchers).
 * The read ceiling is the better of read4 and read4_chunked. */
__kernel void read4_chunked(__global const float4 *restrict in, __global float *restrict out, uint n4)
{
    uint per = (n4 + get_global_size(0) - 1) / get_global_size(0);
    uint lo = min((uint)get_global_id(0) * per, n4), hi = min(lo + per, n4), i = lo;
    float4 a = (float4)(0.0f), b = a, c = a, d = a;
    for (; i + 4 <= hi; i += 4) {
        a += in[i];
        b += in[i + 1];
        c += in[i + 2];
        d += in[i + 3];
    }
    for (; i < hi; i++)
        a += in[i];
    a += b + c + d;
    out[get_global_id(0)] = a.x + a.y + a.z + a.w;
}

/* MAD_ITERS x 16 float16 MADs in 4 independent chains (4 x 16 lanes x 4 steps, 2 FLOPs each) per work-item:
 * wide vectors and independent chains keep a CPU's SIMD pipes and a GPU's FMA units busy. The coefficients
 * keep the values bounded; the result is written so nothing is dead. */
__kernel void mad16(__global float *restrict out, float a, float b)
{
    float s = (float)get_global_id(0) * 1e-7f;
    float16 x0 = (float16)(s) + (float16)(0.0f, 1e-3f, 2e-3f, 3e-3f, 4e-3f, 5e-3f, 6e-3f, 7e-3f, 8e-3f, 9e-3f,
                                          1e-2f, 1.1e-2f, 1.2e-2f, 1.3e-2f, 1.4e-2f, 1.5e-2f);
    float16 x1 = x0 + 0.1f, x2 = x0 + 0.2f, x3 = x0 + 0.3f;
    for (int i = 0; i < MAD_ITERS; i++) {
        x0 = mad(x0, a, b);
        x1 = mad(x1, a, b);
        x2 = mad(x2, a, b);
        x3 = mad(x3, a, b);
        x0 = mad(x0, a, b);
        x1 = mad(x1, a, b);
        x2 = mad(x2, a, b);
        x3 = mad(x3, a, b);
        x0 = mad(x0, a, b);
        x1 = mad(x1, a, b);
        x2 = mad(x2, a, b);
        x3 = mad(x3, a, b);
        x0 = mad(x0, a, b);
        x1 = mad(x1, a, b);
        x2 = mad(x2, a, b);
        x3 = mad(x3, a, b);
    }
    float16 r = x0 + x1 + x2 + x3;
    float8 h = r.lo + r.hi;
    float4 q = h.lo + h.hi;
    out[get_global_id(0)] = q.x + q.y + q.z + q.w;
}
