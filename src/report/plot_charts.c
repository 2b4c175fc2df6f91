/* The two charts of a group (a workload, or one variant of it in a --filter sweep), each written as a gnuplot
 * script and a data file and rendered by plot.c: the ladder (median time per rung, one bar per run,
 * fastest..slowest run as error bars, FAILED rungs in red, rungs that did not run named at the axis) and the
 * roofline (each run's measured ceilings, each rung that ran as a point at its model arithmetic intensity).
 * Scripts hold only constant text and numbers; every name (rung, run label) is a quoted field of the data
 * file, read by gnuplot with xticlabels() or title columnheader(). A data file holds blocks separated by two
 * blank lines (gnuplot's `index`), each opening with its header line. */
#include "report/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNGS 64
#define LABEL_LEN 400
static const char *const run_colors[] = {"#4c72b0", "#dd8452", "#55a868", "#8172b3", "#937860", "#da8bc3"};
static const char *const rung_colors[] = {"#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3",
                                          "#937860", "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd"};
static const int point_types[] = {7, 5, 9, 11, 13, 15, 6, 4, 8, 10, 12, 14};
#define FAILED_COLOR "#c44e52"
#define NCOLORS(a)   (sizeof a / sizeof a[0])

/* The rungs of the group over all runs (order of first appearance, at most MAX_RUNGS) and each run's first
 * row of each: everything a chart draws, gathered in one pass over the rows. */
typedef struct chart_rows {
    const char *rung[MAX_RUNGS];
    size_t n, nruns;
    const cg_result **cell; /* cell[j * MAX_RUNGS + k]: run j's row of rung k, or NULL */
} chart_rows;

static const cg_result *cell(const chart_rows *c, size_t j, size_t k)
{
    return c->cell[j * MAX_RUNGS + k];
}

static bool collect(const cg_plot_in *in, chart_rows *c)
{
    c->n = 0;
    c->nruns = in->nruns;
    c->cell = calloc(in->nruns ? in->nruns * MAX_RUNGS : 1, sizeof *c->cell);
    if (!c->cell) return false;
    for (size_t j = 0; j < in->nruns; j++)
        for (size_t i = 0; i < in->runs[j]->n; i++) {
            const cg_result *r = &in->runs[j]->rows[i];
            if (!cg_result_same_group(r, in->group)) continue;
            size_t k = 0;
            while (k < c->n && strcmp(c->rung[k], r->rung))
                k++;
            if (k == c->n && c->n < MAX_RUNGS) c->rung[c->n++] = r->rung;
            if (k < c->n && !c->cell[j * MAX_RUNGS + k]) c->cell[j * MAX_RUNGS + k] = r;
        }
    return true;
}

bool cg_plot_timed(const cg_result *r)
{
    return (r->status == CG_RUNG_OK || r->status == CG_RUNG_WRONG) && r->runs > 0 && isfinite(r->t_median) &&
           r->t_median > 0;
}

static const char *entity(char ch)
{
    switch (ch) {
    case '&':
        return "&amp;";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '\'':
        return "&#39;";
    default:
        return NULL;
    }
}

void cg_plot_html_attr(char *dst, size_t n, const char *s)
{
    char clean[LABEL_LEN];
    cg_plot_label(clean, sizeof clean, s);
    size_t k = 0, len = strlen(clean);
    for (size_t i = 1; i + 1 < len; i++) { /* inside the quotes cg_plot_label added */
        const char *e = entity(clean[i]);
        size_t el = e ? strlen(e) : 1;
        if (k + el + 1 > n) break;
        memcpy(dst + k, e ? e : &clean[i], el);
        k += el;
    }
    if (n) dst[k < n ? k : n - 1] = '\0';
}

/* The <svg> attributes of a chart: its kind, the workload, the variant where the group has one, and a label
 * for screen readers ("convolution[5x5] ladder"). */
static void chart_attrs(char *buf, size_t n, const char *kind, const cg_result *group)
{
    char w[200], v[200], g[CG_GROUP_LEN], gq[400], var[240] = "";
    cg_plot_html_attr(w, sizeof w, group->workload);
    cg_plot_html_attr(v, sizeof v, group->variant);
    cg_result_group(group, g, sizeof g);
    cg_plot_html_attr(gq, sizeof gq, g);
    if (v[0]) snprintf(var, sizeof var, " data-variant=\"%s\"", v);
    snprintf(buf, n, "data-chart=\"%s\" data-workload=\"%s\"%s role=\"img\" aria-label=\"%s %s\"", kind, w,
             var, gq, kind);
}

/* Writes one quoted data-file field. */
static void put_label(FILE *d, const char *s)
{
    char q[LABEL_LEN];
    cg_plot_label(q, sizeof q, s);
    fputs(q, d);
}

