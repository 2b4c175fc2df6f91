/* `clgauge run --estimate`: the speed estimate tables of the workloads that have one, printed after the
 * results table. */
#ifndef CG_CLI_ESTIMATE_H
#define CG_CLI_ESTIMATE_H
#include <stdio.h>
#include "report/result.h"

/* For every workload in rep whose cg_workload has an estimate hook: its algorithms' accesses and MADs per
 * item, the rates they predict from rep's copy bandwidth and MAD rate, and the fastest measured rung of each.
 * sigma is --sigma (0: the default). */
void cg_estimates_print(const cg_report *rep, double sigma, FILE *out);

#endif
