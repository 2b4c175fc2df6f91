/* The sweep chart of a workload run over several parameter items (a --filter or --size list): the median time
 * of each rung against the item, one line per rung, from the first run of the page. Like the other charts
 * (plot_charts.c), its script holds only constant text and numbers; rung names and item labels travel in the
 * data file as quoted fields (xticlabels(), title columnheader()). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/plot.h"

#define SWEEP_MAX_ITEMS 64
#define SWEEP_MAX_RUNGS 32

/* The items (variants, in order of first appearance) and rungs of workload w in run r, and each median. */
typedef struct sweep {
    const char *item[SWEEP_MAX_ITEMS], *rung[SWEEP_MAX_RUNGS];
    size_t ni, nr;
    double t[SWEEP_MAX_ITEMS][SWEEP_MAX_RUNGS]; /* NaN: not timed */
} sweep;

static size_t find(const char **names, size_t *n, size_t max, const char *name)
{
    size_t k = 0;
    while (k < *n && strcmp(names[k], name))
        k++;
    if (k == *n && k < max) names[(*n)++] = name;
    return k;
}

static void gather(const cg_report *r, const char *workload, sweep *s)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < SWEEP_MAX_ITEMS; i++)
        for (size_t k = 0; k < SWEEP_MAX_RUNGS; k++)
            s->t[i][k] = NAN;
    for (size_t i = 0; i < r->n; i++) {
        const cg_result *row = &r->rows[i];
        if (strcmp(row->workload, workload)) continue;
        size_t v = find(s->item, &s->ni, SWEEP_MAX_ITEMS, row->variant);
        size_t k = find(s->rung, &s->nr, SWEEP_MAX_RUNGS, row->rung);
        if (v < s->ni && k < s->nr && isnan(s->t[v][k]) && cg_plot_timed(row)) s->t[v][k] = row->t_median;
    }
}

/* name for an HTML attribute: letters, digits, '_' and '-' kept, anything else (from a loaded file) '_'. */
static void plain(char *dst, size_t n, const char *name)
{
    size_t k = 0;
    for (; name[k] && k + 1 < n; k++) {
        char c = name[k];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                  c == '-';
        dst[k] = ok ? c : '_';
    }
    dst[k] = '\0';
}

size_t cg_plot_sweep_items(const cg_report *r, const char *workload)
{
    sweep s;
    gather(r, workload, &s);
    return s.ni;
}

/* Script: axes (log y when the medians span more than 30x), one line per rung from data block k + 1. */
static void script(FILE *f, const sweep *s, double scale, const char *unit, bool logy)
{
    fprintf(f,
            "set grid ytics lc rgb '#dddddd'\nset border 3\nset tics nomirror\nset key below\n"
            "set xrange [-0.5:%g]\nset xtics rotate by 30 right\n%s"
            "set ylabel 'median time (%s)'\nset xlabel 'sweep item (the rows'' variant)'\n",
            (double)s->ni - 0.5, logy ? "set logscale y\n" : "set yrange [0:*]\n", unit);
    fputs("plot DATA index 0 using 1:(NaN):xticlabels(2) notitle", f);
    for (size_t k = 0; k < s->nr; k++)
        fprintf(f, ", DATA index %zu using 1:2 with linespoints pt 7 ps 0.6 title columnheader(1)", k + 1);
    fputs("\n", f);
    (void)scale;
}

char *cg_plot_sweep(const cg_plot_in *in, char *err, size_t errlen)
{
    sweep s;
    double hi = 0, lo = INFINITY;
    if (!in->nruns) {
        snprintf(err, errlen, "no run to chart");
        return NULL;
    }
    gather(in->runs[0], in->group->workload, &s);
    for (size_t v = 0; v < s.ni; v++)
        for (size_t k = 0; k < s.nr; k++)
            if (!isnan(s.t[v][k])) hi = fmax(hi, s.t[v][k]), lo = fmin(lo, s.t[v][k]);
    double scale = hi < 1e-3 ? 1e6 : hi < 1 ? 1e3 : 1;
    const char *unit = hi < 1e-3 ? "us" : hi < 1 ? "ms" : "s";
    char *sc = NULL, *data = NULL, q[512];
    size_t ns = 0, nd = 0;
    FILE *f = open_memstream(&sc, &ns), *d = f ? open_memstream(&data, &nd) : NULL;
    if (!d) {
        if (f) fclose(f), free(sc);
        snprintf(err, errlen, "out of memory while writing a chart");
        return NULL;
    }
    script(f, &s, scale, unit, hi > 0 && hi / lo > 30);
    fputs("\"item\"\n", d);
    for (size_t v = 0; v < s.ni; v++) {
        cg_plot_label(q, sizeof q, s.item[v]);
        fprintf(d, "%zu %s\n", v, q);
    }
    for (size_t k = 0; k < s.nr; k++) {
        cg_plot_label(q, sizeof q, s.rung[k]);
        fprintf(d, "\n\n%s\n", q);
        for (size_t v = 0; v < s.ni; v++)
            if (!isnan(s.t[v][k])) fprintf(d, "%zu %.9g\n", v, s.t[v][k] * scale);
    }
    bool ok = fclose(f) == 0;
    ok = fclose(d) == 0 && ok;
    char *svg = NULL, w[200], attrs[512];
    if (ok) {
        plain(w, sizeof w, in->group->workload);
        snprintf(attrs, sizeof attrs,
                 "data-chart=\"sweep\" data-workload=\"%s\" role=\"img\" aria-label=\"%s sweep\"", w, w);
        svg = cg_plot_render(sc, data, attrs, in->chart, err, errlen);
    } else {
        snprintf(err, errlen, "out of memory while writing a chart");
    }
    free(sc);
    free(data);
    return svg;
}
