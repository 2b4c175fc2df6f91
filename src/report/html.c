/* The HTML report page. Everything is inline: a short style sheet, the gnuplot SVG charts, the tables; there
 * is no script and nothing is fetched, so the file can be mailed, archived or opened offline. Every string
 * from a run (names, why-lines, command lines, device strings) is HTML-escaped. Charts are drawn before the
 * file is opened, so a gnuplot failure leaves no file behind. */
#include "report/html.h"
#include "report/html_tune.h"
#include "core/fs.h"
#include "report/outfile.h"
#include "report/plot.h"
#include "report/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 64
#define MAX_RUNS   16

typedef struct page {
    const cg_report *const *all; /* every run of the page: the metadata, the title */
    size_t nall;
    const char *all_labels[MAX_RUNS];
    const cg_report *plain[MAX_RUNS]; /* the runs shown as ladders: all but the tune runs */
    const cg_report *const *runs;     /* = plain */
    size_t nruns;
    const char *generator;
    const char *labels[MAX_RUNS]; /* of runs[] */
    char label_buf[MAX_RUNS][300];
    cg_html_tune *tune;                  /* the tune runs' searches, or NULL when there is none */
    const cg_result *groups[MAX_GROUPS]; /* per group (workload and variant), its first row */
    bool timed[MAX_GROUPS];              /* some row of the group has a time to chart */
    size_t ngroups, dropped;             /* dropped: rows of groups past MAX_GROUPS (not on the page) */
    char *ladder[MAX_GROUPS], *roofline[MAX_GROUPS];
    char *sweep[MAX_GROUPS]; /* at a workload's first group, when its first run swept 2+ items */
} page;

static const char style[] =
    "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}"
    "h1{margin-bottom:.2em}h2{margin-top:2em;border-bottom:2px solid #4c72b0}"
    "table{border-collapse:collapse;margin:1em 0;font-size:.9em}"
    "th,td{border:1px solid #ccc;padding:.25em .5em;vertical-align:top}th{background:#f0f3f8;text-align:left}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".charts{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0;flex:0 1 570px;min-width:0}"
    "figure svg{display:block;box-sizing:border-box;width:100%;height:auto;border:1px solid #eee}"
    "figcaption{font-size:.85em;color:#555}.nochart{box-sizing:border-box;aspect-ratio:620/400;"
    "border:1px dashed #ccc;padding:1em;color:#555;display:flex;align-items:center}"
    "tr.failed td{background:#fbe9e9}.st-failed{color:#c44e52;font-weight:bold}.st-skip{color:#777}"
    ".why{color:#444}.reason{color:#c44e52}.warn{color:#a06000}code{font-size:.95em}"
    ".meta "
    "td:first-child{font-weight:bold;white-space:nowrap}footer{margin-top:3em;font-size:.85em;color:#555}";

void cg_html_esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&#39;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

/* The group of row r: g when r belongs to it, else found or added (p->ngroups when there is no room). */
static size_t find_group(page *p, const cg_result *r, size_t g)
{
    if (g < p->ngroups && cg_result_same_group(p->groups[g], r)) return g;
    for (g = 0; g < p->ngroups && !cg_result_same_group(p->groups[g], r); g++) {
    }
    if (g == p->ngroups && g < MAX_GROUPS) p->groups[p->ngroups++] = r;
    return g;
}

/* Run labels (device, "#j" where a device repeats); the runs shown as ladders (every run but the tune runs);
 * their groups in order of first appearance (one pass; consecutive rows of one group are found at once). */
static void index_page(page *p)
{
    for (size_t j = 0; j < p->nall; j++) {
        const cg_report *r = p->all[j];
        bool dup = false;
        for (size_t k = 0; k < p->nall; k++)
            dup |= k != j && !strcmp(p->all[k]->device.name, r->device.name);
        snprintf(p->label_buf[j], sizeof p->label_buf[j], dup ? "%s #%zu" : "%s", r->device.name, j + 1);
        p->all_labels[j] = p->label_buf[j];
        if (cg_html_tune_report(r)) continue;
        p->labels[p->nruns] = p->label_buf[j];
        p->plain[p->nruns++] = r;
    }
    p->runs = p->plain;
    for (size_t j = 0; j < p->nruns; j++) {
        const cg_report *r = p->runs[j];
        size_t g = 0;
        for (size_t i = 0; i < r->n; i++) {
            g = find_group(p, &r->rows[i], g);
            if (g < p->ngroups)
                p->timed[g] |= cg_plot_timed(&r->rows[i]);
            else
                p->dropped++;
        }
    }
}

