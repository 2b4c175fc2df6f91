/* All-or-nothing output files. The output goes to a unique temporary file (mkstemp) in the directory of the
 * real target (symbolic links followed), which replaces the target only when it was written, flushed, synced
 * and closed without error: a full disk or a killed run never leaves a truncated file under the real name, a
 * user's own PATH.tmp is never touched, and two runs writing the same path never share a temporary file. The
 * only path ever removed is the temporary file this process created. */
#include "core/safefile.h"
#include "core/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINKS 40 /* symbolic links followed before ELOOP, as the kernel does */

/* The outputs written since cg_safefile_batch_begin: finished temporary files waiting for their rename. */
static struct {
    bool on;
    int n;
    int slot[CG_FS_TMP_MAX];
    char real[CG_FS_TMP_MAX][PATH_MAX];
} batch;

static int fail_errno(int err)
{
    errno = err;
    return -1;
}

/* Follows symbolic links from path to the final name (which need not exist: a dangling link's target) into
 * out. A relative link is taken relative to the directory of the link. */
static int resolve(const char *path, char *out, size_t len)
{
    if (strlen(path) >= len) return fail_errno(ENAMETOOLONG);
    strcpy(out, path);
    for (int hops = 0; hops < MAX_LINKS; hops++) {
        struct stat sb;
        if (lstat(out, &sb) != 0 || !S_ISLNK(sb.st_mode)) return 0; /* the final name */
        char link[PATH_MAX];
        ssize_t n = readlink(out, link, sizeof link - 1);
        if (n < 0) return -1;
        link[n] = '\0';
        char *slash = strrchr(out, '/');
        size_t keep = (link[0] == '/' || !slash) ? 0 : (size_t)(slash - out) + 1;
        if (keep + (size_t)n >= len) return fail_errno(ENAMETOOLONG);
        memcpy(out + keep, link, (size_t)n + 1);
    }
    return fail_errno(ELOOP);
}

/* Splits a resolved path into its directory ("." or "/" where it has none) and its last component. */
static int split(const char *real, char *dir, size_t len, const char **base)
{
    const char *slash = strrchr(real, '/');
    *base = slash ? slash + 1 : real;
    size_t n = slash ? (size_t)(slash - real) : 0;
    if (!**base) return fail_errno(EISDIR); /* "dir/" */
    if (n + 2 > len) return fail_errno(ENAMETOOLONG);
    if (!slash)
        strcpy(dir, ".");
    else if (n == 0)
        strcpy(dir, "/");
    else {
        memcpy(dir, real, n);
        dir[n] = '\0';
    }
    return 0;
}

static int write_stdout(cg_safefile_emit emit, const void *ctx)
{
    if (emit(stdout, ctx) != 0) return -1;
    if (fflush(stdout) != 0 || ferror(stdout)) return -1;
    return 0;
}

/* Opens an existing non-regular file for writing without blocking forever: a FIFO with no reader yet is
 * retried for up to CG_FS_FIFO_WAIT_S seconds (a reader started a little later is fine), then fails
 * with ENXIO. Returns a stream in blocking mode, or NULL with errno set. */
static FILE *open_in_place(const char *path)
{
    int fd = -1;
    for (int tries = 0; tries <= CG_FS_FIFO_WAIT_S * 10; tries++) {
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd >= 0 || errno != ENXIO) break;
        struct timespec pause = {0, 100000000}; /* 0.1 s */
        nanosleep(&pause, NULL);
    }
    if (fd < 0) return NULL;
    int fl = fcntl(fd, F_GETFL);
    FILE *f = fl == -1 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1 ? NULL : fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

/* A path that exists and is not a regular file (/dev/stdout, a FIFO, a device) is written in place: renaming
 * a temporary file over it would replace the device or link with a plain file. */
static int write_in_place(const char *path, cg_safefile_emit emit, const void *ctx)
{
    FILE *f = open_in_place(path);
    if (!f) return -1;
    errno = 0;
    int rc = (emit(f, ctx) != 0 || fflush(f) != 0 || ferror(f)) ? -1 : 0;
    int err = errno ? errno : EIO;
    if (fclose(f) != 0 && rc == 0) return -1;
    if (rc != 0) errno = err;
    return rc;
}

/* The permission bits the new file gets: the existing target's, else what open(0666) would give. */
static mode_t target_mode(const char *real)
{
    struct stat sb;
    if (stat(real, &sb) == 0) return sb.st_mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* "DIR/.NAME.XXXXXX" (NAME cut to 200 bytes so that the temporary name fits wherever the real one does). */
static int temp_name(const char *real, char *tmp, size_t len)
{
    char dir[PATH_MAX];
    const char *base;
    if (split(real, dir, sizeof dir, &base) != 0) return -1;
    int n = snprintf(tmp, len, "%s/.%.200s.XXXXXX", dir, base);
    return (n < 0 || (size_t)n >= len) ? fail_errno(ENAMETOOLONG) : 0;
}

/* Emits into the opened temporary file, then flushes, syncs and closes it; the descriptor is consumed. */
static int emit_to(int fd, cg_safefile_emit emit, const void *ctx)
{
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int err = errno;
        close(fd);
        return fail_errno(err);
    }
    errno = 0;
    if (emit(f, ctx) != 0 || fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) {
        int err = errno ? errno : EIO;
        fclose(f);
        return fail_errno(err);
    }
    return fclose(f);
}

