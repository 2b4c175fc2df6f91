/* The tune chart (`clgauge tune --html`, issue 20): one search's verified candidates as points, fastest first
 * along x (x = the rank in the page's table), median time along y; the best, the default (the rung's own
 * parameters) and each seed rule's pick as marked series named in the key, each marked candidate labelled
 * beside its point, and the default's time as a dashed line. Like the other charts (plot_charts.c), the
 * script holds only constant text and numbers: mark names and labels come from the rows' params_from, a
 * file's text, so they travel in the data file as quoted fields (title columnheader(), with labels). Also
 * the reading of params_from's words, which the HTML page shares. */
#include "report/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARKS_MAX 16
#define TOKEN_LEN 96
#define LABEL_LEN 400
/* best, default, then the rules in order of first appearance */
static const char *const mark_colors[] = {"#2ca02c", "#dd8452", "#8172b3", "#c44e52", "#937860",
                                          "#da8bc3", "#17becf", "#bcbd22", "#7f7f7f", "#1f77b4"};
static const int mark_points[] = {6, 5, 9, 11, 13, 15, 8, 10, 12, 14, 4, 3};
#define NCOLORS(a) (sizeof a / sizeof a[0])

/* The next word of a comma-separated list into tok (cut to n bytes): the rest of the list after it. */
static const char *next_token(const char *from, char *tok, size_t n)
{
    size_t k = strcspn(from, ",");
    snprintf(tok, n, "%.*s", (int)k, from);
    return from + k + (from[k] == ',');
}

bool cg_plot_from_has(const char *from, const char *token)
{
    size_t len = strlen(token);
    while (*from) {
        size_t k = strcspn(from, ",");
        if (k == len && !strncmp(from, token, len)) return true;
        from += k + (from[k] == ',');
    }
    return false;
}

bool cg_plot_tune_row(const cg_result *r)
{
    const char *p = r->params_from;
    if (!*p) return false;
    while (*p) {
        size_t k = strcspn(p, ",");
        bool ok = (k == 7 && !strncmp(p, "default", k)) || (k == 6 && !strncmp(p, "search", k)) ||
                  (k == 4 && !strncmp(p, "best", k)) || (k > 5 && !strncmp(p, "rule:", 5));
        if (!ok || (p[k] == ',' && !p[k + 1])) return false;
        p += k + (p[k] == ',');
    }
    return true;
}

static bool charted(const cg_result *r)
{
    return r->status == CG_RUNG_OK && cg_plot_timed(r);
}

/* The distinct marks of the charted rows: "best", "default", then every "rule:..." in order of first
 * appearance ("search" is no mark). */
typedef struct marks {
    char name[MARKS_MAX][TOKEN_LEN];
    size_t n;
} marks;

static void add_mark(marks *m, const char *name)
{
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->name[i], name)) return;
    if (m->n < MARKS_MAX) snprintf(m->name[m->n++], TOKEN_LEN, "%s", name);
}

static void gather_marks(const cg_result *const *rows, size_t nv, marks *m)
{
    char tok[TOKEN_LEN];
    m->n = 0;
    for (size_t i = 0; i < nv; i++)
        if (cg_plot_from_has(rows[i]->params_from, "best")) add_mark(m, "best");
    for (size_t i = 0; i < nv; i++)
        if (cg_plot_from_has(rows[i]->params_from, "default")) add_mark(m, "default");
    for (size_t i = 0; i < nv; i++)
        for (const char *p = rows[i]->params_from; *p;) {
            p = next_token(p, tok, sizeof tok);
            if (!strncmp(tok, "rule:", 5)) add_mark(m, tok);
        }
}

/* A charted row's label: its marks, "search" left out, joined by ", " ("best, rule:nvidia-warps"). */
static void row_label(const cg_result *r, char *buf, size_t n)
{
    char tok[TOKEN_LEN];
    size_t used = 0;
    buf[0] = '\0';
    for (const char *p = r->params_from; *p;) {
        p = next_token(p, tok, sizeof tok);
        if (!tok[0] || !strcmp(tok, "search")) continue;
        int w = snprintf(buf + used, n - used, "%s%s", used ? ", " : "", tok);
        if (w < 0 || (size_t)w >= n - used) break;
        used += (size_t)w;
    }
}

static void put_label(FILE *d, const char *s)
{
    char q[LABEL_LEN];
    cg_plot_label(q, sizeof q, s);
    fputs(q, d);
}

/* Axes: x the ranks, y the time (log where the medians span more than 30x), the default's time dashed. */
static void axes(FILE *s, size_t nv, const char *unit, bool logy, double t_default)
{
    fputs("set grid ytics lc rgb '#dddddd'\nset border 3\nset tics nomirror\nset key below font ',9'\n"
          "set xlabel 'candidate, fastest to slowest (its rank in the table)'\n",
          s);
    fprintf(s, "set ylabel 'median time (%s)'\n", unit);
    if (!nv) {
        fputs("set xrange [0:1]\nset yrange [0:1]\nunset xtics\nunset ytics\nset label 'no candidate was "
              "verified' at graph 0.5, graph 0.6 center tc rgb '#777777'\n",
              s);
        return;
    }
    fprintf(s, "set xrange [0.5:%g]\nset xtics 1, %g\n%s", (double)nv + 0.5,
            nv > 40   ? floor((double)nv / 20.0)
            : nv > 20 ? 2.0
                      : 1.0,
            logy ? "set logscale y\n" : "set yrange [0:*]\n");
    if (t_default > 0)
        fprintf(s, "set arrow from graph 0, first %.9g to graph 1, first %.9g nohead dt 2 lc rgb '%s'\n",
                t_default, t_default, mark_colors[1]);
}

