/* The two charts of a group (a workload, or one variant of it in a --filter sweep), written as gnuplot
 * scripts with the data inline (datablocks) and rendered by plot.c: the ladder (median time per rung, one bar
 * per run, fastest..slowest run as error bars, FAILED rungs in red, rungs that did not run named at the axis)
 * and the roofline (each run's measured ceilings, each rung that ran as a point at its model arithmetic
 * intensity). */
#include "report/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNGS 64
static const char *const run_colors[] = {"#4c72b0", "#dd8452", "#55a868", "#8172b3", "#937860", "#da8bc3"};
static const char *const rung_colors[] = {"#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3",
                                          "#937860", "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd"};
static const int point_types[] = {7, 5, 9, 11, 13, 15, 6, 4, 8, 10, 12, 14};
#define FAILED_COLOR "#c44e52"
#define NCOLORS(a)   (sizeof a / sizeof a[0])

typedef struct rung_list {
    const char *name[MAX_RUNGS];
    size_t n;
} rung_list;

static bool timed(const cg_result *r)
{
    return (r->status == CG_RUNG_OK || r->status == CG_RUNG_WRONG) && r->runs > 0 && r->t_median > 0;
}

/* The rungs of the group over all runs, in order of first appearance. */
static void collect_rungs(const cg_plot_in *in, rung_list *l)
{
    l->n = 0;
    for (size_t j = 0; j < in->nruns; j++)
        for (size_t i = 0; i < in->runs[j]->n; i++) {
            const cg_result *r = &in->runs[j]->rows[i];
            size_t k = 0;
            while (k < l->n && strcmp(l->name[k], r->rung))
                k++;
            if (cg_result_same_group(r, in->group) && k == l->n && l->n < MAX_RUNGS)
                l->name[l->n++] = r->rung;
        }
}

/* The <svg> attributes of a chart: its kind, the workload, the variant where the group has one, and a label
 * for screen readers ("convolution[5x5] ladder"). */
static void chart_attrs(char *buf, size_t n, const char *kind, const cg_result *group)
{
    char w[64], v[64], g[CG_GROUP_LEN], gq[CG_GROUP_LEN], var[96] = "";
    cg_plot_quote(w, sizeof w, group->workload);
    cg_plot_quote(v, sizeof v, group->variant);
    cg_result_group(group, g, sizeof g);
    cg_plot_quote(gq, sizeof gq, g);
    if (v[0]) snprintf(var, sizeof var, " data-variant=\"%s\"", v);
    snprintf(buf, n, "data-chart=\"%s\" data-workload=\"%s\"%s role=\"img\" aria-label=\"%s %s\"", kind, w,
             var, gq, kind);
}

static int rung_index(const rung_list *l, const char *rung)
{
    for (size_t k = 0; k < l->n; k++)
        if (!strcmp(l->name[k], rung)) return (int)k;
    return -1;
}

/* Scale and unit for the time axis, from the slowest timed run; *logy when medians span more than 30x. */
static double time_unit(const cg_plot_in *in, const char **unit, bool *logy)
{
    double hi = 0, lo = INFINITY;
    for (size_t j = 0; j < in->nruns; j++)
        for (size_t i = 0; i < in->runs[j]->n; i++) {
            const cg_result *r = &in->runs[j]->rows[i];
            if (!cg_result_same_group(r, in->group) || !timed(r)) continue;
            hi = fmax(hi, fmax(r->t_max, r->t_median));
            lo = fmin(lo, r->t_median);
        }
    *logy = hi > 0 && hi / lo > 30;
    *unit = hi < 1e-3 ? "us" : hi < 1 ? "ms" : "s";
    return hi < 1e-3 ? 1e6 : hi < 1 ? 1e3 : 1;
}

static void ladder_axes(FILE *s, const rung_list *l, const char *unit, bool logy)
{
    fprintf(s,
            "set style fill solid 0.85 border -1\nset grid ytics lc rgb '#dddddd'\nset border 3\n"
            "set tics nomirror\nset key top left\nset xrange [-0.6:%g]\n",
            (double)l->n - 0.4);
    fprintf(s, logy ? "set logscale y\n" : "set yrange [0:*]\n");
    fprintf(
        s,
        "set ylabel 'median time (%s), error bars: fastest to slowest run'\nset xtics rotate by 30 right (",
        unit);
    for (size_t k = 0; k < l->n; k++) {
        char q[64];
        cg_plot_quote(q, sizeof q, l->name[k]);
        fprintf(s, "%s\"%s\" %zu", k ? ", " : "", q, k);
    }
    fprintf(s, ")\n");
}

