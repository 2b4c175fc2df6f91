/* The roofline's ceilings: float4 copy and read bandwidth and the fp32 MAD rate, measured with the kernels of
 * roofline.cl (the best of a few timed runs after a warm-up) and cached per device and driver as JSON. */
#include "peak/roofline.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "core/events.h"
#include "core/fs.h"
#include "core/program.h"

#define ROOF_RUNS 5
#define MAD_ITERS 256

typedef double (*rate_fn)(double seconds, const void *arg);

/* Launches k (global size gsz) warm-up + ROOF_RUNS times and returns the shortest time. */
static cg_status best_time(cg_ctx *ctx, cl_kernel k, size_t gsz, double *best)
{
    cg_status st = CG_OK;
    cg_events ev;
    cg_events_init(&ev);
    *best = 0;
    for (int r = 0; r <= ROOF_RUNS; r++) {
        double t;
        cl_event *slot = cg_events_next(&ev);
        CG_FAIL_IF(!slot, CG_E_RUNTIME, "out of host memory");
        CG_TRY(clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &gsz, NULL, 0, NULL, slot));
        if ((st = cg_events_elapsed(&ev, &t)) != CG_OK)
            goto out;
        cg_events_clear(&ev);
        if (r > 0 && (*best == 0 || t < *best))
            *best = t;
    }
out:
    cg_events_fini(&ev);
    return st;
}

static cg_status measure(cg_ctx *ctx, cg_roofline *out)
{
    cg_status st = CG_OK;
    cl_program p = NULL;
    cl_kernel kc = NULL, kr = NULL, kq = NULL, km = NULL;
    cl_mem a = NULL, b = NULL;
    bool gpu = ctx->dev->type & CL_DEVICE_TYPE_GPU;
    size_t bytes = gpu ? (size_t)1 << 30 : (size_t)32 << 20;
    while (bytes > ctx->dev->max_alloc / 2 || bytes > ctx->dev->global_mem / 4)
        bytes /= 2;
    size_t n4 = bytes / 16, mad_items = gpu ? (size_t)1 << 19 : (size_t)1 << 12;
    /* enough work-items to fill the device a few times over, each reading many float4s */
    size_t rgsz = (size_t)ctx->dev->compute_units * 2048;
    if (rgsz > n4 / 4)
        rgsz = n4 / 4;
    rgsz -= rgsz % 256;
    cl_uint n4u = (cl_uint)n4;
    float fa = 0.999f, fb = 1e-4f;
    double t;
    char opts[64];
    cg_build_info bi;
    snprintf(opts, sizeof opts, "-DMAD_ITERS=%d", MAD_ITERS);
    if ((st = cg_program_build(ctx, "roofline.cl", opts, &p, &bi)) != CG_OK)
        goto out;
    CG_TRY_OBJ(a, clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, CG_ERRP));
    CG_TRY_OBJ(b, clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, CG_ERRP));
    unsigned char pattern[4] = {0x3c, 0x1f, 0x7a, 0x3e}; /* a non-zero float, so nothing is special-cased */
    CG_TRY(clEnqueueFillBuffer(ctx->queue, a, pattern, 4, 0, bytes, 0, NULL, NULL));
    CG_TRY_OBJ(kc, clCreateKernel(p, "copy4", CG_ERRP));
    CG_TRY_OBJ(kr, clCreateKernel(p, "read4", CG_ERRP));
    CG_TRY_OBJ(kq, clCreateKernel(p, "read4_chunked", CG_ERRP));
    CG_TRY_OBJ(km, clCreateKernel(p, "mad16", CG_ERRP));
    CG_TRY(clSetKernelArg(kc, 0, sizeof a, &a));
    CG_TRY(clSetKernelArg(kc, 1, sizeof b, &b));
    CG_TRY(clSetKernelArg(kr, 0, sizeof a, &a));
    CG_TRY(clSetKernelArg(kr, 1, sizeof b, &b));
    CG_TRY(clSetKernelArg(kr, 2, sizeof n4u, &n4u));
    CG_TRY(clSetKernelArg(kq, 0, sizeof a, &a));
    CG_TRY(clSetKernelArg(kq, 1, sizeof b, &b));
    CG_TRY(clSetKernelArg(kq, 2, sizeof n4u, &n4u));
    CG_TRY(clSetKernelArg(km, 0, sizeof b, &b));
    CG_TRY(clSetKernelArg(km, 1, sizeof fa, &fa));
    CG_TRY(clSetKernelArg(km, 2, sizeof fb, &fb));
    if ((st = best_time(ctx, kc, n4, &t)) != CG_OK)
        goto out;
    out->copy_gbps = 2.0 * (double)bytes / t * 1e-9;
    if ((st = best_time(ctx, kr, rgsz, &t)) != CG_OK)
        goto out;
    out->read_gbps = (double)(n4 * 16) / t * 1e-9;
    if ((st = best_time(ctx, kq, rgsz, &t)) != CG_OK)
        goto out;
    if ((double)(n4 * 16) / t * 1e-9 > out->read_gbps)
        out->read_gbps = (double)(n4 * 16) / t * 1e-9;
    if ((st = best_time(ctx, km, mad_items, &t)) != CG_OK)
        goto out;
    out->mad_gflops = (double)mad_items * MAD_ITERS * 16 * 16 * 2 / t * 1e-9;
