/* Where compute starts to pay (seed 001, Apple's tuning chapter): a copy that does k flops per pixel, and
 * one dependent MAD chain against several independent ones. Built with -DSTEPS=<k / 3> for the crossover and
 * -DNCH=<chains> for the chains. */
#ifndef STEPS
#define STEPS 1
#endif
#ifndef NCH
#define NCH 1
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

/* Random pixels in [0.0625, 0.9375): inside (0, 1), where x = r * x * (c - x) with r = 3, c = 1 stays. */
__kernel void fill_unit(__global float *p, uint seed)
{
    uint i = get_global_id(0);
    float u = as_float(0x3f800000u | (hash32(i * 0x9e3779b9u ^ seed) >> 9)) - 1.0f;
    p[i] = 0.0625f + 0.875f * u;
}

/* Load one pixel, STEPS times x = r * x * (c - x) (3 flops: multiply, subtract, multiply; no a * b + c for
 * the compiler to fuse), store it. r and c are arguments, so nothing folds. */
__kernel void crossover(__global const float *restrict in, __global float *restrict out, float r, float c)
{
    uint i = get_global_id(0);
    float x = in[i];
#pragma unroll
    for (int s = 0; s < STEPS; s++)
        x = r * x * (c - x);
    out[i] = x;
}

/* NCH independent chains of x = mad(x, a, b) per work-item, 8 steps per iteration; chain j of work-item
 * i starts at (i & 63) * s + j * t. The sum of the chains is written. */
__kernel void chains(__global float *restrict out, float a, float b, float s, float t, uint iters)
{
    float x[NCH];
#pragma unroll
    for (int j = 0; j < NCH; j++)
        x[j] = (float)(get_global_id(0) & 63) * s + (float)j * t;
    for (uint i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 8; u++) {
#pragma unroll
            for (int j = 0; j < NCH; j++)
                x[j] = mad(x[j], a, b);
        }
    }
    float sum = 0;
#pragma unroll
    for (int j = 0; j < NCH; j++)
        sum += x[j];
    out[get_global_id(0)] = sum;
}
