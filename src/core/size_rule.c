/* The one --size helper of the ladders (cg_size_rule in core/workload.h): the default per device type, halved
 * until it fits; the forms a workload takes; and the limits every workload checks, each refused in one line
 * naming the limit and the fix: the elements the kernels can index, the largest allocation, global memory,
 * the largest 2D image. */
#include <stdio.h>
#include "core/clerr.h"
#include "core/log.h"
#include "core/pngio.h"
#include "core/workload.h"

/* "2^31-1", "2^24" or the number itself. */
static void limit_text(uint64_t v, char *buf, size_t len)
{
    int k = 0;
    while (k < 63 && (1ull << k) < v)
        k++;
    if ((1ull << k) == v)
        snprintf(buf, len, "2^%d", k);
    else if (k < 64 && v == (1ull << k) - 1)
        snprintf(buf, len, "2^%d-1", k);
    else
        snprintf(buf, len, "%llu", (unsigned long long)v);
}

static uint64_t side_max(const cg_size_rule *r)
{
    return r->max_side ? r->max_side : r->max_count;
}

/* True when a default of w x h elements fits: the count, one allocation, `buffers` of them in half the
 * global memory. */
static bool default_fits(const cg_device *d, const cg_size_rule *r, double w, double h)
{
    double bytes = w * h * r->elem_bytes, bufs = r->buffers > 1 ? r->buffers : 1;
    return w * h <= (double)r->max_count && bytes <= (double)d->max_alloc &&
           bufs * bytes <= (double)d->global_mem / 2.0;
}

static void pick_default(const cg_device *d, const cg_size_rule *r, size_t *w, size_t *h)
{
    uint64_t e = (d->type & CL_DEVICE_TYPE_GPU) ? r->dflt_gpu : r->dflt_other;
    if (r->dims == 1) {
        while (e / 2 >= r->dflt_floor && !default_fits(d, r, (double)e, 1))
            e /= 2;
        *w = (size_t)e, *h = 1;
    } else {
        while (e / 2 >= r->dflt_floor && !default_fits(d, r, (double)e, (double)e))
            e /= 2;
        *w = *h = (size_t)e;
    }
}

/* A count: at most max_count and one allocation, named together. */
static cg_status check_count(const cg_device *d, const cg_size_rule *r, size_t n)
{
    uint64_t most = (uint64_t)((double)d->max_alloc / r->elem_bytes);
    most = most < r->max_count ? most : r->max_count;
    if (n >= 1 && n <= most) return CG_OK;
    CG_ERROR(
        "%s: --size %llu %s exceeds this device's limit of %llu %s (max allocation %llu bytes): use --size "
        "<= %llu",
        r->workload, (unsigned long long)n, r->unit, (unsigned long long)most, r->unit,
        (unsigned long long)d->max_alloc, (unsigned long long)most);
    return CG_E_USAGE;
}

static cg_status check_image(const cg_ctx *ctx, const cg_size_rule *r, size_t w, size_t h)
{
    cg_status st = CG_OK;
    size_t mw = 0, mh = 0;
    if (!r->image2d || !(ctx->features & CG_FEAT_IMAGES)) return CG_OK;
    CG_TRY(clGetDeviceInfo(ctx->dev->id, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof mw, &mw, NULL));
    CG_TRY(clGetDeviceInfo(ctx->dev->id, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof mh, &mh, NULL));
    CG_FAIL_IF(
        w > mw || h > mh, CG_E_USAGE,
        "%s: %zux%zu is larger than this device's largest 2D image (%zux%zu): use a smaller --size, or "
        "--mask-features images to skip the image rungs",
        r->workload, w, h, mw, mh);
out:
    return st;
}

cg_status cg_size_check(const cg_ctx *ctx, const cg_size_rule *r, size_t w, size_t h)
{
    cg_status st = CG_OK;
    const cg_device *d = ctx->dev;
    char need[32], have[32], lim[32];
    if (r->dims == 1) return check_count(d, r, w);
    limit_text(side_max(r), lim, sizeof lim);
    CG_FAIL_IF(w == 0 || h == 0 || w > side_max(r) || h > side_max(r), CG_E_USAGE,
               "%s: --size %zux%zu must be 1 to %s %s each way, e.g. 4096x4096", r->workload, w, h, lim,
               r->unit);
    limit_text(r->max_count, lim, sizeof lim);
    CG_FAIL_IF((double)w * (double)h > (double)r->max_count, CG_E_USAGE,
               "%s: %zux%zu is not 1 to %s %s (the kernels index with int): use a smaller --size",
               r->workload, w, h, lim, r->unit);
    double bytes = (double)w * (double)h * r->elem_bytes;
    cg_format_bytes(bytes, need, sizeof need);
    cg_format_bytes((double)d->max_alloc, have, sizeof have);
    CG_FAIL_IF(bytes > (double)d->max_alloc, CG_E_USAGE,
               "%s: %zux%zu %s need a %s buffer, above this device's largest allocation (%s): use a smaller "
               "--size",
               r->workload, w, h, r->unit, need, have);
    cg_format_bytes((double)d->global_mem, have, sizeof have);
    CG_FAIL_IF(r->buffers * bytes > (double)d->global_mem, CG_E_USAGE,
               "%s: %g buffers of %s do not fit in this device's %s of global memory: use a smaller --size",
               r->workload, r->buffers, need, have);
    st = check_image(ctx, r, w, h);
out:
    return st;
}

cg_status cg_size_pick(const cg_ctx *ctx, const cg_size_rule *r, const cg_run_opts *o, size_t *w, size_t *h)
{
    const cg_size *s = &o->size;
    if (r->picture && o->input) {
        if (s->dims) {
            CG_ERROR("%s: --input %s and --size both given: the picture sets the size; drop --size",
                     r->workload, o->input);
            return CG_E_USAGE;
        }
        cg_status st = cg_png_read_size(o->input, w, h);
        if (st != CG_OK) return st;
        if ((double)*w * (double)*h > (double)r->max_count || *w > side_max(r) || *h > side_max(r)) {
            char lim[32];
            limit_text(r->max_count, lim, sizeof lim);
            CG_ERROR(
                "%s: --input %s is %zux%zu pixels, more than the %s the kernels can index: give a smaller "
                "picture",
                r->workload, o->input, *w, *h, lim);
            return CG_E_USAGE;
        }
        return cg_size_check(ctx, r, *w, *h);
    }
    if (r->dims == 1 && s->dims == 2) {
        CG_ERROR("%s takes a count of %s, not a 2D size: use e.g. --size 16M", r->workload, r->unit);
        return CG_E_USAGE;
    }
    if (s->dims == 0)
        pick_default(ctx->dev, r, w, h);
    else if (r->dims == 1 || s->dims == 1)
        *w = (size_t)s->n, *h = r->dims == 1 ? 1 : (size_t)s->n;
    else
        *w = (size_t)s->w, *h = (size_t)s->h;
    return cg_size_check(ctx, r, *w, *h);
}
