/* Overheads (seed 001, Apple's GPU tuning chapter: "allocating and releasing OpenCL resources takes time",
 * "aggregate several transfers into one large transfer", "events on the GPU are expensive"), all timed with
 * the host clock (CLOCK_MONOTONIC), since what is measured is the host's cost of an API call: alloc
 * create+release of a buffer and of an RGBA8 2D image of 4 KiB .. 256 MiB, and the first 1-byte write into a
 * fresh one (where a lazy runtime really allocates), beside a second write; transfers N x 4 KiB writes
 * (reads) against one write (read) of N x 4 KiB, each batch ended by clFinish; events    a batch of launches
 * of a tiny kernel, with a NULL event and with an event requested; queues    many independent small kernels
 * on an in-order and on an out-of-order queue. Every figure is checked: transfers read back and compared,
 * every launch writes values the host replays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/clerr.h"
#include "core/rng.h"
#include "peak/tests.h"

#define MARK_ITEMS 64 /* work-items of one "mark" launch */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- alloc: create+release, and the first use ------------------------------------------------------ */

/* The sizes: 4 KiB x 16^k up to 256 MiB within the device's limits (4 KiB and 1 MiB with --quick). */
static size_t alloc_sizes(const cg_peak_env *e, size_t *out)
{
    const cg_device *d = e->ctx->dev;
    size_t k = 0;
    for (size_t n = CG_PEAK_SIZE_MIN; n <= ((size_t)256 << 20); n *= e->o->quick ? 256 : 16)
        if (n <= d->max_alloc && n <= d->global_mem / 4) out[k++] = n;
    return k;
}

typedef struct alloc_obj {
    bool image;
    size_t w, h; /* image: pixels; buffer: w bytes */
} alloc_obj;

static cl_mem create_obj(cg_peak_env *e, const alloc_obj *a, cl_int *err)
{
    if (!a->image) return clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, a->w, NULL, err);
    cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = a->w, .image_height = a->h};
    return clCreateImage(e->ctx->context, CL_MEM_READ_WRITE, &fmt, &desc, NULL, err);
}

/* Writes 1 byte (buffer) or 1 pixel (image) at the object's last address, blocking: *t its host time. */
static cl_int write_last(cg_peak_env *e, const alloc_obj *a, cl_mem m, const unsigned char *v, double *t)
{
    size_t origin[3] = {a->w - 1, a->h - 1, 0}, region[3] = {1, 1, 1};
    double t0 = now();
    cl_int err = a->image
                     ? clEnqueueWriteImage(e->ctx->queue, m, CL_TRUE, origin, region, 0, 0, v, 0, NULL, NULL)
                     : clEnqueueWriteBuffer(e->ctx->queue, m, CL_TRUE, a->w - 1, 1, v, 0, NULL, NULL);
    *t = now() - t0;
    return err;
}

static cl_int read_last(cg_peak_env *e, const alloc_obj *a, cl_mem m, unsigned char *v)
{
    size_t origin[3] = {a->w - 1, a->h - 1, 0}, region[3] = {1, 1, 1};
    return a->image ? clEnqueueReadImage(e->ctx->queue, m, CL_TRUE, origin, region, 0, 0, v, 0, NULL, NULL)
                    : clEnqueueReadBuffer(e->ctx->queue, m, CL_TRUE, a->w - 1, 1, v, 0, NULL, NULL);
}

/* One sample: create+release of an unused object (*cr), then a fresh object's first and second write (*w1,
 * *w2), the written value read back: *ok false on a mismatch. */
static cg_status alloc_sample(cg_peak_env *e, const alloc_obj *a, int i, double *cr, double *w1, double *w2,
                              bool *ok)
{
    cg_status st = CG_OK;
    cl_mem m = NULL;
    unsigned char v[4] = {(unsigned char)(0xA5 ^ i), 0x5A, (unsigned char)i, 0x3C}, back[4] = {0};
    double t0 = now();
    CG_TRY_OBJ(m, create_obj(e, a, CG_ERRP));
    CG_TRY(clReleaseMemObject(m));
    *cr = now() - t0;
    CG_TRY_OBJ(m, create_obj(e, a, CG_ERRP));
    CG_TRY(write_last(e, a, m, v, w1));
    v[0] ^= 0xFF;
    CG_TRY(write_last(e, a, m, v, w2));
    CG_TRY(read_last(e, a, m, back));
    *ok = !memcmp(v, back, a->image ? 4 : 1);
out:
    if (m) clReleaseMemObject(m);
    return st;
}

