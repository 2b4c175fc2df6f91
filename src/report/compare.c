/* `clgauge compare`: matching the rows of two runs (group, that is workload and variant, and rung) and
 * judging each change against the threshold and the runs' own spread (same device), or setting two devices
 * side by side (which rung wins where, per group). The rule: a change of the median counts only when |new -
 * old| / old exceeds the threshold and the change is significant: the Mann–Whitney p-value of the two rows'
 * raw times is below CG_COMPARE_ALPHA and the bootstrap interval of median(new) / median(old) excludes 1.
 * A row without raw times (an older file), or with fewer than CG_COMPARE_MIN_RUNS, falls back to
 * CG_COMPARE_NOISE_K * sqrt(sd_old^2 + sd_new^2) / old. Rows are found through sorted indices (rowsort.h):
 * O(n log n) in all, plus a bounded bootstrap per pair. */
#include "report/compare.h"
#include "core/ranktest.h"
#include "core/resample.h"
#include "report/interval.h"
#include "model/rowsort.h"
#include "report/units.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define NAME_LEN (CG_GROUP_LEN + 34) /* workload[variant]:rung */

typedef struct tally {
    size_t same, faster, slower, now_failing, other, matched;
} tally;

static bool timed_ok(const cg_result *r)
{
    return r->status == CG_RUNG_OK && r->runs > 0 && r->t_median > 0;
}

static bool failing(const cg_result *r)
{
    return r->status == CG_RUNG_WRONG || r->status == CG_RUNG_BUILD_FAILED || r->status == CG_RUNG_CL_ERROR;
}

static double sd(const cg_result *r)
{
    return isfinite(r->t_stddev) && r->t_stddev > 0 ? r->t_stddev : 0;
}

/* Group, then rung. */
static int cmp_rung(const cg_result *a, const cg_result *b)
{
    int c = cg_row_cmp_group(a, b);
    return c ? c : strcmp(a->rung, b->rung);
}

/* Group, rung, then size. */
static int cmp_rung_size(const cg_result *a, const cg_result *b)
{
    int c = cmp_rung(a, b);
    return c ? c : strcmp(a->size_desc, b->size_desc);
}

/* Group, then the rows that ran ok before the others, fastest first. */
static int cmp_time(const cg_result *a, const cg_result *b)
{
    int c = cg_row_cmp_group(a, b);
    if (c) return c;
    bool oa = timed_ok(a), ob = timed_ok(b);
    if (oa != ob) return oa ? -1 : 1;
    return !oa ? 0 : a->t_median < b->t_median ? -1 : a->t_median > b->t_median;
}

/* One run with its rows sorted three ways. */
typedef struct run {
    const cg_report *rep;
    size_t *by_rung, *by_rung_size, *by_time;
} run;

static void run_fini(run *x)
{
    free(x->by_rung);
    free(x->by_rung_size);
    free(x->by_time);
}

static bool run_init(run *x, const cg_report *rep)
{
    x->rep = rep;
    x->by_rung = cg_rows_sort(rep, cmp_rung);
    x->by_rung_size = cg_rows_sort(rep, cmp_rung_size);
    x->by_time = cg_rows_sort(rep, cmp_time);
    if (x->by_rung && x->by_rung_size && x->by_time) return true;
    run_fini(x);
    return false;
}

/* The row of b matching r: same group (workload and variant) and rung, and the same size unless any_size;
 * the first such row of b. */
static const cg_result *match(const run *b, const cg_result *r, bool any_size)
{
    return any_size ? cg_rows_find(b->rep, b->by_rung, cmp_rung, r)
                    : cg_rows_find(b->rep, b->by_rung_size, cmp_rung_size, r);
}

/* "reduction:best", or "convolution[32x32]:best" for a row of a --filter sweep. */
static void row_name(const cg_result *r, char *buf, size_t n)
{
    char group[CG_GROUP_LEN];
    cg_result_group(r, group, sizeof group);
    snprintf(buf, n, "%s:%s", group, r->rung);
}

