/* `clgauge tune`: for each selected rung with tunable parameters (cg_workload.tune), a search over them on
 * the selected device. Every candidate is a copy of the rung's row with its parameters replaced, run by the
 * runner like any rung (built, verified on fresh poisoned outputs, timed); the rung's own values and each
 * seed rule's literal pick always run first, then the strategy's candidates until the budget is spent. A
 * candidate over the device's work-group limit, short of local memory, refused by the workload, failing to
 * build or to enqueue is skipped with the reason (an "unsupported" row); a wrong result is a FAILED row and
 * exit 3. The fastest verified candidate goes to the tuning cache (core/tunecache.h) for `run`. The options,
 * device, roofline and report files are run's (cli/cmd_run.c calls cg_tune_workload in place of the ladder).
 * docs/tune.md. */
#include "cli/tuning.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core/log.h"
#include "core/tunecache.h"

/* The search options of this tune (set by cg_tune_configure before the workloads run). */
static struct {
    cg_tune_strategy strategy;
    double budget_s;
    bool tty, quiet;
    FILE *out;
    const char *space; /* --space, or NULL */
} cfg = {CG_TS_EXHAUSTIVE, CG_TUNE_DEFAULT_BUDGET, false, false, NULL, NULL};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Whether every rung of w is selected: a workload named without rungs (its untunable rungs are then passed
 * over in silence). */
static bool whole(const cg_workload *w, const bool *sel)
{
    for (size_t k = 0; k < w->n_rungs; k++)
        if (!sel[k]) return false;
    return true;
}

/* The tunable rungs of w, for a refusal: "best, grid, local" ("none" when it has none). */
static void tunable_names(const cg_workload *w, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t k = 0; k < w->n_rungs && used < len; k++)
        if (cg_tune_space_of(w->tune, w->n_tune, w->rungs[k].name)) {
            int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", w->rungs[k].name);
            if (n < 0) break;
            used += (size_t)n;
        }
    if (!used) snprintf(buf, len, "none");
}

cg_status cg_tune_configure(const cg_opts *o, const cg_targets *t, FILE *out)
{
    if (o->strategy && !cg_tune_strategy_parse(o->strategy, &cfg.strategy)) {
        CG_ERROR("unknown --strategy '%s': use exhaustive, random or anneal", o->strategy);
        return CG_E_USAGE;
    }
    if (!o->strategy) cfg.strategy = CG_TS_EXHAUSTIVE;
    cfg.budget_s = o->budget > 0 ? o->budget : CG_TUNE_DEFAULT_BUDGET;
    cfg.quiet = o->quiet;
    cfg.tty = !o->quiet && isatty(STDERR_FILENO);
    cfg.out = out;
    cfg.space = o->space;
    bool any = false;
    for (size_t w = 0; w < cg_nworkloads; w++) {
        const cg_workload *wl = cg_workloads[w];
        if (!t->any[w]) continue;
        bool all = whole(wl, t->rung[w]);
        for (size_t k = 0; k < wl->n_rungs; k++) {
            if (!t->rung[w][k]) continue;
            const cg_tspace *sp = cg_tune_space_of(wl->tune, wl->n_tune, wl->rungs[k].name);
            bool has = sp != NULL;
            any |= has;
            char err[200];
            cg_tspace narrow;
            if (sp && o->space && (narrow = *sp, !cg_tune_restrict(&narrow, o->space, err, sizeof err))) {
                CG_ERROR("bad --space '%.80s' for %s:%s: %s", o->space, wl->name, wl->rungs[k].name, err);
                return CG_E_USAGE;
            }
            if (!has && !all) {
                char names[512];
                tunable_names(wl, names, sizeof names);
                CG_ERROR("%s:%s has no tunable parameters: tune one of its rungs that has (%s)", wl->name,
                         wl->rungs[k].name, names);
                return CG_E_USAGE;
            }
        }
        if (all && !wl->n_tune && strcmp(o->targets, "all")) {
            CG_ERROR("%s has no rung with tunable parameters: `clgauge list` shows which workloads have",
                     wl->name);
            return CG_E_USAGE;
        }
    }
    if (!any) {
        CG_ERROR("nothing to tune: none of the selected rungs has tunable parameters");
        return CG_E_USAGE;
    }
    return CG_OK;
}

