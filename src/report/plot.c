/* Running gnuplot for the charts: the script and its data file go to a private temp directory, the script is
 * fed to gnuplot on its standard input (posix_spawnp, no shell, its own process group), the SVG comes back on
 * its standard output (a file there), its stderr is kept for the error line. A run is bounded in time, and a
 * signal while the directory exists stops gnuplot and removes the directory first. The SVG is then made fit
 * for inlining: the XML prolog dropped, the caller's attributes added to <svg>, every id (and every reference
 * to one) prefixed per chart so that several charts share a page. */
#include "report/plot.h"
#include "core/fs.h"
#include "model/utf8.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

bool cg_plot_available(void)
{
    const char *path = getenv("PATH");
    char buf[4096];
    while (path && *path) {
        size_t len = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/gnuplot", (int)len, len ? path : ".");
        if (access(buf, X_OK) == 0) return true;
        path += len + (path[len] == ':');
    }
    return false;
}

bool cg_plot_timeout(double *seconds, char *err, size_t errlen)
{
    const char *v = getenv(CG_PLOT_TIMEOUT_ENV);
    char *end;
    *seconds = CG_PLOT_TIMEOUT_DEFAULT;
    if (!v || !*v) return true;
    double s = strtod(v, &end);
    if (end != v && !*end && !strpbrk(v, "xXnNiI") && s >= 0.1 && s <= 86400) { /* decimal seconds */
        *seconds = s;
        return true;
    }
    snprintf(err, errlen,
             "%s=%.40s is not a number of seconds: set it to a decimal number from 0.1 to 86400, or unset it",
             CG_PLOT_TIMEOUT_ENV, v);
    return false;
}

void cg_plot_label(char *dst, size_t n, const char *s)
{
    if (n < 3) {
        if (n) dst[0] = '\0';
        return;
    }
    dst[0] = '"';
    cg_utf8_clean(dst + 1, n - 2, s, true);
    size_t k = 1;
    for (; dst[k]; k++)
        if (dst[k] == '"') dst[k] = '\'';
    dst[k] = '"';
    dst[k + 1] = '\0';
}

/* The temp directory of the chart being drawn and the gnuplot drawing it, read by the signal handler. */
static struct {
    char dir[512], gp[600], dat[600], svg[600], log[600];
    volatile sig_atomic_t active; /* dir exists */
    volatile pid_t pid;           /* gnuplot running, else 0 */
} live;
static cg_fs_guard guard;

static void remove_files(void)
{
    unlink(live.gp);
    unlink(live.dat);
    unlink(live.svg);
    unlink(live.log);
    rmdir(live.dir);
}

