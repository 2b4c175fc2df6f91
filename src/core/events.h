/* The events of one timed run: a rung enqueues one or many commands and records each one's event here; the
 * run's time is the last end minus the first start (profiling counters). */
#ifndef CG_EVENTS_H
#define CG_EVENTS_H
#include <stddef.h>
#include "core/cl.h"
#include "core/status.h"
#include "model/result.h"

/* sid[i]: the stage of event i, an index into stage[] (CG_EVENTS_NO_STAGE before any is marked). */
#define CG_EVENTS_NO_STAGE 0xffu
typedef struct cg_events {
    cl_event *ev;
    size_t n, cap;
    unsigned char *sid;
    size_t sid_cap;
    const char *stage[CG_STAGES_MAX];
    double stage_s[CG_STAGES_MAX]; /* cg_events_elapsed: each stage's summed command time (end - start) */
    size_t n_stages;
    unsigned char cur;            /* the stage of the commands enqueued next */
    struct cg_launches *launches; /* NULL, or the log cg_enqueue_kernel records launches in (core/kfacts.h) */
} cg_events;

void cg_events_init(cg_events *e);
/* A slot for the next command's event (pass it as the event argument of clEnqueue*); NULL when out of memory.
 */
cl_event *cg_events_next(cg_events *e);
/* Seconds from the first command's start to the last one's end; waits for them. Also sums each marked stage's
 * command times (end - start) into stage_s[0..n_stages). CG_E_RUNTIME on failure. */
cg_status cg_events_elapsed(cg_events *e, double *seconds);
/* The commands enqueued from now on belong to stage `name` (a string that outlives the run: "pyramid",
 * "solve"); a name marked before continues that stage, so a loop of frames can alternate stages. Stages are
 * listed in the order first marked; past CG_STAGES_MAX names the last one grows. Commands enqueued before
 * any mark belong to no stage. Rungs that mark no stage report none. */
void cg_events_stage(cg_events *e, const char *name);
/* Releases the recorded events and empties the list and its stages (capacity is kept). */
void cg_events_clear(cg_events *e);
void cg_events_fini(cg_events *e);

#endif
