/* What every command that writes reports shares: the early check that an output path is writable, and the
 * metadata block (tool, time, command line, device) recorded in every report, run or peak. */
#ifndef CG_CLI_META_H
#define CG_CLI_META_H
#include <stddef.h>
#include "cli/options.h"
#include "core/device.h"
#include "core/status.h"
#include "model/result.h"

/* Fails early (before any measurement) when `path` cannot be written (cg_cli_check_outputs of one file):
 * CG_E_IO with one line naming the flag and the path. NULL and "-" (stdout) pass. Creates nothing. */
cg_status cg_cli_check_writable(const char *flag, const char *path);
/* "2026-11-22T03:20:52Z", now. */
void cg_cli_time_utc(char *buf, size_t len);
/* argv joined by spaces, cut at len on a UTF-8 character boundary; a byte that is not valid UTF-8 becomes
 * '?', so that the line is valid in a JSON or HTML report. */
void cg_cli_command_line(char *buf, size_t len, int argc, char **argv);
/* The device block every report records (cg_device_fields); fp16 is known once cg_device_probe_fp16 ran. */
void cg_cli_fill_device(cg_report_device *rd, const cg_device *d);
/* The metadata block of rep, either kind: tool version and git commit, time, argv joined, device d. The
 * kind's options are the command's to fill. */
void cg_cli_fill_meta(cg_report *rep, const cg_device *d, int argc, char **argv);
/* Whether the text table goes to standard output: not --quiet, and no report file is "-" (stdout). */
bool cg_cli_table_wanted(const cg_opts *o);

#endif
