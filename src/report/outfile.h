/* Writing a report file all-or-nothing, shared by the JSON, CSV and HTML writers. */
#ifndef CG_OUTFILE_H
#define CG_OUTFILE_H
#include <stdio.h>

/* Writes the whole output to f; returns 0, or -1 with errno set. */
typedef int (*cg_outfile_emit)(FILE *f, const void *ctx);

/* cg_safefile_write (core/safefile.h): emit runs on a unique temporary file in the real target's directory,
 * renamed over PATH (symbolic links followed, permission bits kept) once everything was written and closed.
 * Returns 0, or -1 with errno from the failing step; nothing but that temporary file is ever removed. PATH
 * "-" writes to stdout (flushed); an existing FIFO or device is written in place. */
int cg_outfile_write(const char *path, cg_outfile_emit emit, const void *ctx);

#endif
