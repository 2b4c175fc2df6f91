/* The tune sections of the HTML page: one per search (a run's candidates of one workload, variant and rung,
 * rows whose params_from says where their parameters came from). Each shows the chart of every verified
 * candidate's median time, fastest first, with the default's and the seed rules' picks marked
 * (plot_tune.c); one line on the best and on which rule came closest to it (the highest best time / rule
 * time); the table of every candidate, skipped ones with their reason. Every string from a run is escaped. */
#include "report/html_tune.h"
#include "report/plot.h"
#include "report/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TUNE_MAX   64
#define TOKEN_LEN  96
#define RULES_SHOW 16

typedef struct search {
    size_t run;
    const cg_result **rows; /* rank order once sorted */
    size_t n, cap;
    char *svg;
} search;

struct cg_html_tune {
    const char *const *labels;
    bool show_labels;
    search s[TUNE_MAX];
    size_t n, dropped;
};

const char cg_html_tune_style[] =
    "tr.best td{background:#e3f2e3}tr.mark td{background:#fdf5e2}.verdict{font-size:1.05em}"
    "section.tune .from{font-size:.85em;color:#444}";

bool cg_html_tune_report(const cg_report *r)
{
    for (size_t i = 0; i < r->n; i++)
        if (cg_plot_tune_row(&r->rows[i])) return true;
    return false;
}

static bool same_search(const cg_result *a, const cg_result *b)
{
    return cg_result_same_group(a, b) && !strcmp(a->rung, b->rung);
}

static bool charted(const cg_result *r)
{
    return r->status == CG_RUNG_OK && cg_plot_timed(r);
}

/* Rank order: verified by median time, then failed checks by time, then the rest; ties in file order. */
static int by_rank(const void *a, const void *b)
{
    const cg_result *x = *(const cg_result *const *)a, *y = *(const cg_result *const *)b;
    int cx = charted(x) ? 0 : cg_plot_timed(x) ? 1 : 2, cy = charted(y) ? 0 : cg_plot_timed(y) ? 1 : 2;
    if (cx != cy) return cx - cy;
    if (cx < 2 && x->t_median != y->t_median) return x->t_median < y->t_median ? -1 : 1;
    return (x > y) - (x < y);
}

static bool add_row(cg_html_tune *t, size_t run, const cg_result *r, size_t *last)
{
    size_t k = *last;
    if (k >= t->n || t->s[k].run != run || !same_search(t->s[k].rows[0], r))
        for (k = 0; k < t->n && (t->s[k].run != run || !same_search(t->s[k].rows[0], r)); k++) {
        }
    if (k == t->n && k == TUNE_MAX) {
        t->dropped++;
        return true;
    }
    search *s = &t->s[k];
    if (k == t->n) t->n++, s->run = run;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        const cg_result **rows = realloc(s->rows, cap * sizeof *rows);
        if (!rows) return false;
        s->rows = rows, s->cap = cap;
    }
    s->rows[s->n++] = r;
    *last = k;
    return true;
}

void cg_html_tune_destroy(cg_html_tune *t)
{
    if (!t) return;
    for (size_t k = 0; k < t->n; k++) {
        free(t->s[k].rows);
        free(t->s[k].svg);
    }
    free(t);
}

cg_html_tune *cg_html_tune_create(const cg_report *const *runs, const char *const *labels, size_t n,
                                  bool show_labels, int chart0, char *err, size_t errlen)
{
    cg_html_tune *t = calloc(1, sizeof *t);
    bool ok = t != NULL;
    for (size_t j = 0; ok && j < n; j++) {
        size_t last = 0;
        for (size_t i = 0; ok && i < runs[j]->n; i++)
            ok = add_row(t, j, &runs[j]->rows[i], &last);
    }
    if (!ok) {
        snprintf(err, errlen, "out of memory while writing the page");
        cg_html_tune_destroy(t);
        return NULL;
    }
    t->labels = labels;
    t->show_labels = show_labels;
    for (size_t k = 0; k < t->n; k++) {
        search *s = &t->s[k];
        qsort(s->rows, s->n, sizeof *s->rows, by_rank);
        if (!(s->svg = cg_plot_tune(s->rows, s->n, chart0 + (int)k, err, errlen))) {
            cg_html_tune_destroy(t);
            return NULL;
        }
    }
    return t;
}

/* The search's name: "reduction:best", "convolution[5x5]:tiled". */
static void write_name(FILE *f, const search *s)
{
    char g[CG_GROUP_LEN];
    cg_result_group(s->rows[0], g, sizeof g);
    cg_html_esc(f, g);
    fputc(':', f);
    cg_html_esc(f, s->rows[0]->rung);
}