/* The tune runs' searches and charts (chart numbers after the ladders' ones), when there are tune runs. */
static int draw_tune(page *p, char *err, size_t errlen)
{
    const cg_report *runs[MAX_RUNS];
    const char *labels[MAX_RUNS];
    size_t n = 0;
    for (size_t j = 0; j < p->nall; j++)
        if (cg_html_tune_report(p->all[j])) runs[n] = p->all[j], labels[n++] = p->all_labels[j];
    if (!n) return 0;
    p->tune = cg_html_tune_create(runs, labels, n, p->nall > 1, 3 * MAX_GROUPS, err, errlen);
    return p->tune ? 0 : -1;
}

static int draw_charts(page *p, char *err, size_t errlen)
{
    for (size_t g = 0; g < p->ngroups; g++) {
        cg_plot_in in = {p->runs, p->labels, p->nruns, p->groups[g], (int)(2 * g)};
        if (!(p->ladder[g] = cg_plot_ladder(&in, err, errlen))) return -1;
        in.chart++;
        p->roofline[g] = cg_plot_roofline(&in, err, errlen);
        if (!p->roofline[g] && err[0]) return -1;
        bool first = true;
        for (size_t h = 0; h < g; h++)
            first &= strcmp(p->groups[h]->workload, p->groups[g]->workload) != 0;
        if (!first || cg_plot_sweep_items(p->runs[0], p->groups[g]->workload) < 2) continue;
        in.chart = (int)(2 * MAX_GROUPS + g);
        if (!(p->sweep[g] = cg_plot_sweep(&in, err, errlen))) return -1;
    }
    return 0;
}

static void meta_row(FILE *f, const page *p, const char *name, void (*cell)(FILE *, const cg_report *))
{
    fprintf(f, "<tr><td>%s</td>", name);
    for (size_t j = 0; j < p->nall; j++) {
        fputs("<td>", f);
        cell(f, p->all[j]);
        fputs("</td>", f);
    }
    fputs("</tr>\n", f);
}

static void m_device(FILE *f, const cg_report *r)
{
    cg_html_esc(f, r->device.name);
    fputs(" (", f);
    cg_html_esc(f, r->device.type);
    fprintf(f, ", %u compute units, %u MHz)", r->device.compute_units, r->device.clock_mhz);
}
static void m_memory(FILE *f, const cg_report *r)
{
    fprintf(f, "global %.1f GiB, local %llu KiB, max alloc %.1f GiB", r->device.global_mem / 1073741824.0,
            r->device.local_mem / 1024, r->device.max_alloc / 1073741824.0);
}
static void m_platform(FILE *f, const cg_report *r)
{
    cg_html_esc(f, r->device.platform);
    fputs(" &mdash; ", f);
    cg_html_esc(f, r->device.platform_version);
}
static void m_driver(FILE *f, const cg_report *r)
{
    cg_html_esc(f, r->device.driver);
    fputs(" &mdash; ", f);
    cg_html_esc(f, r->device.version);
}
static void m_tool(FILE *f, const cg_report *r)
{
    fputs("clgauge ", f);
    cg_html_esc(f, r->tool_version);
    fputs(", git <code>", f);
    cg_html_esc(f, r->git_commit);
    fputs("</code>", f);
}
static void m_time(FILE *f, const cg_report *r)
{
    cg_html_esc(f, r->time_utc);
}
static void m_cmd(FILE *f, const cg_report *r)
{
    fputs("<code>", f);
    cg_html_esc(f, r->command_line);
    fputs("</code>", f);
}
static void m_options(FILE *f, const cg_report *r)
{
    fprintf(f, "%d timed runs per rung after %d warm-up, seed %llu, size ", r->runs, r->warmup,
            (unsigned long long)r->seed);
    cg_html_esc(f, r->size_arg[0] ? r->size_arg : "default per workload");
    fputs(r->no_cache ? ", --no-cache" : "", f);
}
static void m_roof(FILE *f, const cg_report *r)
{
    fprintf(f, "copy %.1f GB/s, read %.1f GB/s, fp32 MAD %.1f GFLOP/s (", r->copy_gbps, r->read_gbps,
            r->mad_gflops);
    cg_html_esc(f, r->roofline_source);
    fputs(")", f);
}