/* ---- one rung's search ------------------------------------------------------------------------------------
 */

#define MAX_CANDIDATES 4096

typedef struct search {
    cg_runner *run;
    const cg_workload *w;
    const cg_rung *r;
    const cg_tspace *sp;
    cg_report *rep;
    size_t first_row; /* this rung's rows: rep->rows[first_row..] */
    int dflt[CG_TUNE_MAXP];
    cg_tune_dev dev; /* the device facts the limit check and the rules read */
    size_t done, skipped;
    double t0;
    cg_status st;
} search;

/* The row of candidate vals among this search's rows, or -1. */
static long find_row(const search *s, const int *vals)
{
    char text[96];
    cg_tune_format(s->sp, vals, text, sizeof text);
    for (size_t i = s->first_row; i < s->rep->n; i++)
        if (!strcmp(s->rep->rows[i].params, text)) return (long)i;
    return -1;
}

static void add_from(cg_result *row, const char *label)
{
    size_t n = strlen(row->params_from);
    if (strstr(row->params_from, label)) return;
    snprintf(row->params_from + n, sizeof row->params_from - n, "%s%s", n ? "," : "", label);
}

/* Runs candidate vals (once: a candidate already run only gets the label) and returns its row's index, or -1
 * when the report could not grow. */
static long try_candidate(search *s, const int *vals, const char *label)
{
    long have = find_row(s, vals);
    if (have >= 0) {
        add_from(&s->rep->rows[have], label);
        return have;
    }
    cg_rung c = *s->r;
    cg_tune_apply(s->sp, vals, c.p);
    c.local_bytes = 0; /* the workload's local_need says what this candidate needs */
    char params[96], why[256];
    cg_tune_format(s->sp, vals, params, sizeof params);
    cg_result *row = NULL;
    if (cg_tune_over_limit(s->sp, vals, &s->dev, why, sizeof why)) {
        row = cg_report_add(s->rep);
        if (!row) return -1;
        cg_runner_fill_identity(s->run, &c, row);
        row->status = CG_RUNG_UNSUPPORTED;
        snprintf(row->reason, sizeof row->reason, "%s", why);
    } else {
        cg_status st = cg_runner_rung(s->run, &c, s->rep, &row);
        if (!row) return -1;
        if (row->status == CG_RUNG_WRONG)
            s->st = cg_status_merge(s->st, st);
        else if (row->status == CG_RUNG_BUILD_FAILED || row->status == CG_RUNG_CL_ERROR) {
            /* an invalid candidate, not a failed rung: skipped with the reason */
            char r2[sizeof row->reason];
            snprintf(r2, sizeof r2, "%s: %.200s",
                     row->status == CG_RUNG_BUILD_FAILED ? "build failed" : "OpenCL error", row->reason);
            snprintf(row->reason, sizeof row->reason, "%s", r2);
            row->status = CG_RUNG_UNSUPPORTED;
        } else if (st != CG_OK && row->status != CG_RUNG_OK)
            s->st = cg_status_merge(s->st, st);
    }
    snprintf(row->params, sizeof row->params, "%s", params);
    add_from(row, label);
    s->done++;
    s->skipped += row->status == CG_RUNG_UNSUPPORTED;
    if (cfg.tty) {
        fprintf(stderr, "\r\033[K[%zu] %s:%s %s: ", s->done, s->w->name, s->r->name, params);
        if (row->status == CG_RUNG_OK)
            fprintf(stderr, "%.4g ms, %.0f s", row->t_median * 1e3, now_s() - s->t0);
        else
            fprintf(stderr, "%s", cg_rung_status_name(row->status));
    }
    return (long)(row - s->rep->rows);
}

