/* `clgauge run --estimate`: the speed estimate tables of the workloads that have one, printed after the
 * results table. */
#ifndef CG_CLI_ESTIMATE_H
#define CG_CLI_ESTIMATE_H
#include <stdio.h>
#include "core/workload.h"
#include "model/result.h"

/* Appends to rep->est, for every workload in rep whose cg_workload has an estimate hook: its algorithms'
 * accesses and FLOPs per item, the rates they predict from rep's copy bandwidth and MAD rate, the seed's own
 * estimate and the fastest measured rung of each. wopts: the workloads' own options given (--sigma), which
 * the estimates may depend on; NULL: none. False when out of memory (rep->est then holds what fitted). */
bool cg_estimates_fill(cg_report *rep, const cg_wopts *wopts);
/* The tables of rep->est, one per workload. */
void cg_estimates_print(const cg_report *rep, FILE *out);

#endif
