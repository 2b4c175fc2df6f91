/* Running gnuplot for the charts: the script goes to a private temp directory and is fed to gnuplot on its
 * standard input (posix_spawnp, no shell), the SVG comes back from a file there, its stderr is kept for the
 * error line. The SVG is then made fit for inlining: the XML prolog dropped, the caller's attributes added to
 * <svg>, every id (and every reference to one) prefixed per chart so that several charts share a page. */
#include "report/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

void cg_plot_quote(char *dst, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        if (!strchr("\"\\<>&", *s) && (unsigned char)*s >= 0x20) dst[k++] = *s;
    if (n) dst[k] = '\0';
}

typedef struct tmpfiles {
    char dir[512], gp[600], svg[600], log[600];
} tmpfiles;

static bool make_tmp(tmpfiles *t)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base || strchr(base, '\'') || strlen(base) > 400) base = "/tmp";
    snprintf(t->dir, sizeof t->dir, "%s/clgauge-plot-XXXXXX", base);
    if (!mkdtemp(t->dir)) return false;
    snprintf(t->gp, sizeof t->gp, "%s/plot.gp", t->dir);
    snprintf(t->svg, sizeof t->svg, "%s/plot.svg", t->dir);
    snprintf(t->log, sizeof t->log, "%s/stderr.txt", t->dir);
    return true;
}

static void remove_tmp(const tmpfiles *t)
{
    unlink(t->gp);
    unlink(t->svg);
    unlink(t->log);
    rmdir(t->dir);
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
    snprintf(dst, n, "%.*s", (int)(len > 200 ? 200 : len), p);
    free(text);
}

static int spawn_gnuplot(const tmpfiles *t)
{
    posix_spawn_file_actions_t fa;
    pid_t pid;
    char *argv[] = {"gnuplot", NULL};
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, t->gp, O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, t->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) return rc == ENOENT ? -2 : -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static bool write_script(const tmpfiles *t, const char *script, int w, int h)
{
    FILE *f = fopen(t->gp, "w");
    if (!f) return false;
    fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'sans,11' background rgb 'white'\n", w,
            h);
    fprintf(f, "set output '%s'\n%s\nunset output\n", t->svg, script);
    return fclose(f) == 0;
}

/* Writes s[0..n) to m with every id and id reference prefixed by "c<chart>-". */
static void put_prefixed(FILE *m, const char *s, int chart)
{
    static const char *const marks[] = {" id='", " id=\"", "href='#", "href=\"#", "url(#"};
    static const char plot_id[] = " id=\"gnuplot_plot_"; /* gnuplot repeats these: made classes */
    while (*s) {
        if (!strncmp(s, plot_id, sizeof plot_id - 1)) {
            fputs(" class=\"gnuplot_plot_", m);
            s += sizeof plot_id - 1;
            continue;
        }
        size_t best = strlen(s), mk = 0;
        for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
            const char *p = strstr(s, marks[i]);
            if (p && (size_t)(p - s) < best) best = (size_t)(p - s), mk = i;
        }
        const char *pid = strstr(s, plot_id);
        if (pid && (size_t)(pid - s) <= best) best = (size_t)(pid - s), mk = SIZE_MAX;
        fwrite(s, 1, best, m);
        if (!s[best]) break;
        if (mk == SIZE_MAX) {
            s += best;
            continue;
        }
        fprintf(m, "%sc%d-", marks[mk], chart);
        s += best + strlen(marks[mk]);
    }
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

char *cg_plot_render(const char *script, int w, int h, const char *attrs, int chart, char *err, size_t errlen)
{
    tmpfiles t;
    if (!make_tmp(&t)) {
        snprintf(err, errlen, "cannot create a temporary directory for gnuplot: %s; set TMPDIR",
                 strerror(errno));
        return NULL;
    }
    char *svg = NULL, *out = NULL;
    int rc = write_script(&t, script, w, h) ? spawn_gnuplot(&t) : -3;
    if (rc == -2) {
        snprintf(err, errlen, CG_PLOT_MISSING);
    } else if (rc == -3) {
        snprintf(err, errlen, "cannot write the gnuplot script in %s: %s", t.dir, strerror(errno));
    } else if (rc != 0) {
        char line[256];
        first_error(t.log, line, sizeof line);
        snprintf(err, errlen, "gnuplot failed: %s", line);
    } else if (!(svg = read_all(t.svg)) || !(out = inline_svg(svg, attrs, chart))) {
        snprintf(err, errlen, "gnuplot wrote no SVG in %s", t.dir);
    }
    free(svg);
    remove_tmp(&t);
    return out;
}