/* The width of the name column: 28, or the longest name of a's rows where one is longer. */
static int name_width(const cg_report *a)
{
    int w = 28;
    for (size_t i = 0; i < a->n; i++) {
        char name[NAME_LEN];
        row_name(&a->rows[i], name, sizeof name);
        if ((int)strlen(name) > w) w = (int)strlen(name);
    }
    return w;
}

/* One pair's change: delta as a fraction of the old median; with raw times on both sides the interval
 * [lo, hi] of median(new) / median(old) and the rank test's p, else (NaN) the noise of the old rule. */
typedef struct change {
    double delta, lo, hi, p, noise;
} change;

/* True when both rows carry raw times that agree with their run counts, at least CG_COMPARE_MIN_RUNS each. */
static bool has_times(const cg_result *o, const cg_result *n)
{
    return o->times.n >= CG_COMPARE_MIN_RUNS && o->times.n == o->runs && n->times.n >= CG_COMPARE_MIN_RUNS &&
           n->times.n == n->runs;
}

/* The statistics of c; false when out of memory (then the old rule is used). */
static bool measure(const cg_result *o, const cg_result *n, change *c)
{
    return cg_boot_ratio(o->times.s, o->times.n, n->times.s, n->times.n, &c->lo, &c->hi) &&
           cg_ranktest_p(o->times.s, o->times.n, n->times.s, n->times.n, &c->p);
}

/* The verdict on a pair that ran ok in both: significant (rank test and interval agree) or beyond the
 * noise of the old rule, and beyond the threshold. */
static const char *judge_timed(const cg_result *o, const cg_result *n, double thr, change *c, tally *t)
{
    c->delta = (n->t_median - o->t_median) / o->t_median;
    bool slower, quicker;
    if (has_times(o, n) && measure(o, n, c)) {
        bool sig = c->p < CG_COMPARE_ALPHA;
        slower = sig && c->lo > 1 && c->delta > thr;
        quicker = sig && c->hi < 1 && c->delta < -thr;
        c->noise = sig && (c->lo > 1 || c->hi < 1) ? 0 : HUGE_VAL;
    } else {
        c->lo = c->hi = c->p = NAN;
        c->noise = CG_COMPARE_NOISE_K * sqrt(sd(o) * sd(o) + sd(n) * sd(n)) / o->t_median;
        slower = c->delta > fmax(thr, c->noise);
        quicker = c->delta < -fmax(thr, c->noise);
    }
    if (slower) return t->slower++, "REGRESSED";
    if (quicker) return t->faster++, "faster";
    t->same++;
    return fabs(c->delta) <= c->noise ? "same (within noise)" : "same (under threshold)";
}

/* The verdict on one matched pair, counted in t. */
static const char *judge(const cg_result *o, const cg_result *n, double thr, change *c, tally *t)
{
    *c = (change){NAN, NAN, NAN, NAN, NAN};
    if (timed_ok(o) && timed_ok(n)) return judge_timed(o, n, thr, c, t);
    if (o->status == CG_RUNG_OK && failing(n)) return t->now_failing++, "NOW FAILS";
    t->other++;
    if (failing(o) && n->status == CG_RUNG_OK) return "fixed (failed before)";
    if (failing(o) && failing(n)) return "still fails";
    return "not run in one of them";
}

/* The p-value cell: "0.032", "<0.001"; for the old rule the noise ("~0.3%"); "-" when neither applies. */
static void p_cell(char *buf, size_t n, const change *c)
{
    char v[16];
    if (isfinite(c->p) && c->p < 0.001)
        snprintf(buf, n, "<0.001");
    else if (isfinite(c->p))
        snprintf(buf, n, "%.3f", c->p);
    else if (isfinite(c->noise)) {
        cg_fmt_fixed(v, sizeof v, 100 * c->noise, 1);
        snprintf(buf, n, "~%s%%", v);
    } else
        snprintf(buf, n, "-");
}

static void print_pair(FILE *out, int width, const cg_result *o, const cg_result *n, const char *verdict,
                       const change *c)
{
    char name[NAME_LEN], to[32], tn[32], dc[64], pc[32];
    row_name(o, name, sizeof name);
    cg_fmt_time(to, sizeof to, timed_ok(o) || o->status == CG_RUNG_WRONG ? o->t_median : 0);
    cg_fmt_time(tn, sizeof tn, timed_ok(n) || n->status == CG_RUNG_WRONG ? n->t_median : 0);
    cg_fmt_change(dc, sizeof dc, c->delta, c->lo, c->hi);
    p_cell(pc, sizeof pc, c);
    fprintf(out, "%-*s %-16s %10s %10s  %-22s %7s  %s\n", width, name, o->size_desc, to, tn, dc, pc, verdict);
}

