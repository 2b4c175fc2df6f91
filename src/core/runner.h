/* Runs a ladder: for each selected rung, requirements -> build (cache) -> warm-up -> timed runs (poison,
 * enqueue, wait, time = last end - first start, verify every run) -> one result row. */
#ifndef CG_RUNNER_H
#define CG_RUNNER_H
#include <stdbool.h>
#include "core/workload.h"
#include "core/tunecache.h"
#include "model/result.h"

typedef struct cg_ceilings {
    double copy_gbps, read_gbps, mad_gflops;
} cg_ceilings;

/* Called before each rung: workload ("convolution[5x5]" when the options carry a variant), rung, its index
 * among the selected rungs (1-based) and their count. */
typedef void (*cg_progress_fn)(const char *workload, const char *rung, size_t i, size_t n, void *user);

/* Runs the rungs of w whose bit is set in `selected` (bit i = w->rungs[i]) and appends one row per rung to
 * rep, each labelled with o->variant ("" when NULL); speedups are over the first rung of this call. A rung
 * with a winner in the tuning cache (core/tunecache.h) runs with its parameters, its row saying so (params,
 * params_from "tuned"), unless o->no_tuned. Returns
 * the merged status: CG_E_VERIFY when a rung's check failed, CG_E_RUNTIME when one failed to build or run,
 * CG_E_USAGE / CG_E_IO when setup refused the options or an input file. */
cg_status cg_runner_run(cg_ctx *ctx, const cg_workload *w, const bool *selected, const cg_run_opts *o,
                        const cg_ceilings *ceil, cg_report *rep, cg_progress_fn progress, void *user);

/* One workload set up once for several rungs or candidates: cg_runner_run's parts, for `clgauge tune`. */
typedef struct cg_runner cg_runner;
/* Sets w up with o (inputs, reference, buffers): CG_OK and *out, or setup's status (nothing to close). */
cg_status cg_runner_open(cg_ctx *ctx, const cg_workload *w, const cg_run_opts *o, const cg_ceilings *ceil,
                         cg_runner **out);
/* Runs rung r (a row of the workload's table or a candidate copy of one) into a new row of rep, labelled
 * with o's variant, and points *row at it (NULL when rep could not grow: CG_E_RUNTIME). Returns the rung's
 * status as cg_runner_run merges it. */
cg_status cg_runner_rung(cg_runner *run, const cg_rung *r, cg_report *rep, cg_result **row);
/* The context it runs in. */
cg_ctx *cg_runner_ctx(const cg_runner *run);
/* Fills a row's identity (workload, rung, variant, why, size) as cg_runner_rung does, for a row of a rung
 * that is not run (a tune candidate refused before it runs). */
void cg_runner_fill_identity(const cg_runner *run, const cg_rung *r, cg_result *row);
/* The tuning-cache key of rung r in this set-up (core/tunecache.h): the device, the workload, the rung, the
 * size class of its item count and the workload options given ("filter=5x5,sigma=2"). The strings live in kb.
 */
typedef struct cg_tune_keybuf {
    char size_class[16], options[256];
    cg_tune_key k;
} cg_tune_keybuf;
void cg_runner_tune_key(const cg_runner *run, const cg_rung *r, cg_tune_keybuf *kb);
/* Tears the set-up down and frees run (NULL: nothing). */
void cg_runner_close(cg_runner *run);

#endif