static void write_meta(FILE *f, const page *p)
{
    fputs("<h2 id=\"runs\">Device and run</h2>\n<table class=\"meta\">\n", f);
    meta_row(f, p, "device", m_device);
    meta_row(f, p, "memory", m_memory);
    meta_row(f, p, "platform", m_platform);
    meta_row(f, p, "driver / device version", m_driver);
    meta_row(f, p, "roofline ceilings", m_roof);
    meta_row(f, p, "measured by", m_tool);
    meta_row(f, p, "started (UTC)", m_time);
    meta_row(f, p, "command line", m_cmd);
    meta_row(f, p, "options", m_options);
    fputs("</table>\n", f);
}

static bool timed(const cg_result *r)
{
    return (r->status == CG_RUNG_OK || r->status == CG_RUNG_WRONG) && r->runs > 0;
}

static void cell_num(FILE *f, const char *text)
{
    fputs("<td class=\"n\">", f);
    cg_html_esc(f, text);
    fputs("</td>", f);
}

void cg_html_status_cell(FILE *f, const cg_result *r)
{
    const char *cls = r->status == CG_RUNG_OK            ? ""
                      : r->status == CG_RUNG_UNSUPPORTED ? "st-skip"
                                                         : "st-failed";
    const char *text = r->status == CG_RUNG_OK             ? "OK"
                       : r->status == CG_RUNG_WRONG        ? "FAILED"
                       : r->status == CG_RUNG_UNSUPPORTED  ? "unsupported"
                       : r->status == CG_RUNG_BUILD_FAILED ? "BUILD-FAILED"
                                                           : "CL-ERROR";
    fprintf(f, "<td class=\"%s\">%s</td>", cls, text);
}

static void row_numbers(FILE *f, const cg_result *r)
{
    char a[64], b[64], c[140];
    bool t = timed(r);
    cg_fmt_time(a, sizeof a, t ? r->t_median : 0);
    cell_num(f, a);
    snprintf(c, sizeof c, "-");
    if (t && isfinite(r->t_cv)) snprintf(c, sizeof c, "%.1f%%", 100 * r->t_cv);
    cell_num(f, c);
    cg_fmt_time(a, sizeof a, t ? r->t_min : 0);
    cg_fmt_time(b, sizeof b, t ? r->t_max : 0);
    snprintf(c, sizeof c, t ? "%s .. %s" : "-", a, b);
    cell_num(f, c);
    cg_fmt_rate(a, sizeof a, t ? r->gbps * 1e9 : 0, "B");
    cell_num(f, a);
    cg_fmt_rate(a, sizeof a, t ? r->gflops * 1e9 : 0, "FLOP");
    cell_num(f, a);
    snprintf(c, sizeof c, t && isfinite(r->roofline_pct) ? "%.1f%%" : "-", r->roofline_pct);
    cell_num(f, c);
    snprintf(c, sizeof c, t && r->speedup > 0 ? "%.2fx" : "-", r->speedup);
    cell_num(f, c);
}

/* The kernel facts: name, work-group as launched / CL_KERNEL_WORK_GROUP_SIZE, local and private memory,
 * registers (where known); "-" for a row without them (not run, or a file written before them). */
void cg_html_kernel_cell(FILE *f, const cg_result *r)
{
    const cg_kfacts *k = &r->facts;
    char c[160];
    if (!k->kernel[0]) {
        fputs("<td>-</td>", f);
        return;
    }
    fputs("<td><code>", f);
    cg_html_esc(f, k->kernel);
    fputs("</code>", f);
    if (k->kernels > 1) fprintf(f, " (1 of %u)", k->kernels);
    snprintf(c, sizeof c, "wg %s of %zu, local %llu B, private %llu B", k->wg_local, k->wg_max,
             k->local_bytes, k->private_bytes);
    fputs("<br>", f);
    cg_html_esc(f, c);
    if (k->registers) fprintf(f, ", %u registers", k->registers);
    fputs("</td>", f);
}

/* The occupancy estimate: "50%, 4 wg/CU (local; sm_90)", "1 wg/CU (groups; cpu)", or "-". */
void cg_html_occ_cell(FILE *f, const cg_result *r)
{
    const cg_kfacts *k = &r->facts;
    char c[96], pct[24] = "";
    if (!k->occ_groups) {
        fputs("<td>-</td>", f);
        return;
    }
    if (isfinite(k->occupancy) && k->occupancy > 0) snprintf(pct, sizeof pct, "%.0f%%, ", 100 * k->occupancy);
    snprintf(c, sizeof c, "%s%u wg/CU (%s; %s)", pct, k->occ_groups, k->occ_limit, k->occ_model);
    fputs("<td>", f);
    cg_html_esc(f, c);
    fputs("</td>", f);
}