/* The data: block 0 every charted row ("x t"), then one block per mark headed by its name, then the labels
 * ("x t label") of the fastest fifth and of the others. */
static void data(FILE *d, const cg_result *const *rows, size_t nv, const marks *m, double scale)
{
    char label[LABEL_LEN];
    size_t first = nv / 5 ? nv / 5 : 1; /* the fastest: labelled below right, the others above left */
    fputs("\"candidate\"\n", d);
    for (size_t i = 0; i < nv; i++)
        fprintf(d, "%zu %.9g\n", i + 1, rows[i]->t_median * scale);
    for (size_t k = 0; k < m->n; k++) {
        fputs("\n\n", d);
        put_label(d, m->name[k]);
        fputs("\n", d);
        for (size_t i = 0; i < nv; i++)
            if (cg_plot_from_has(rows[i]->params_from, m->name[k]))
                fprintf(d, "%zu %.9g\n", i + 1, rows[i]->t_median * scale);
    }
    for (int half = 0; half < 2; half++) {
        fputs("\n\n\"label\"\n", d);
        for (size_t i = 0; i < nv; i++) {
            row_label(rows[i], label, sizeof label);
            if (!label[0] || (i >= first) != half) continue;
            fprintf(d, "%zu %.9g ", i + 1, rows[i]->t_median * scale);
            put_label(d, label);
            fputs("\n", d);
        }
    }
}

/* The candidates, the labels (away from the rising curve of times: below right of the fastest, above left
 * of the others), then the marks on top. */
static void plot(FILE *s, size_t nv, const marks *m)
{
    if (!nv) {
        fputs("plot NaN notitle\n", s);
        return;
    }
    fprintf(s, "plot DATA index 0 using 1:2 with points pt 7 ps 0.5 lc rgb '#4c72b0' title 'verified "
               "candidate'");
    fprintf(s,
            ", DATA index %zu using 1:2:3 with labels left offset 0.8,-0.9 font ',9' tc rgb '#222222' notitle"
            ", DATA index %zu using 1:2:3 with labels right offset -0.8,0.9 font ',9' tc rgb '#222222' "
            "notitle",
            m->n + 1, m->n + 2);
    for (size_t k = 0; k < m->n; k++)
        fprintf(s,
                ", DATA index %zu using 1:2 with points pt %d ps %s lw 2 lc rgb '%s' title columnheader(1)",
                k + 1, mark_points[k % NCOLORS(mark_points)], k == 0 ? "2.4" : "1.4",
                mark_colors[k % NCOLORS(mark_colors)]);
    fputs("\n", s);
}

/* The <svg> attributes: kind, workload, rung, variant where there is one, a label for screen readers. */
static void attrs(char *buf, size_t n, const cg_result *r)
{
    char w[200], g[200], v[200], var[240] = "";
    cg_plot_html_attr(w, sizeof w, r->workload);
    cg_plot_html_attr(g, sizeof g, r->rung);
    cg_plot_html_attr(v, sizeof v, r->variant);
    if (v[0]) snprintf(var, sizeof var, " data-variant=\"%s\"", v);
    snprintf(buf, n,
             "data-chart=\"tune\" data-workload=\"%s\" data-rung=\"%s\"%s role=\"img\" aria-label=\"%s:%s "
             "candidates\"",
             w, g, var, w, g);
}

char *cg_plot_tune(const cg_result *const *rows, size_t n, int chart, char *err, size_t errlen)
{
    size_t nv = 0, ns = 0, nd = 0;
    double hi = 0, lo = INFINITY, t_default = 0;
    while (nv < n && charted(rows[nv])) {
        hi = fmax(hi, rows[nv]->t_median), lo = fmin(lo, rows[nv]->t_median);
        if (t_default == 0 && cg_plot_from_has(rows[nv]->params_from, "default"))
            t_default = rows[nv]->t_median;
        nv++;
    }
    double scale = hi < 1e-3 ? 1e6 : hi < 1 ? 1e3 : 1;
    marks *m = malloc(sizeof *m);
    char *script = NULL, *dat = NULL, *svg = NULL;
    FILE *s = m ? open_memstream(&script, &ns) : NULL, *d = s ? open_memstream(&dat, &nd) : NULL;
    if (!d) {
        if (s) fclose(s), free(script);
        free(m);
        snprintf(err, errlen, "out of memory while writing a chart");
        return NULL;
    }
    gather_marks(rows, nv, m);
    axes(s, nv, hi < 1e-3 ? "us" : hi < 1 ? "ms" : "s", hi > 0 && hi / lo > 30, t_default * scale);
    data(d, rows, nv, m, scale);
    plot(s, nv, m);
    bool ok = fclose(s) == 0;
    ok = fclose(d) == 0 && ok;
    if (ok) {
        char a[1280];
        attrs(a, sizeof a, n ? rows[0] : &(cg_result){0});
        svg = cg_plot_render(script, dat, a, chart, err, errlen);
    } else {
        snprintf(err, errlen, "out of memory while writing a chart");
    }
    free(script);
    free(dat);
    free(m);
    return svg;
}
