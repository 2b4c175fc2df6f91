/* All-or-nothing report files: the output goes to PATH.tmp, which replaces PATH only when it was written
 * and closed without error, so a full disk or a killed run never leaves a truncated report under the real
 * name. On any failure the temp file is removed and the errno of the failing step is kept for the caller. */
#include "report/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Removes the temp file without losing the errno of the step that failed. */
static int fail(const char *tmp, int err)
{
    remove(tmp);
    errno = err;
    return -1;
}

static int write_stdout(cg_outfile_emit emit, const void *ctx)
{
    if (emit(stdout, ctx) != 0) return -1;
    if (fflush(stdout) != 0 || ferror(stdout)) return -1;
    return 0;
}

/* A path that exists and is not a regular file (/dev/stdout, a FIFO, a device) is written in place: renaming
 * a temp file over it would replace the device or link with a plain file. */
static int write_in_place(const char *path, cg_outfile_emit emit, const void *ctx)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    errno = 0;
    int rc = (emit(f, ctx) != 0 || fflush(f) != 0 || ferror(f)) ? -1 : 0;
    int err = errno ? errno : EIO;
    if (fclose(f) != 0 && rc == 0) return -1;
    if (rc != 0) errno = err;
    return rc;
}

int cg_outfile_write(const char *path, cg_outfile_emit emit, const void *ctx)
{
    if (strcmp(path, "-") == 0) return write_stdout(emit, ctx);
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) return write_in_place(path, emit, ctx);
    size_t len = strlen(path);
    char *tmp = malloc(len + sizeof ".tmp");
    if (!tmp) return -1;
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".tmp", sizeof ".tmp");

    int rc = -1;
    FILE *f = fopen(tmp, "w");
    if (!f) goto out; /* nothing was created */
    errno = 0;
    if (emit(f, ctx) != 0 || fflush(f) != 0 || ferror(f)) {
        int err = errno ? errno : EIO;
        fclose(f);
        rc = fail(tmp, err);
        goto out;
    }
    if (fclose(f) != 0) {
        rc = fail(tmp, errno);
        goto out;
    }
    if (rename(tmp, path) != 0) {
        rc = fail(tmp, errno);
        goto out;
    }
    rc = 0;
out:;
    int err = errno; /* free must not hide why it failed */
    free(tmp);
    errno = err;
    return rc;
}
