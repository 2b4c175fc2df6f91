/* RFC 4180 cells and round-tripping numbers, shared by the run and peak CSV writers. */
#ifndef CG_REPORT_CSVCELL_H
#define CG_REPORT_CSVCELL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes one cell, preceded by a comma unless it is the first of its line; quotes it (doubling quotes) when
 * it holds a comma, a quote, CR or LF. */
void cg_csv_put_cell(FILE *f, const char *s, bool first);
/* The fewest significant digits (15 to 17) that read back as the same double; "" for NaN and infinities. */
void cg_csv_fmt_double(char *buf, size_t n, double v);

#endif
