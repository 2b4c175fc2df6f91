/* The peak terminal report: one aligned table (family, test, variant, figure, what it counts), widths
 * measured from the content; a row that did not give a figure shows its status in the figure column and its
 * reason in place of what it counts. A footer names the device and says how figures are taken. */
#include "model/peak_result.h"

#include <math.h>
#include <string.h>

#define NCOL 5

static void fmt_value(const cg_peak_row *row, char *buf, size_t n)
{
    if (row->status != CG_PEAK_OK || !isfinite(row->value)) { /* the run's table labels (result.h) */
        const char *label = cg_status_label(cg_peak_status_name(row->status));
        snprintf(buf, n, "%s", row->status == CG_PEAK_OK || !label ? "-" : label);
        return;
    }
    double v = row->value;
    int prec = v >= 100 ? 0 : v >= 10 ? 1 : 2;
    if (fabs(v) >= 1e12) /* bounded width, whatever the value */
        snprintf(buf, n, "%.3g %s", v, row->unit);
    else
        snprintf(buf, n, "%.*f %s", prec, v, row->unit);
}

static void cells(const cg_peak_row *row, char c[NCOL][168])
{
    snprintf(c[0], 168, "%s", row->family);
    snprintf(c[1], 168, "%s", row->test);
    snprintf(c[2], 168, "%s", row->variant);
    fmt_value(row, c[3], 168);
    snprintf(c[4], 168, "%s", row->status == CG_PEAK_OK ? row->note : row->reason);
}

static void print_row(FILE *f, char c[NCOL][168], const size_t *w)
{
    fprintf(f, "%-*s  %-*s  %-*s  %*s  %s\n", (int)w[0], c[0], (int)w[1], c[1], (int)w[2], c[2], (int)w[3],
            c[3], c[4]);
}

void cg_peak_report_text(const cg_peak_report *r, FILE *f)
{
    static const char *const head[NCOL] = {"family", "test", "variant", "figure", "counts"};
    size_t w[NCOL];
    char c[NCOL][168];
    for (int k = 0; k < NCOL; k++)
        w[k] = strlen(head[k]);
    for (size_t i = 0; i < r->n; i++) {
        cells(&r->rows[i], c);
        for (int k = 0; k < NCOL; k++)
            if (strlen(c[k]) > w[k]) w[k] = strlen(c[k]);
    }
    for (int k = 0; k < NCOL; k++)
        snprintf(c[k], 168, "%s", head[k]);
    print_row(f, c, w);
    for (size_t i = 0; i < r->n; i++) {
        if (i > 0 && strcmp(r->rows[i].family, r->rows[i - 1].family)) fputc('\n', f);
        cells(&r->rows[i], c);
        print_row(f, c, w);
    }
    fprintf(
        f,
        "\nDevice: %s (%s, driver %s). Each figure is the best of its timed runs (latencies: min, median, "
        "p99 of the samples); --max-time %.3g s per figure%s.\n",
        r->device.name, r->device.platform, r->device.driver, r->max_time, r->quick ? ", --quick" : "");
}