static bool over_budget(const search *s)
{
    return now_s() - s->t0 > cfg.budget_s;
}

/* The strategy's candidates, after the baselines, until the budget is spent. */
static void explore(search *s, uint64_t seed)
{
    size_t size = cg_tune_space_size(s->sp);
    int vals[CG_TUNE_MAXP];
    if (cfg.strategy != CG_TS_ANNEAL) {
        size_t cap = size < MAX_CANDIDATES ? size : MAX_CANDIDATES, n = 0;
        size_t *order = malloc(cap * sizeof *order);
        if (!order) {
            s->st = cg_status_merge(s->st, CG_E_RUNTIME);
            return;
        }
        cg_tune_order(cfg.strategy, size, seed, order, cap, &n);
        for (size_t i = 0; i < n && !over_budget(s); i++) {
            cg_tune_candidate(s->sp, order[i], vals);
            if (try_candidate(s, vals, "search") < 0) break;
        }
        free(order);
        return;
    }
    /* annealing: start from the fastest baseline that lies in the space, walk to neighbours */
    cg_rng rng;
    cg_rng_init(&rng, seed);
    size_t cur = 0;
    double t_cur = INFINITY;
    for (size_t i = s->first_row; i < s->rep->n; i++) {
        const cg_result *row = &s->rep->rows[i];
        size_t c;
        if (row->status != CG_RUNG_OK || !(row->t_median < t_cur) ||
            !cg_tune_parse(s->sp, row->params, vals) || (c = cg_tune_index(s->sp, vals)) == (size_t)-1)
            continue;
        cur = c;
        t_cur = row->t_median;
    }
    for (size_t steps = 0; steps < 4 * size + 16 && !over_budget(s); steps++) {
        size_t next = cg_tune_anneal_next(s->sp, cur, &rng);
        cg_tune_candidate(s->sp, next, vals);
        long k = try_candidate(s, vals, "search");
        if (k < 0) break;
        const cg_result *row = &s->rep->rows[k];
        double t = row->status == CG_RUNG_OK ? row->t_median : INFINITY;
        double used = (now_s() - s->t0) / cfg.budget_s;
        if (cg_tune_anneal_accept(t_cur, t, used, &rng)) {
            cur = next;
            t_cur = t;
        }
    }
}

/* The fastest verified row of this search, or -1. */
static long best_row(const search *s)
{
    long b = -1;
    for (size_t i = s->first_row; i < s->rep->n; i++) {
        const cg_result *row = &s->rep->rows[i];
        if (row->status == CG_RUNG_OK && (b < 0 || row->t_median < s->rep->rows[b].t_median)) b = (long)i;
    }
    return b;
}

static int by_time(const void *a, const void *b)
{
    const cg_result *x = *(const cg_result *const *)a, *y = *(const cg_result *const *)b;
    double tx = x->status == CG_RUNG_OK ? x->t_median : INFINITY,
           ty = y->status == CG_RUNG_OK ? y->t_median : INFINITY;
    return tx < ty ? -1 : tx > ty ? 1 : 0;
}

static void occupancy_text(const cg_result *row, char *buf, size_t len)
{
    const cg_kfacts *f = &row->facts;
    if (!strcmp(f->occ_model, "cpu")) /* one group per core on every candidate: says nothing */
        snprintf(buf, len, "-");
    else if (isfinite(f->occupancy) && f->occ_groups)
        snprintf(buf, len, "%.0f%% (%u wg, %s)", 100 * f->occupancy, f->occ_groups, f->occ_limit);
    else if (f->occ_groups)
        snprintf(buf, len, "%u wg (%s)", f->occ_groups, f->occ_limit);
    else
        snprintf(buf, len, "-");
}

/* The table of this search: the candidates by time (the first TOP, then every baseline), the rules' picks
 * against the winner, and which rule came closest. */
