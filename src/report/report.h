/* The report writers, one file per format, all from the result model (src/model/). Text, JSON and CSV write a
 * cg_report of either kind (`run` or `peak`) through one row writer per format, driven by the field table of
 * model/fields.h (JSON, CSV) or a column table per kind (text), so that the formats and the two documents
 * cannot drift apart. The HTML page (html.h) draws runs. */
#ifndef CG_REPORT_H
#define CG_REPORT_H
#include <stdio.h>
#include "model/fields.h"
#include "model/result.h"

/* The aligned terminal table. A run: FAILED rows, "!" on a row with warnings and a legend, the reasons of the
 * rows that are not ok, the footer; on a terminal narrower than the table (cg_report_text_columns) the why
 * column is left out; written to a file or a pipe, the table is whole. A peak: family, test, variant, figure
 * (or the status label) and what it counts (or the reason), a blank line between families, the footer. */
void cg_report_text(const cg_report *r, FILE *f);
/* The same with an explicit width: a run's why column is left out when a line would be wider than cols; 0
 * keeps it always. A peak table is always whole. */
void cg_report_text_fit(const cg_report *r, FILE *f, int cols);
/* The width of the terminal f is (TIOCGWINSZ, else $COLUMNS, else 80); 0 when f is not a terminal. */
int cg_report_text_columns(FILE *f);
/* At most one line per warning kind (hyperfine's habit, for stderr): "Warning: timings vary on 23 of 57
 * rungs (worst transpose:local16: CV 25.9%): close other programs...". Nothing when no row has one. */
void cg_report_warnings(const cg_report *r, FILE *f);
/* JSON and CSV, whose keys and columns are fields of cg_row_fields (model/fields.h) that r's kind carries.
 * Return 0 on success, -1 when the file could not be written (errno set). */
int cg_report_json(const cg_report *r, const char *path);
int cg_report_csv(const cg_report *r, const char *path);
/* The run CSV's columns, in order: names of run fields of cg_row_fields (docs/report-schema.md, "CSV"). The
 * peak CSV has every field a peak row carries, in table order. */
extern const char *const cg_csv_columns[];
extern const size_t cg_csv_ncolumns;

#endif
