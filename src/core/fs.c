/* mkdir -p, opening files that must be regular (never blocking on a FIFO, never reading a directory), bounded
 * whole-file reads, all-or-nothing writes and the ownership checks the caches trust. */
#include "core/fs.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool cg_fs_mkdirs(const char *dir)
{
    char tmp[1024];
    if (snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return false;
    }
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0700) && errno != EEXIST) return false;
            *p = '/';
        }
    return !mkdir(tmp, 0700) || errno == EEXIST;
}

int cg_fs_open_regular(const char *path, struct stat *st)
{
    struct stat s;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return -1;
    int fl, e = 0;
    if (fstat(fd, &s) != 0)
        e = errno;
    else if (S_ISDIR(s.st_mode))
        e = EISDIR;
    else if (!S_ISREG(s.st_mode))
        e = EINVAL;
    else if ((fl = fcntl(fd, F_GETFL)) == -1 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1)
        e = errno;
    if (e) {
        close(fd);
        errno = e;
        return -1;
    }
    if (st) *st = s;
    return fd;
}

FILE *cg_fs_fopen_regular(const char *path, struct stat *st)
{
    int fd = cg_fs_open_regular(path, st);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

static char *fail_read(char *buf, int e)
{
    free(buf);
    errno = e;
    return NULL;
}

/* A bigger capacity for a full buffer of cap bytes, never above max. */
static size_t grow(size_t cap, size_t max)
{
    if (!cap) return max < 4096 ? max : 4096;
    return cap < max / 2 ? 2 * cap : max;
}

/* Reads fd to its end (hint: its size at fstat time, <= max) into a malloc'd NUL-terminated buffer, growing
 * it if the file grew; EFBIG past max bytes. */
static char *read_all(int fd, size_t hint, size_t max, size_t *len)
{
    size_t cap = hint, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) return NULL;
    for (;;) {
        char probe;
        bool full = n == cap;
        ssize_t r = full ? read(fd, &probe, 1) : read(fd, buf + n, cap - n);
        if (r == 0) break;
        if (r < 0) {
            if (errno == EINTR) continue;
            return fail_read(buf, errno);
        }
        if (!full) {
            n += (size_t)r;
            continue;
        }
        if (cap >= max) return fail_read(buf, EFBIG);
        cap = grow(cap, max);
        char *nb = realloc(buf, cap + 1);
        if (!nb) return fail_read(buf, ENOMEM);
        buf = nb;
        buf[n++] = probe;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

char *cg_fs_read_max(const char *path, size_t max, size_t *len)
{
    struct stat st;
    size_t n = 0;
    int fd = cg_fs_open_regular(path, &st);
    if (fd < 0) return NULL;
    char *buf = NULL;
    if ((uintmax_t)st.st_size > (uintmax_t)max)
        errno = EFBIG;
    else
        buf = read_all(fd, (size_t)st.st_size, max, &n);
    int e = errno;
    close(fd);
    errno = e;
    if (buf && len) *len = n;
    return buf;
}

char *cg_fs_read(const char *path, size_t *len)
{
    return cg_fs_read_max(path, CG_FS_READ_MAX, len);
}

/* The temporary files being written or waiting to be renamed (cg_fs_tmp_create .. cg_fs_tmp_done): a SIGINT,
 * SIGTERM or SIGHUP meanwhile removes them before the signal takes its former course. The handlers are
 * installed while at least one exists; a signal the process ignores, as under nohup, stays ignored. */
static char pending_tmp[CG_FS_TMP_MAX][4096];
static volatile sig_atomic_t pending[CG_FS_TMP_MAX];
static int n_pending;
static const int caught[CG_FS_GUARD_NSIG] = {SIGINT, SIGTERM, SIGHUP};
static cg_fs_guard guard; /* its owner creates the temporaries, with its signals blocked around each step */

void cg_fs_guard_block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < CG_FS_GUARD_NSIG; i++)
        sigaddset(&set, caught[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

void cg_fs_guard_install(cg_fs_guard *g, void (*handler)(int))
{
    g->owner = pthread_self();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigfillset(&sa.sa_mask);
    for (size_t i = 0; i < CG_FS_GUARD_NSIG; i++)
        g->installed[i] = sigaction(caught[i], NULL, &g->saved[i]) == 0 &&
                          g->saved[i].sa_handler != SIG_IGN && sigaction(caught[i], &sa, NULL) == 0;
}

void cg_fs_guard_restore(const cg_fs_guard *g)
{
    for (size_t i = 0; i < CG_FS_GUARD_NSIG; i++)
        if (g->installed[i]) sigaction(caught[i], &g->saved[i], NULL);
}

bool cg_fs_guard_forward(const cg_fs_guard *g, int sig)
{
    if (pthread_equal(pthread_self(), g->owner)) return false;
    pthread_kill(g->owner, sig);
    return true;
}

void cg_fs_guard_reraise(const cg_fs_guard *g, int sig)
{
    for (size_t i = 0; i < CG_FS_GUARD_NSIG; i++)
        if (caught[i] == sig) sigaction(sig, &g->saved[i], NULL);
    raise(sig);
}

/* Async-signal-safe only. On another thread the signal goes to the owner: there it waits while a name is
 * being created or renamed, so the handler never misses a file that exists. */
static void on_signal(int sig)
{
    if (cg_fs_guard_forward(&guard, sig)) return;
    for (int k = 0; k < CG_FS_TMP_MAX; k++)
        if (pending[k]) unlink(pending_tmp[k]);
    cg_fs_guard_reraise(&guard, sig);
}

static void handlers(bool on)
{
    if (on)
        cg_fs_guard_install(&guard, on_signal);
    else
        cg_fs_guard_restore(&guard);
}

int cg_fs_tmp_create(const char *tmpl, int *slot)
{
    int k = 0;
    while (k < CG_FS_TMP_MAX && pending[k])
        k++;
    if (k == CG_FS_TMP_MAX) {
        errno = EMFILE;
        return -1;
    }
    if (snprintf(pending_tmp[k], sizeof pending_tmp[k], "%s", tmpl) >= (int)sizeof pending_tmp[k]) {
        errno = ENAMETOOLONG;
        return -1;
    }
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old); /* a signal sees no file or the whole name */
    if (n_pending == 0) handlers(true);
    int fd = mkstemp(pending_tmp[k]), e = errno; /* mode 0600 */
    if (fd >= 0) {
        pending[k] = 1;
        n_pending++;
        *slot = k;
    } else if (n_pending == 0)
        handlers(false);
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return fd;
}

const char *cg_fs_tmp_name(int slot)
{
    return pending_tmp[slot];
}

void cg_fs_tmp_done(int slot, bool keep)
{
    if (slot < 0 || slot >= CG_FS_TMP_MAX || !pending[slot]) return;
    int e = errno;
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    if (!keep) unlink(pending_tmp[slot]);
    pending[slot] = 0;
    if (--n_pending == 0) handlers(false);
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = e;
}

static int write_fd(int fd, const void *data, size_t n)
{
    const char *p = data;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, p + done, n - done);
        if (w > 0)
            done += (size_t)w;
        else if (w == 0 || errno != EINTR)
            return w == 0 ? EIO : errno;
    }
    return fsync(fd) == 0 ? 0 : errno;
}