static void alloc_rows(cg_peak_env *e, const char *what, size_t n, double *cr, double *w1, double *w2, int k,
                       bool ok)
{
    char variant[64], label[32];
    qsort(cr, (size_t)k, sizeof *cr, cmp_double);
    qsort(w1, (size_t)k, sizeof *w1, cmp_double);
    qsort(w2, (size_t)k, sizeof *w2, cmp_double);
    cg_peak_size_label(what, n, label, sizeof label);
    snprintf(variant, sizeof variant, "%s create+release", label);
    cg_result *row = cg_peak_add(e, variant, "us");
    if (!row) return;
    row->value = cg_peak_quantile(cr, (size_t)k, 0.5) * 1e6;
    row->runs = (size_t)k;
    snprintf(row->bytes_note, sizeof row->bytes_note,
             "host time of clCreate + clReleaseMemObject, unused; "
             "median of %d",
             k);
    snprintf(variant, sizeof variant, "%s first write", label);
    if (!(row = cg_peak_add(e, variant, "us"))) return;
    row->value = cg_peak_quantile(w1, (size_t)k, 0.5) * 1e6;
    row->runs = (size_t)k;
    snprintf(
        row->bytes_note, sizeof row->bytes_note,
        "blocking write of 1 %s at the end of a fresh object: %.3g us; a second write %.3g us; median of "
        "%d; read back and checked",
        strstr(what, "image") ? "pixel" : "byte", row->value, cg_peak_quantile(w2, (size_t)k, 0.5) * 1e6, k);
    if (!ok) cg_peak_set_status(row, CG_RUNG_WRONG, "the value written was not read back");
}

static cg_status alloc_size(cg_peak_env *e, const alloc_obj *a, const char *what, size_t n)
{
    enum { MAXS = 32 };
    double cr[MAXS], w1[MAXS], w2[MAXS], t0 = now(), budget = e->o->max_time / 8;
    int k = 0, want = e->o->quick ? 5 : MAXS;
    bool ok = true, one_ok = true;
    cg_status st = alloc_sample(e, a, -1, &cr[0], &w1[0], &w2[0], &one_ok); /* warm-up */
    while (st == CG_OK && k < want && (k < 3 || now() - t0 < budget)) {
        st = alloc_sample(e, a, k, &cr[k], &w1[k], &w2[k], &one_ok);
        ok = ok && one_ok;
        k += st == CG_OK;
    }
    if (st == CG_OK) alloc_rows(e, what, n, cr, w1, w2, k, ok);
    return st;
}

static cg_status alloc_kind(cg_peak_env *e, bool image)
{
    cg_status st = CG_OK;
    size_t n[8], k = alloc_sizes(e, n), maxw = 0, maxh = 0;
    const char *what = image ? "image" : "buffer";
    if (image && !(e->ctx->features & CG_FEAT_IMAGES)) {
        cg_result *row = cg_peak_add(e, "image", "us");
        if (row) cg_peak_set_status(row, CG_RUNG_UNSUPPORTED, "unsupported: the device has no images");
        return row ? CG_OK : CG_E_RUNTIME;
    }
    if (image) {
        CG_TRY(clGetDeviceInfo(e->ctx->dev->id, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof maxw, &maxw, NULL));
        CG_TRY(clGetDeviceInfo(e->ctx->dev->id, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof maxh, &maxh, NULL));
    }
    for (size_t i = 0; i < k && st == CG_OK; i++) {
        alloc_obj a = {image, n[i], 1};
        if (image) { /* RGBA8: 4 bytes a pixel, as square as powers of 2 allow */
            size_t px = n[i] / 4, w = 1;
            while (w * w < px)
                w *= 2;
            a.w = w;
            a.h = px / w;
            if (a.w > maxw || a.h > maxh) break;
        }
        st = alloc_size(e, &a, what, n[i]);
    }
out:
    return st;
}

cg_status cg_peak_ovh_alloc(cg_peak_env *e)
{
    cg_status st = alloc_kind(e, false);
    return st == CG_OK ? alloc_kind(e, true) : st;
}

/* ---- transfers: N x 4 KiB against one N x 4 KiB ------------------------------------------------------ */

#define CHUNK ((size_t)4 << 10)

typedef struct xfer_run {
    cl_mem dev;
    unsigned char *src, *dst;
    size_t total;
} xfer_run;

/* One batch: write (or read) total bytes in pieces of `piece`, all non-blocking, then clFinish; host time.
 * The destination is poisoned first, outside the time. */
