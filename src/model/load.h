/* Reading a run back from the JSON that `clgauge run --json` wrote, for `report` and `compare`. */
#ifndef CG_LOAD_H
#define CG_LOAD_H
#include <stddef.h>
#include "model/result.h"

/* Parses text (len bytes, NUL-terminated: the whole of the file PATH names, which only labels the messages)
 * into r (initialised here; cg_report_fini frees it, also after a failure). Returns 0, or -1 with
 * one line in err naming the file, what is wrong and what to do: the text has over 2^23 JSON values or
 * 200,000 rows, is not valid JSON (truncated, corrupt, nested over 1000 deep), is not a clgauge run, has
 * another schema_version than CG_SCHEMA_VERSION; or, with the line starting "damaged file: PATH: field X
 * [of row N]", a key has the wrong type or value (a timing that is not a number of seconds from 0 to 1e6 or
 * null, a median not above 0 in an ok row, ...), is given twice, or is required (workload, rung, status,
 * t_median_s) and missing. Keys a version-1 writer may add later are ignored; missing optional keys read as
 * 0 or "". Strings are cut on a UTF-8 character boundary; invalid UTF-8 and control characters in them read
 * as '?' (tab, CR, LF as a space), so no text from the file reaches a terminal or a page raw. */
int cg_report_parse(const char *path, const char *text, size_t len, cg_report *r, char *err, size_t errlen);

#endif