out:
    if (km)
        clReleaseKernel(km);
    if (kq)
        clReleaseKernel(kq);
    if (kr)
        clReleaseKernel(kr);
    if (kc)
        clReleaseKernel(kc);
    if (b)
        clReleaseMemObject(b);
    if (a)
        clReleaseMemObject(a);
    if (p)
        clReleaseProgram(p);
    return st;
}

static void cache_file(const cg_ctx *ctx, char *path, size_t len)
{
    const cg_device *d = ctx->dev;
    char hex[33];
    char *src = NULL;
    if (cg_program_source(ctx, "roofline.cl", &src) != CG_OK)
        src = NULL;
    cg_cache_key_hex(cg_cache_key_make(src, "roofline", d->platform_name, d->name, d->driver), hex);
    free(src);
    snprintf(path, len, "%s/roofline-%s.json", ctx->cache_dir, hex);
}

static bool load(const char *path, cg_roofline *r)
{
    char *buf = cg_fs_read(path, NULL);
    if (!buf)
        return false;
    cJSON *j = cJSON_Parse(buf);
    cJSON *c = cJSON_GetObjectItem(j, "copy_gbps"), *rd = cJSON_GetObjectItem(j, "read_gbps"),
          *m = cJSON_GetObjectItem(j, "mad_gflops");
    bool ok = cJSON_IsNumber(c) && cJSON_IsNumber(rd) && cJSON_IsNumber(m) && c->valuedouble > 0 &&
              rd->valuedouble > 0 && m->valuedouble > 0;
    if (ok) {
        r->copy_gbps = c->valuedouble;
        r->read_gbps = rd->valuedouble;
        r->mad_gflops = m->valuedouble;
    } else {
        CG_WARN("roofline cache %s is corrupt; measuring again", path);
    }
    cJSON_Delete(j);
    free(buf);
    return ok;
}

static void store(const cg_ctx *ctx, const char *path, const cg_roofline *r)
{
    char tmp[1300];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    cg_fs_mkdirs(ctx->cache_dir);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "format", 1);
    cJSON_AddStringToObject(j, "device", ctx->dev->name);
    cJSON_AddStringToObject(j, "driver", ctx->dev->driver);
    cJSON_AddNumberToObject(j, "copy_gbps", r->copy_gbps);
    cJSON_AddNumberToObject(j, "read_gbps", r->read_gbps);
    cJSON_AddNumberToObject(j, "mad_gflops", r->mad_gflops);
    char *text = cJSON_Print(j);
    FILE *f = text ? fopen(tmp, "wb") : NULL;
    bool ok = f && fputs(text, f) >= 0;
    if (f)
        ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        CG_WARN("cannot write roofline cache %s: %s (continuing without it)", path, strerror(errno));
    }
    free(text);
    cJSON_Delete(j);
}

cg_status cg_roofline_get(cg_ctx *ctx, bool no_cache, cg_roofline *out)
{
    char path[1200];
    memset(out, 0, sizeof *out);
    bool cache = !no_cache && ctx->cache_dir[0];
    if (cache) {
        cache_file(ctx, path, sizeof path);
        if (load(path, out)) {
            out->from_cache = true;
            return CG_OK;
        }
    }
    cg_status st = measure(ctx, out);
    if (st == CG_OK && cache)
        store(ctx, path, out);
    return st;
}
