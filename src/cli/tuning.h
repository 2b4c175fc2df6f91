/* `clgauge tune`'s search (cli/cmd_tune.c), called by run's pipeline (cli/cmd_run.c) in place of the ladder.
 */
#ifndef CG_CLI_TUNING_H
#define CG_CLI_TUNING_H
#include <stdio.h>
#include "cli/options.h"
#include "cli/targets.h"
#include "core/runner.h"

/* Seconds of wall time per rung's search when --budget is not given. */
#define CG_TUNE_DEFAULT_BUDGET 120.0

/* Checks tune's own options and the selection before any device work (--strategy's word; a rung named
 * without tunable parameters, or a workload named with none: one line, CG_E_USAGE) and keeps them, with out
 * for the tables, for cg_tune_workload. */
cg_status cg_tune_configure(const cg_opts *o, const cg_targets *t, FILE *out);
/* cg_runner_run's counterpart: the search of each selected tunable rung of w, its rows appended to rep. */
cg_status cg_tune_workload(cg_ctx *ctx, const cg_workload *w, const bool *selected, const cg_run_opts *o,
                           const cg_ceilings *ceil, cg_report *rep, cg_progress_fn progress, void *user);

#endif