#define TOP 12
static void print_summary(const search *s, long best, double t_dflt, const char *size_desc)
{
    FILE *f = cfg.out;
    size_t n = s->rep->n - s->first_row;
    const cg_result **v = malloc(n * sizeof *v);
    if (!v || cfg.quiet) {
        free(v);
        return;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = &s->rep->rows[s->first_row + i];
    qsort(v, n, sizeof *v, by_time);
    fprintf(f, "\n%s:%s%s%s%s, %s: %zu candidates in %.1f s (%s), %zu skipped\n", s->w->name, s->r->name,
            s->rep->rows[s->first_row].variant[0] ? " [" : "", s->rep->rows[s->first_row].variant,
            s->rep->rows[s->first_row].variant[0] ? "]" : "", size_desc, s->done, now_s() - s->t0,
            cfg.strategy == CG_TS_EXHAUSTIVE ? "exhaustive"
            : cfg.strategy == CG_TS_RANDOM   ? "random"
                                             : "anneal",
            s->skipped);
    fprintf(f, "  %-4s %-34s %12s %9s  %-22s %s\n", "rank", "parameters", "median", "vs own", "occupancy",
            "from");
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        const cg_result *row = v[i];
        bool baseline = row->params_from[0] && strcmp(row->params_from, "search");
        if (i >= TOP && !baseline) continue;
        char t[32], sp[16], occ[40];
        if (row->status == CG_RUNG_OK) {
            snprintf(t, sizeof t, "%.4g ms", row->t_median * 1e3);
            snprintf(sp, sizeof sp, "%.2fx", t_dflt > 0 ? t_dflt / row->t_median : 0);
        } else {
            snprintf(t, sizeof t, "%s", cg_status_label(cg_rung_status_name(row->status)));
            snprintf(sp, sizeof sp, "-");
        }
        occupancy_text(row, occ, sizeof occ);
        fprintf(f, "  %-4zu %-34s %12s %9s  %-22s %s\n", i + 1, row->params, t, sp, occ, row->params_from);
        if (row->status != CG_RUNG_OK && (baseline || row->status == CG_RUNG_WRONG))
            fprintf(f, "       %s\n", row->reason);
        shown++;
    }
    if (shown < n) fprintf(f, "  (%zu more candidates in --json / --csv)\n", n - shown);
    /* the rules against the winner */
    const cg_tune_rule *rules = cg_tune_rules();
    long closest = -1;
    double closest_ratio = 0;
    for (size_t k = 0; best >= 0 && k < CG_TUNE_NRULES; k++) {
        char label[40];
        snprintf(label, sizeof label, "rule:%s", rules[k].name);
        for (size_t i = s->first_row; i < s->rep->n; i++) {
            const cg_result *row = &s->rep->rows[i];
            if (!strstr(row->params_from, label) || row->status != CG_RUNG_OK) continue;
            double ratio = s->rep->rows[best].t_median / row->t_median;
            if (ratio > closest_ratio) {
                closest_ratio = ratio;
                closest = (long)k;
            }
        }
    }
    if (best >= 0) {
        const cg_result *b = &s->rep->rows[best];
        fprintf(f, "  best: %s, %.4g ms, %.2fx the rung's own parameters", b->params, b->t_median * 1e3,
                t_dflt > 0 ? t_dflt / b->t_median : 0);
        if (closest >= 0)
            fprintf(f, "; closest rule: %s (seed %s), at %.0f%% of the best's speed\n", rules[closest].name,
                    rules[closest].seed, 100 * closest_ratio);
        else
            fprintf(f, "; no seed rule ran on this rung\n");
    } else
        fprintf(f, "  no candidate passed\n");
    free(v);
}

