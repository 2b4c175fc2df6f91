/* Writing a report file all-or-nothing, shared by the JSON and CSV writers. */
#ifndef CG_OUTFILE_H
#define CG_OUTFILE_H
#include <stdio.h>

/* Writes the whole output to f; returns 0, or -1 with errno set. */
typedef int (*cg_outfile_emit)(FILE *f, const void *ctx);

/* Runs emit on "PATH.tmp" and renames it over PATH once everything was written and closed. Returns 0, or -1
 * with errno from the failing step and no temp file left behind. PATH "-" writes to stdout (flushed). */
int cg_outfile_write(const char *path, cg_outfile_emit emit, const void *ctx);

#endif