/* The datablock $rJ of one run ("x median min max failed") to s, the labels of its untimed and FAILED rungs
 * to lab (gnuplot commands, which must not land inside the datablock). */
static bool ladder_data(FILE *s, FILE *lab, const cg_plot_in *in, size_t j, const rung_list *l, double scale,
                        bool logy)
{
    double w = 0.8 / (double)in->nruns, off = ((double)j - ((double)in->nruns - 1) / 2) * w;
    bool failed = false;
    fprintf(s, "$r%zu << EOD\n", j);
    for (size_t i = 0; i < in->runs[j]->n; i++) {
        const cg_result *r = &in->runs[j]->rows[i];
        int k = rung_index(l, r->rung);
        if (!cg_result_same_group(r, in->group) || k < 0) continue;
        double x = k + off;
        if (!timed(r)) {
            fprintf(lab,
                    "set label \"%s\" at first %g, graph 0.02 rotate by 90 left font ',9' tc rgb '#777777'\n",
                    r->status == CG_RUNG_UNSUPPORTED ? "unsupported" : "did not run", x);
            continue;
        }
        bool bad = r->status == CG_RUNG_WRONG;
        failed |= bad;
        fprintf(s, "%g %g %g %g %d\n", x, r->t_median * scale, r->t_min * scale, r->t_max * scale, bad);
        if (bad)
            fprintf(lab, "set label \"FAILED\" at first %g, first %g center font ',10' tc rgb '%s'\n", x,
                    fmax(r->t_max, r->t_median) * scale * (logy ? 1.3 : 1.06), FAILED_COLOR);
    }
    fprintf(s, "EOD\n");
    return failed;
}

char *cg_plot_ladder(const cg_plot_in *in, char *err, size_t errlen)
{
    rung_list l;
    collect_rungs(in, &l);
    const char *unit;
    bool logy, failed = false;
    double scale = time_unit(in, &unit, &logy);
    char *script = NULL, *labels = NULL;
    size_t n = 0, nl = 0;
    FILE *s = open_memstream(&script, &n), *lab = open_memstream(&labels, &nl);
    if (!s || !lab) {
        if (s) fclose(s), free(script);
        if (lab) fclose(lab), free(labels);
        return NULL;
    }
    ladder_axes(s, &l, unit, logy);
    for (size_t j = 0; j < in->nruns; j++)
        failed |= ladder_data(s, lab, in, j, &l, scale, logy);
    fclose(lab);
    fprintf(s, "%splot ", labels ? labels : "");
    free(labels);
    for (size_t j = 0; j < in->nruns; j++) {
        char q[300];
        cg_plot_quote(q, sizeof q, in->labels[j]);
        fprintf(s, "$r%zu using 1:($5==0?$2:NaN):(%g) with boxes lc rgb '%s' title \"%s\", ", j,
                0.8 / (double)in->nruns, run_colors[j % NCOLORS(run_colors)], in->nruns > 1 ? q : "");
        fprintf(s, "$r%zu using 1:($5==1?$2:NaN):(%g) with boxes lc rgb '%s' title \"%s\", ", j,
                0.8 / (double)in->nruns, FAILED_COLOR, failed && j == 0 ? "FAILED (wrong result)" : "");
        fprintf(s, "$r%zu using 1:2:3:4 with yerrorbars lc rgb '#222222' pt 7 ps 0.3 notitle%s", j,
                j + 1 < in->nruns ? ", " : "\n");
    }
    fclose(s);
    char attrs[384];
    chart_attrs(attrs, sizeof attrs, "ladder", in->group);
    char *svg = cg_plot_render(script, 620, 360, attrs, in->chart, err, errlen);
    free(script);
    return svg;
}

/* Point and range of a rung on the roofline, when it ran and its model has FLOPs and bytes. */
static bool roof_point(const cg_result *r, double *x, double *y)
{
    if (!timed(r) || !(r->flops > 0) || !(r->bytes > 0) || !(r->gflops > 0)) return false;
    *x = r->flops / r->bytes;
    *y = r->gflops;
    return true;
}

static bool has_roof(const cg_report *r)
{
    return r->mad_gflops > 0 && r->read_gbps > 0 && r->copy_gbps > 0;
}