static cg_status xfer_batch(cg_peak_env *e, xfer_run *x, bool rd, size_t piece, double *t)
{
    cg_status st = CG_OK;
    cl_command_queue q = e->ctx->queue;
    cl_uint poison = 0xCDCDCDCDu;
    if (rd)
        memset(x->dst, 0xCD, x->total);
    else
        CG_TRY(clEnqueueFillBuffer(q, x->dev, &poison, sizeof poison, 0, x->total, 0, NULL, NULL));
    CG_TRY(clFinish(q));
    double t0 = now();
    for (size_t off = 0; off < x->total; off += piece)
        if (rd)
            CG_TRY(clEnqueueReadBuffer(q, x->dev, CL_FALSE, off, piece, x->dst + off, 0, NULL, NULL));
        else
            CG_TRY(clEnqueueWriteBuffer(q, x->dev, CL_FALSE, off, piece, x->src + off, 0, NULL, NULL));
    CG_TRY(clFinish(q));
    *t = now() - t0;
out:
    return st;
}

/* Best of the batches of one piece size, then the check: what arrived equals what was sent. */
static cg_status xfer_row(cg_peak_env *e, xfer_run *x, bool rd, size_t piece, double *best)
{
    cg_status st = CG_OK;
    char variant[64], label[32];
    size_t n = x->total / piece;
    cg_peak_size_label("", piece, label, sizeof label);
    snprintf(variant, sizeof variant, "%s %zu x%s", rd ? "read" : "write", n, label);
    cg_result *row = cg_peak_add(e, variant, "GB/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    double t;
    *best = 0;
    if ((st = xfer_batch(e, x, rd, piece, &t)) != CG_OK) goto out; /* warm-up */
    int runs = cg_peak_runs_within(t, e->o->max_time / 2, 2, e->o->quick ? 3 : 10), done = 0;
    for (; done < runs && st == CG_OK; done++)
        if ((st = xfer_batch(e, x, rd, piece, &t)) == CG_OK && (*best == 0 || t < *best)) *best = t;
    if (st != CG_OK) goto out;
    char note[160];
    snprintf(note, sizeof note, "bytes / host time of %zu %s%s + clFinish (%.3g us each); read back, checked",
             n, rd ? "clEnqueueReadBuffer" : "clEnqueueWriteBuffer", n > 1 ? "s" : "",
             *best / (double)n * 1e6);
    cg_peak_set_rate(row, (double)x->total, *best, done, note);
    if (!rd) CG_TRY(clEnqueueReadBuffer(e->ctx->queue, x->dev, CL_TRUE, 0, x->total, x->dst, 0, NULL, NULL));
    for (size_t i = 0; i < x->total; i++)
        if (x->dst[i] != x->src[i]) {
            cg_peak_set_status(row, CG_RUNG_WRONG, "byte %zu: got 0x%02x, want 0x%02x (what the host sent)",
                               i, x->dst[i], x->src[i]);
            break;
        }
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    return st;
}

static cg_status xfer_dir(cg_peak_env *e, xfer_run *x, bool rd)
{
    double small, large;
    cg_status st = xfer_row(e, x, rd, CHUNK, &small);
    if (st == CG_OK) st = xfer_row(e, x, rd, x->total, &large);
    if (st != CG_OK) return st;
    cg_result *row = cg_peak_add(e, rd ? "read small/large" : "write small/large", "x");
    if (!row) return CG_E_RUNTIME;
    row->value = large > 0 ? small / large : 0;
    row->runs = 1;
    snprintf(row->bytes_note, sizeof row->bytes_note,
             "time of %zu x 4 KiB over time of one %zu KiB transfer: the cost of many small transfers",
             x->total / CHUNK, x->total >> 10);
    if (!(large > 0)) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "no time was measured");
    return CG_OK;
}

cg_status cg_peak_ovh_transfers(cg_peak_env *e)
{
    cg_status st = CG_OK;
    xfer_run x = {NULL, NULL, NULL, (size_t)(e->o->quick ? 4 : 16) << 20};
    while (x.total > CHUNK && x.total > e->ctx->dev->max_alloc)
        x.total /= 2;
    x.src = malloc(x.total);
    x.dst = malloc(x.total);
    CG_FAIL_IF(!x.src || !x.dst, CG_E_RUNTIME, "out of host memory for %zu-byte transfers", x.total);
    cg_rng r;
    cg_rng_init(&r, e->o->seed);
    cg_rng_fill_bytes(&r, x.src, x.total);
    CG_TRY_OBJ(x.dev, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, x.total, NULL, CG_ERRP));
    if ((st = xfer_dir(e, &x, false)) == CG_OK) st = xfer_dir(e, &x, true);
