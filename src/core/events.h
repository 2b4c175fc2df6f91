/* The events of one timed run: a rung enqueues one or many commands and records each one's event here; the
 * run's time is the last end minus the first start (profiling counters). */
#ifndef CG_EVENTS_H
#define CG_EVENTS_H
#include <stddef.h>
#include "core/cl.h"
#include "core/status.h"

typedef struct cg_events {
    cl_event *ev;
    size_t n, cap;
} cg_events;

void cg_events_init(cg_events *e);
/* A slot for the next command's event (pass it as the event argument of clEnqueue*); NULL when out of memory.
 */
cl_event *cg_events_next(cg_events *e);
/* Seconds from the first command's start to the last one's end; waits for them. CG_E_RUNTIME on failure. */
cg_status cg_events_elapsed(cg_events *e, double *seconds);
/* Releases the recorded events and empties the list (capacity is kept). */
void cg_events_clear(cg_events *e);
void cg_events_fini(cg_events *e);

#endif
