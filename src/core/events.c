/* A run's events and the time they span, from the profiling counters. */
#include "core/events.h"
#include "model/grow.h"
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"

void cg_events_init(cg_events *e)
{
    memset(e, 0, sizeof *e);
}

void cg_events_stage(cg_events *e, const char *name)
{
    if (e->n_stages && !strcmp(e->stage[e->n_stages - 1], name)) return;
    if (e->n_stages == CG_STAGES_MAX) return;
    e->stage[e->n_stages] = name;
    e->first[e->n_stages++] = e->n;
}

cg_status cg_events_stage_times(const cg_events *e, double *sec)
{
    cg_status st = CG_OK;
    for (size_t k = 0; k < e->n_stages; k++) {
        size_t end = k + 1 < e->n_stages ? e->first[k + 1] : e->n;
        sec[k] = 0;
        for (size_t i = e->first[k]; i < end; i++) {
            cl_ulong s, t;
            CG_TRY(clGetEventProfilingInfo(e->ev[i], CL_PROFILING_COMMAND_START, sizeof s, &s, NULL));
            CG_TRY(clGetEventProfilingInfo(e->ev[i], CL_PROFILING_COMMAND_END, sizeof t, &t, NULL));
            sec[k] += t > s ? (double)(t - s) * 1e-9 : 0;
        }
    }
out:
    return st;
}

cl_event *cg_events_next(cg_events *e)
{
    void *p = e->ev;
    if (!cg_grow(&p, &e->cap, e->n, sizeof *e->ev, 8)) return NULL;
    e->ev = p;
    e->ev[e->n] = NULL;
    return &e->ev[e->n++];
}

cg_status cg_events_elapsed(cg_events *e, double *seconds)
{
    cg_status st = CG_OK;
    cl_ulong first = ~(cl_ulong)0, last = 0;
    *seconds = 0;
    CG_FAIL_IF(e->n == 0 || !e->ev[0], CG_E_RUNTIME, "a rung enqueued no command to time");
    CG_TRY(clWaitForEvents((cl_uint)e->n, e->ev));
    for (size_t i = 0; i < e->n; i++) {
        cl_ulong s, t;
        CG_TRY(clGetEventProfilingInfo(e->ev[i], CL_PROFILING_COMMAND_START, sizeof s, &s, NULL));
        CG_TRY(clGetEventProfilingInfo(e->ev[i], CL_PROFILING_COMMAND_END, sizeof t, &t, NULL));
        if (s < first) first = s;
        if (t > last) last = t;
    }
    *seconds = last > first ? (double)(last - first) * 1e-9 : 0;
out:
    return st;
}

void cg_events_clear(cg_events *e)
{
    for (size_t i = 0; i < e->n; i++)
        if (e->ev[i]) clReleaseEvent(e->ev[i]);
    e->n = e->n_stages = 0;
}

void cg_events_fini(cg_events *e)
{
    cg_events_clear(e);
    free(e->ev);
    cg_events_init(e);
}
