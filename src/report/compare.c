/* `clgauge compare`: matching the rows of two runs (group, that is workload and variant, and rung) and
 * judging each change against the threshold and the runs' own spread (same device), or setting two devices
 * side by side (which rung wins where, per group). The rule: a change of the median counts only when |new -
 * old| / old exceeds both the threshold and CG_COMPARE_NOISE_K * sqrt(sd_old^2 + sd_new^2) / old, the runs'
 * combined standard deviation. */
#include "report/compare.h"
#include "report/units.h"

#include <math.h>
#include <stdbool.h>
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

/* The row of b matching r: same group (workload and variant) and rung, and the same size unless any_size. */
static const cg_result *match(const cg_report *b, const cg_result *r, bool any_size)
{
    for (size_t i = 0; i < b->n; i++) {
        const cg_result *o = &b->rows[i];
        if (cg_result_same_group(o, r) && !strcmp(o->rung, r->rung) &&
            (any_size || !strcmp(o->size_desc, r->size_desc)))
            return o;
    }
    return NULL;
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

/* The verdict on one matched pair, counted in t; *delta and *noise as fractions of the old median. */
static const char *judge(const cg_result *o, const cg_result *n, double thr, double *delta, double *noise,
                         tally *t)
{
    *delta = *noise = NAN;
    if (timed_ok(o) && timed_ok(n)) {
        *delta = (n->t_median - o->t_median) / o->t_median;
        *noise = CG_COMPARE_NOISE_K * sqrt(sd(o) * sd(o) + sd(n) * sd(n)) / o->t_median;
        double bar = fmax(thr, *noise);
        if (*delta > bar) return t->slower++, "REGRESSED";
        if (*delta < -bar) return t->faster++, "faster";
        t->same++;
        return fabs(*delta) <= *noise ? "same (within noise)" : "same (under threshold)";
    }
    if (o->status == CG_RUNG_OK && failing(n)) return t->now_failing++, "NOW FAILS";
    t->other++;
    if (failing(o) && n->status == CG_RUNG_OK) return "fixed (failed before)";
    if (failing(o) && failing(n)) return "still fails";
    return "not run in one of them";
}

static void print_pair(FILE *out, int width, const cg_result *o, const cg_result *n, const char *verdict,
                       double d, double noise)
{
    char name[NAME_LEN], to[32], tn[32], dc[16] = "-", nc[16] = "-";
    row_name(o, name, sizeof name);
    cg_fmt_time(to, sizeof to, timed_ok(o) || o->status == CG_RUNG_WRONG ? o->t_median : 0);
    cg_fmt_time(tn, sizeof tn, timed_ok(n) || n->status == CG_RUNG_WRONG ? n->t_median : 0);
    if (isfinite(d)) snprintf(dc, sizeof dc, "%+.1f%%", 100 * d);
    if (isfinite(noise)) snprintf(nc, sizeof nc, "%.1f%%", 100 * noise);
    fprintf(out, "%-*s %-16s %10s %10s %8s %7s  %s\n", width, name, o->size_desc, to, tn, dc, nc, verdict);
}

static void list_unmatched(FILE *out, const cg_report *a, const cg_report *b, bool any_size,
                           const char *label)
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

static cg_compare_result same_device(const cg_report *a, const char *na, const cg_report *b, const char *nb,
                                     double thr, FILE *out)
{
    tally t = {0};
    fprintf(out, "compare on %s\n  old: %s (%s, git %s, driver %s)\n  new: %s (%s, git %s, driver %s)\n",
            a->device.name, na, a->time_utc, a->git_commit, a->device.driver, nb, b->time_utc, b->git_commit,
            b->device.driver);
    fprintf(out,
            "  a change counts when it exceeds both %.3g%% and %.0f x the runs' combined standard "
            "deviation (noise)\n\n",
            100 * thr, CG_COMPARE_NOISE_K);
    int width = name_width(a);
    fprintf(out, "%-*s %-16s %10s %10s %8s %7s  %s\n", width, "rung", "size", "old", "new", "change", "noise",
            "verdict");
    for (size_t i = 0; i < a->n; i++) {
        const cg_result *o = &a->rows[i], *n = match(b, o, false);
        if (!n) continue;
        double d, noise;
        t.matched++;
        const char *v = judge(o, n, thr, &d, &noise, &t);
        print_pair(out, width, o, n, v, d, noise);
    }
    if (!t.matched) return CG_CMP_NOTHING_IN_COMMON;
    fputc('\n', out);
    list_unmatched(out, a, b, false, "only in old: ");
    list_unmatched(out, b, a, false, "only in new: ");
    fprintf(out, "%zu regressed, %zu now failing, %zu faster, %zu same, %zu other\n", t.slower, t.now_failing,
            t.faster, t.same, t.other);
    return t.slower || t.now_failing ? CG_CMP_REGRESSED : CG_CMP_OK;
}

/* Rank of r among the rungs of its group that ran ok in rep, fastest first; 0 when r did not run ok. */
static int rank_of(const cg_report *rep, const cg_result *r)
{
    if (!timed_ok(r)) return 0;
    int rank = 1;
    for (size_t i = 0; i < rep->n; i++) {
        const cg_result *o = &rep->rows[i];
        rank += cg_result_same_group(o, r) && timed_ok(o) && o->t_median < r->t_median;
    }
    return rank;
}

/* The fastest row that ran ok in rep of the group of `group` (a row of either run); NULL when none did. */
static const cg_result *best_of(const cg_report *rep, const cg_result *group)
{
    const cg_result *best = NULL;
    for (size_t i = 0; i < rep->n; i++) {
        const cg_result *o = &rep->rows[i];
        if (cg_result_same_group(o, group) && timed_ok(o) && (!best || o->t_median < best->t_median))
            best = o;
    }
    return best;
}

static void side_cells(FILE *out, const cg_report *rep, const cg_result *r)
{
    char t[32], s[16] = "-", k[16] = "-";
    bool ok = r && timed_ok(r);
    cg_fmt_time(t, sizeof t, ok ? r->t_median : 0);
    if (ok && r->speedup > 0) snprintf(s, sizeof s, "%.2fx", r->speedup);
    if (ok) snprintf(k, sizeof k, "%d", rank_of(rep, r));
    if (r && !ok)
        snprintf(t, sizeof t, "%s", r->status == CG_RUNG_WRONG ? "FAILED" : cg_rung_status_name(r->status));
    fprintf(out, " %12s %9s %5s", t, s, k);
}

static void side_summary(FILE *out, const cg_report *a, const cg_report *b, const cg_result *group)
{
    const cg_result *ba = best_of(a, group), *bb = best_of(b, group);
    char label[CG_GROUP_LEN];
    cg_result_group(group, label, sizeof label);
    fprintf(out, "  %s: best on A: %s", label, ba ? ba->rung : "-");
    if (ba) fprintf(out, " (%.2fx over the first rung)", ba->speedup);
    fprintf(out, "; best on B: %s", bb ? bb->rung : "-");
    if (bb) fprintf(out, " (%.2fx)", bb->speedup);
    fprintf(out, "%s\n",
            ba && bb && strcmp(ba->rung, bb->rung) ? ": the best rung depends on the device" : "");
}

static cg_compare_result two_devices(const cg_report *a, const char *na, const cg_report *b, const char *nb,
                                     FILE *out)
{
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
        const cg_result *r = &a->rows[i], *o = match(b, r, true);
        if (!o) continue;
        if (group && !cg_result_same_group(group, r)) side_summary(out, a, b, group);
        group = r;
        matched++;
        char name[NAME_LEN];
        row_name(r, name, sizeof name);
        fprintf(out, "%-*s", width, name);
        side_cells(out, a, r);
        side_cells(out, b, o);
        fputc('\n', out);
    }
    if (!matched) return CG_CMP_NOTHING_IN_COMMON;
    side_summary(out, a, b, group);
    list_unmatched(out, a, b, true, "only on A: ");
    list_unmatched(out, b, a, true, "only on B: ");
    return CG_CMP_OK;
}

cg_compare_result cg_compare(const cg_report *a, const char *name_a, const cg_report *b, const char *name_b,
                             double threshold_pct, FILE *out, char *err, size_t errlen)
{
    bool same = !strcmp(a->device.name, b->device.name) && !strcmp(a->device.platform, b->device.platform);
    size_t common = 0;
    for (size_t i = 0; i < a->n; i++)
        common += match(b, &a->rows[i], !same) != NULL;
    if (!common) {
        snprintf(err, errlen,
                 "%s and %s have no rung in common (same workload, variant and rung%s); compare runs "
                 "of the same ladders",
                 name_a, name_b, same ? ", and size on the same device" : "");
        return CG_CMP_NOTHING_IN_COMMON;
    }
    return same ? same_device(a, name_a, b, name_b, threshold_pct / 100, out)
                : two_devices(a, name_a, b, name_b, out);
}
