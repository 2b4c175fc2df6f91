/* The HTML report: one self-contained page (inline CSS and SVG, no script, nothing fetched) for one or more
 * runs: the device and run metadata, then per group (a workload, or one variant of it such as
 * "convolution[5x5]" from a --filter sweep) its ladder chart, its roofline chart and its rung table with the
 * why-lines. Charts are drawn by gnuplot (report/plot.h). */
#ifndef CG_HTML_H
#define CG_HTML_H
#include <stddef.h>
#include "model/result.h"

/* Writes the page for runs[0..n) to path ("-": stdout), all-or-nothing (report/outfile.h). `generator` names
 * the clgauge and command line that wrote the page. Returns 0; -1 with one line in err when a chart could not
 * be drawn (gnuplot missing or failing: *io false) or the file could not be written (*io true). */
int cg_report_html(const cg_report *const *runs, size_t n, const char *generator, const char *path, char *err,
                   size_t errlen, bool *io);

#endif
