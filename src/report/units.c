/* Formatting of times and rates for the terminal table, the HTML page and `compare`: three significant
 * digits, no exponent. */
#include "report/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void cg_fmt3(char *buf, size_t n, double v)
{
    if (v >= 9999999.5)
        snprintf(buf, n, "%.3g", v);
    else if (v >= 99.95)
        snprintf(buf, n, "%.0f", v);
    else if (v >= 9.995)
        snprintf(buf, n, "%.1f", v);
    else if (v >= 0.9995)
        snprintf(buf, n, "%.2f", v);
    else
        snprintf(buf, n, "%.3g", v);
}

void cg_fmt_fixed(char *buf, size_t n, double v, int decimals)
{
    if (fabs(v) < 1e6)
        snprintf(buf, n, "%.*f", decimals, v);
    else
        snprintf(buf, n, "%.3g", v);
}

void cg_fmt_time(char *buf, size_t n, double s)
{
    static const char *const units[] = {"ns", "us", "ms", "s"};
    if (!isfinite(s) || s <= 0) {
        snprintf(buf, n, "-");
        return;
    }
    double v = s * 1e9;
    size_t u = 0;
    while (v >= 999.5 && u < 3) {
        v /= 1000;
        u++;
    }
    cg_fmt3(buf, n, v);
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, " %s", units[u]);
}

void cg_fmt_rate(char *buf, size_t n, double v, const char *unit)
{
    static const char prefixes[] = " kMGTPE";
    if (!isfinite(v) || v <= 0) {
        snprintf(buf, n, "-");
        return;
    }
    size_t p = 0;
    while (v >= 999.5 && p < sizeof prefixes - 2) {
        v /= 1000;
        p++;
    }
    cg_fmt3(buf, n, v);
    size_t len = strlen(buf);
    if (p == 0)
        snprintf(buf + len, n - len, " %s/s", unit);
    else
        snprintf(buf + len, n - len, " %c%s/s", prefixes[p], unit);
}
