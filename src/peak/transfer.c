/* Host<->device transfers as a curve over sizes 4 KiB .. 1 GiB: pageable (malloc'd) and pinned (a mapped
 * CL_MEM_ALLOC_HOST_PTR buffer) memory written to and read from a device buffer, and map-for-reading /
 * unmap-after-writing of an ALLOC_HOST_PTR buffer (clpeak's map test). Each figure is bytes / the command's
 * profiled start->end, best of its runs. A transfer that moves no bytes (the host pointer is the buffer, as
 * on a CPU device) is reported as zero-copy instead of a rate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "core/events.h"
#include "core/rng.h"
#include "peak/tests.h"

typedef enum { X_WRITE, X_READ, X_MAP, X_UNMAP } xop;
static const char *const op_name[] = {"write", "read", "map", "unmap"};

/* One transfer of n bytes, timed by its event; map/unmap pair up with an untimed partner. */
static cg_status once(cg_peak_env *e, xop op, cl_mem dev, void *host, size_t n, double *t)
{
    cg_status st = CG_OK;
    cl_command_queue q = e->ctx->queue;
    cg_events ev;
    cg_events_init(&ev);
    cl_event *slot = cg_events_next(&ev);
    void *p = NULL;
    CG_FAIL_IF(!slot, CG_E_RUNTIME, "out of host memory");
    if (op == X_WRITE)
        CG_TRY(clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, n, host, 0, NULL, slot));
    else if (op == X_READ)
        CG_TRY(clEnqueueReadBuffer(q, dev, CL_TRUE, 0, n, host, 0, NULL, slot));
    else if (op == X_MAP)
        CG_TRY_OBJ(p, clEnqueueMapBuffer(q, dev, CL_TRUE, CL_MAP_READ, 0, n, 0, NULL, slot, CG_ERRP));
    else {
        CG_TRY_OBJ(p, clEnqueueMapBuffer(q, dev, CL_TRUE, CL_MAP_WRITE, 0, n, 0, NULL, NULL, CG_ERRP));
        CG_TRY(clEnqueueUnmapMemObject(q, dev, p, 0, NULL, slot));
        p = NULL;
    }
    st = cg_events_elapsed(&ev, t);
out:
    if (p) clEnqueueUnmapMemObject(q, dev, p, 0, NULL, NULL);
    clFinish(q);
    cg_events_fini(&ev);
    return st;
}

static void size_name(size_t n, char *buf, size_t len)
{
    if (n >= (size_t)1 << 30)
        snprintf(buf, len, "%zu GiB", n >> 30);
    else if (n >= (size_t)1 << 20)
        snprintf(buf, len, "%zu MiB", n >> 20);
    else
        snprintf(buf, len, "%zu KiB", n >> 10);
}

static cg_status one_size(cg_peak_env *e, const char *mode, xop op, cl_mem dev, void *host, size_t n)
{
    char variant[48], sz[16];
    size_name(n, sz, sizeof sz);
    snprintf(variant, sizeof variant, "%s%s%s %s", mode ? mode : "", mode ? " " : "", op_name[op], sz);
    cg_result *row = cg_peak_add(e, variant, "GB/s");
    if (!row) return CG_E_RUNTIME;
    double t, best = 0;
    cg_status st = once(e, op, dev, host, n, &t); /* warm-up */
    int runs = e->o->quick ? 3 : cg_peak_runs_within(t, e->o->max_time, 2, 10), done = 0;
    for (int r = 0; r < runs && st == CG_OK; r++, done++)
        if ((st = once(e, op, dev, host, n, &t)) == CG_OK && (best == 0 || t < best)) best = t;
    if (st != CG_OK)
        cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    else if (cg_peak_is_zero_copy((double)n, best))
        cg_peak_set_status(row, CG_RUNG_ZERO_COPY, "zero-copy: %s of %s took %.3g us, no bytes moved",
                           op_name[op], sz, best * 1e6);
    else
        cg_peak_set_rate(row, (double)n, best, done, "bytes transferred / event start->end");
    return st;
}

/* The sizes of the curve: 4 KiB x 4^k up to 1 GiB (256 MiB on a CPU), within the device's limits: at most
 * XFER_MAX_SIZES, the length of the arrays that hold them. */
#define XFER_MAX_SIZES 16
_Static_assert(((size_t)4096 << 2 * (XFER_MAX_SIZES - 1)) > ((size_t)1 << 30),
               "4 KiB x 4^k up to 1 GiB needs more than XFER_MAX_SIZES sizes");
