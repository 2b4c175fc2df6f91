/* Image reads against the same reads from a buffer: n RGBA float texels of a w-wide image, grid-stride, four
 * in flight per work-item; each work-item writes one float of its sums. */
__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant sampler_t linear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

#define XY(t) (int2)((int)((t) % w), (int)((t) / w))
/* Linear sampling a quarter texel off the centre: every sample blends four texels. */
#define UV(t) ((float2)((float)((t) % w) + 0.75f, (float)((t) / w) + 0.75f))

__kernel void image_nearest(read_only image2d_t img, __global float *restrict out, uint w, uint n)
{
    uint g = get_global_size(0), t = get_global_id(0);
    float4 a = 0, b = 0, c = 0, d = 0;
    for (; t + 3 * g < n; t += 4 * g) {
        a += read_imagef(img, nearest, XY(t));
        b += read_imagef(img, nearest, XY(t + g));
        c += read_imagef(img, nearest, XY(t + 2 * g));
        d += read_imagef(img, nearest, XY(t + 3 * g));
    }
    a += b + c + d;
    out[get_global_id(0)] = a.x + a.y + a.z + a.w;
}

__kernel void image_linear(read_only image2d_t img, __global float *restrict out, uint w, uint n)
{
    uint g = get_global_size(0), t = get_global_id(0);
    float4 a = 0, b = 0, c = 0, d = 0;
    for (; t + 3 * g < n; t += 4 * g) {
        a += read_imagef(img, linear, UV(t));
        b += read_imagef(img, linear, UV(t + g));
        c += read_imagef(img, linear, UV(t + 2 * g));
        d += read_imagef(img, linear, UV(t + 3 * g));
    }
    a += b + c + d;
    out[get_global_id(0)] = a.x + a.y + a.z + a.w;
}

__kernel void buffer_float4(__global const float4 *restrict in, __global float *restrict out, uint w, uint n)
{
    uint g = get_global_size(0), t = get_global_id(0);
    float4 a = 0, b = 0, c = 0, d = 0;
    for (; t + 3 * g < n; t += 4 * g) {
        a += in[t];
        b += in[t + g];
        c += in[t + 2 * g];
        d += in[t + 3 * g];
    }
    a += b + c + d;
    out[get_global_id(0)] = a.x + a.y + a.z + a.w + (float)w * 0.0f;
}
