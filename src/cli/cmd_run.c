/* `clgauge run`: options -> device -> roofline -> each selected ladder, once per --filter size for a workload
 * that takes one -> reports (table, JSON, CSV, HTML). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/commands.h"
#include "cli/meta.h"
#include "cli/estimate.h"
#include "cli/filters.h"
#include "cli/outputs.h"
#include "cli/summary.h"
#include "cli/targets.h"
#include "core/context.h"
#include "core/log.h"
#include "core/program.h"
#include "core/runner.h"
#include "peak/roofline.h"
#include "report/report.h"
#include "workloads/registry.h"

static void progress(const char *workload, const char *rung, size_t i, size_t n, void *user)
{
    if (user) fprintf(stderr, "\r\033[K[%zu/%zu] %s:%s ...", i, n, workload, rung);
}

static void fill_meta(cg_report *rep, const cg_opts *o, const cg_device *d, int argc, char **argv)
{
    snprintf(rep->tool_version, sizeof rep->tool_version, "%s", CLGAUGE_VERSION);
    snprintf(rep->git_commit, sizeof rep->git_commit, "%s", CLGAUGE_GIT);
    cg_cli_time_utc(rep->time_utc, sizeof rep->time_utc);
    cg_cli_command_line(rep->command_line, sizeof rep->command_line, argc, argv);
    cg_cli_fill_device(&rep->device, d);
    rep->seed = o->seed;
    rep->runs = o->runs;
    rep->warmup = o->warmup;
    snprintf(rep->size_arg, sizeof rep->size_arg, "%s", o->size ? o->size : "");
    rep->no_cache = o->no_cache;
}

/* True when name is one of the '|'-separated values in list. */
static bool in_list(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, '|');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && !strncmp(p, name, n)) return true;
        p = end ? end + 1 : NULL;
    }
    return false;
}

/* --pattern: a selected workload must take one, and the value must be one of its patterns. */
static cg_status check_pattern(const cg_opts *o, const cg_targets *t)
{
    if (!o->pattern) return CG_OK;
    const cg_workload *taker = NULL;
    for (size_t w = 0; w < cg_nworkloads; w++)
        if (t->any[w] && cg_workloads[w]->patterns) taker = cg_workloads[w];
    if (!taker) {
        CG_ERROR("--pattern applies to the histogram workload only; add histogram to the run");
        return CG_E_USAGE;
    }
    if (!in_list(taker->patterns, o->pattern)) {
        CG_ERROR("unknown --pattern '%s' for %s: use one of %s", o->pattern, taker->name, taker->patterns);
        return CG_E_USAGE;
    }
    return CG_OK;
}

/* --filter: a selected workload must take one, and the list must parse with each side within the workload's
 * largest (its validate hook checks the sizes against the picture and the device). */
static cg_status check_filter(const cg_opts *o, const cg_targets *t)
{
    if (!o->filter) return CG_OK;
    const cg_workload *taker = NULL;
    for (size_t w = 0; w < cg_nworkloads; w++)
        if (t->any[w] && cg_workloads[w]->filters) taker = cg_workloads[w];
    if (!taker) {
        CG_ERROR("--filter applies to the convolution workload only; add convolution to the run");
        return CG_E_USAGE;
    }
    cg_filter_size f[CG_FILTERS_MAX];
    char err[200];
    size_t n = cg_filters_parse_max(o->filter, taker->filter_max, f, err, sizeof err);
    if (!n) {
        CG_ERROR("bad --filter '%s': %s", o->filter, err);
        return CG_E_USAGE;
    }
    return CG_OK;
}

/* The number of selected workloads for which has() holds. */
static int count_takers(const cg_targets *t, bool (*has)(const cg_workload *w))
{
    int n = 0;
    for (size_t w = 0; w < cg_nworkloads; w++)
        n += t->any[w] && has(cg_workloads[w]);
    return n;
}

static bool has_pictures(const cg_workload *w)
{
    return w->takes_images_io;
}

static bool has_estimate(const cg_workload *w)
{
    return w->estimate != NULL;
}

static bool has_sigma(const cg_workload *w)
{
    return w->takes_sigma;
}

/* Options a selected workload must take: each refused with the workloads that do. */
static cg_status check_takers(const cg_opts *o, const cg_targets *t)
{
    int pictures = count_takers(t, has_pictures);
    if ((o->input || o->output) && !pictures) {
        CG_ERROR("--input/--output apply to picture workloads (filter3x3, blur) only; add one to the run");
        return CG_E_USAGE;
    }
    if (o->output && pictures > 1) {
        CG_ERROR(
            "--output writes one picture: run filter3x3 and blur separately, each with its own --output");
        return CG_E_USAGE;
    }
    if (o->estimate && !count_takers(t, has_estimate)) {
        CG_ERROR("--estimate applies to workloads with a speed estimate (blur) only; add blur to the run");
        return CG_E_USAGE;
    }
    if (o->sigma > 0 && !count_takers(t, has_sigma)) {
        CG_ERROR("--sigma applies to the blur workload only; add blur to the run");
        return CG_E_USAGE;
    }
    return check_pattern(o, t) == CG_OK && check_filter(o, t) == CG_OK ? CG_OK : CG_E_USAGE;
}

