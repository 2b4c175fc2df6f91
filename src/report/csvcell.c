/* CSV cells: RFC 4180 quoting and exact decimal forms of doubles. */
#include "report/csvcell.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cg_csv_put_cell(FILE *f, const char *s, bool first)
{
    if (!first) fputc(',', f);
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void cg_csv_fmt_double(char *buf, size_t n, double v)
{
    buf[0] = '\0';
    if (!isfinite(v)) return;
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, n, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) return;
    }
}
