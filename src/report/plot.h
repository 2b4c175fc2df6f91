/* Charts for the HTML report, drawn by gnuplot (its SVG terminal) and returned as inline SVG. The report
 * needs no network to be viewed: every chart is in the page.
 *
 * No text from a run file ever reaches gnuplot as script: a chart's script holds only constant text and
 * numbers printed by clgauge; names (rungs, devices) travel in a data file that gnuplot reads as data
 * (xticlabels(), title columnheader()), quoted by cg_plot_label. */
#ifndef CG_PLOT_H
#define CG_PLOT_H
#include <stdbool.h>
#include <stddef.h>
#include "model/result.h"

#define CG_PLOT_MISSING "gnuplot not found on PATH: install it (apt-get install gnuplot-nox) or drop --html"
/* The environment variable that bounds one gnuplot run, in seconds (default CG_PLOT_TIMEOUT_DEFAULT). */
#define CG_PLOT_TIMEOUT_ENV     "CLGAUGE_GNUPLOT_TIMEOUT"
#define CG_PLOT_TIMEOUT_DEFAULT 60.0
/* Every chart's size in SVG pixels, so that all charts of a page look alike (fonts included). */
#define CG_PLOT_WIDTH  620
#define CG_PLOT_HEIGHT 400

/* Is gnuplot on PATH? (An early check, so that `run --html` fails before measuring anything.) */
bool cg_plot_available(void);

/* The time one gnuplot run may take: $CLGAUGE_GNUPLOT_TIMEOUT seconds (a number > 0 and <= 86400), else the
 * default when unset or empty. False with one line in err when the variable is set to anything else. */
bool cg_plot_timeout(double *seconds, char *err, size_t errlen);

/* The runs behind a chart and the group it shows. label[j] names run j in keys (device, or device #j). */
typedef struct cg_plot_in {
    const cg_report *const *runs;
    const char *const *labels;
    size_t nruns;
    const cg_result
        *group; /* a row of the group shown: the chart takes every row of its workload and variant */
    int chart;  /* a number unique in the page: prefixes the SVG's ids so that charts do not share them */
} cg_plot_in;

/* True when the row has a time that can be charted (ran, finite positive median). */
bool cg_plot_timed(const cg_result *r);

/* The ladder: median time per rung as bars (one per run), error bars from the fastest to the slowest run,
 * FAILED rungs in red and rungs that did not run named at the axis; a group with no timed rung gets an empty
 * chart saying so. Only a rung's first row in each run is drawn. Returns the <svg> element (malloc'd,
 * carrying data-chart="ladder", data-workload and, for a row with a variant, data-variant), or NULL with one
 * line in err. */
char *cg_plot_ladder(const cg_plot_in *in, char *err, size_t errlen);
/* The roofline: each run's measured bandwidth (copy, read) and fp32 MAD ceilings over arithmetic intensity,
 * each rung that ran as a point (data-chart="roofline", data-workload, data-variant as above), the key below
 * the plot. NULL with err when no rung can be placed on it (err "" then: not an error) or gnuplot failed. */
char *cg_plot_roofline(const cg_plot_in *in, char *err, size_t errlen);

/* How many items (variants: sizes of a --filter or --size list) workload has in run r. */
size_t cg_plot_sweep_items(const cg_report *r, const char *workload);
/* The sweep: the first run's median time per rung (one line each) against the items of in->group's workload,
 * in the order they ran (data-chart="sweep", data-workload). Returns the <svg> element (malloc'd), or NULL
 * with one line in err. */
char *cg_plot_sweep(const cg_plot_in *in, char *err, size_t errlen);

/* `tune` rows (issue 20): params_from is a comma-separated list of "default", "search", "best" and
 * "rule:NAME" (a seed rule's pick). True when the row's params_from is such a list: a candidate of a tune
 * search (a `run` row has "" or "tuned"). */
bool cg_plot_tune_row(const cg_result *r);
/* True when token is one of the comma-separated words of from ("best" in "search,best"; never a part of one).
 */
bool cg_plot_from_has(const char *from, const char *token);
/* The tune chart of one search (a rung's candidates): rows[0..n) in rank order, the verified ones (status ok,
 * timed) first and fastest first; each verified one is a point at x = its index + 1 (its rank) and y = its
 * median time. The best, the default and each rule's pick are marked (a series each, named in the key from
 * the data file) and labelled beside their point; the default's time is a dashed line. Rows past the
 * verified ones are not drawn. Returns the <svg> element (malloc'd, data-chart="tune", data-workload,
 * data-rung and data-variant where there is one), or NULL with one line in err. */
char *cg_plot_tune(const cg_result *const *rows, size_t n, int chart, char *err, size_t errlen);
/* s for an HTML attribute value (double-quoted): &, <, > and ' as entities, control characters, invalid UTF-8
 * and double quotes as cg_plot_label makes them, cut to fit n bytes (never inside an entity). */
void cg_plot_html_attr(char *dst, size_t n, const char *s);

/* Runs a gnuplot script (without terminal and output lines) on the SVG terminal at CG_PLOT_WIDTH x
 * CG_PLOT_HEIGHT, with `data` written to a private data file that the script names as the gnuplot string
 * variable DATA, and with the first line of every data block taken as column headers (set datafile
 * columnheaders). gnuplot is stopped after cg_plot_timeout seconds; SIGINT, SIGTERM and SIGHUP while it runs
 * stop it and remove the temporary files before the signal takes its course. Returns the <svg> element with
 * `attrs` added to its start tag and its ids prefixed by "cN-" (N = chart); NULL with err when gnuplot is
 * missing, fails or times out. Used by the chart builders (plot_*.c). */
char *cg_plot_render(const char *script, const char *data, const char *attrs, int chart, char *err,
                     size_t errlen);

/* Writes s as one field of a gnuplot data file: in double quotes, with every double quote turned into a
 * single one, every control character into a space or '?' and invalid UTF-8 into '?', cut (on a character
 * boundary) to fit n bytes. gnuplot reads it as a string and never evaluates it. */
void cg_plot_label(char *dst, size_t n, const char *s);

#endif