/* Scale and unit for the time axis, from the slowest timed run; *logy when medians span more than 30x; *any
 * when some rung was timed. */
static double time_unit(const chart_rows *c, const char **unit, bool *logy, bool *any)
{
    double hi = 0, lo = INFINITY;
    for (size_t j = 0; j < c->nruns; j++)
        for (size_t k = 0; k < c->n; k++) {
            const cg_result *r = cell(c, j, k);
            if (!r || !cg_plot_timed(r)) continue;
            hi = fmax(hi, isfinite(r->t_max) ? fmax(r->t_max, r->t_median) : r->t_median);
            lo = fmin(lo, r->t_median);
        }
    *any = hi > 0;
    *logy = hi > 0 && hi / lo > 30;
    *unit = hi < 1e-3 ? "us" : hi < 1 ? "ms" : "s";
    return hi < 1e-3 ? 1e6 : hi < 1 ? 1e3 : 1;
}

static void ladder_axes(FILE *s, const chart_rows *c, const char *unit, bool logy, bool any)
{
    fprintf(s,
            "set style fill solid 0.85 border -1\nset grid ytics lc rgb '#dddddd'\nset border 3\n"
            "set tics nomirror\nset key below\nset xrange [-0.6:%g]\nset xtics rotate by 30 right\n",
            (double)c->n - 0.4);
    if (!any)
        fprintf(s, "set yrange [0:1]\nunset ytics\nset label 'no rung of this group was timed' at graph 0.5, "
                   "graph 0.6 center tc rgb '#777777'\n");
    fprintf(s, logy ? "set logscale y\n" : any ? "set yrange [0:*]\n" : "");
    fprintf(s, "set ylabel 'median time (%s), error bars: fastest to slowest run'\n", unit);
}

/* Block j+1 of the data ("x median min max failed", headed by the run's label) to d, the labels of its
 * untimed and FAILED rungs to s (constant text at numeric positions). */
static bool ladder_data(FILE *s, FILE *d, const cg_plot_in *in, const chart_rows *c, size_t j, double scale,
                        bool logy)
{
    double w = 0.8 / (double)in->nruns, off = ((double)j - ((double)in->nruns - 1) / 2) * w;
    bool failed = false;
    fputs("\n\n", d);
    put_label(d, in->nruns > 1 ? in->labels[j] : "");
    fputs("\n", d);
    for (size_t k = 0; k < c->n; k++) {
        const cg_result *r = cell(c, j, k);
        double x = (double)k + off;
        if (!r) continue;
        if (!cg_plot_timed(r)) {
            fprintf(s,
                    "set label '%s' at first %g, graph 0.02 rotate by 90 left font ',9' tc rgb '#777777'\n",
                    r->status == CG_RUNG_UNSUPPORTED ? "unsupported" : "did not run", x);
            continue;
        }
        bool bad = r->status == CG_RUNG_WRONG;
        double lo = isfinite(r->t_min) && r->t_min > 0 ? r->t_min : r->t_median;
        double hi = isfinite(r->t_max) ? fmax(r->t_max, r->t_median) : r->t_median;
        failed |= bad;
        fprintf(d, "%.9g %.9g %.9g %.9g %d\n", x, r->t_median * scale, lo * scale, hi * scale, bad);
        if (bad)
            fprintf(s, "set label 'FAILED' at first %g, first %.9g center font ',10' tc rgb '%s'\n", x,
                    hi * scale * (logy ? 1.3 : 1.06), FAILED_COLOR);
    }
    return failed;
}

/* The plot command: the axis names from block 0, then per run its bars (titled by its block's header), its
 * FAILED bars and its error bars. */
static void ladder_plot(FILE *s, const cg_plot_in *in, bool failed)
{
    fprintf(s, "plot DATA index 0 using 1:(NaN):xticlabels(2) notitle");
    for (size_t j = 0; j < in->nruns; j++) {
        double w = 0.8 / (double)in->nruns;
        fprintf(s,
                ", DATA index %zu using 1:($5==0?$2:NaN):(%g) with boxes lc rgb '%s' title columnheader(1)"
                ", DATA index %zu using 1:($5==1?$2:NaN):(%g) with boxes lc rgb '%s' %s"
                ", DATA index %zu using 1:2:3:4 with yerrorbars lc rgb '#222222' pt 7 ps 0.3 notitle",
                j + 1, w, run_colors[j % NCOLORS(run_colors)], j + 1, w, FAILED_COLOR,
                failed && j == 0 ? "title 'FAILED (wrong result)'" : "notitle", j + 1);
    }
    fputs("\n", s);
}

/* Renders a chart from its script and data streams (closed here: open_memstream sets *script and *data then),
 * or NULL with err. */
