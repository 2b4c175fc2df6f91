/* The --estimate tables: each algorithm's predicted rate is min(copy bandwidth / (4 B x accesses per item),
 * MAD rate / MADs per item), the Apple guide's back-of-the-envelope method (no cache counted), printed next
 * to the fastest measured rung that implements the algorithm. */
#include "cli/estimate.h"
#include <math.h>
#include <string.h>
#include "workloads/registry.h"

#define MAX_ROWS 16

/* The fastest OK row of workload w whose rung is one of the comma-separated names; NULL when none ran. */
static const cg_result *fastest(const cg_report *rep, const char *w, const char *names)
{
    const cg_result *best = NULL;
    for (size_t i = 0; i < rep->n; i++) {
        const cg_result *r = &rep->rows[i];
        size_t len = strlen(r->rung);
        const char *p = names;
        bool named = false;
        while (!named && (p = strstr(p, r->rung)) != NULL) {
            named = (p == names || p[-1] == ',') && (p[len] == 0 || p[len] == ',');
            p += len;
        }
        if (named && !strcmp(r->workload, w) && r->status == CG_RUNG_OK &&
            (!best || r->items_per_s > best->items_per_s))
            best = r;
    }
    return best;
}

static const cg_result *first_row(const cg_report *rep, const char *w)
{
    for (size_t i = 0; i < rep->n; i++)
        if (!strcmp(rep->rows[i].workload, w)) return &rep->rows[i];
    return NULL;
}

static void print_one(const cg_workload *w, const cg_estimate *e, size_t n, const cg_report *rep, FILE *out)
{
    const cg_result *r0 = first_row(rep, w->name);
    const char *u = r0->item_unit;
    fprintf(
        out,
        "\nEstimate for %s (%s): 4-byte accesses and MADs per %s as the simplest kernel issues them;\n"
        "rates in M%s/s; predicted = min(copy %.4g GB/s / (4 B x accesses), MAD %.4g GFLOP/s / (2 x MADs))\n",
        w->name, r0->size_desc, u, u, rep->copy_gbps, rep->mad_gflops);
    fprintf(out, "%-28s %9s %9s %12s %12s %12s %12s  %s\n", "algorithm", "accesses", "MADs", "by memory",
            "by MADs", "predicted", "measured", "rung");
    for (size_t i = 0; i < n; i++) {
        double mem = rep->copy_gbps * 1e9 / (4.0 * e[i].accesses) / 1e6;
        double mad = e[i].mads > 0 ? rep->mad_gflops * 1e9 / (2.0 * e[i].mads) / 1e6 : INFINITY;
        const cg_result *m = e[i].rungs[0] ? fastest(rep, w->name, e[i].rungs) : NULL;
        char meas[32] = "-", madbuf[32] = "-";
        if (m) snprintf(meas, sizeof meas, "%.4g", m->items_per_s / 1e6);
        if (isfinite(mad)) snprintf(madbuf, sizeof madbuf, "%.4g", mad);
        fprintf(out, "%-28s %9.4g %9.4g %12.4g %12s %12.4g %12s  %s\n", e[i].algorithm, e[i].accesses,
                e[i].mads, mem, madbuf, fmin(mem, mad), meas,
                m ? m->rung : (e[i].rungs[0] ? "(not run)" : "(the ceiling)"));
    }
}

void cg_estimates_print(const cg_report *rep, const cg_wopts *wopts, FILE *out)
{
    cg_run_opts o;
    memset(&o, 0, sizeof o);
    o.wopts = wopts;
    for (size_t i = 0; i < cg_nworkloads; i++) {
        const cg_workload *w = cg_workloads[i];
        cg_estimate e[MAX_ROWS];
        if (!w->estimate || !first_row(rep, w->name)) continue;
        print_one(w, e, w->estimate(&o, e, MAX_ROWS), rep, out);
    }
}