static void row_why(FILE *f, const cg_result *r)
{
    fputs("<td><span class=\"why\">", f);
    cg_html_esc(f, r->why);
    fputs("</span>", f);
    if (r->status != CG_RUNG_OK && r->reason[0]) {
        fputs("<br><span class=\"reason\">", f);
        cg_html_esc(f, r->reason);
        fputs("</span>", f);
    }
    for (unsigned i = 0; i < CG_WARN_COUNT; i++)
        if (r->warnings & (1u << i)) {
            fputs("<br><span class=\"warn\">warning: ", f);
            cg_html_esc(f, cg_warning_fix(1u << i));
            fputs("</span>", f);
        }
    fputs("</td>", f);
}

static void write_table(FILE *f, const page *p, const cg_result *group)
{
    fputs("<table class=\"rungs\"><tr><th>rung</th>", f);
    if (p->nruns > 1) fputs("<th>run</th>", f);
    fputs("<th>status</th><th>median</th><th>CV</th><th>fastest .. slowest</th><th>bandwidth</th>"
          "<th>FLOP "
          "rate</th><th>roofline</th><th>speedup</th><th>kernel</th><th>occupancy</th><th>why</th></tr>\n",
          f);
    for (size_t j = 0; j < p->nruns; j++)
        for (size_t i = 0; i < p->runs[j]->n; i++) {
            const cg_result *r = &p->runs[j]->rows[i];
            if (!cg_result_same_group(r, group)) continue;
            bool bad = r->status != CG_RUNG_OK && r->status != CG_RUNG_UNSUPPORTED;
            fprintf(f, "<tr%s><td><code>", bad ? " class=\"failed\"" : "");
            cg_html_esc(f, r->rung);
            fputs("</code>", f);
            if (!strcmp(r->params_from, "tuned")) { /* parameters from the tuning cache */
                fputs("<br>tuned: <code>", f);
                cg_html_esc(f, r->params);
                fputs("</code>", f);
            }
            fputs("</td>", f);
            if (p->nruns > 1) {
                fputs("<td>", f);
                cg_html_esc(f, p->labels[j]);
                fputs("</td>", f);
            }
            cg_html_status_cell(f, r);
            row_numbers(f, r);
            cg_html_kernel_cell(f, r);
            cg_html_occ_cell(f, r);
            row_why(f, r);
            fputs("</tr>\n", f);
        }
    fputs("</table>\n", f);
}

/* The first row of the group in run j, or NULL. */
static const cg_result *first_row(const page *p, size_t j, const cg_result *group)
{
    for (size_t i = 0; i < p->runs[j]->n; i++)
        if (cg_result_same_group(&p->runs[j]->rows[i], group)) return &p->runs[j]->rows[i];
    return NULL;
}

static void write_sizes(FILE *f, const page *p, const cg_result *group)
{
    const char *sep = "<p>Problem size: ";
    const char *note = NULL;
    for (size_t j = 0; j < p->nruns; j++) {
        const cg_result *r = first_row(p, j, group);
        if (!r) continue;
        fputs(sep, f);
        cg_html_esc(f, r->size_desc);
        if (p->nruns > 1) {
            fputs(" (", f);
            cg_html_esc(f, p->labels[j]);
            fputs(")", f);
        }
        sep = ", ";
        note = note ? note : r->bytes_note;
    }
    fputs(". Bandwidth counts ", f);
    cg_html_esc(f, note && *note ? note : "the workload's model bytes");
    fputs(".</p>\n", f);
}

/* The section's id: "w-reduction", "w-convolution-32x32" for a group with a variant. */
static void write_anchor(FILE *f, const cg_result *group)
{
    fputs("w-", f);
    cg_html_esc(f, group->workload);
    if (group->variant[0]) fputc('-', f);
    cg_html_esc(f, group->variant);
}

