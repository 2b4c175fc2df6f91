/* The saxpy ladder: out = a * x + y over n floats, one kernel per way of walking the array. The output is
 * out-of-place, so that every timed run reads the same inputs. */

/* One work-item per element. */
__kernel void saxpy_naive(__global const float *x, __global const float *y, __global float *out, float a,
                          uint n)
{
    uint i = get_global_id(0);
    if (i < n) out[i] = a * x[i] + y[i];
}

/* Four elements per work-item through float4 loads and stores; the last item finishes a ragged tail one
 * element at a time. */
__kernel void saxpy_vec4(__global const float *x, __global const float *y, __global float *out, float a,
                         uint n)
{
    uint i = get_global_id(0), j = 4 * i;
    if (j + 3 < n) {
        vstore4(a * vload4(i, x) + vload4(i, y), i, out);
    } else {
        for (; j < n; j++)
            out[j] = a * x[j] + y[j];
    }
}

/* A fixed grid (a few groups per compute unit) walking the array with a stride of the grid's size. */
__kernel void saxpy_stride(__global const float *x, __global const float *y, __global float *out, float a,
                           uint n)
{
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] = a * x[i] + y[i];
}
