/* The commands. Each writes its normal output to `out` (main.c passes stdout), logs problems through cg_log,
 * and returns the status main.c turns into the exit code. */
#ifndef CG_CLI_COMMANDS_H
#define CG_CLI_COMMANDS_H
#include <stdio.h>
#include "cli/options.h"

cg_status cg_cmd_devices(const cg_opts *o, FILE *out);
cg_status cg_cmd_list(const cg_opts *o, FILE *out);
/* argc/argv are recorded in the report's command line. */
cg_status cg_cmd_run(const cg_opts *o, int argc, char **argv, FILE *out);

#endif
