/* Reading a run file from disk for `report` and `compare`: the file through core/fs (regular files only, size
 * capped), its text through the model's parser (model/load.h). */
#ifndef CG_CLI_RUNFILE_H
#define CG_CLI_RUNFILE_H
#include <stddef.h>
#include "model/load.h"

/* Reads PATH and parses it into r (initialised here; cg_report_fini frees it, also after a failure). Returns
 * 0, or -1 with one line in err: the path is not a regular file (a directory or FIFO is refused without
 * waiting or reading), cannot be read or is over CG_LOAD_MAX_BYTES; or what cg_report_parse says of its text.
 */
int cg_report_load(const char *path, cg_report *r, char *err, size_t errlen);

#endif
