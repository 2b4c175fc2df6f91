/* All-or-nothing output files (reports, PNG pictures): checked up front, written to a unique temporary file
 * next to the target and renamed over it only when everything was written, flushed and closed. */
#ifndef CG_SAFEFILE_H
#define CG_SAFEFILE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "core/fs.h"

/* Writes the whole output to f; returns 0, or -1 with errno set. */
typedef int (*cg_safefile_emit)(FILE *f, const void *ctx);

/* Writes path all-or-nothing. "-" writes to stdout (flushed). A path that exists and is not a regular file
 * (/dev/stdout, a FIFO, a device) is written in place and never removed or replaced; a FIFO nobody reads
 * within CG_FS_FIFO_WAIT_S seconds fails with ENXIO instead of waiting forever. Otherwise symbolic
 * links are followed to the final target (a dangling link gets its target created), emit runs on a unique
 * temporary file in the target's directory (mkstemp: ".NAME.XXXXXX"), which gets the target's permission bits
 * (a new file: 0666 & ~umask) and is renamed over the target. On failure only that temporary file is removed:
 * the target keeps its old content. Returns 0, or -1 with errno from the failing step. */
int cg_safefile_write(const char *path, cg_safefile_emit emit, const void *ctx);

/* A set of outputs all-or-nothing: after cg_safefile_batch_begin, cg_safefile_write leaves each regular
 * file's finished temporary file in place (guarded against signals); cg_safefile_batch_end(true) renames them
 * all over their targets, cg_safefile_batch_end(false) removes them, so that when one output of a run fails,
 * no other report the user had is replaced. Outputs written in place (stdout, a FIFO, a device) are not held
 * back. batch_end returns 0, or -1 with errno of the first rename that failed. */
void cg_safefile_batch_begin(void);
int cg_safefile_batch_end(bool commit);

/* Checks, before any work, that cg_safefile_write(path) can succeed as far as the file system says: "-" is
 * fine; an existing non-regular file (FIFO, device) must be writable; otherwise the symlink-resolved target
 * must not be a directory (EISDIR), an existing target must be writable (EACCES), its directory must exist
 * (ENOENT/ENOTDIR), its name must fit (ENAMETOOLONG) and the directory must take a new file (a temporary
 * file is created there and removed at once: EACCES, EROFS, ...). Leaves nothing behind and never touches
 * the target. Returns 0, or -1 with errno set. */
int cg_safefile_check(const char *path);

/* True when a and b name the same output: both "-", the same existing file (device and inode), or the same
 * symlink-resolved path in the same directory (device and inode of the directory) for files not yet there. */
bool cg_safefile_same(const char *a, const char *b);

#endif
