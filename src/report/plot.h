/* Charts for the HTML report, drawn by gnuplot (its SVG terminal) and returned as inline SVG. The report
 * needs no network to be viewed: every chart is in the page. */
#ifndef CG_PLOT_H
#define CG_PLOT_H
#include <stdbool.h>
#include <stddef.h>
#include "report/result.h"

#define CG_PLOT_MISSING "gnuplot not found on PATH: install it (apt-get install gnuplot-nox) or drop --html"

/* Is gnuplot on PATH? (An early check, so that `run --html` fails before measuring anything.) */
bool cg_plot_available(void);

/* The runs behind a chart and the group it shows. label[j] names run j in keys (device, or device #j). */
typedef struct cg_plot_in {
    const cg_report *const *runs;
    const char *const *labels;
    size_t nruns;
    const cg_result
        *group; /* a row of the group shown: the chart takes every row of its workload and variant */
    int chart;  /* a number unique in the page: prefixes the SVG's ids so that charts do not share them */
} cg_plot_in;

/* The ladder: median time per rung as bars (one per run), error bars from the fastest to the slowest run,
 * FAILED rungs in red and rungs that did not run named at the axis. Returns the <svg> element (malloc'd,
 * carrying data-chart="ladder", data-workload and, for a row with a variant, data-variant), or NULL with one
 * line in err. */
char *cg_plot_ladder(const cg_plot_in *in, char *err, size_t errlen);
/* The roofline: each run's measured bandwidth (copy, read) and fp32 MAD ceilings over arithmetic intensity,
 * each rung that ran as a point (data-chart="roofline", data-workload, data-variant as above). NULL with err
 * when no rung can be placed on it (err "" then: not an error) or gnuplot failed. */
char *cg_plot_roofline(const cg_plot_in *in, char *err, size_t errlen);

/* Runs a gnuplot script (without terminal and output lines) on the SVG terminal at WxH and returns the
 * <svg> element with `attrs` added to its start tag and its ids prefixed by "cN-" (N = chart); NULL with err
 * when gnuplot is missing or fails. Used by the chart builders (plot_*.c). */
char *cg_plot_render(const char *script, int w, int h, const char *attrs, int chart, char *err,
                     size_t errlen);
/* Copies s into a gnuplot double-quoted string body: quotes, backslashes, <, >, & and control
 * characters dropped (safe in gnuplot strings and in the SVG and HTML around them). */
void cg_plot_quote(char *dst, size_t n, const char *s);

#endif