/* x and y ranges covering every point and every run's ridge points; false when there is no point. */
static bool roof_ranges(const cg_plot_in *in, double x[2], double y[2])
{
    x[0] = y[0] = INFINITY;
    x[1] = y[1] = 0;
    bool any = false;
    for (size_t j = 0; j < in->nruns; j++) {
        const cg_report *rep = in->runs[j];
        for (size_t i = 0; i < rep->n; i++) {
            double px, py;
            if (!cg_result_same_group(&rep->rows[i], in->group) || !roof_point(&rep->rows[i], &px, &py))
                continue;
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
    return any;
}

static void roof_functions(FILE *s, const cg_report *r, size_t j)
{
    fprintf(s, "rd%zu(x) = x*%.17g < %.17g ? x*%.17g : %.17g\n", j, r->read_gbps, r->mad_gflops, r->read_gbps,
            r->mad_gflops);
    fprintf(s, "cp%zu(x) = x*%.17g < %.17g ? x*%.17g : %.17g\n", j, r->copy_gbps, r->mad_gflops, r->copy_gbps,
            r->mad_gflops);
}

static void roof_ceilings(FILE *s, const cg_plot_in *in, size_t j)
{
    const cg_report *r = in->runs[j];
    char q[300];
    cg_plot_quote(q, sizeof q, in->labels[j]);
    const char *c = run_colors[j % NCOLORS(run_colors)];
    fprintf(s, "rd%zu(x) with lines lw 2 lc rgb '%s' title \"%s%sread %.0f GB/s, MAD %.0f GFLOP/s\", ", j, c,
            in->nruns > 1 ? q : "", in->nruns > 1 ? ": " : "", r->read_gbps, r->mad_gflops);
    fprintf(s, "cp%zu(x) with lines lw 1.5 dt 2 lc rgb '%s' title \"copy %.0f GB/s\", ", j, c, r->copy_gbps);
}

/* The datablock $pJ of one run: "intensity gflops rung-index". */
static void roof_data(FILE *s, const cg_plot_in *in, size_t j, const rung_list *l)
{
    const cg_report *rep = in->runs[j];
    fprintf(s, "$p%zu << EOD\n", j);
    for (size_t i = 0; i < rep->n; i++) {
        double x, y;
        if (cg_result_same_group(&rep->rows[i], in->group) && roof_point(&rep->rows[i], &x, &y))
            fprintf(s, "%.9g %.9g %d\n", x, y, rung_index(l, rep->rows[i].rung));
    }
    fprintf(s, "EOD\n");
    if (has_roof(rep)) roof_functions(s, rep, j);
}

/* One point series per (run, rung): a rung keeps its marker across runs; colour is the rung's with one run,
 * the run's with several. Only the first run's series are named in the key. */
static void roof_points(FILE *s, const cg_plot_in *in, size_t j, const rung_list *l)
{
    for (size_t k = 0; k < l->n; k++) {
        char q[64];
        cg_plot_quote(q, sizeof q, l->name[k]);
        const char *c =
            in->nruns > 1 ? run_colors[j % NCOLORS(run_colors)] : rung_colors[k % NCOLORS(rung_colors)];
        fprintf(s, ", $p%zu using 1:($3==%zu?$2:NaN) with points pt %d ps 1.4 lc rgb '%s' title \"%s\"", j, k,
                point_types[k % NCOLORS(point_types)], c, j == 0 ? q : "");
    }
}

char *cg_plot_roofline(const cg_plot_in *in, char *err, size_t errlen)
{
    rung_list l;
    double x[2], y[2];
    if (errlen) err[0] = '\0';
    collect_rungs(in, &l);
    if (!roof_ranges(in, x, y)) return NULL;
    char *script = NULL;
    size_t n = 0;
    FILE *s = open_memstream(&script, &n);
    if (!s) return NULL;
    fprintf(s,
            "set logscale xy\nset samples 600\nset grid lc rgb '#dddddd'\n%s\n"
            "set xrange [%g:%g]\nset yrange [%g:%g]\nset format y '%%g'\nset format x '%%g'\n"
            "set xlabel 'arithmetic intensity (FLOP per model byte)'\nset ylabel 'GFLOP/s'\n",
            in->nruns > 1 ? "set key below font ',9'" : "set key inside bottom right box opaque font ',10'",
            x[0], x[1], y[0], y[1]);
    for (size_t j = 0; j < in->nruns; j++)
        roof_data(s, in, j, &l);
    fprintf(s, "plot NaN notitle");
    for (size_t j = 0; j < in->nruns; j++) {
        if (!has_roof(in->runs[j])) continue;
        fprintf(s, ", ");
        roof_ceilings(s, in, j);
        fprintf(s, "NaN notitle");
    }
    for (size_t j = 0; j < in->nruns; j++)
        roof_points(s, in, j, &l);
    fprintf(s, "\n");
    fclose(s);
    char attrs[384];
    chart_attrs(attrs, sizeof attrs, "roofline", in->group);
    char *svg = cg_plot_render(script, 620, in->nruns > 1 ? 520 : 380, attrs, in->chart, err, errlen);
    free(script);
    return svg;
}