out:
    if (x.dev) clReleaseMemObject(x.dev);
    free(x.dst);
    free(x.src);
    return st;
}

/* ---- launches: the "mark" kernel, batches of it, and their check --------------------------------------- */

typedef struct mark_run {
    cl_program p;
    cl_kernel k;
    cl_mem out;
    size_t n;      /* launches per batch: slots of out */
    cl_uint iters; /* LCG steps per work-item */
} mark_run;

static cg_status mark_init(cg_peak_env *e, mark_run *m, size_t n, cl_uint iters)
{
    cg_status st = CG_OK;
    m->n = n;
    m->iters = iters;
    if ((st = cg_peak_build(e, "overheads.cl", "", &m->p)) != CG_OK) return st;
    CG_TRY_OBJ(m->k, clCreateKernel(m->p, "mark", CG_ERRP));
    CG_TRY_OBJ(m->out, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, n * MARK_ITEMS * 4, NULL, CG_ERRP));
    CG_TRY(clSetKernelArg(m->k, 0, sizeof m->out, &m->out));
    CG_TRY(clSetKernelArg(m->k, 2, sizeof iters, &iters));
out:
    return st;
}

static void mark_fini(mark_run *m)
{
    if (m->out) clReleaseMemObject(m->out);
    if (m->k) clReleaseKernel(m->k);
    if (m->p) clReleaseProgram(m->p);
}

/* One batch on q: the output poisoned (untimed), then n launches (each with an event when evs) and clFinish
 * under the host clock; the events are released after the clock stops. */
static cg_status mark_batch(cg_peak_env *e, mark_run *m, cl_command_queue q, cl_event *evs, double *t)
{
    cg_status st = CG_OK;
    cl_uint poison = 0xFFFFFFFFu;
    size_t g = MARK_ITEMS, done = 0;
    CG_TRY(clEnqueueFillBuffer(q, m->out, &poison, sizeof poison, 0, m->n * MARK_ITEMS * 4, 0, NULL, NULL));
    CG_TRY(clFinish(q));
    double t0 = now();
    for (; done < m->n; done++) {
        cl_uint slot = (cl_uint)done;
        CG_TRY(clSetKernelArg(m->k, 1, sizeof slot, &slot));
        CG_TRY(clEnqueueNDRangeKernel(q, m->k, 1, NULL, &g, NULL, 0, NULL, evs ? &evs[done] : NULL));
    }
    CG_TRY(clFinish(q));
    *t = now() - t0;
out:
    for (size_t i = 0; evs && i < done; i++)
        clReleaseEvent(evs[i]);
    (void)e;
    return st;
}

/* Every slot's first and last work-item against the host's replay of the kernel: a launch that was dropped
 * or a kernel whose loop was cut leaves another value. */
static cg_status mark_check(cg_peak_env *e, mark_run *m, cl_command_queue q, cg_result *row)
{
    cg_status st = CG_OK;
    cl_uint *h = malloc(m->n * MARK_ITEMS * 4);
    CG_FAIL_IF(!h, CG_E_RUNTIME, "out of host memory");
    CG_TRY(clEnqueueReadBuffer(q, m->out, CL_TRUE, 0, m->n * MARK_ITEMS * 4, h, 0, NULL, NULL));
    for (size_t s = 0; s < m->n; s++)
        for (size_t i = 0; i < MARK_ITEMS; i += MARK_ITEMS - 1) {
            cl_uint x = (cl_uint)(s * 64 + i);
            for (cl_uint k = 0; k < m->iters; k++)
                x = x * 1664525u + 1013904223u;
            if (h[s * MARK_ITEMS + i] != x) {
                cg_peak_set_status(row, CG_RUNG_WRONG,
                                   "launch %zu, work-item %zu: got %u, want %u (host replay)", s, i,
                                   h[s * MARK_ITEMS + i], x);
                goto out;
            }
        }
out:
    free(h);
    (void)e;
    return st;
}