static char *finish(FILE *s, char **script, FILE *d, char **data, const char *kind, const cg_plot_in *in,
                    char *err, size_t errlen)
{
    bool ok = fclose(s) == 0;
    ok = fclose(d) == 0 && ok;
    char *svg = NULL;
    if (!ok) {
        snprintf(err, errlen, "out of memory while writing a chart");
    } else {
        char attrs[1280];
        chart_attrs(attrs, sizeof attrs, kind, in->group);
        svg = cg_plot_render(*script, *data, attrs, in->chart, err, errlen);
    }
    free(*script);
    free(*data);
    return svg;
}

/* Opens the script and data streams of a chart, or fails with err. */
static bool open_streams(FILE **s, char **script, FILE **d, char **data, char *err, size_t errlen)
{
    size_t ns = 0, nd = 0;
    *script = *data = NULL;
    *s = open_memstream(script, &ns);
    *d = *s ? open_memstream(data, &nd) : NULL;
    if (*d) return true;
    if (*s) fclose(*s), free(*script);
    snprintf(err, errlen, "out of memory while writing a chart");
    return false;
}

char *cg_plot_ladder(const cg_plot_in *in, char *err, size_t errlen)
{
    chart_rows c;
    FILE *s, *d;
    char *script, *data;
    if (!collect(in, &c)) {
        snprintf(err, errlen, "out of memory while writing a chart");
        return NULL;
    }
    if (!open_streams(&s, &script, &d, &data, err, errlen)) {
        free(c.cell);
        return NULL;
    }
    const char *unit;
    bool logy, any, failed = false;
    double scale = time_unit(&c, &unit, &logy, &any);
    ladder_axes(s, &c, unit, logy, any);
    fputs("\"rung\"\n", d);
    for (size_t k = 0; k < c.n; k++) {
        fprintf(d, "%zu ", k);
        put_label(d, c.rung[k]);
        fputs("\n", d);
    }
    for (size_t j = 0; j < in->nruns; j++)
        failed |= ladder_data(s, d, in, &c, j, scale, logy);
    ladder_plot(s, in, failed);
    free(c.cell);
    return finish(s, &script, d, &data, "ladder", in, err, errlen);
}

/* Point of a rung on the roofline, when it ran and its model has FLOPs and bytes. */
static bool roof_point(const cg_result *r, double *x, double *y)
{
    if (!r || !cg_plot_timed(r) || !(r->flops > 0) || !(r->bytes > 0) || !(r->gflops > 0)) return false;
    *x = r->flops / r->bytes;
    *y = r->gflops;
    return isfinite(*x) && isfinite(*y) && *x > 0;
}

static bool has_roof(const cg_report *r)
{
    return r->mad_gflops > 0 && r->read_gbps > 0 && r->copy_gbps > 0 && isfinite(r->mad_gflops) &&
           isfinite(r->read_gbps) && isfinite(r->copy_gbps);
}

/* x and y ranges covering every point and every run's ridge points; false when there is no point (or the
 * numbers of a damaged file leave no finite range). */
static bool roof_ranges(const cg_plot_in *in, const chart_rows *c, double x[2], double y[2])
{
    x[0] = y[0] = INFINITY;
    x[1] = y[1] = 0;
    bool any = false;
    for (size_t j = 0; j < in->nruns; j++) {
        const cg_report *rep = in->runs[j];
        for (size_t k = 0; k < c->n; k++) {
            double px, py;
            if (!roof_point(cell(c, j, k), &px, &py)) continue;
            any = true;
            x[0] = fmin(x[0], px), x[1] = fmax(x[1], px), y[0] = fmin(y[0], py), y[1] = fmax(y[1], py);
        }
        if (!has_roof(rep)) continue;
        double ridge = rep->mad_gflops / fmin(rep->read_gbps, rep->copy_gbps);
        x[0] = fmin(x[0], ridge), x[1] = fmax(x[1], ridge), y[1] = fmax(y[1], rep->mad_gflops);
    }
    x[0] /= 4, x[1] *= 4;
    for (size_t j = 0; j < in->nruns; j++)
        if (has_roof(in->runs[j]))
            y[0] = fmin(y[0], fmin(in->runs[j]->read_gbps, in->runs[j]->copy_gbps) * x[0]);
    y[0] /= 2, y[1] *= 3;
    return any && x[0] > 0 && y[0] > 0 && isfinite(x[1]) && isfinite(y[1]) && x[1] > x[0] && y[1] > y[0];
}

static int cmp_double(const void *a, const void *b)
{
    double p = *(const double *)a, q = *(const double *)b;
    return (p > q) - (p < q);
}

/* Block 2j: run j's ceilings ("x read copy", headed by their two key titles), exact on a log-log chart as
 * straight segments between the range's ends and the two ridge points. */
