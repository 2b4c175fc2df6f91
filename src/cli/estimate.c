/* The --estimate tables: each algorithm's predicted rate is min(copy bandwidth / (4 B x accesses per item),
 * MAD rate / FLOPs per item), the Apple guide's back-of-the-envelope method (no cache counted), kept in the
 * report (rep->est, written to JSON) and printed next to the seed's own estimate and the fastest measured
 * rung that implements the algorithm. */
#include "cli/estimate.h"
#include <math.h>
#include <stdlib.h>
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

/* One estimate row of workload w from e and rep's ceilings. */
static void fill_row(const cg_report *rep, const char *w, const cg_estimate *e, cg_est_row *o)
{
    memset(o, 0, sizeof *o);
    snprintf(o->workload, sizeof o->workload, "%s", w);
    snprintf(o->algorithm, sizeof o->algorithm, "%s", e->algorithm);
    snprintf(o->rungs, sizeof o->rungs, "%s", e->rungs);
    o->accesses = e->accesses;
    o->flops = 2.0 * e->mads;
    double mem = rep->copy_gbps * 1e9 / (4.0 * e->accesses);
    double mad = e->mads > 0 ? rep->mad_gflops * 1e9 / o->flops : INFINITY;
    o->predicted = fmin(mem, mad);
    o->seed = e->seed_mpps * 1e6;
    const cg_result *m = e->rungs[0] ? fastest(rep, w, e->rungs) : NULL;
    if (m) {
        snprintf(o->rung, sizeof o->rung, "%s", m->rung);
        o->measured = m->items_per_s;
    }
}

bool cg_estimates_fill(cg_report *rep, const cg_wopts *wopts)
{
    cg_run_opts o;
    memset(&o, 0, sizeof o);
    o.wopts = wopts;
    for (size_t i = 0; i < cg_nworkloads; i++) {
        const cg_workload *w = cg_workloads[i];
        cg_estimate e[MAX_ROWS];
        if (!w->estimate || !first_row(rep, w->name)) continue;
        size_t n = w->estimate(&o, e, MAX_ROWS);
        cg_est_row *grown = realloc(rep->est, (rep->n_est + n) * sizeof *grown);
        if (!grown) return false;
        rep->est = grown;
        for (size_t k = 0; k < n; k++)
            fill_row(rep, w->name, &e[k], &rep->est[rep->n_est++]);
    }
    return true;
}

/* v / 1e6 to 4 digits (whole numbers from 1000 on), or "-" for 0 or a non-finite v. */
static const char *mega(double v, char *buf, size_t len)
{
    if (v > 0 && isfinite(v))
        snprintf(buf, len, v >= 1e9 ? "%.0f" : "%.4g", v / 1e6);
    else
        snprintf(buf, len, "-");
    return buf;
}

void cg_estimates_print(const cg_report *rep, FILE *out)
{
    const char *last = "";
    for (size_t i = 0; i < rep->n_est; i++) {
        const cg_est_row *e = &rep->est[i];
        if (strcmp(e->workload, last)) {
            const cg_result *r0 = first_row(rep, e->workload);
            const char *u = r0 ? r0->item_unit : "item";
            fprintf(out,
                    "\nEstimate for %s (%s): 4-byte accesses and FLOPs per %s as the simplest kernel issues "
                    "them, C/M = FLOPs / accesses;\nrates in M%s/s; predicted = min(copy %.4g GB/s / (4 B x "
                    "accesses), MAD %.4g GFLOP/s / FLOPs); seed = the seed's own estimate\n",
                    e->workload, r0 ? r0->size_desc : "", u, u, rep->copy_gbps, rep->mad_gflops);
            fprintf(out, "%-34s %9s %9s %5s %12s %10s %12s  %s\n", "algorithm", "accesses", "FLOPs", "C/M",
                    "predicted", "seed", "measured", "rung");
            last = e->workload;
        }
        char p[32], s[32], m[32];
        fprintf(out, "%-34s %9.4g %9.4g %5.2g %12s %10s %12s  %s\n", e->algorithm, e->accesses, e->flops,
                e->flops / e->accesses, mega(e->predicted, p, sizeof p), mega(e->seed, s, sizeof s),
                mega(e->measured, m, sizeof m),
                e->rung[0] ? e->rung
                           : (e->rungs[0]    ? "(not run)"
                              : e->flops > 0 ? "(no rung)"
                                             : "(the ceiling)"));
    }
}
