/* The files a command will write (--json, --csv, --html, --output), checked together before any device work:
 * a run that cannot write its results, or that names one file for two outputs, stops before it measures. */
#ifndef CG_CLI_OUTPUTS_H
#define CG_CLI_OUTPUTS_H
#include <stddef.h>
#include "core/status.h"

typedef struct cg_out_file {
    const char *flag; /* "--json" */
    const char *path; /* NULL: not given */
} cg_out_file;

/* Refuses two outputs naming the same file (both "-", the same existing file through any link, or the same
 * new name in the same directory): CG_E_USAGE with one line naming both options. Then checks each path with
 * cg_safefile_check (directory exists and is writable, not a directory, name not too long): CG_E_IO with one
 * line naming the option, the path and the reason. Creates nothing. */
cg_status cg_cli_check_outputs(const cg_out_file *files, size_t n);

#endif