bool cg_fs_write_atomic(const char *path, const void *data, size_t n)
{
    char tmpl[4096];
    if (snprintf(tmpl, sizeof tmpl, "%s.XXXXXX", path) >= (int)sizeof tmpl) {
        errno = ENAMETOOLONG;
        return false;
    }
    int slot = -1, fd = cg_fs_tmp_create(tmpl, &slot), e = 0;
    if (fd < 0) return false;
    e = write_fd(fd, data, n);
    if (close(fd) != 0 && !e) e = errno;
    if (!e && rename(cg_fs_tmp_name(slot), path) != 0) e = errno;
    cg_fs_tmp_done(slot, !e); /* renamed: nothing left to remove */
    errno = e;
    return !e;
}

#define CG_FS_STR2(x) #x
#define CG_FS_STR(x)  CG_FS_STR2(x)

const char *cg_fs_strerror(int err)
{
    switch (err) {
    case EISDIR:
        return "is a directory, not a file";
    case EINVAL:
        return "not a regular file (a FIFO, device or socket)";
    case EFBIG:
        return "file too large";
    case ENXIO:
        return "nobody read this FIFO within " CG_FS_STR(CG_FS_FIFO_WAIT_S) " s (start its reader first)";
    default:
        return strerror(err);
    }
}

static bool untrusted(char *why, size_t len, const char *msg)
{
    snprintf(why, len, "%s", msg);
    return false;
}

static bool mode_trusted(const struct stat *st, char *why, size_t whylen)
{
    if (st->st_uid != geteuid()) return untrusted(why, whylen, "owned by another user");
    if (st->st_mode & (S_IWGRP | S_IWOTH)) return untrusted(why, whylen, "writable by group or others");
    return true;
}

bool cg_fs_dir_trusted(const char *dir, char *why, size_t whylen)
{
    struct stat st;
    if (stat(dir, &st) != 0) return untrusted(why, whylen, strerror(errno));
    if (!S_ISDIR(st.st_mode)) return untrusted(why, whylen, "not a directory");
    return mode_trusted(&st, why, whylen);
}

bool cg_fs_file_trusted(const struct stat *st, char *why, size_t whylen)
{
    if (!S_ISREG(st->st_mode)) return untrusted(why, whylen, "not a regular file");
    return mode_trusted(st, why, whylen);
}