static void roof_ceiling_data(FILE *d, const cg_plot_in *in, size_t j, const double x[2])
{
    const cg_report *r = in->runs[j];
    char title[LABEL_LEN];
    fputs(j ? "\n\n" : "", d);
    snprintf(title, sizeof title, "%.300s%sread %.0f GB/s, MAD %.0f GFLOP/s",
             in->nruns > 1 ? in->labels[j] : "", in->nruns > 1 ? ": " : "", r->read_gbps, r->mad_gflops);
    put_label(d, title);
    snprintf(title, sizeof title, "copy %.0f GB/s", r->copy_gbps);
    fputs(" ", d);
    put_label(d, title);
    fputs("\n", d);
    if (!has_roof(r)) return;
    double xs[4] = {x[0], r->mad_gflops / r->read_gbps, r->mad_gflops / r->copy_gbps, x[1]};
    qsort(xs, 4, sizeof xs[0], cmp_double);
    for (size_t i = 0; i < 4; i++)
        fprintf(d, "%.9g %.9g %.9g\n", xs[i], fmin(xs[i] * r->read_gbps, r->mad_gflops),
                fmin(xs[i] * r->copy_gbps, r->mad_gflops));
}

/* Block 2j+1: run j's points ("intensity gflops rung-index", headed by every rung's name). */
static void roof_point_data(FILE *d, const chart_rows *c, size_t j)
{
    fputs("\n\n", d);
    for (size_t k = 0; k < c->n; k++) {
        fputs(k ? " " : "", d);
        put_label(d, c->rung[k]);
    }
    fputs(c->n ? "\n" : "\"\"\n", d);
    for (size_t k = 0; k < c->n; k++) {
        double x, y;
        if (roof_point(cell(c, j, k), &x, &y)) fprintf(d, "%.9g %.9g %zu\n", x, y, k);
    }
}

/* Each run's two ceilings, then one point series per (run, rung): a rung keeps its marker across runs; colour
 * is the rung's with one run, the run's with several. A rung is named in the key once, by the first run that
 * has its point. */
static void roof_plot(FILE *s, const cg_plot_in *in, const chart_rows *c)
{
    fprintf(s, "plot NaN notitle");
    for (size_t j = 0; j < in->nruns; j++)
        if (has_roof(in->runs[j]))
            fprintf(s,
                    ", DATA index %zu using 1:2 with lines lw 2 lc rgb '%s' title columnheader(1)"
                    ", DATA index %zu using 1:3 with lines lw 1.5 dt 2 lc rgb '%s' title columnheader(2)",
                    2 * j, run_colors[j % NCOLORS(run_colors)], 2 * j, run_colors[j % NCOLORS(run_colors)]);
    for (size_t j = 0; j < in->nruns; j++)
        for (size_t k = 0; k < c->n; k++) {
            const char *color =
                in->nruns > 1 ? run_colors[j % NCOLORS(run_colors)] : rung_colors[k % NCOLORS(rung_colors)];
            fprintf(s, ", DATA index %zu using 1:($3==%zu?$2:NaN) with points pt %d ps 1.4 lc rgb '%s' ",
                    2 * j + 1, k, point_types[k % NCOLORS(point_types)], color);
            size_t first = 0; /* the first run with a point of this rung names it */
            double px, py;
            while (first < j && !roof_point(cell(c, first, k), &px, &py))
                first++;
            if (first == j && roof_point(cell(c, j, k), &px, &py))
                fprintf(s, "title columnheader(%zu)", k + 1);
            else
                fputs("notitle", s);
        }
    fputs("\n", s);
}

char *cg_plot_roofline(const cg_plot_in *in, char *err, size_t errlen)
{
    chart_rows c;
    FILE *s, *d;
    char *script, *data;
    double x[2], y[2];
    if (errlen) err[0] = '\0';
    if (!collect(in, &c)) {
        snprintf(err, errlen, "out of memory while writing a chart");
        return NULL;
    }
    if (!roof_ranges(in, &c, x, y) || !open_streams(&s, &script, &d, &data, err, errlen)) {
        free(c.cell);
        return NULL;
    }
    fprintf(s,
            "set logscale xy\nset grid lc rgb '#dddddd'\nset key below font ',9'\n"
            "set xrange [%.9g:%.9g]\nset yrange [%.9g:%.9g]\nset format y '%%g'\nset format x '%%g'\n"
            "set xlabel 'arithmetic intensity (FLOP per model byte)'\nset ylabel 'GFLOP/s'\n",
            x[0], x[1], y[0], y[1]);
    for (size_t j = 0; j < in->nruns; j++) {
        roof_ceiling_data(d, in, j, x);
        roof_point_data(d, &c, j);
    }
    roof_plot(s, in, &c);
    free(c.cell);
    return finish(s, &script, d, &data, "roofline", in, err, errlen);
}
