/* What every command that writes reports shares: the early check that an output path is writable, and the
 * run metadata (time, command line, device) recorded in every report. */
#ifndef CG_CLI_META_H
#define CG_CLI_META_H
#include <stddef.h>
#include "core/device.h"
#include "core/status.h"
#include "report/result.h"

/* Fails early (before any measurement) when `path` cannot be created: CG_E_IO with one line naming the flag
 * and the path. NULL and "-" (stdout) pass. A file that did not exist before is removed again. */
cg_status cg_cli_check_writable(const char *flag, const char *path);
/* "2026-11-22T03:20:52Z", now. */
void cg_cli_time_utc(char *buf, size_t len);
/* argv joined by spaces, cut at len. */
void cg_cli_command_line(char *buf, size_t len, int argc, char **argv);
/* The device fields every report records. */
void cg_cli_fill_device(cg_report_device *rd, const cg_device *d);

#endif
