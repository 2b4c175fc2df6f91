/* What every peak family shares on the device: one timed launch, best-of timing within --max-time, the
 * work-group size, builds of the peak .cl files, and the random fill that keeps memory compression out. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "core/clerr.h"
#include "core/events.h"
#include "core/program.h"
#include "peak/peak.h"

cg_status cg_peak_launch(cg_peak_env *e, cl_kernel k, size_t gsz, size_t lsz, double *seconds)
{
    cg_status st = CG_OK;
    cg_events ev;
    cg_events_init(&ev);
    cl_event *slot = cg_events_next(&ev);
    CG_FAIL_IF(!slot, CG_E_RUNTIME, "out of host memory");
    CG_TRY(clEnqueueNDRangeKernel(e->ctx->queue, k, 1, NULL, &gsz, lsz ? &lsz : NULL, 0, NULL, slot));
    st = cg_events_elapsed(&ev, seconds);
out:
    cg_events_fini(&ev);
    return st;
}

/* Seed 001's Listing 14-1: 2 untimed warm-ups, then the host clock around 10 enqueues and one clFinish; the
 * time of one launch is that over 10. The listing starts its clock with the warm-ups still queued; here they
 * are finished first, so that the 10 runs alone are timed. */
#define HOST_WARMUPS 2
#define HOST_BATCH   10
static cg_status host_batch(cg_peak_env *e, cl_kernel k, size_t gsz, size_t lsz, double *seconds)
{
    cg_status st = CG_OK;
    cl_command_queue q = e->ctx->queue;
    struct timespec t0, t1;
    for (int it = -HOST_WARMUPS; it < HOST_BATCH; it++) {
        if (it == 0) {
            CG_TRY(clFinish(q));
            clock_gettime(CLOCK_MONOTONIC, &t0);
        }
        CG_TRY(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, lsz ? &lsz : NULL, 0, NULL, NULL));
    }
    CG_TRY(clFinish(q));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *seconds = ((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec)) / HOST_BATCH;
    if (e->host_best == 0 || *seconds < e->host_best) e->host_best = *seconds;
out:
    return st;
}

bool cg_peak_timer_parse(const char *s, cg_peak_timer *t)
{
    static const char *const names[] = {"events", "host", "both"};
    for (int i = 0; i < 3; i++)
        if (s && !strcmp(s, names[i])) {
            *t = (cg_peak_timer)i;
            return true;
        }
    return false;
}

void cg_peak_timer_row(cg_peak_env *e, cg_result *row)
{
    cg_peak_timer t = e->o->timer;
    double host = e->host_best;
    e->host_best = 0;
    if (!row || !e->host_ok || t == CG_PEAK_TIMER_EVENTS || row->status != CG_RUNG_OK) return;
    size_t len = strlen(row->bytes_note);
    if (t == CG_PEAK_TIMER_HOST) {
        snprintf(row->bytes_note + len, sizeof row->bytes_note - len,
                 "; host timer (%d runs + clFinish) / %d", HOST_BATCH, HOST_BATCH);
        return;
    }
    cg_result copy = *row, *h = cg_report_add(e->rep); /* row may move when the report grows */
    if (!h) return;
    *h = copy;
    snprintf(h->variant, sizeof h->variant, "%.36s host-timer", copy.variant);
    cg_peak_set_rate(h, copy.amount, host, HOST_BATCH, "");
    snprintf(
        h->bytes_note, sizeof h->bytes_note,
        "%d runs after %d warm-ups, host clock around the enqueues + clFinish, / %d (seed 001); events/host "
        "time %.3f",
        HOST_BATCH, HOST_WARMUPS, HOST_BATCH, host > 0 ? copy.t_min / host : 0);
}

