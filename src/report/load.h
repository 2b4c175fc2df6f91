/* Reading a run back from the JSON that `clgauge run --json` wrote, for `report` and `compare`. */
#ifndef CG_LOAD_H
#define CG_LOAD_H
#include <stddef.h>
#include "report/result.h"

/* Reads PATH into r (initialised here; cg_report_fini frees it, also after a failure). Returns 0, or -1 with
 * one line in err naming the file, what is wrong and what to do: the file cannot be read, is not valid JSON
 * (truncated or corrupt), is not a clgauge run, has another schema_version than CG_SCHEMA_VERSION, or lacks a
 * required key. Keys a version-1 writer may add later are ignored; missing optional keys read as 0 or "". */
int cg_report_load(const char *path, cg_report *r, char *err, size_t errlen);

#endif