static void list_unmatched(FILE *out, const cg_report *a, const run *b, bool any_size, const char *label)
{
    bool first = true;
    for (size_t i = 0; i < a->n; i++) {
        const cg_result *r = &a->rows[i];
        char name[NAME_LEN];
        if (match(b, r, any_size)) continue;
        row_name(r, name, sizeof name);
        fprintf(out, "%s%s (%s)", first ? label : ", ", name, r->size_desc);
        first = false;
    }
    if (!first) fputc('\n', out);
}

static cg_compare_result same_device(const run *ra, const char *na, const run *rb, const char *nb, double thr,
                                     FILE *out)
{
    const cg_report *a = ra->rep, *b = rb->rep;
    tally t = {0};
    fprintf(out, "compare on %s\n  old: %s (%s, git %s, driver %s)\n  new: %s (%s, git %s, driver %s)\n",
            a->device.name, na, a->time_utc, a->git_commit, a->device.driver, nb, b->time_utc, b->git_commit,
            b->device.driver);
    fprintf(out,
            "  a change counts when it exceeds %.3g%% and is significant: p < %.2g (Mann-Whitney) and its "
            "%.0f%%\n  bootstrap interval excludes 0%%; rows without raw times: when it exceeds %.0f x the "
            "runs' combined stddev (~noise)\n\n",
            100 * thr, CG_COMPARE_ALPHA, 100 * CG_BOOT_LEVEL, CG_COMPARE_NOISE_K);
    int width = name_width(a);
    fprintf(out, "%-*s %-16s %10s %10s  %-22s %7s  %s\n", width, "rung", "size", "old", "new",
            "change [interval]", "p", "verdict");
    for (size_t i = 0; i < a->n; i++) {
        const cg_result *o = &a->rows[i], *n = match(rb, o, false);
        if (!n) continue;
        change c;
        t.matched++;
        const char *v = judge(o, n, thr, &c, &t);
        print_pair(out, width, o, n, v, &c);
    }
    if (!t.matched) return CG_CMP_NOTHING_IN_COMMON;
    fputc('\n', out);
    list_unmatched(out, a, rb, false, "only in old: ");
    list_unmatched(out, b, ra, false, "only in new: ");
    fprintf(out, "%zu regressed, %zu now failing, %zu faster, %zu same, %zu other\n", t.slower, t.now_failing,
            t.faster, t.same, t.other);
    return t.slower || t.now_failing ? CG_CMP_REGRESSED : CG_CMP_OK;
}

/* Rank of r among the rungs of its group that ran ok in x, fastest first; 0 when r did not run ok. */
static int rank_of(const run *x, const cg_result *r)
{
    if (!timed_ok(r)) return 0;
    size_t first = cg_rows_lower(x->rep, x->by_time, cg_row_cmp_group, r);
    return (int)(cg_rows_lower(x->rep, x->by_time, cmp_time, r) - first) + 1;
}

/* The fastest row that ran ok in x of the group of `group` (a row of either run); NULL when none did. */
static const cg_result *best_of(const run *x, const cg_result *group)
{
    const cg_result *best = cg_rows_find(x->rep, x->by_time, cg_row_cmp_group, group);
    return best && timed_ok(best) ? best : NULL;
}

static void side_cells(FILE *out, const run *x, const cg_result *r)
{
    char t[32], s[16] = "-", k[16] = "-";
    bool ok = r && timed_ok(r);
    cg_fmt_time(t, sizeof t, ok ? r->t_median : 0);
    if (ok && r->speedup > 0) {
        cg_fmt_fixed(s, sizeof s - 1, r->speedup, 2);
        strcat(s, "x");
    }
    if (ok) snprintf(k, sizeof k, "%d", rank_of(x, r));
    if (r && !ok)
        snprintf(t, sizeof t, "%s", r->status == CG_RUNG_WRONG ? "FAILED" : cg_rung_status_name(r->status));
    fprintf(out, " %12s %9s %5s", t, s, k);
}