/* Option checks that need the selection but no device. */
static cg_status check_run_opts(const cg_opts *o, const cg_targets *t, cg_run_opts *ro, unsigned *mask)
{
    char err[160];
    memset(ro, 0, sizeof *ro);
    if (o->size && !cg_size_parse(o->size, &ro->size, err, sizeof err)) {
        CG_ERROR("bad --size '%s': %s", o->size, err);
        return CG_E_USAGE;
    }
    if (o->mask && !cg_feature_parse(o->mask, mask, err, sizeof err)) {
        CG_ERROR("unknown feature '%s' in --mask-features; features: " CG_FEAT_LIST, err);
        return CG_E_USAGE;
    }
    if (check_takers(o, t) != CG_OK) return CG_E_USAGE;
    if (o->check && strcmp(o->check, "random") && strcmp(o->check, "exact")) {
        CG_ERROR("unknown --check '%s': use random or exact", o->check);
        return CG_E_USAGE;
    }
    ro->check_exact = o->check && !strcmp(o->check, "exact");
    ro->seed = o->seed;
    ro->runs = o->runs;
    ro->warmup = o->warmup;
    ro->input = o->input;
    ro->output = o->output;
    ro->sigma = o->sigma;
    ro->estimate = o->estimate;
    ro->pattern = o->pattern;
    const cg_out_file files[] = {
        {"--json", o->json}, {"--csv", o->csv}, {"--html", o->html}, {"--output", o->output}};
    cg_status st = cg_cli_check_outputs(files, sizeof files / sizeof files[0]);
    return st == CG_OK ? cg_cmd_html_check(o->html) : st;
}

static cg_status write_reports(const cg_opts *o, const cg_report *rep, FILE *out)
{
    cg_status st = CG_OK;
    if (!o->quiet && !(o->json && !strcmp(o->json, "-")) && !(o->csv && !strcmp(o->csv, "-")) &&
        !(o->html && !strcmp(o->html, "-")))
        cg_report_text(rep, out);
    if (!o->quiet && o->estimate) cg_estimates_print(rep, o->sigma, out);
    if (o->json && cg_report_json(rep, o->json) != 0) {
        CG_ERROR("cannot write --json file %s: %s", o->json, strerror(errno));
        st = CG_E_IO;
    }
    if (o->csv && cg_report_csv(rep, o->csv) != 0) {
        CG_ERROR("cannot write --csv file %s: %s", o->csv, strerror(errno));
        st = CG_E_IO;
    }
    if (o->html) st = cg_status_merge(st, cg_cmd_html_write(&rep, 1, o->html, rep->command_line));
    return st;
}

/* The roofline ceilings (measured, or from the cache), recorded in rep and returned in *ceil. */
static cg_status get_ceilings(cg_ctx *ctx, const cg_opts *o, cg_report *rep, cg_ceilings *ceil)
{
    cg_roofline roof;
    cg_ctx builtin =
        *ctx; /* --kernel-dir is for the workloads' kernels: the roofline uses its built-in copy */
    builtin.kernel_dir = NULL;
    cg_status st = cg_roofline_get(&builtin, o->no_cache, &roof);
    if (st != CG_OK) return st;
    rep->copy_gbps = roof.copy_gbps;
    rep->read_gbps = roof.read_gbps;
    rep->mad_gflops = roof.mad_gflops;
    snprintf(rep->roofline_source, sizeof rep->roofline_source, "%s",
             roof.from_cache ? (roof.full ? "peak cache" : "cache") : "measured");
    *ceil = (cg_ceilings){roof.copy_gbps, roof.read_gbps, roof.mad_gflops};
    return CG_OK;
}

/* The sizes to run w at: for a workload that takes --filter, the --filter list or its default one; else one
 * run with no size (0x0: the workload's default). Returns how many, 0 when the default list is broken. */
static size_t sweep_sizes(const cg_opts *o, const cg_workload *w, cg_filter_size *f)
{
    char err[200];
    if (!w->filters) {
        f[0] = (cg_filter_size){0, 0};
        return 1;
    }
    size_t n = cg_filters_parse(o->filter ? o->filter : w->filters, f, err, sizeof err);
    if (!n) CG_ERROR("%s: bad default --filter list '%s': %s", w->name, w->filters, err);
    return n;
}

/* Every selected workload's validate hook, once per size of its sweep, before anything is measured: a usage
 * error found here stops the run before any ladder ran or any report was written. */
