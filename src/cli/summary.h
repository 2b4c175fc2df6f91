/* The one-line summary of a run that `run --quiet` still prints (on stderr), so that a quiet run without
 * --json/--csv/--html says what happened. */
#ifndef CG_CLI_SUMMARY_H
#define CG_CLI_SUMMARY_H
#include <stdio.h>
#include "report/report.h"

/* Writes "N rungs: X ok, Y failed, Z unsupported; fastest W:R T, slowest W:R T" and a newline to f (the
 * fastest and slowest by median time among the rungs that passed; that part is left out when none did). A
 * row of a --filter sweep is named "workload[5x5]:rung". Writes nothing for a report without rows. */
void cg_cli_run_summary(const cg_report *rep, FILE *f);

#endif