static size_t sizes(const cg_peak_env *e, size_t *out)
{
    const cg_device *d = e->ctx->dev;
    size_t top = (d->type & CL_DEVICE_TYPE_GPU) ? (size_t)1 << 30 : (size_t)256 << 20, k = 0;
    while (top > d->max_alloc || top > d->global_mem / 4)
        top /= 2;
    if (e->o->quick) {
        out[k++] = (size_t)64 << 10;
        out[k++] = top < ((size_t)16 << 20) ? top : (size_t)16 << 20;
        return k;
    }
    for (size_t n = 4096; n <= top; n *= 4)
        out[k++] = n;
    return k;
}

/* A mode whose largest transfer moved no bytes moves none at any size: every size is zero-copy. */
static void zero_copy_curve(cg_report *rep, size_t first)
{
    if (rep->n <= first || rep->rows[rep->n - 1].status != CG_RUNG_ZERO_COPY) return;
    for (size_t i = first; i < rep->n; i++)
        if (rep->rows[i].status == CG_RUNG_OK)
            cg_peak_set_status(&rep->rows[i], CG_RUNG_ZERO_COPY,
                               "zero-copy: the largest size moved no bytes");
}

static cg_status curve(cg_peak_env *e, const char *mode, xop op, cl_mem dev, void *host)
{
    size_t n[XFER_MAX_SIZES], k = sizes(e, n), first = e->rep->n;
    cg_status st = CG_OK;
    for (size_t i = 0; i < k && st == CG_OK; i++)
        st = one_size(e, mode, op, dev, host, n[i]);
    zero_copy_curve(e->rep, first);
    return st;
}

/* Host memory of n bytes with random contents (one random MiB repeated: links do not compress). */
static void *random_host(const cg_peak_env *e, size_t n)
{
    unsigned char *h = malloc(n);
    if (!h) return NULL;
    size_t chunk = n < ((size_t)1 << 20) ? n : (size_t)1 << 20;
    cg_rng r;
    cg_rng_init(&r, e->o->seed);
    cg_rng_fill_bytes(&r, h, chunk);
    for (size_t off = chunk; off < n; off += chunk)
        memcpy(h + off, h, n - off < chunk ? n - off : chunk);
    return h;
}

static size_t top_size(const cg_peak_env *e)
{
    size_t n[XFER_MAX_SIZES], k = sizes(e, n);
    return n[k - 1];
}

cg_status cg_peak_xfer_pageable(cg_peak_env *e)
{
    cg_status st = CG_OK;
    size_t top = top_size(e);
    cl_mem dev = NULL;
    void *host = random_host(e, top);
    CG_FAIL_IF(!host, CG_E_RUNTIME, "out of host memory for a %zu-byte transfer buffer", top);
    CG_TRY_OBJ(dev, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, top, NULL, CG_ERRP));
    if ((st = curve(e, "pageable", X_WRITE, dev, host)) == CG_OK)
        st = curve(e, "pageable", X_READ, dev, host);
out:
    if (dev) clReleaseMemObject(dev);
    free(host);
    return st;
}

cg_status cg_peak_xfer_pinned(cg_peak_env *e)
{
    cg_status st = CG_OK;
    size_t top = top_size(e);
    cl_mem dev = NULL, pin = NULL;
    void *host = NULL, *src = random_host(e, top);
    cl_command_queue q = e->ctx->queue;
    CG_FAIL_IF(!src, CG_E_RUNTIME, "out of host memory for a %zu-byte transfer buffer", top);
    CG_TRY_OBJ(dev, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, top, NULL, CG_ERRP));
    CG_TRY_OBJ(
        pin, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, top, NULL, CG_ERRP));
    CG_TRY_OBJ(host, clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, top, 0, NULL, NULL,
                                        CG_ERRP));
    memcpy(host, src, top);
    if ((st = curve(e, "pinned", X_WRITE, dev, host)) == CG_OK) st = curve(e, "pinned", X_READ, dev, host);
out:
    if (host) clEnqueueUnmapMemObject(q, pin, host, 0, NULL, NULL);
    clFinish(q);
    if (pin) clReleaseMemObject(pin);
    if (dev) clReleaseMemObject(dev);
    free(src);
    return st;
}

cg_status cg_peak_xfer_map(cg_peak_env *e)
{
    cg_status st = CG_OK;
    size_t top = top_size(e);
    cl_mem pin = NULL;
    CG_TRY_OBJ(
        pin, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, top, NULL, CG_ERRP));
    if ((st = cg_peak_fill_random(e, pin, top / 4)) != CG_OK) goto out;
    if ((st = curve(e, NULL, X_MAP, pin, NULL)) == CG_OK) st = curve(e, NULL, X_UNMAP, pin, NULL);
out:
    if (pin) clReleaseMemObject(pin);
    return st;
}