int cg_safefile_write(const char *path, cg_safefile_emit emit, const void *ctx)
{
    if (strcmp(path, "-") == 0) return write_stdout(emit, ctx);
    struct stat sb;
    if (stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) return fail_errno(EISDIR);
        if (!S_ISREG(sb.st_mode)) return write_in_place(path, emit, ctx);
    }
    char real[PATH_MAX], tmp[PATH_MAX];
    if (resolve(path, real, sizeof real) != 0 || temp_name(real, tmp, sizeof tmp) != 0) return -1;
    mode_t mode = target_mode(real);
    int slot = -1, fd = cg_fs_tmp_create(tmp, &slot); /* a signal meanwhile removes it */
    if (fd < 0) return -1;
    if (fchmod(fd, mode) != 0) {
        int err = errno;
        close(fd);
        cg_fs_tmp_done(slot, false);
        return fail_errno(err);
    }
    if (emit_to(fd, emit, ctx) != 0) {
        int err = errno;
        cg_fs_tmp_done(slot, false); /* ours: mkstemp created it */
        return fail_errno(err);
    }
    if (batch.on && batch.n < CG_FS_TMP_MAX) { /* renamed at cg_safefile_batch_end */
        batch.slot[batch.n] = slot;
        snprintf(batch.real[batch.n++], PATH_MAX, "%s", real);
        return 0;
    }
    if (rename(cg_fs_tmp_name(slot), real) != 0) {
        int err = errno;
        cg_fs_tmp_done(slot, false);
        return fail_errno(err);
    }
    cg_fs_tmp_done(slot, true);
    return 0;
}

void cg_safefile_batch_begin(void)
{
    batch.on = true;
    batch.n = 0;
}

int cg_safefile_batch_end(bool commit)
{
    int rc = 0, err = 0;
    for (int k = 0; k < batch.n; k++) {
        bool moved = commit && rename(cg_fs_tmp_name(batch.slot[k]), batch.real[k]) == 0;
        if (commit && !moved && !err) err = errno, rc = -1;
        cg_fs_tmp_done(batch.slot[k], moved);
    }
    batch.on = false;
    batch.n = 0;
    if (rc) errno = err;
    return rc;
}

int cg_safefile_check(const char *path)
{
    if (strcmp(path, "-") == 0) return 0;
    struct stat sb;
    if (stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) return fail_errno(EISDIR);
        if (!S_ISREG(sb.st_mode)) return access(path, W_OK);
    } else if (errno != ENOENT)
        return -1;
    char real[PATH_MAX], dir[PATH_MAX];
    const char *base;
    if (resolve(path, real, sizeof real) != 0 || split(real, dir, sizeof dir, &base) != 0) return -1;
    if (stat(real, &sb) == 0 && access(real, W_OK) != 0) return -1;
    if (stat(dir, &sb) != 0) return -1;
    if (!S_ISDIR(sb.st_mode)) return fail_errno(ENOTDIR);
    long name_max = pathconf(dir, _PC_NAME_MAX);
    if (name_max > 0 && strlen(base) > (size_t)name_max) return fail_errno(ENAMETOOLONG);
    /* access() says yes to root and to /proc: create (and remove) a temporary file as the write will */
    char tmp[PATH_MAX];
    if (temp_name(real, tmp, sizeof tmp) != 0) return -1;
    int fd = mkstemp(tmp);
    if (fd < 0) return -1;
    close(fd);
    unlink(tmp); /* ours: mkstemp created it */
    return 0;
}

/* What identifies an output: the file's device and inode where it exists, else its directory's and its
 * name. Character devices (a terminal, /dev/null) take several outputs: they never compare equal. */
typedef struct out_key {
    bool exists, chr;
    dev_t dev;
    ino_t ino;
    char name[PATH_MAX];
} out_key;

static void key_of(const char *path, out_key *k)
{
    struct stat sb;
    memset(k, 0, sizeof *k);
    bool ok = strcmp(path, "-") == 0 ? fstat(STDOUT_FILENO, &sb) == 0 : stat(path, &sb) == 0;
    if (ok) {
        *k = (out_key){.exists = true, .chr = S_ISCHR(sb.st_mode), .dev = sb.st_dev, .ino = sb.st_ino};
        return;
    }
    char real[PATH_MAX], dir[PATH_MAX];
    const char *base;
    if (resolve(path, real, sizeof real) != 0 || split(real, dir, sizeof dir, &base) != 0) {
        snprintf(k->name, sizeof k->name, "%s", path); /* unresolvable: compare the names as given */
        return;
    }
    snprintf(k->name, sizeof k->name, "%s", base);
    if (stat(dir, &sb) == 0) {
        k->dev = sb.st_dev;
        k->ino = sb.st_ino;
    }
}

bool cg_safefile_same(const char *a, const char *b)
{
    if (strcmp(a, b) == 0) return true;
    out_key ka, kb;
    key_of(a, &ka);
    key_of(b, &kb);
    if (ka.exists != kb.exists || ka.dev != kb.dev || ka.ino != kb.ino) return false;
    return ka.exists ? !ka.chr : strcmp(ka.name, kb.name) == 0;
}