/* Async-signal-safe only: stop gnuplot, remove the directory, then let the signal take its former course. */
static void on_signal(int sig)
{
    if (cg_fs_guard_forward(&guard, sig)) return; /* runs on the thread that made the directory */
    pid_t pid = live.pid;
    if (pid > 0) {
        kill(-pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    if (live.active) remove_files();
    live.active = 0;
    cg_fs_guard_reraise(&guard, sig);
}

/* A directory name gnuplot can take in a single-quoted string: no quote, backquote, @ or control character.
 */
static bool safe_path(const char *s)
{
    return strlen(s) <= 400 &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._+-,") == strlen(s);
}

/* Names the directory base/clgauge-plot-RANDOM and its files. */
static void name_tmp(const char *base)
{
    static unsigned long long counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    /* Unique enough: a name someone else took is never used (mkdir fails with EEXIST and another is drawn).
     */
    unsigned long long r = ((unsigned long long)ts.tv_nsec * 6364136223846793005ull) ^
                           ((unsigned long long)ts.tv_sec << 20) ^ ((unsigned long long)getpid() << 40) ^
                           (++counter * 0x9E3779B97F4A7C15ull);
    snprintf(live.dir, sizeof live.dir, "%s/clgauge-plot-%016llx", base, r);
    snprintf(live.gp, sizeof live.gp, "%s/plot.gp", live.dir);
    snprintf(live.dat, sizeof live.dat, "%s/plot.dat", live.dir);
    snprintf(live.svg, sizeof live.svg, "%s/plot.svg", live.dir);
    snprintf(live.log, sizeof live.log, "%s/stderr.txt", live.dir);
}

/* Creates the directory (in $TMPDIR, else /tmp where TMPDIR is unset, unsafe or unusable), with this thread's
 * signals blocked. OpenCL runtimes start threads and a signal may run the handler on any of them, where this
 * thread's mask does not apply: the handler then re-sends it here (cg_fs_guard_forward), where it waits
 * until the name is marked live. A name taken already (EEXIST) is never used: another is drawn. SIGHUP or
 * SIGINT ignored by the caller (nohup) stay ignored. */
static bool make_tmp(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base || !safe_path(base)) base = "/tmp";
    sigset_t old;
    cg_fs_guard_block(&old);
    cg_fs_guard_install(&guard, on_signal);
    bool ok = false;
    for (int tries = 0; tries < 100 && !ok; tries++) {
        name_tmp(tries < 50 ? base : "/tmp"); /* an unusable TMPDIR: /tmp, as for an unsafe one */
        live.active = 1;
        ok = mkdir(live.dir, 0700) == 0;
        if (!ok) live.active = 0;
        if (!ok && errno != EEXIST && tries < 50)
            tries = 49; /* not a name clash: go to /tmp */
        else if (!ok && errno != EEXIST)
            break;
    }
    int e = errno;
    if (!ok) cg_fs_guard_restore(&guard);
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return ok;
}

static void remove_tmp(void)
{
    sigset_t old;
    cg_fs_guard_block(&old);
    remove_files();
    live.active = 0;
    cg_fs_guard_restore(&guard);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The whole of a (small) file, NUL-terminated, or NULL. */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    char chunk[8192];
    size_t got;
    while (m && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, got, m);
    if (m) fclose(m);
    fclose(f);
    return buf;
}

/* gnuplot's first error line ("line 3: undefined variable: x"), for the one-line message. */
static void first_error(const char *log, char *dst, size_t n)
{
    char *text = read_all(log);
    const char *p = text ? strstr(text, "line ") : NULL;
    if (!p) p = text ? text : "";
    size_t len = strcspn(p, "\n");
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)(len > 200 ? 200 : len), p);
    cg_utf8_clean(dst, n, line, true);
    free(text);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Waits for gnuplot for at most timeout seconds (then kills its process group): 0 when it exited with 0,
 * -1 when it failed, -4 when it was stopped. */
static int wait_gnuplot(pid_t pid, double timeout)
{
    double deadline = now_s() + timeout;
    long nap = 1000000; /* ns, doubling to 50 ms */
    int status = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) return -1;
        if (now_s() >= deadline) {
            kill(-pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            live.pid = 0;
            return -4;
        }
        struct timespec ts = {0, nap};
        nanosleep(&ts, NULL);
        nap = nap < 50000000 ? 2 * nap : nap;
    }
    live.pid = 0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* 0: gnuplot ran and succeeded; -1 failed, -2 not found, -4 timed out. */
static int run_gnuplot(double timeout)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    pid_t pid;
    char *argv[] = {"gnuplot", NULL};
    sigset_t old;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, live.gp, O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, live.svg, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, live.log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawnattr_init(&at);
    cg_fs_guard_block(&old); /* the handler must know the pid before a signal can run it */
    posix_spawnattr_setsigmask(&at, &old);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    int rc = posix_spawnp(&pid, "gnuplot", &fa, &at, argv, environ);
    if (rc == 0) live.pid = pid;
    sigprocmask(SIG_SETMASK, &old, NULL);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0) return rc == ENOENT ? -2 : -1;
    return wait_gnuplot(pid, timeout);
}

