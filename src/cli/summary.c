/* The one-line run summary of `run --quiet`: counts by status and the fastest and slowest passing rung. */
#include "cli/summary.h"
#include "report/units.h"

/* "reduction:best", or "convolution[5x5]:naive" for a row of a --filter sweep. */
static void row_name(const cg_result *r, char *buf, size_t len)
{
    char group[CG_GROUP_LEN];
    cg_result_group(r, group, sizeof group);
    snprintf(buf, len, "%s:%s", group, r->rung);
}

void cg_cli_run_summary(const cg_report *rep, FILE *f)
{
    size_t ok = 0, unsupported = 0;
    const cg_result *fast = NULL, *slow = NULL;
    if (rep->n == 0) return;
    for (size_t i = 0; i < rep->n; i++) {
        const cg_result *r = &rep->rows[i];
        if (r->status == CG_RUNG_UNSUPPORTED) unsupported++;
        if (r->status != CG_RUNG_OK) continue;
        ok++;
        if (!fast || r->t_median < fast->t_median) fast = r;
        if (!slow || r->t_median > slow->t_median) slow = r;
    }
    fprintf(f, "clgauge: %zu rung%s: %zu ok, %zu failed, %zu unsupported", rep->n, rep->n == 1 ? "" : "s", ok,
            rep->n - ok - unsupported, unsupported);
    if (fast) {
        char fn[CG_GROUP_LEN + 34], sn[CG_GROUP_LEN + 34], ft[32], stime[32]; /* workload[variant]:rung */
        row_name(fast, fn, sizeof fn);
        row_name(slow, sn, sizeof sn);
        cg_fmt_time(ft, sizeof ft, fast->t_median);
        cg_fmt_time(stime, sizeof stime, slow->t_median);
        fprintf(f, "; fastest %s %s, slowest %s %s", fn, ft, sn, stime);
    }
    fputc('\n', f);
}
