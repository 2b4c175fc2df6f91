/* A run's events and the time they span, from the profiling counters. */
#include "core/events.h"
#include "model/grow.h"
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"

void cg_events_init(cg_events *e)
{
    memset(e, 0, sizeof *e);
    e->cur = CG_EVENTS_NO_STAGE;
}

void cg_events_stage(cg_events *e, const char *name)
{
    size_t i = 0;
    while (i < e->n_stages && strcmp(e->stage[i], name))
        i++;
    if (i == e->n_stages && i < CG_STAGES_MAX) e->stage[e->n_stages++] = name;
    e->cur = (unsigned char)(i < e->n_stages ? i : e->n_stages - 1);
}

cl_event *cg_events_next(cg_events *e)
{
    void *p = e->ev, *q = e->sid;
    size_t cap = e->cap;
    if (!cg_grow(&p, &cap, e->n, sizeof *e->ev, 8)) return NULL;
    e->ev = p;
    e->cap = cap;
    if (!cg_grow(&q, &e->sid_cap, e->n, sizeof *e->sid, 8)) return NULL;
    e->sid = q;
    e->sid[e->n] = e->cur;
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
    for (size_t k = 0; k < e->n_stages; k++)
        e->stage_s[k] = 0;
    for (size_t i = 0; i < e->n; i++) {
        cl_ulong s, t;
        CG_TRY(clGetEventProfilingInfo(e->ev[i], CL_PROFILING_COMMAND_START, sizeof s, &s, NULL));
        CG_TRY(clGetEventProfilingInfo(e->ev[i], CL_PROFILING_COMMAND_END, sizeof t, &t, NULL));
        if (s < first) first = s;
        if (t > last) last = t;
        if (e->sid[i] < e->n_stages) e->stage_s[e->sid[i]] += t > s ? (double)(t - s) * 1e-9 : 0;
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
    e->cur = CG_EVENTS_NO_STAGE;
}

void cg_events_fini(cg_events *e)
{
    cg_events_clear(e);
    free(e->ev);
    free(e->sid);
    cg_events_init(e);
}
