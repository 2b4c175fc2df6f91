/* Formatting of intervals: a signed percentage change with its interval, a speedup with its interval. Every
 * number goes through cg_fmt_fixed or cg_fmt3, so that no value from a damaged file makes a cell unbounded.
 */
#include "report/interval.h"
#include "report/units.h"

#include <math.h>
#include <stdio.h>

/* "+4.1" or "-0.3": a signed percentage with one decimal. */
static void signed_pct(char *buf, size_t n, double frac)
{
    char v[24];
    cg_fmt_fixed(v, sizeof v, 100 * fabs(frac), 1);
    snprintf(buf, n, "%c%s", frac < 0 ? '-' : '+', v);
}

void cg_fmt_change(char *buf, size_t n, double delta, double lo, double hi)
{
    char d[32], l[32], h[32];
    if (!isfinite(delta)) {
        snprintf(buf, n, "-");
        return;
    }
    signed_pct(d, sizeof d, delta);
    if (!isfinite(lo) || !isfinite(hi)) {
        snprintf(buf, n, "%s%%", d);
        return;
    }
    signed_pct(l, sizeof l, lo - 1);
    signed_pct(h, sizeof h, hi - 1);
    snprintf(buf, n, "%s%% [%s, %s]", d, l, h);
}

void cg_fmt_speedup_ci(char *buf, size_t n, const cg_result *r)
{
    char s[24], l[24], h[24];
    if (!(r->speedup > 0) || !isfinite(r->speedup)) {
        snprintf(buf, n, "-");
        return;
    }
    cg_fmt3(s, sizeof s, r->speedup);
    if (!(r->speedup_lo > 0 && r->speedup_hi > 0 && isfinite(r->speedup_hi))) {
        snprintf(buf, n, "%sx", s);
        return;
    }
    cg_fmt3(l, sizeof l, r->speedup_lo);
    cg_fmt3(h, sizeof h, r->speedup_hi);
    snprintf(buf, n, "%sx [%s, %s]", s, l, h);
}