/* One section per group: "reduction", or "convolution[32x32]" for one size of a --filter sweep. */
static void write_group(FILE *f, const page *p, size_t g)
{
    const cg_result *group = p->groups[g];
    char name[CG_GROUP_LEN];
    cg_result_group(group, name, sizeof name);
    fputs("<section class=\"workload\" id=\"", f);
    write_anchor(f, group);
    fputs("\"><h2>", f);
    cg_html_esc(f, name);
    fputs("</h2>\n", f);
    write_sizes(f, p, group);
    if (p->sweep[g])
        fprintf(f,
                "<div class=\"charts\"><figure>%s<figcaption>The sweep: each rung's median time against the "
                "sweep's items (the rows' variants, in the order they ran) in the first run; each item's "
                "ladder, roofline and table follow in sections of their own.</figcaption></figure></div>\n",
                p->sweep[g]);
    fprintf(
        f,
        "<div class=\"charts\"><figure>%s<figcaption>Median time per rung, lower is better; the error bar "
        "spans the fastest and the slowest timed run. FAILED rungs (wrong result) are red.%s</figcaption>"
        "</figure>\n",
        p->ladder[g],
        p->timed[g] ? ""
                    : " No rung of this group was timed (every one failed to build or run, or is unsupported "
                      "here): the table below says why.");
    if (p->roofline[g])
        fprintf(f,
                "<figure>%s<figcaption>Roofline: the device's measured bandwidth (solid: read, dashed: copy) "
                "and fp32 MAD ceilings; each rung that ran is a point at its model FLOPs per byte."
                "</figcaption></figure>\n",
                p->roofline[g]);
    else
        fputs("<figure><div class=\"nochart\">No roofline chart: no rung of this group ran with model FLOPs "
              "(a workload that only moves data is judged by its bandwidth in the table).</div></figure>\n",
              f);
    fputs("</div>\n", f);
    write_table(f, p, group);
    fputs("</section>\n", f);
}

/* The table of contents: the ladders' groups, the tune searches, the device and run block. */
static void write_nav(FILE *f, const page *p)
{
    fputs("<p>", f);
    for (size_t g = 0; g < p->ngroups; g++) {
        char name[CG_GROUP_LEN];
        cg_result_group(p->groups[g], name, sizeof name);
        fputs(g ? " &middot; " : "Workloads: ", f);
        fputs("<a href=\"#", f);
        write_anchor(f, p->groups[g]);
        fputs("\">", f);
        cg_html_esc(f, name);
        fputs("</a>", f);
    }
    if (p->tune) cg_html_tune_nav(f, p->tune, p->ngroups ? " &middot; " : "Tuning: ");
    fputs(" &middot; <a href=\"#runs\">device and run</a></p>\n", f);
}

static int emit_page(FILE *f, const void *ctx)
{
    const page *p = ctx;
    bool tune_only = p->tune && !p->nruns;
    fprintf(
        f,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>clgauge %sreport: ",
        tune_only ? "tune " : "");
    for (size_t j = 0; j < p->nall; j++) {
        fputs(j ? ", " : "", f);
        cg_html_esc(f, p->all_labels[j]);
    }
    fprintf(f, "</title>\n<style>%s%s</style>\n</head>\n<body>\n<h1>clgauge %sreport</h1>\n", style,
            p->tune ? cg_html_tune_style : "", tune_only ? "tune " : "");
    write_nav(f, p);
    if (p->dropped)
        fprintf(f,
                "<p class=\"warn\">%zu rows of further workloads are not on this page (it shows at most %d "
                "workloads and filter sizes): report those runs on a page of their own.</p>\n",
                p->dropped, MAX_GROUPS);
    for (size_t g = 0; g < p->ngroups; g++)
        write_group(f, p, g);
    if (p->tune) cg_html_tune_sections(f, p->tune);
    write_meta(f, p);
    fputs("<footer>Written by ", f);
    cg_html_esc(f, p->generator);
    fputs(". Rates are computed from the median time and the workload's model bytes and FLOPs; roofline % is "
          "the share of the measured ceiling the rung reaches.</footer>\n</body>\n</html>\n",
          f);
    return ferror(f) ? -1 : 0;
}

int cg_report_html(const cg_report *const *runs, size_t n, const char *generator, const char *path, char *err,
                   size_t errlen, bool *io)
{
    page *p = calloc(1, sizeof *p);
    int rc = -1;
    *io = false;
    if (!p || n == 0 || n > MAX_RUNS) {
        snprintf(err, errlen, n > MAX_RUNS ? "at most %d runs fit one page" : "out of memory", MAX_RUNS);
        free(p);
        return -1;
    }
    p->all = runs;
    p->nall = n;
    p->generator = generator;
    index_page(p);
    if (draw_charts(p, err, errlen) == 0 && draw_tune(p, err, errlen) == 0) {
        rc = cg_outfile_write(path, emit_page, p);
        if (rc != 0) {
            *io = true;
            snprintf(err, errlen, "cannot write --html file %s: %s; choose a writable path", path,
                     cg_fs_strerror(errno));
        }
    }
    for (size_t g = 0; g < p->ngroups; g++) {
        free(p->ladder[g]);
        free(p->roofline[g]);
        free(p->sweep[g]);
    }
    cg_html_tune_destroy(p->tune);
    free(p);
    return rc;
}