static void side_summary(FILE *out, const run *a, const run *b, const cg_result *group)
{
    const cg_result *ba = best_of(a, group), *bb = best_of(b, group);
    char label[CG_GROUP_LEN];
    cg_result_group(group, label, sizeof label);
    fprintf(out, "  %s: best on A: %s", label, ba ? ba->rung : "-");
    char x[16];
    if (ba) cg_fmt_fixed(x, sizeof x, ba->speedup, 2);
    if (ba) fprintf(out, " (%sx over the first rung)", x);
    fprintf(out, "; best on B: %s", bb ? bb->rung : "-");
    if (bb) cg_fmt_fixed(x, sizeof x, bb->speedup, 2);
    if (bb) fprintf(out, " (%sx)", x);
    fprintf(out, "%s\n",
            ba && bb && strcmp(ba->rung, bb->rung) ? ": the best rung depends on the device" : "");
}

static cg_compare_result two_devices(const run *ra, const char *na, const run *rb, const char *nb, FILE *out)
{
    const cg_report *a = ra->rep, *b = rb->rep;
    size_t matched = 0;
    fprintf(out,
            "two devices, side by side (times differ by hardware; speedup and rank are within each "
            "ladder, rank 1 = fastest)\n  A: %s, %s (%s)\n  B: %s, %s (%s)\n\n",
            a->device.name, a->device.driver, na, b->device.name, b->device.driver, nb);
    int width = name_width(a);
    fprintf(out, "%-*s %12s %9s %5s %12s %9s %5s\n", width, "rung", "A median", "A speedup", "rank",
            "B median", "B speedup", "rank");
    const cg_result *group = NULL; /* a row of the group being listed */
    for (size_t i = 0; i < a->n; i++) {
        const cg_result *r = &a->rows[i], *o = match(rb, r, true);
        if (!o) continue;
        if (group && !cg_result_same_group(group, r)) side_summary(out, ra, rb, group);
        group = r;
        matched++;
        char name[NAME_LEN];
        row_name(r, name, sizeof name);
        fprintf(out, "%-*s", width, name);
        side_cells(out, ra, r);
        side_cells(out, rb, o);
        fputc('\n', out);
    }
    if (!matched) return CG_CMP_NOTHING_IN_COMMON;
    side_summary(out, ra, rb, group);
    list_unmatched(out, a, rb, true, "only on A: ");
    list_unmatched(out, b, ra, true, "only on B: ");
    return CG_CMP_OK;
}

cg_compare_result cg_compare(const cg_report *a, const char *name_a, const cg_report *b, const char *name_b,
                             double threshold_pct, FILE *out, char *err, size_t errlen)
{
    bool same = !strcmp(a->device.name, b->device.name) && !strcmp(a->device.platform, b->device.platform);
    run ra, rb;
    if (!run_init(&ra, a)) {
        snprintf(err, errlen, "out of memory comparing %s (%zu rows) and %s", name_a, a->n, name_b);
        return CG_CMP_NO_MEMORY;
    }
    if (!run_init(&rb, b)) {
        run_fini(&ra);
        snprintf(err, errlen, "out of memory comparing %s and %s (%zu rows)", name_a, name_b, b->n);
        return CG_CMP_NO_MEMORY;
    }
    size_t common = 0;
    for (size_t i = 0; i < a->n; i++)
        common += match(&rb, &a->rows[i], !same) != NULL;
    cg_compare_result rc = CG_CMP_NOTHING_IN_COMMON;
    if (!common)
        snprintf(err, errlen,
                 "%s and %s have no rung in common (same workload, variant and rung%s); compare runs "
                 "of the same ladders",
                 name_a, name_b, same ? ", and size on the same device" : "");
    else
        rc = same ? same_device(&ra, name_a, &rb, name_b, threshold_pct / 100, out)
                  : two_devices(&ra, name_a, &rb, name_b, out);
    run_fini(&ra);
    run_fini(&rb);
    return rc;
}
