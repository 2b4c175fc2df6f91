/* The HTML page's sections for `clgauge tune` runs (issue 20), and the cells of html.c they share. Internal
 * to report/: html.c writes the page and calls these for the runs whose rows are tune candidates
 * (cg_plot_tune_row); a `run` page is written without them. */
#ifndef CG_HTML_TUNE_H
#define CG_HTML_TUNE_H
#include <stdbool.h>
#include <stdio.h>
#include "model/result.h"

/* html.c: s HTML-escaped (&, <, >, ", '). */
void cg_html_esc(FILE *f, const char *s);
/* html.c: a row's status cell ("OK", "FAILED", "unsupported", ...), kernel facts cell and occupancy cell. */
void cg_html_status_cell(FILE *f, const cg_result *r);
void cg_html_kernel_cell(FILE *f, const cg_result *r);
void cg_html_occ_cell(FILE *f, const cg_result *r);

/* True when some row of r is a tune candidate: r is then shown as tune searches, not as a ladder. */
bool cg_html_tune_report(const cg_report *r);

/* The searches of the tune runs runs[0..n) (one per run, workload, variant and rung), their candidates in
 * rank order and each one's chart. */
typedef struct cg_html_tune cg_html_tune;
/* Gathers the searches and draws their charts (chart numbers from chart0 on). labels[j] names run j where
 * show_labels (a page of several runs). NULL with one line in err when a chart could not be drawn or memory
 * ran out. */
cg_html_tune *cg_html_tune_create(const cg_report *const *runs, const char *const *labels, size_t n,
                                  bool show_labels, int chart0, char *err, size_t errlen);
void cg_html_tune_destroy(cg_html_tune *t);
/* The searches' links for the page's table of contents, each after sep (then " &middot; "). */
void cg_html_tune_nav(FILE *f, const cg_html_tune *t, const char *sep);
/* One section per search: sizes and counts, the chart, which rule came closest to the best, the table of
 * every candidate. */
void cg_html_tune_sections(FILE *f, const cg_html_tune *t);
/* The page's style rules for these sections. */
extern const char cg_html_tune_style[];

#endif