static cg_status validate_all(const cg_ctx *ctx, const cg_opts *o, const cg_targets *t, const cg_run_opts *ro)
{
    for (size_t w = 0; w < cg_nworkloads; w++) {
        const cg_workload *wl = cg_workloads[w];
        if (!t->any[w] || !wl->validate) continue;
        cg_filter_size sizes[CG_FILTERS_MAX];
        size_t n = sweep_sizes(o, wl, sizes);
        if (!n) return CG_E_RUNTIME;
        for (size_t k = 0; k < n; k++) {
            cg_run_opts one = *ro;
            one.filter_w = sizes[k].w;
            one.filter_h = sizes[k].h;
            cg_status st = wl->validate(ctx, &one);
            if (st != CG_OK) return st;
        }
    }
    return CG_OK;
}

/* Runs the ladder of w once per size of sweep_sizes, each run's rows labelled with its size ("5x5") where w
 * takes --filter. Stops at a status the next size would repeat (setup refused the options or a file) and
 * returns that status then, so that the caller stops as well. */
static cg_status run_sweep(cg_ctx *ctx, const cg_opts *o, const cg_workload *w, const bool *selected,
                           const cg_run_opts *ro, const cg_ceilings *ceil, cg_report *rep)
{
    cg_filter_size sizes[CG_FILTERS_MAX];
    size_t n = sweep_sizes(o, w, sizes);
    cg_status st = n ? CG_OK : CG_E_RUNTIME;
    bool tty = !o->quiet && isatty(STDERR_FILENO);
    for (size_t k = 0; k < n; k++) {
        char variant[CG_VARIANT_LEN];
        cg_run_opts one = *ro;
        one.filter_w = sizes[k].w;
        one.filter_h = sizes[k].h;
        if (w->filters) {
            cg_filter_label(&sizes[k], variant, sizeof variant);
            one.variant = variant;
        }
        cg_status s = cg_runner_run(ctx, w, selected, &one, ceil, rep, progress, tty ? rep : NULL);
        if (s == CG_E_USAGE || s == CG_E_IO) return cg_status_merge(s, st); /* the caller stops too */
        st = cg_status_merge(st, s);
    }
    return st;
}

static cg_status run_ladders(cg_ctx *ctx, const cg_opts *o, const cg_targets *t, const cg_run_opts *ro,
                             cg_report *rep)
{
    cg_ceilings ceil;
    cg_status st = get_ceilings(ctx, o, rep, &ceil);
    if (st != CG_OK) return st;
    for (size_t w = 0; w < cg_nworkloads; w++) {
        if (!t->any[w]) continue;
        cg_status s = run_sweep(ctx, o, cg_workloads[w], t->rung[w], ro, &ceil, rep);
        st = cg_status_merge(st, s);
        if (s == CG_E_USAGE || s == CG_E_IO)
            break; /* setup refused the options: the other ladders would refuse them too, or the user must fix
                    */
    }
    if (!o->quiet && isatty(STDERR_FILENO)) fprintf(stderr, "\r\033[K");
    return st;
}

cg_status cg_cmd_run(const cg_opts *o, int argc, char **argv, FILE *out)
{
    cg_targets t;
    cg_run_opts ro;
    unsigned mask = 0;
    cg_status st = cg_targets_parse(o->targets, &t);
    if (st == CG_OK) st = check_run_opts(o, &t, &ro, &mask);
    const char *cl_files[CG_MAX_WORKLOADS]; /* --kernel-dir: the .cl file of each selected workload */
    size_t n_cl = 0;
    for (size_t w = 0; st == CG_OK && w < cg_nworkloads; w++)
        if (t.any[w]) cl_files[n_cl++] = cg_workloads[w]->cl_file;
    if (st == CG_OK) st = cg_program_check_sources(o->kernel_dir, cl_files, n_cl);
    if (st != CG_OK) return st;
    cg_device_list l;
    if ((st = cg_device_list_init(&l)) != CG_OK) return st;
    const cg_device *dev;
    cg_ctx ctx;
    cg_report rep;
    cg_report_init(&rep);
    if ((st = cg_device_select(&l, o->device, &dev)) != CG_OK) goto out_list;
    if ((st = cg_ctx_init(&ctx, dev, mask, o->kernel_dir, o->no_cache, o->cache_dir)) != CG_OK) goto out_list;
    fill_meta(&rep, o, dev, argc, argv);
    if ((st = validate_all(&ctx, o, &t, &ro)) == CG_OK) st = run_ladders(&ctx, o, &t, &ro, &rep);
    /* a usage error (exit 1) never writes or replaces a report, even one found by a late setup */
    if (rep.n > 0 && st != CG_E_USAGE) st = cg_status_merge(st, write_reports(o, &rep, out));
    if (o->quiet && st != CG_E_USAGE) cg_cli_run_summary(&rep, stderr); /* --quiet: one line, not nothing */
    cg_ctx_fini(&ctx);
out_list:
    cg_report_fini(&rep);
    cg_device_list_fini(&l);
    return st;
}
