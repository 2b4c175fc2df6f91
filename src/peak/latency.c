/* Kernel launch latency of an empty kernel as a distribution: enqueue-to-start (profiling QUEUED -> START,
 * clpeak's definition, though clpeak launches a small kernel and averages), split at SUBMIT (QUEUED ->
 * SUBMIT: the runtime hands the command to the device; SUBMIT -> START: the device starts it), and end-to-end
 * (host clock around clEnqueueNDRangeKernel + clFinish). Rows: min, median, mean, p99 in microseconds. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "core/clerr.h"
#include "peak/tests.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The three profiling intervals of one launch: QUEUED -> START, QUEUED -> SUBMIT, SUBMIT -> START. */
typedef struct lat {
    double *qs, *qsub, *subs;
} lat;

static double span(cl_ulong a, cl_ulong b)
{
    return b > a ? (double)(b - a) * 1e-9 : 0;
}

static cg_status sample(cg_peak_env *e, cl_kernel k, const lat *l, int i, double *end_to_end)
{
    cg_status st = CG_OK;
    cl_event ev = NULL;
    size_t g = 32;
    cl_ulong q, sub, s;
    double t0 = now();
    CG_TRY(clEnqueueNDRangeKernel(e->ctx->queue, k, 1, NULL, &g, NULL, 0, NULL, &ev));
    CG_TRY(clFinish(e->ctx->queue));
    *end_to_end = now() - t0;
    CG_TRY(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, sizeof q, &q, NULL));
    CG_TRY(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_SUBMIT, sizeof sub, &sub, NULL));
    CG_TRY(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL));
    l->qs[i] = span(q, s);
    l->qsub[i] = span(q, sub);
    l->subs[i] = span(sub, s);
out:
    if (ev) clReleaseEvent(ev);
    return st;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void rows(cg_peak_env *e, const char *what, double *x, int n)
{
    static const char *const stat[] = {"min", "median", "mean", "p99"};
    double mean = 0;
    qsort(x, (size_t)n, sizeof *x, cmp);
    for (int i = 0; i < n; i++)
        mean += x[i] / n;
    double v[] = {x[0], cg_peak_quantile(x, (size_t)n, 0.5), mean, cg_peak_quantile(x, (size_t)n, 0.99)};
    for (int i = 0; i < 4; i++) {
        char variant[48];
        snprintf(variant, sizeof variant, "%s %s", what, stat[i]);
        cg_result *row = cg_peak_add(e, variant, "us");
        if (!row) return;
        row->value = v[i] * 1e6;
        row->runs = n;
        snprintf(row->bytes_note, sizeof row->bytes_note, "%d launches of an empty kernel, one at a time", n);
    }
}

cg_status cg_peak_latency(cg_peak_env *e)
{
    cg_status st = CG_OK;
    cl_program p = NULL;
    cl_kernel k = NULL;
    int cap = e->o->quick ? 200 : 5000, n = 0;
    double *qs = malloc((size_t)cap * sizeof *qs), *ee = malloc((size_t)cap * sizeof *ee), t0;
    double *qsub = malloc((size_t)cap * sizeof *qsub), *subs = malloc((size_t)cap * sizeof *subs);
    lat l = {qs, qsub, subs};
    CG_FAIL_IF(!qs || !ee || !qsub || !subs, CG_E_RUNTIME, "out of host memory");
    if ((st = cg_peak_build(e, "latency.cl", "", &p)) != CG_OK) goto out;
    CG_TRY_OBJ(k, clCreateKernel(p, "empty", CG_ERRP));
    for (int w = 0; w < 10 && st == CG_OK; w++) /* warm-up */
        st = sample(e, k, &l, 0, &ee[0]);
    t0 = now();
    while (st == CG_OK && n < cap && (n < 20 || now() - t0 < e->o->max_time)) {
        st = sample(e, k, &l, n, &ee[n]);
        n += st == CG_OK;
    }
    if (st == CG_OK) {
        rows(e, "queued->start", qs, n);
        rows(e, "queued->submit", qsub, n);
        rows(e, "submit->start", subs, n);
        rows(e, "enqueue+finish", ee, n);
    }
out:
    if (k) clReleaseKernel(k);
    if (p) clReleaseProgram(p);
    free(subs);
    free(qsub);
    free(ee);
    free(qs);
    return st;
}