static void store_winner(const search *s, long best, double t_dflt)
{
    cg_ctx *ctx = cg_runner_ctx(s->run);
    if (best < 0 || ctx->no_cache || !ctx->cache_dir[0]) return;
    const cg_result *b = &s->rep->rows[best];
    cg_tune_entry e = {0};
    snprintf(e.params, sizeof e.params, "%s", b->params);
    e.t_best_s = b->t_median;
    e.t_default_s = t_dflt;
    snprintf(e.strategy, sizeof e.strategy, "%s",
             cfg.strategy == CG_TS_EXHAUSTIVE ? "exhaustive"
             : cfg.strategy == CG_TS_RANDOM   ? "random"
                                              : "anneal");
    e.candidates = (unsigned)s->done;
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(e.when, sizeof e.when, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    cg_tune_keybuf kb;
    cg_runner_tune_key(s->run, s->r, &kb);
    if (cg_tunecache_store(ctx->cache_dir, &kb.k, &e))
        CG_INFO("%s:%s: winner %s stored in the tuning cache (size class %s%s%s): `clgauge run` uses it, "
                "--no-tuned ignores it",
                s->w->name, s->r->name, e.params, kb.size_class, kb.options[0] ? ", options " : "",
                kb.options);
}

static cg_status tune_rung(cg_runner *run, const cg_workload *w, const cg_rung *r, const cg_tspace *sp,
                           const cg_run_opts *o, cg_report *rep)
{
    const cg_device *dv = cg_runner_ctx(run)->dev;
    search s = {run, w, r, sp, rep, rep->n, {0}, {dv->compute_units, dv->max_wg, 0}, 0, 0, now_s(), CG_OK};
    cg_tune_defaults(sp, r->p, s.dflt);
    /* the baselines: the rung's own values, then each rule's literal pick */
    long d = try_candidate(&s, s.dflt, "default");
    if (d < 0) return CG_E_RUNTIME;
    const cg_tune_rule *rules = cg_tune_rules();
    for (size_t k = 0; k < CG_TUNE_NRULES; k++) {
        int vals[CG_TUNE_MAXP];
        char label[40];
        snprintf(label, sizeof label, "rule:%s", rules[k].name);
        if (cg_tune_rule_pick(k, sp, &s.dev, s.dflt, vals) && try_candidate(&s, vals, label) < 0)
            return CG_E_RUNTIME;
    }
    explore(&s, o->seed);
    if (cfg.tty) fprintf(stderr, "\r\033[K");
    double t_dflt = rep->rows[d].status == CG_RUNG_OK ? rep->rows[d].t_median : 0;
    long best = best_row(&s);
    for (size_t i = s.first_row; i < rep->n; i++) {
        cg_result *row = &rep->rows[i];
        if (row->status == CG_RUNG_OK && t_dflt > 0) row->speedup = t_dflt / row->t_median;
    }
    if (best >= 0) add_from(&rep->rows[best], "best");
    print_summary(&s, best, t_dflt, rep->rows[s.first_row].size_desc);
    if (s.st == CG_OK) store_winner(&s, best, t_dflt); /* a search with a wrong result stores nothing */
    return s.st;
}

cg_status cg_tune_workload(cg_ctx *ctx, const cg_workload *w, const bool *selected, const cg_run_opts *o,
                           const cg_ceilings *ceil, cg_report *rep, cg_progress_fn progress, void *user)
{
    (void)progress;
    (void)user;
    cg_runner *run = NULL;
    cg_status st = cg_runner_open(ctx, w, o, ceil, &run);
    if (st != CG_OK) return st;
    for (size_t k = 0; k < w->n_rungs; k++) {
        const cg_tspace *sp = selected[k] ? cg_tune_space_of(w->tune, w->n_tune, w->rungs[k].name) : NULL;
        if (!sp) continue;
        cg_tspace narrow = *sp;
        char err[200];
        if (cfg.space && !cg_tune_restrict(&narrow, cfg.space, err, sizeof err))
            continue; /* checked before */
        cg_status s = tune_rung(run, w, &w->rungs[k], &narrow, o, rep);
        st = cg_status_merge(st, s);
        if (s == CG_E_RUNTIME && rep->n == 0) break;
    }
    cg_runner_close(run);
    return st;
}
