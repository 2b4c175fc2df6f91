/* Image reads: read_imagef of an RGBA float image with nearest and with linear sampling, against the same
 * grid-stride reads of a float4 buffer holding the same random data. Bytes counted: 16 per sample (the
 * texel size; a linear sample blends four texels that mostly come from the texture cache). */
#include "core/clerr.h"
#include "peak/tests.h"

static cg_status time_kernel(cg_peak_env *e, cl_program p, const char *name, cl_mem src, cl_mem out,
                             cl_uint w, cl_uint n, const char *variant)
{
    cg_status st = CG_OK;
    cl_kernel k = NULL;
    double best = 0;
    int runs = 0;
    size_t g = (size_t)e->ctx->dev->compute_units * 2048;
    if (g > n / 4) g = n / 4;
    g -= g % 256;
    cg_result *row = cg_peak_add(e, variant, "GB/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    CG_TRY_OBJ(k, clCreateKernel(p, name, CG_ERRP));
    CG_TRY(clSetKernelArg(k, 0, sizeof src, &src));
    CG_TRY(clSetKernelArg(k, 1, sizeof out, &out));
    CG_TRY(clSetKernelArg(k, 2, sizeof w, &w));
    CG_TRY(clSetKernelArg(k, 3, sizeof n, &n));
    if ((st = cg_peak_time_kernel(e, k, g, cg_peak_local(e, g), &best, &runs)) == CG_OK)
        cg_peak_set_rate(row, 16.0 * n, best, runs, "16 B per sample (one RGBA float texel)");
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    if (k) clReleaseKernel(k);
    return st;
}

static size_t side(const cg_peak_env *e)
{
    size_t w = (e->ctx->dev->type & CL_DEVICE_TYPE_GPU) ? 8192
               : e->o->quick                            ? 512
                                                        : 1024,
           max_w = 0, max_h = 0;
    clGetDeviceInfo(e->ctx->dev->id, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof max_w, &max_w, NULL);
    clGetDeviceInfo(e->ctx->dev->id, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof max_h, &max_h, NULL);
    while (w > 256 && (w > max_w || w > max_h || w * w * 16 > e->ctx->dev->max_alloc))
        w /= 2;
    return w;
}

cg_status cg_peak_image(cg_peak_env *e)
{
    cg_status st = CG_OK;
    cl_program p = NULL;
    cl_mem buf = NULL, img = NULL, out = NULL;
    if (!(e->ctx->features & CG_FEAT_IMAGES)) {
        cg_result *row = cg_peak_add(e, "-", "GB/s");
        if (row) cg_peak_set_status(row, CG_RUNG_UNSUPPORTED, "unsupported: the device has no image support");
        return row ? CG_OK : CG_E_RUNTIME;
    }
    size_t w = side(e), origin[3] = {0, 0, 0}, region[3] = {w, w, 1};
    cl_uint n = (cl_uint)(w * w);
    cl_image_format fmt = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = w};
    CG_TRY_OBJ(buf, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, w * w * 16, NULL, CG_ERRP));
    CG_TRY_OBJ(out, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, (size_t)n / 4 * 4 + 4, NULL, CG_ERRP));
    CG_TRY_OBJ(img, clCreateImage(e->ctx->context, CL_MEM_READ_ONLY, &fmt, &desc, NULL, CG_ERRP));
    if ((st = cg_peak_fill_random(e, buf, w * w * 4)) != CG_OK) goto out;
    CG_TRY(clEnqueueCopyBufferToImage(e->ctx->queue, buf, img, 0, origin, region, 0, NULL, NULL));
    if ((st = cg_peak_build(e, "image.cl", "", &p)) != CG_OK) goto out;
    st = time_kernel(e, p, "image_nearest", img, out, (cl_uint)w, n, "read_imagef nearest");
    if (st == CG_OK) st = time_kernel(e, p, "image_linear", img, out, (cl_uint)w, n, "read_imagef linear");
    if (st == CG_OK) st = time_kernel(e, p, "buffer_float4", buf, out, (cl_uint)w, n, "float4 buffer reads");
out:
    if (p) clReleaseProgram(p);
    if (img) clReleaseMemObject(img);
    if (out) clReleaseMemObject(out);
    if (buf) clReleaseMemObject(buf);
    return st;
}