/* A row of the host time per launch: best of the batches (a warm-up batch first), then the check. */
static cg_status mark_row(cg_peak_env *e, mark_run *m, cl_command_queue q, bool events, const char *variant,
                          const char *how, double *per)
{
    cg_status st = CG_OK;
    cl_event *evs = events ? malloc(m->n * sizeof *evs) : NULL;
    cg_result *row = cg_peak_add(e, variant, "us");
    double t, best = 0;
    int done = 0, runs = e->o->quick ? 2 : 5;
    CG_FAIL_IF(!row || (events && !evs), CG_E_RUNTIME, "out of host memory");
    for (int r = -1; r < runs && st == CG_OK; r++) /* r = -1: warm-up */
        if ((st = mark_batch(e, m, q, evs, &t)) == CG_OK && r >= 0) {
            done++;
            if (best == 0 || t < best) best = t;
        }
    if (st != CG_OK) goto out;
    *per = best / (double)m->n;
    row->value = *per * 1e6;
    row->t_min = best;
    row->runs = (size_t)done;
    snprintf(row->bytes_note, sizeof row->bytes_note,
             "host time / launch: %zu launches (%d items, %u steps), %s, + clFinish; best of %d; checked",
             m->n, MARK_ITEMS, m->iters, how, done);
    st = mark_check(e, m, q, row);
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    free(evs);
    return st;
}

static void ratio_row(cg_peak_env *e, const char *variant, double num, double den, const char *note)
{
    cg_result *row = cg_peak_add(e, variant, "x");
    if (!row) return;
    row->runs = 1;
    row->value = den > 0 ? num / den : 0;
    snprintf(row->bytes_note, sizeof row->bytes_note, "%s", note);
    if (!(den > 0) || !(num > 0)) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "a figure is missing");
}

/* A queue of this context with the given properties. */
static cg_status make_queue(cg_peak_env *e, cl_command_queue_properties props, cl_command_queue *q)
{
    cg_status st = CG_OK;
    CG_TRY_OBJ(*q, clCreateCommandQueue(e->ctx->context, e->ctx->dev->id, props, CG_ERRP));
out:
    return st;
}

cg_status cg_peak_ovh_events(cg_peak_env *e)
{
    cg_status st = CG_OK;
    mark_run m = {0};
    cl_command_queue q = NULL;
    double none = 0, ev = 0, prof = 0;
    if ((st = mark_init(e, &m, e->o->quick ? 200 : 1000, 0)) != CG_OK) goto out;
    if ((st = make_queue(e, 0, &q)) != CG_OK) goto out;
    if ((st = mark_row(e, &m, q, false, "NULL event", "NULL event", &none)) != CG_OK) goto out;
    if ((st = mark_row(e, &m, q, true, "event", "an event each", &ev)) != CG_OK) goto out;
    if ((st = mark_row(e, &m, e->ctx->queue, true, "event, profiling queue", "an event each, profiling queue",
                       &prof)) != CG_OK)
        goto out;
    ratio_row(e, "event/NULL", ev, none, "host time per launch with an event over with a NULL event");
    ratio_row(e, "profiling/NULL", prof, none,
              "host time per launch with an event on a profiling queue over with a NULL event");
out:
    if (q) clReleaseCommandQueue(q);
    mark_fini(&m);
    return st;
}

cg_status cg_peak_ovh_queues(cg_peak_env *e)
{
    cg_status st = CG_OK;
    mark_run m = {0};
    cl_command_queue in = NULL, ooo = NULL;
    cl_command_queue_properties props = 0;
    double tin = 0, tooo = 0;
    CG_TRY(clGetDeviceInfo(e->ctx->dev->id, CL_DEVICE_QUEUE_PROPERTIES, sizeof props, &props, NULL));
    cl_uint iters = (e->ctx->dev->type & CL_DEVICE_TYPE_GPU) ? 4096 : 1024; /* ~10 us on a GPU */
    if ((st = mark_init(e, &m, e->o->quick ? 64 : 256, iters)) != CG_OK) goto out;
    if ((st = make_queue(e, 0, &in)) != CG_OK) goto out;
    if ((st = mark_row(e, &m, in, false, "in-order", "in-order queue", &tin)) != CG_OK) goto out;
    if (!(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
        cg_result *row = cg_peak_add(e, "out-of-order", "us");
        CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
        cg_peak_set_status(row, CG_RUNG_UNSUPPORTED,
                           "unsupported: the device offers no CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE");
        goto out;
    }
    if ((st = make_queue(e, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &ooo)) != CG_OK) goto out;
    if ((st = mark_row(e, &m, ooo, false, "out-of-order", "out-of-order queue", &tooo)) != CG_OK) goto out;
    ratio_row(
        e, "in-order/out-of-order", tin, tooo,
        "host time of the batch on the in-order queue over on the out-of-order queue: > 1, kernels overlap");
out:
    if (ooo) clReleaseCommandQueue(ooo);
    if (in) clReleaseCommandQueue(in);
    mark_fini(&m);
    return st;
}