static void write_anchor(FILE *f, const cg_html_tune *t, size_t k)
{
    const cg_result *r = t->s[k].rows[0];
    fputs("t-", f);
    cg_html_esc(f, r->workload);
    fputc('-', f);
    cg_html_esc(f, r->rung);
    if (r->variant[0]) fputc('-', f);
    cg_html_esc(f, r->variant);
    if (t->show_labels) fprintf(f, "-%zu", t->s[k].run + 1);
}

void cg_html_tune_nav(FILE *f, const cg_html_tune *t, const char *sep)
{
    for (size_t k = 0; k < t->n; k++) {
        fputs(k ? " &middot; " : sep, f);
        fputs("<a href=\"#", f);
        write_anchor(f, t, k);
        fputs("\">tune ", f);
        write_name(f, &t->s[k]);
        if (t->show_labels) {
            fputs(" (", f);
            cg_html_esc(f, t->labels[t->s[k].run]);
            fputs(")", f);
        }
        fputs("</a>", f);
    }
}

/* The first row of the search carrying word in its params_from (a verified one when there is one), or NULL.
 */
static const cg_result *row_from(const search *s, const char *word)
{
    const cg_result *any = NULL;
    for (size_t i = 0; i < s->n; i++)
        if (cg_plot_from_has(s->rows[i]->params_from, word)) {
            if (charted(s->rows[i])) return s->rows[i];
            any = any ? any : s->rows[i];
        }
    return any;
}

static void write_params(FILE *f, const cg_result *r)
{
    fputs("<code>", f);
    cg_html_esc(f, r->params[0] ? r->params : "(none)");
    fputs("</code>", f);
}

static void write_counts(FILE *f, const search *s)
{
    size_t ok = 0, wrong = 0, skipped = 0;
    for (size_t i = 0; i < s->n; i++) {
        ok += charted(s->rows[i]);
        wrong += s->rows[i]->status == CG_RUNG_WRONG;
        skipped += s->rows[i]->status != CG_RUNG_OK && s->rows[i]->status != CG_RUNG_WRONG;
    }
    fputs("<p>Problem size: ", f);
    cg_html_esc(f, s->rows[0]->size_desc);
    fprintf(f,
            ". %zu candidates: %zu verified, %zu skipped (not run, or invalid here: the table says why), %zu "
            "FAILED verification. The rung: <span class=\"why\">",
            s->n, ok, skipped, wrong);
    cg_html_esc(f, s->rows[0]->why);
    fputs("</span></p>\n", f);
}

/* The rules of the search (every "rule:NAME" word, in order of first appearance). */
static size_t rule_words(const search *s, char words[][TOKEN_LEN], size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        for (const char *p = s->rows[i]->params_from; *p;) {
            size_t k = strcspn(p, ",");
            char w[TOKEN_LEN];
            snprintf(w, sizeof w, "%.*s", (int)k, p);
            p += k + (p[k] == ',');
            size_t j = 0;
            while (j < n && strcmp(words[j], w))
                j++;
            if (j == n && n < max && !strncmp(w, "rule:", 5)) snprintf(words[n++], TOKEN_LEN, "%s", w);
        }
    return n;
}

/* The best against the default, then which rule came closest to the best and the others' share. */
static void write_verdict(FILE *f, const search *s)
{
    const cg_result *best = row_from(s, "best"), *dflt = row_from(s, "default");
    char a[64], b[64], words[RULES_SHOW][TOKEN_LEN];
    if (!best || !charted(best)) best = charted(s->rows[0]) ? s->rows[0] : NULL;
    fputs("<p class=\"verdict\">", f);
    if (!best) {
        fputs("No candidate was verified: the table says why.</p>\n", f);
        return;
    }
    cg_fmt_time(a, sizeof a, best->t_median);
    fputs("Best: ", f);
    write_params(f, best);
    fprintf(f, ", %s", a);
    if (dflt && charted(dflt)) {
        cg_fmt_time(b, sizeof b, dflt->t_median);
        fprintf(f, ", %.2fx the default (", dflt->t_median / best->t_median);
        write_params(f, dflt);
        fprintf(f, ", %s).", b);
    } else {
        fputs(dflt ? "; the default was not verified." : "; no default in this search.", f);
    }
    size_t nr = rule_words(s, words, RULES_SHOW), closest = nr;
    double ratio[RULES_SHOW], top = 0;
    for (size_t k = 0; k < nr; k++) {
        const cg_result *r = row_from(s, words[k]);
        ratio[k] = r && charted(r) ? best->t_median / r->t_median : 0;
        if (ratio[k] > top) top = ratio[k], closest = k;
    }
    if (closest == nr) {
        fputs(nr ? " No seed rule's pick was verified here." : " No seed rule made a pick for this rung.", f);
    } else {
        const cg_result *r = row_from(s, words[closest]);
        cg_fmt_time(a, sizeof a, r->t_median);
        fputs(" Closest rule: <b>", f);
        cg_html_esc(f, words[closest]);
        fputs("</b> (", f);
        write_params(f, r);
        if (r == best)
            fprintf(f, ", %s): it picked the best, 100%% of the best's speed.", a);
        else
            fprintf(f, ", %s), at %.0f%% of the best's speed (%.2fx the best's time).", a, 100 * top,
                    r->t_median / best->t_median);
    }
    size_t shown = 0;
    for (size_t k = 0; k < nr; k++) {
        if (k == closest) continue;
        fputs(shown++ ? ", " : " Other rules: ", f);
        cg_html_esc(f, words[k]);
        if (ratio[k] > 0)
            fprintf(f, " %.0f%%", 100 * ratio[k]);
        else
            fputs(" not verified", f);
    }
    fputs(shown ? ".</p>\n" : "</p>\n", f);
}