cg_status cg_peak_time_kernel(cg_peak_env *e, cl_kernel k, size_t gsz, size_t lsz, double *best, int *runs)
{
    double t;
    cg_status st = CG_OK;
    *best = 0;
    *runs = 0;
    bool host = e->host_ok && e->o->timer == CG_PEAK_TIMER_HOST;
    if (e->host_ok && e->o->timer != CG_PEAK_TIMER_EVENTS && (st = host_batch(e, k, gsz, lsz, &t)) == CG_OK &&
        host) {
        *best = t;
        *runs = HOST_BATCH;
        return st;
    }
    if (st == CG_OK) st = cg_peak_launch(e, k, gsz, lsz, &t); /* warm-up: caches, clocks, lazy allocation */
    if (st != CG_OK) return st;
    /* --quick: up to 10 runs within 0.1 s. Three were too few: on an H100 the copy measured right after the
     * read test (fresh 2 GiB buffers) came out 10-14% low in 3 runs of 1.4 ms, and within 1% of the full
     * figure in 10 (docs/peak.md). */
    int n = cg_peak_runs_within(t, e->o->quick ? 0.1 : e->o->max_time, e->o->quick ? 3 : 2, 10);
    for (int r = 0; r < n && st == CG_OK; r++) {
        st = cg_peak_launch(e, k, gsz, lsz, &t);
        if (st == CG_OK && (*best == 0 || t < *best)) *best = t;
        *runs += st == CG_OK;
    }
    return st;
}

size_t cg_peak_local(const cg_peak_env *e, size_t gsz)
{
    const cg_device *d = e->ctx->dev;
    if ((d->type & CL_DEVICE_TYPE_GPU) && d->max_wg >= 256 && gsz % 256 == 0) return 256;
    return 0;
}

cg_status cg_peak_build(cg_peak_env *e, const char *file, const char *options, cl_program *p)
{
    cg_build_info bi;
    return cg_program_build(e->ctx, file, options, p, &bi);
}

cg_status cg_peak_fill_random(cg_peak_env *e, cl_mem buf, size_t words)
{
    cg_status st = CG_OK;
    cl_kernel k = NULL;
    cl_uint seed = (cl_uint)(e->o->seed * 0x9E3779B97F4A7C15ull >> 32);
    if (!e->util && (st = cg_peak_build(e, "bandwidth.cl", "-DVT=float -DVW=1", &e->util)) != CG_OK)
        return st;
    CG_TRY_OBJ(k, clCreateKernel(e->util, "fill_random", CG_ERRP));
    CG_TRY(clSetKernelArg(k, 0, sizeof buf, &buf));
    CG_TRY(clSetKernelArg(k, 1, sizeof seed, &seed));
    CG_TRY(clEnqueueNDRangeKernel(e->ctx->queue, k, 1, NULL, &words, NULL, 0, NULL, NULL));
    CG_TRY(clFinish(e->ctx->queue));
out:
    if (k) clReleaseKernel(k);
    return st;
}

double cg_peak_target(const cg_peak_env *e)
{
    double target = e->o->max_time / 10;
    if (target > 0.05) target = 0.05;
    if (e->o->quick && target > 0.01) target = 0.01;
    return target;
}

cg_status cg_peak_fit_time(cg_peak_env *e, cl_kernel k, cl_uint iters_arg, size_t gsz, size_t lsz,
                           cl_uint *iters, double *best, int *runs)
{
    cg_status st = CG_OK;
    double t;
    *iters = 16;
    for (int probe = 0; probe < 2; probe++) {
        CG_TRY(clSetKernelArg(k, iters_arg, sizeof *iters, iters));
        if ((st = cg_peak_launch(e, k, gsz, lsz, &t)) != CG_OK) goto out;
        uint64_t w = cg_peak_fit_work(*iters, t, cg_peak_target(e));
        *iters = (cl_uint)(w > (1u << 30) ? 1u << 30 : w);
    }
    CG_TRY(clSetKernelArg(k, iters_arg, sizeof *iters, iters));
    st = cg_peak_time_kernel(e, k, gsz, lsz, best, runs);
out:
    return st;
}
