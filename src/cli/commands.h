/* The commands. Each writes its normal output to `out` (main.c passes stdout), logs problems through cg_log,
 * and returns the status main.c turns into the exit code. */
#ifndef CG_CLI_COMMANDS_H
#define CG_CLI_COMMANDS_H
#include <stdio.h>
#include "cli/options.h"

cg_status cg_cmd_devices(const cg_opts *o, FILE *out);
/* `list`: the workloads, their rungs and options as text, or with --json as one JSON document. */
cg_status cg_cmd_list(const cg_opts *o, FILE *out);
/* `completions bash|zsh` (o->targets): the completion script on out; no or another shell: CG_E_USAGE. */
cg_status cg_cmd_completions(const cg_opts *o, FILE *out);
/* argc/argv are recorded in the report's command line. */
cg_status cg_cmd_run(const cg_opts *o, int argc, char **argv, FILE *out);
/* `clgauge tune`: run's pipeline (options, device, roofline, reports) with a search per rung in place of the
 * ladder (cli/cmd_tune.c: docs/tune.md). */
cg_status cg_cmd_tune(const cg_opts *o, int argc, char **argv, FILE *out);
/* `clgauge peak`: the device's ceilings; a full run also becomes the roofline that `run` uses. */
cg_status cg_cmd_peak(const cg_opts *o, int argc, char **argv, FILE *out);
/* report: text tables of saved runs, or --html. compare: two saved runs (exit 3 on a regression). */
cg_status cg_cmd_report(const cg_opts *o, int argc, char **argv, FILE *out);
cg_status cg_cmd_compare(const cg_opts *o, FILE *out);
/* --html, shared by run and report: the early check (gnuplot on PATH: else exit 4; PATH writable: else 5) and
 * the writing of the page (CG_E_IO when the file cannot be written, CG_E_RUNTIME when gnuplot fails). */
cg_status cg_cmd_html_check(const char *path);
struct cg_report;
cg_status cg_cmd_html_write(const struct cg_report *const *runs, size_t n, const char *path,
                            const char *command_line);
/* The report files of run and peak: --json, --csv and, for a run, --html, replaced together or none of them.
 * Each failure is one logged line naming the flag and the file (CG_E_IO; --html as cg_cmd_html_write). */
cg_status cg_cmd_write_files(const cg_opts *o, const struct cg_report *rep);

#endif
