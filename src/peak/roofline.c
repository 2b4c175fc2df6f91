/* The roofline's ceilings, cached per device and driver as JSON: the full figures a `clgauge peak` run saved,
 * else the quick ones; when neither exists, `peak --quick` (read, copy, fp32) is measured through the peak
 * code and cached. The cache key covers the peak kernels' sources, so a kernel change measures again. */
#include "peak/roofline.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/fs.h"
#include "core/log.h"
#include "core/program.h"
#include "peak/peak.h"

#define ROOFLINE_MAX ((size_t)1 << 20) /* a roofline cache file is a few hundred bytes */

static void cache_file(const cg_ctx *ctx, bool full, char *path, size_t len)
{
    const cg_device *d = ctx->dev;
    char hex[33], *bw = NULL, *cu = NULL;
    if (cg_program_source(ctx, "bandwidth.cl", &bw) != CG_OK) bw = NULL;
    if (cg_program_source(ctx, "compute.cl", &cu) != CG_OK) cu = NULL;
    size_t n = (bw ? strlen(bw) : 0) + (cu ? strlen(cu) : 0) + 1;
    char *src = malloc(n);
    if (src) snprintf(src, n, "%s%s", bw ? bw : "", cu ? cu : "");
    cg_cache_key_hex(cg_cache_key_make(src, "roofline-2", d->platform_name, d->name, d->driver), hex);
    free(src);
    free(cu);
    free(bw);
    snprintf(path, len, "%s/roofline-%s-%s.json", ctx->cache_dir, full ? "peak" : "quick", hex);
}

bool cg_roofline_load(const char *path, cg_roofline *r)
{
    char *buf = cg_fs_read_max(path, ROOFLINE_MAX, NULL);
    if (!buf) {
        if (errno != ENOENT)
            CG_WARN("roofline cache %s: %s; measuring again (delete it, or --no-cache)", path,
                    cg_fs_strerror(errno));
        return false;
    }
    cJSON *j = cJSON_Parse(buf);
    cJSON *c = cJSON_GetObjectItem(j, "copy_gbps"), *rd = cJSON_GetObjectItem(j, "read_gbps"),
          *m = cJSON_GetObjectItem(j, "mad_gflops");
    bool ok = cJSON_IsNumber(c) && cJSON_IsNumber(rd) && cJSON_IsNumber(m) && c->valuedouble > 0 &&
              rd->valuedouble > 0 && m->valuedouble > 0 && /* 1e999 reads as inf: refused too */
              isfinite(c->valuedouble + rd->valuedouble + m->valuedouble);
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

void cg_roofline_save(const cg_ctx *ctx, const cg_roofline *r)
{
    char path[1200];
    if (ctx->no_cache || !ctx->cache_dir[0]) return;
    cache_file(ctx, r->full, path, sizeof path);
    cg_fs_mkdirs(ctx->cache_dir);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "format", 2);
    cJSON_AddStringToObject(j, "source", r->full ? "peak" : "peak --quick");
    cJSON_AddStringToObject(j, "device", ctx->dev->name);
    cJSON_AddStringToObject(j, "driver", ctx->dev->driver);
    cJSON_AddNumberToObject(j, "copy_gbps", r->copy_gbps);
    cJSON_AddNumberToObject(j, "read_gbps", r->read_gbps);
    cJSON_AddNumberToObject(j, "mad_gflops", r->mad_gflops);
    char *text = cJSON_Print(j);
    errno = ENOMEM;
    if (!text || !cg_fs_write_atomic(path, text, strlen(text)))
        CG_WARN("cannot write roofline cache %s: %s (continuing without it)", path, strerror(errno));
    free(text);
    cJSON_Delete(j);
}

/* `peak --quick`'s read, copy and fp32 tests. */
static cg_status measure(cg_ctx *ctx, cg_roofline *out)
{
    cg_peak_opts o = {.quick = true, .max_time = 1.0, .seed = 1};
    bool sel[CG_PEAK_MAX_TESTS];
    cg_report rep;
    cg_report_init_kind(&rep, CG_KIND_PEAK);
    cg_status st = cg_peak_select(NULL, true, sel);
    if (st == CG_OK) st = cg_peak_run(ctx, &o, sel, &rep);
    cg_peak_ceilings(&rep, &out->copy_gbps, &out->read_gbps, &out->mad_gflops);
    if (st == CG_OK && !(out->copy_gbps > 0 && out->read_gbps > 0 && out->mad_gflops > 0)) {
        CG_ERROR("the roofline measurement gave no figure (copy %g, read %g GB/s, MAD %g GFLOP/s)",
                 out->copy_gbps, out->read_gbps, out->mad_gflops);
        st = CG_E_RUNTIME;
    }
    cg_report_fini(&rep);
    return st;
}

bool cg_roofline_cached(const cg_ctx *ctx, cg_roofline *out)
{
    char path[1200];
    memset(out, 0, sizeof *out);
    for (int full = 1; !ctx->no_cache && ctx->cache_dir[0] && full >= 0; full--) {
        cache_file(ctx, full, path, sizeof path);
        if (cg_roofline_load(path, out)) {
            out->from_cache = true;
            out->full = full;
            return true;
        }
    }
    return false;
}

cg_status cg_roofline_get(cg_ctx *ctx, bool no_cache, cg_roofline *out)
{
    char path[1200];
    memset(out, 0, sizeof *out);
    bool cache = !no_cache && ctx->cache_dir[0];
    for (int full = 1; cache && full >= 0; full--) {
        cache_file(ctx, full, path, sizeof path);
        if (cg_roofline_load(path, out)) {
            out->from_cache = true;
            out->full = full;
            return CG_OK;
        }
    }
    cg_status st = measure(ctx, out);
    if (st == CG_OK && cache) {
        cg_ctx c = *ctx;
        c.no_cache = false;
        cg_roofline_save(&c, out);
    }
    return st;
}