/* One candidate: rank (verified ones: the chart's x), parameters, where they came from, status, median, CV,
 * speedup over the default, occupancy, kernel facts, and the reason for one not verified. */
static void write_row(FILE *f, const cg_result *r, size_t rank)
{
    char c[96];
    bool best = cg_plot_from_has(r->params_from, "best");
    bool mark = best || (r->params_from[0] && strcmp(r->params_from, "search"));
    bool bad = r->status != CG_RUNG_OK && r->status != CG_RUNG_UNSUPPORTED;
    fprintf(f, "<tr%s>",
            bad    ? " class=\"failed\""
            : best ? " class=\"best\""
            : mark ? " class=\"mark\""
                   : "");
    if (charted(r))
        fprintf(f, "<td class=\"n\">%zu</td><td>", rank);
    else
        fputs("<td class=\"n\">-</td><td>", f);
    write_params(f, r);
    fputs("</td><td class=\"from\">", f);
    cg_html_esc(f, r->params_from);
    fputs("</td>", f);
    cg_html_status_cell(f, r);
    bool t = cg_plot_timed(r);
    cg_fmt_time(c, sizeof c, t ? r->t_median : 0);
    fprintf(f, "<td class=\"n\">%s</td>", t ? c : "-");
    snprintf(c, sizeof c, t && isfinite(r->t_cv) ? "%.1f%%" : "-", 100 * r->t_cv);
    fprintf(f, "<td class=\"n\">%s</td>", c);
    snprintf(c, sizeof c, t && r->speedup > 0 && isfinite(r->speedup) ? "%.2fx" : "-", r->speedup);
    fprintf(f, "<td class=\"n\">%s</td>", c);
    cg_html_occ_cell(f, r);
    cg_html_kernel_cell(f, r);
    fputs("<td>", f);
    if (r->status != CG_RUNG_OK && r->reason[0]) {
        fputs("<span class=\"reason\">", f);
        cg_html_esc(f, r->reason);
        fputs("</span>", f);
    }
    for (unsigned i = 0; i < CG_WARN_COUNT; i++)
        if (r->warnings & (1u << i)) {
            fputs("<span class=\"warn\">", f);
            cg_html_esc(f, cg_warning_name(1u << i));
            fputs("</span> ", f);
        }
    fputs("</td></tr>\n", f);
}

static void write_table(FILE *f, const search *s)
{
    fputs("<table class=\"candidates\"><tr><th>rank</th><th>parameters</th><th>from</th><th>status</th>"
          "<th>median</th><th>CV</th><th>vs default</th><th>occupancy</th><th>kernel</th><th>reason, "
          "warnings</th></tr>\n",
          f);
    for (size_t i = 0; i < s->n; i++)
        write_row(f, s->rows[i], i + 1);
    fputs("</table>\n", f);
}

void cg_html_tune_sections(FILE *f, const cg_html_tune *t)
{
    if (t->dropped)
        fprintf(f,
                "<p class=\"warn\">%zu rows of further searches are not on this page (it shows at most %d "
                "searches): report those runs on a page of their own.</p>\n",
                t->dropped, TUNE_MAX);
    for (size_t k = 0; k < t->n; k++) {
        const search *s = &t->s[k];
        fputs("<section class=\"tune\" id=\"", f);
        write_anchor(f, t, k);
        fputs("\"><h2>tune ", f);
        write_name(f, s);
        if (t->show_labels) {
            fputs(" (", f);
            cg_html_esc(f, t->labels[s->run]);
            fputs(")", f);
        }
        fputs("</h2>\n", f);
        write_counts(f, s);
        fprintf(
            f,
            "<div class=\"charts\"><figure>%s<figcaption>Median time of every verified candidate, fastest "
            "first (x: its rank in the table below), lower is better. The best is ringed, the default (the "
            "rung's own parameters) and each seed rule's pick are marked and named; the dashed line is the "
            "default's time. Skipped and FAILED candidates are not drawn.</figcaption></figure></div>\n",
            s->svg);
        write_verdict(f, s);
        write_table(f, s);
        fputs("</section>\n", f);
    }
}
