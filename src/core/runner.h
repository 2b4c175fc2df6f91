/* Runs a ladder: for each selected rung, requirements -> build (cache) -> warm-up -> timed runs (poison,
 * enqueue, wait, time = last end - first start, verify every run) -> one result row. */
#ifndef CG_RUNNER_H
#define CG_RUNNER_H
#include <stdbool.h>
#include "core/workload.h"
#include "model/result.h"

typedef struct cg_ceilings {
    double copy_gbps, read_gbps, mad_gflops;
} cg_ceilings;

/* Called before each rung: workload ("convolution[5x5]" when the options carry a variant), rung, its index
 * among the selected rungs (1-based) and their count. */
typedef void (*cg_progress_fn)(const char *workload, const char *rung, size_t i, size_t n, void *user);

/* Runs the rungs of w whose bit is set in `selected` (bit i = w->rungs[i]) and appends one row per rung to
 * rep, each labelled with o->variant ("" when NULL); speedups are over the first rung of this call. Returns
 * the merged status: CG_E_VERIFY when a rung's check failed, CG_E_RUNTIME when one failed to build or run,
 * CG_E_USAGE / CG_E_IO when setup refused the options or an input file. */
cg_status cg_runner_run(cg_ctx *ctx, const cg_workload *w, const bool *selected, const cg_run_opts *o,
                        const cg_ceilings *ceil, cg_report *rep, cg_progress_fn progress, void *user);

#endif
