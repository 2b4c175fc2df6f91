/* Small file-system helpers shared by the caches, the kernel sources and every reader of outside files. */
#ifndef CG_FS_H
#define CG_FS_H
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* The largest file cg_fs_read reads (1 GiB); larger ones fail with EFBIG. */
#define CG_FS_READ_MAX ((size_t)1 << 30)

/* mkdir -p with mode 0700 for every directory it creates; true when the directory exists afterwards (errno
 * set otherwise). */
bool cg_fs_mkdirs(const char *dir);

/* Opens `path` for reading with O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_NOCTTY (so a FIFO or a device never blocks
 * and never becomes the controlling terminal), fstat()s it and refuses anything but a regular file; then
 * clears O_NONBLOCK. Returns the descriptor (close it), or -1 with errno set: EISDIR for a directory, EINVAL
 * for a FIFO, device or socket (cg_fs_strerror() words both), else open's errno. st (may be NULL) receives
 * the fstat of the opened file. */
int cg_fs_open_regular(const char *path, struct stat *st);

/* cg_fs_open_regular as a "rb" stdio stream (fclose it); NULL with errno set on failure. */
FILE *cg_fs_fopen_regular(const char *path, struct stat *st);

/* Reads a whole regular file (through cg_fs_open_regular) into a malloc'd NUL-terminated buffer; NULL with
 * errno set on failure (EFBIG when larger than max bytes). len may be NULL. */
char *cg_fs_read_max(const char *path, size_t max, size_t *len);
/* cg_fs_read_max(path, CG_FS_READ_MAX, len). */
char *cg_fs_read(const char *path, size_t *len);

/* The handlers of SIGINT, SIGTERM and SIGHUP that a module installs while it has files to remove when one
 * arrives (the temporaries below, the chart directory of report/plot.c). A signal the process ignores, as
 * under nohup, stays ignored. The thread that installs them owns the files and creates them with the three
 * signals blocked; a process-directed signal may still run the handler on any thread (OpenCL runtimes start
 * their own), where that mask does not apply, so the handler re-sends it to the owner first. */
#define CG_FS_GUARD_NSIG 3
typedef struct cg_fs_guard {
    struct sigaction saved[CG_FS_GUARD_NSIG];
    bool installed[CG_FS_GUARD_NSIG];
    pthread_t owner;
} cg_fs_guard;
/* Blocks the three signals in this thread; the former mask goes to *old (restore it with sigprocmask). */
void cg_fs_guard_block(sigset_t *old);
/* Installs handler for the three (it runs with every signal blocked) and makes this thread the owner. */
void cg_fs_guard_install(cg_fs_guard *g, void (*handler)(int));
/* Puts back what cg_fs_guard_install replaced. */
void cg_fs_guard_restore(const cg_fs_guard *g);
/* First in the handler: true when it runs on another thread than the owner, to which it has re-sent the
 * signal (it waits there until the owner unblocks it): the handler must return at once. Async-signal-safe. */
bool cg_fs_guard_forward(const cg_fs_guard *g, int sig);
/* Last in the handler: gives sig its former disposition and raises it, so it takes its former course once
 * the handler returns. Async-signal-safe. */
void cg_fs_guard_reraise(const cg_fs_guard *g, int sig);

/* How many guarded temporary files may exist at once (a run's reports are staged together). */
#define CG_FS_TMP_MAX 8
/* A unique temporary file from a mkstemp template ("DIR/NAME.XXXXXX", mode 0600), guarded: until
 * cg_fs_tmp_done(*slot, ...), SIGINT, SIGTERM and SIGHUP remove it (and every other guarded one) before
 * taking their former course. Returns the open fd and its slot, or -1 with errno set (EMFILE when
 * CG_FS_TMP_MAX are open; no file is left). */
int cg_fs_tmp_create(const char *tmpl, int *slot);
/* The name cg_fs_tmp_create made for slot. */
const char *cg_fs_tmp_name(int slot);
/* Ends the guard of slot: keep true once the file was renamed away, false to remove it. Keeps errno. */
void cg_fs_tmp_done(int slot, bool keep);

/* Replaces `path` with n bytes of data so that it is never seen half-written: writes a temporary file made
 * by mkstemp in the same directory (mode 0600), fsyncs it and renames it over path; the temporary is removed
 * on failure, and by a SIGINT, SIGTERM or SIGHUP that arrives meanwhile (handlers installed for that time
 * only, then the former ones restored). Not thread-safe. false with errno set on failure. */
bool cg_fs_write_atomic(const char *path, const void *data, size_t n);

/* strerror() with clearer words for the errno values cg_fs_open_regular sets: EISDIR "is a directory, not a
 * file", EINVAL "not a regular file (a FIFO, device or socket)", EFBIG "file too large". Never NULL. */
const char *cg_fs_strerror(int err);
/* How long a write to a FIFO waits for a reader before it fails with ENXIO (core/safefile.c), in seconds;
 * cg_fs_strerror(ENXIO) names it. */
#define CG_FS_FIFO_WAIT_S 10

/* True when `dir` is a directory owned by the effective user and not writable by group or others (what ssh
 * asks of ~/.ssh). Otherwise false with a short reason in why (e.g. "writable by group or others"). */
bool cg_fs_dir_trusted(const char *dir, char *why, size_t whylen);

/* True when st describes a regular file owned by the effective user and not writable by group or others;
 * else false with a short reason in why. */
bool cg_fs_file_trusted(const struct stat *st, char *why, size_t whylen);

#endif