static bool write_file(const char *path, const char *a, const char *b, const char *c)
{
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fputs(a, f);
    fputs(b, f);
    fputs(c, f);
    return fclose(f) == 0;
}

static bool write_inputs(const char *script, const char *data)
{
    char head[1024];
    snprintf(head, sizeof head,
             "set terminal svg size %d,%d dynamic noenhanced font 'sans,11' background rgb 'white'\n"
             "set output\nset datafile columnheaders\nDATA = '%s'\n",
             CG_PLOT_WIDTH, CG_PLOT_HEIGHT, live.dat);
    return write_file(live.dat, data, "", "") && write_file(live.gp, head, script, "\nunset output\n");
}

/* Writes s to m with every id and id reference prefixed by "c<chart>-", in one pass. */
static void put_prefixed(FILE *m, const char *s, int chart)
{
    static const char *const marks[] = {" id='", " id=\"", "href='#", "href=\"#", "url(#"};
    static const char plot_id[] = " id=\"gnuplot_plot_"; /* gnuplot repeats these: made classes */
    const char *run = s;                                 /* start of the text not yet written */
    while (*s) {
        if (*s != ' ' && *s != 'h' && *s != 'u') {
            s++;
            continue;
        }
        const char *mark = NULL;
        if (!strncmp(s, plot_id, sizeof plot_id - 1)) mark = plot_id;
        for (size_t i = 0; !mark && i < sizeof marks / sizeof marks[0]; i++)
            if (!strncmp(s, marks[i], strlen(marks[i]))) mark = marks[i];
        if (!mark) {
            s++;
            continue;
        }
        fwrite(run, 1, (size_t)(s - run), m);
        if (mark == plot_id)
            fputs(" class=\"gnuplot_plot_", m);
        else
            fprintf(m, "%sc%d-", mark, chart);
        s += strlen(mark);
        run = s;
    }
    fputs(run, m);
}

static char *inline_svg(const char *svg, const char *attrs, int chart)
{
    const char *start = strstr(svg, "<svg");
    if (!start) return NULL;
    char *out = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&out, &n);
    if (!m) return NULL;
    fprintf(m, "<svg %s", attrs);
    put_prefixed(m, start + 4, chart);
    if (fclose(m) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

static void render_error(int rc, double timeout, char *err, size_t errlen)
{
    char line[256];
    switch (rc) {
    case -2:
        snprintf(err, errlen, CG_PLOT_MISSING);
        break;
    case -3:
        snprintf(err, errlen, "cannot write the gnuplot script in %s: %s; set TMPDIR to a writable directory",
                 live.dir, strerror(errno));
        break;
    case -4:
        snprintf(err, errlen,
                 "gnuplot did not finish within %g s and was stopped: set %s to more seconds, or drop --html",
                 timeout, CG_PLOT_TIMEOUT_ENV);
        break;
    default:
        first_error(live.log, line, sizeof line);
        snprintf(err, errlen, "gnuplot failed: %s", line);
    }
}

char *cg_plot_render(const char *script, const char *data, const char *attrs, int chart, char *err,
                     size_t errlen)
{
    double timeout;
    if (!cg_plot_timeout(&timeout, err, errlen)) return NULL;
    if (!make_tmp()) {
        snprintf(err, errlen,
                 "cannot create a temporary directory for gnuplot in $TMPDIR or /tmp: %s; set TMPDIR to a "
                 "writable directory",
                 strerror(errno));
        return NULL;
    }
    char *svg = NULL, *out = NULL;
    int rc = write_inputs(script, data) ? run_gnuplot(timeout) : -3;
    if (rc != 0)
        render_error(rc, timeout, err, errlen);
    else if (!(svg = read_all(live.svg)) || !(out = inline_svg(svg, attrs, chart)))
        snprintf(err, errlen,
                 "gnuplot exited without writing an SVG chart: check that `gnuplot` on PATH is "
                 "gnuplot 5 with its svg terminal");
    free(svg);
    remove_tmp();
    return out;
}
