/* `clgauge run`: options (each workload-specific one checked against the selected workloads that take it,
 * from the merged option table) -> device -> roofline -> each selected ladder, once per item of its sweep
 * (a workload's CG_WOPT_EXTENTS option: convolution's --filter) -> reports (table, JSON, CSV, HTML). */
#include <stddef.h>
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
#include "cli/tuning.h"
#include "core/context.h"
#include "core/log.h"
#include "core/program.h"
#include "core/runner.h"
#include "peak/roofline.h"
#include "report/report.h"
#include "workloads/registry.h"

/* The progress line on a terminal: the rung's place in the whole run and in its ladder, the time so far and a
 * rough ETA (the mean time of the rungs done so far, times the rungs left). */
typedef struct run_progress {
    size_t done, total;
    struct timespec t0;
} run_progress;

static double since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

static void progress(const char *workload, const char *rung, size_t i, size_t n, void *user)
{
    run_progress *p = user;
    if (!p) return;
    double el = since(&p->t0);
    fprintf(stderr, "\r\033[K[%zu/%zu] %s:%s (%zu/%zu of the ladder), %.0f s", ++p->done, p->total, workload,
            rung, i, n, el);
    if (p->done > 1 && p->done <= p->total)
        fprintf(stderr, ", about %.0f s left", el / (double)(p->done - 1) * (double)(p->total - p->done + 1));
}

/* The metadata block and the run's options. */
static void fill_meta(cg_report *rep, const cg_opts *o, const cg_device *d, int argc, char **argv)
{
    cg_cli_fill_meta(rep, d, argc, argv);
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

/* Whether the workload-specific option r was given. */
static bool given(const cg_opt_row *r, const cg_opts *o)
{
    if (r->wopt) return cg_wopts_find(&o->wopts, r->name) != NULL;
    const char *field = (const char *)o + r->offset;
    return r->kind == CG_ARG_FLAG ? *(const bool *)field : *(const char *const *)field != NULL;
}

/* The names of the workloads that take r, the selected ones only when t is not NULL, joined by sep; returns
 * how many. */
static int takers(const cg_opt_row *r, const cg_targets *t, const char *sep, char *buf, size_t len)
{
    int n = 0;
    size_t used = 0;
    buf[0] = 0;
    for (size_t w = 0; w < cg_nworkloads; w++)
        if ((!t || t->any[w]) && cg_opt_takes(r, cg_workloads[w])) {
            if (used < len)
                used += (size_t)snprintf(buf + used, len - used, "%s%s", n ? sep : "", cg_workloads[w]->name);
            n++;
        }
    return n;
}

/* r given with no selected workload that takes it: one line naming those that do. */
static cg_status refuse_untaken(const cg_opt_row *r)
{
    char all[256];
    int n = takers(r, NULL, ", ", all, sizeof all);
    if (r->takers_noun)
        CG_ERROR("--%s applies to %s (%s) only; add one to the run", r->name, r->takers_noun, all);
    else if (n == 1)
        CG_ERROR("--%s applies to the %s workload only; add %s to the run", r->name, all, all);
    else
        CG_ERROR("--%s applies to the %s workloads only; add one of them to the run", r->name, all);
    return CG_E_USAGE;
}

/* A workload's own option's value, against the declaration of every selected workload that takes it: a word
 * among its words, a list of extents within its largest side (its validate hook checks the rest). */
static cg_status check_value(const cg_opt_row *r, const cg_opts *o, const cg_targets *t)
{
    const cg_wopt_value *v = cg_wopts_find(&o->wopts, r->name);
    for (size_t w = 0; w < cg_nworkloads; w++) {
        const cg_wopt *d = t->any[w] ? cg_workload_option(cg_workloads[w], r->name) : NULL;
        if (d && d->kind == CG_WOPT_WORD && !in_list(d->words, v->text)) {
            CG_ERROR("unknown --%s '%s' for %s: use one of %s", r->name, v->text, cg_workloads[w]->name,
                     d->words);
            return CG_E_USAGE;
        }
        cg_filter_size f[CG_FILTERS_MAX];
        char err[200];
        if (d && d->kind == CG_WOPT_EXTENTS && !cg_filters_parse_max(v->text, d->max, f, err, sizeof err)) {
            CG_ERROR("bad --%s '%s': %s", r->name, v->text, err);
            return CG_E_USAGE;
        }
    }
    return CG_OK;
}

/* Every workload-specific option given needs a selected workload that takes it, and a value it takes;
 * --output writes one picture. */
static cg_status check_takers(const cg_opts *o, const cg_targets *t)
{
    size_t n;
    const cg_opt_row *tab = cg_opt_table(&n);
    for (const cg_opt_row *r = tab; r < tab + n; r++) {
        if (!(r->commands & (1u << CG_CMD_RUN)) || !cg_opt_is_workload_specific(r) || !given(r, o)) continue;
        char sel[256];
        if (!takers(r, t, " and ", sel, sizeof sel)) return refuse_untaken(r);
        if (r->wopt && check_value(r, o, t) != CG_OK) return CG_E_USAGE;
        if (r->offset == offsetof(cg_opts, output) && !r->wopt &&
            takers(r, t, " and ", sel, sizeof sel) > 1) {
            CG_ERROR("--output writes one picture: run %s separately, each with its own --output", sel);
            return CG_E_USAGE;
        }
    }
    return CG_OK;
}

/* --size (or --length): one size, or a comma-separated list of them, a sweep: the ladders run once per item,
 * each run's rows labelled with it. */
typedef struct size_list {
    size_t n;  /* items; 1 (s[0] dims 0) without --size */
    bool list; /* a list was given: label the rows */
    cg_size s[CG_FILTERS_MAX];
    char label[CG_FILTERS_MAX][CG_VARIANT_LEN];
} size_list;

/* Parses o's --size or --length into l; false (one line logged) on a bad item, an empty item or more than
 * CG_FILTERS_MAX items. */
static bool size_items(const cg_opts *o, size_list *l)
{
    const char *text = o->size ? o->size : o->length, *name = o->size ? "--size" : "--length";
    char err[160], item[64];
    memset(l, 0, sizeof *l);
    l->n = 1;
    if (!text) return true;
    l->list = strchr(text, ',') != NULL;
    l->n = 0;
    for (const char *p = text;; p++) {
        size_t len = strcspn(p, ",");
        if (l->n == CG_FILTERS_MAX) {
            CG_ERROR("bad %s '%s': more than %d sizes in one sweep", name, text, CG_FILTERS_MAX);
            return false;
        }
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), p);
        if (len >= sizeof item || !cg_size_parse(item, &l->s[l->n], err, sizeof err)) {
            CG_ERROR("bad %s '%s': item '%s': %s", name, text, item, len >= sizeof item ? "too long" : err);
            return false;
        }
        const cg_size *z = &l->s[l->n];
        if (z->dims == 2)
            snprintf(l->label[l->n], CG_VARIANT_LEN, "%llux%llu", (unsigned long long)z->w,
                     (unsigned long long)z->h);
        else
            snprintf(l->label[l->n], CG_VARIANT_LEN, "%llu", (unsigned long long)z->n);
        l->n++;
        p += len;
        if (!*p) break;
    }
    return true;
}

static size_t sweep_items(const cg_opts *o, const cg_workload *w, cg_filter_size *f);

/* A size list and a workload's own sweep (a --filter list) in one run: refused, one sweep at a time. */
static cg_status check_one_sweep(const cg_opts *o, const cg_targets *t, const size_list *sz)
{
    for (size_t w = 0; sz->list && sz->n > 1 && w < cg_nworkloads; w++) {
        cg_filter_size items[CG_FILTERS_MAX];
        const cg_wopt *d = cg_workload_sweep(cg_workloads[w]);
        if (t->any[w] && d && sweep_items(o, cg_workloads[w], items) > 1) {
            CG_ERROR("--%s %s and a --%s list both given: sweep one of them per run",
                     o->size ? "size" : "length", o->size ? o->size : o->length, d->name);
            return CG_E_USAGE;
        }
    }
    return CG_OK;
}

/* Option checks that need the selection but no device. */
static cg_status check_run_opts(const cg_opts *o, const cg_targets *t, cg_run_opts *ro, unsigned *mask)
{
    char err[160];
    size_list sz;
    memset(ro, 0, sizeof *ro);
    if (o->length && o->size) {
        CG_ERROR("--size %s and --length %s both given: --length is another name of --size, give one",
                 o->size, o->length);
        return CG_E_USAGE;
    }
    if (!size_items(o, &sz) || check_one_sweep(o, t, &sz) != CG_OK) return CG_E_USAGE;
    ro->size = sz.s[0];
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
    ro->wopts = &o->wopts;
    const cg_out_file files[] = {
        {"--json", o->json}, {"--csv", o->csv}, {"--html", o->html}, {"--output", o->output}};
    cg_status st = cg_cli_check_outputs(files, sizeof files / sizeof files[0]);
    return st == CG_OK ? cg_cmd_html_check(o->html) : st;
}

static cg_status write_reports(const cg_opts *o, cg_report *rep, FILE *out)
{
    if (o->estimate && !cg_estimates_fill(rep, &o->wopts))
        CG_WARN("--estimate: out of host memory, table cut short");
    if (cg_cli_table_wanted(o)) cg_report_text(rep, out);
    if (!o->quiet) cg_report_warnings(rep, stderr); /* one line per warning kind, with its fix */
    if (!o->quiet && o->estimate) cg_estimates_print(rep, out);
    return cg_cmd_write_files(o, rep);
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

/* The sweep of w: for a workload with a sweepable option (CG_WOPT_EXTENTS, convolution's --filter) the list
 * given or its default; else one run with no item (f[0] 0x0). Returns how many, 0 when the default list is
 * broken. */
static size_t sweep_items(const cg_opts *o, const cg_workload *w, cg_filter_size *f)
{
    char err[200];
    const cg_wopt *d = cg_workload_sweep(w);
    if (!d) {
        f[0] = (cg_filter_size){0, 0};
        return 1;
    }
    const cg_wopt_value *v = cg_wopts_find(&o->wopts, d->name);
    size_t n = cg_filters_parse_max(v ? v->text : d->dflt, d->max, f, err, sizeof err);
    if (!n) CG_ERROR("%s: bad default --%s list '%s': %s", w->name, d->name, d->dflt, err);
    return n;
}

/* The options of one run of w's sweep: ro with the item as the sweep option's value and the rows' variant
 * ("5x3", in label). */
static void sweep_one(const cg_workload *w, const cg_run_opts *ro, const cg_filter_size *f, cg_wopts *store,
                      char *label, cg_run_opts *one)
{
    const cg_wopt *d = cg_workload_sweep(w);
    *one = *ro;
    if (!d) return;
    *store = ro->wopts ? *ro->wopts : (cg_wopts){0};
    cg_filter_label(f, label, CG_VARIANT_LEN);
    cg_wopt_value *v = cg_wopts_set(store, d->name);
    if (v) *v = (cg_wopt_value){.name = d->name, .text = label, .w = f->w, .h = f->h};
    one->wopts = store;
    one->variant = label;
}

/* Item k of a size list into one: its size, and the rows' variant the size, then the filter's if any
 * ("4096 5x5", in label2). Nothing without a list. */
static void size_one(const size_list *sz, size_t k, char *label2, cg_run_opts *one)
{
    if (!sz->list) return;
    one->size = sz->s[k];
    /* Both parts are short (a size and a filter label); a longer pair is cut at CG_VARIANT_LEN - 1. */
    int r = one->variant ? snprintf(label2, CG_VARIANT_LEN, "%s %s", sz->label[k], one->variant)
                         : snprintf(label2, CG_VARIANT_LEN, "%s", sz->label[k]);
    if (r < 0) label2[0] = '\0';
    one->variant = label2;
}

/* Every selected workload's validate hook, once per item of its sweep, before anything is measured: a usage
 * error found here stops the run before any ladder ran or any report was written. */
static cg_status validate_all(const cg_ctx *ctx, const cg_opts *o, const cg_targets *t, const cg_run_opts *ro)
{
    for (size_t w = 0; w < cg_nworkloads; w++) {
        const cg_workload *wl = cg_workloads[w];
        if (!t->any[w] || !wl->validate) continue;
        cg_filter_size items[CG_FILTERS_MAX];
        size_list sz;
        size_t n = sweep_items(o, wl, items);
        if (!n || !size_items(o, &sz)) return CG_E_RUNTIME;
        for (size_t i = 0; i < sz.n * n; i++) {
            cg_run_opts one;
            cg_wopts store;
            char label[CG_VARIANT_LEN], label2[CG_VARIANT_LEN];
            sweep_one(wl, ro, &items[i % n], &store, label, &one);
            size_one(&sz, i / n, label2, &one);
            cg_status st = wl->validate(ctx, &one);
            if (st != CG_OK) return st;
        }
    }
    return CG_OK;
}

/* Runs the ladder of w once per item of its sweep, each run's rows labelled with its item ("5x5") where w has
 * a sweep. Stops at a status the next item would repeat (setup refused the options or a file) and returns
 * that status then, so that the caller stops as well. */
/* What runs one workload: the ladder (cg_runner_run) or tune's search (cg_tune_workload). */
typedef cg_status (*ladder_fn)(cg_ctx *ctx, const cg_workload *w, const bool *selected, const cg_run_opts *o,
                               const cg_ceilings *ceil, cg_report *rep, cg_progress_fn progress, void *user);

static cg_status run_sweep(cg_ctx *ctx, const cg_opts *o, const cg_workload *w, const bool *selected,
                           const cg_run_opts *ro, const cg_ceilings *ceil, cg_report *rep, run_progress *prog,
                           ladder_fn ladder)
{
    cg_filter_size items[CG_FILTERS_MAX];
    size_list sz;
    size_t n = sweep_items(o, w, items);
    cg_status st = n && size_items(o, &sz) ? CG_OK : CG_E_RUNTIME;
    for (size_t i = 0; st != CG_E_RUNTIME && i < sz.n * n; i++) {
        char label[CG_VARIANT_LEN], label2[CG_VARIANT_LEN];
        cg_wopts store;
        cg_run_opts one;
        sweep_one(w, ro, &items[i % n], &store, label, &one);
        size_one(&sz, i / n, label2, &one);
        cg_status s = ladder(ctx, w, selected, &one, ceil, rep, progress, prog);
        if (s == CG_E_USAGE || s == CG_E_IO) return cg_status_merge(s, st); /* the caller stops too */
        st = cg_status_merge(st, s);
    }
    return st;
}

static cg_status run_ladders(cg_ctx *ctx, const cg_opts *o, const cg_targets *t, const cg_run_opts *ro,
                             cg_report *rep, ladder_fn ladder)
{
    cg_ceilings ceil;
    cg_status st = get_ceilings(ctx, o, rep, &ceil);
    if (st != CG_OK) return st;
    run_progress prog = {0, 0, {0, 0}};
    clock_gettime(CLOCK_MONOTONIC, &prog.t0);
    size_list sz;
    if (!size_items(o, &sz)) return CG_E_RUNTIME;
    for (size_t w = 0; w < cg_nworkloads; w++) {
        cg_filter_size items[CG_FILTERS_MAX];
        size_t n_items = t->any[w] ? sweep_items(o, cg_workloads[w], items) * sz.n : 0;
        for (size_t k = 0; k < cg_workloads[w]->n_rungs; k++)
            prog.total += n_items * t->rung[w][k];
    }
    bool tty = !o->quiet && isatty(STDERR_FILENO) && ladder == cg_runner_run; /* tune shows its own */
    for (size_t w = 0; w < cg_nworkloads; w++) {
        if (!t->any[w]) continue;
        cg_status s =
            run_sweep(ctx, o, cg_workloads[w], t->rung[w], ro, &ceil, rep, tty ? &prog : NULL, ladder);
        st = cg_status_merge(st, s);
        if (s == CG_E_USAGE || s == CG_E_IO)
            break; /* setup refused the options: the other ladders would refuse them too, or the user must fix
                    */
    }
    if (tty) fprintf(stderr, "\r\033[K");
    return st;
}

/* run and tune: options -> device -> roofline -> each workload through `ladder` -> report files. */
static cg_status run_or_tune(const cg_opts *o, int argc, char **argv, FILE *out, bool tune)
{
    cg_targets t;
    cg_run_opts ro;
    unsigned mask = 0;
    cg_status st = cg_targets_parse(o->targets, &t);
    if (st == CG_OK) st = check_run_opts(o, &t, &ro, &mask);
    if (st == CG_OK && tune) st = cg_tune_configure(o, &t, out);
    ro.no_tuned = o->no_tuned || tune;     /* a search starts from the rungs' own values */
    const char *cl_files[CG_MAX_CL_FILES]; /* --kernel-dir: the .cl files of each selected workload */
    size_t n_cl = 0;
    for (size_t w = 0; st == CG_OK && w < cg_nworkloads; w++) {
        if (!t.any[w] || n_cl == CG_MAX_CL_FILES) continue;
        cl_files[n_cl++] = cg_workloads[w]->cl_file;
        for (const char *const *f = cg_workloads[w]->more_cl_files; f && *f && n_cl < CG_MAX_CL_FILES; f++)
            cl_files[n_cl++] = *f;
    }
    if (st == CG_OK) st = cg_program_check_sources(o->kernel_dir, cl_files, n_cl);
    if (st != CG_OK) return st;
    cg_device_list l;
    if ((st = cg_device_list_init(&l)) != CG_OK) return st;
    const cg_device *dev;
    cg_ctx ctx;
    cg_report rep;
    cg_report_init(&rep);
    if ((st = cg_device_select(&l, o->device, &dev)) != CG_OK) goto out_list;
    cg_device_probe_wg_multiple(&l.dev[dev - l.dev]); /* the device block is the same in run, peak, devices */
    if ((st = cg_ctx_init(&ctx, dev, mask, o->kernel_dir, o->no_cache, o->cache_dir)) != CG_OK) goto out_list;
    fill_meta(&rep, o, dev, argc, argv);
    if ((st = validate_all(&ctx, o, &t, &ro)) == CG_OK)
        st = run_ladders(&ctx, o, &t, &ro, &rep, tune ? cg_tune_workload : cg_runner_run);
    /* a usage error (exit 1) never writes or replaces a report, even one found by a late setup */
    if (rep.n > 0 && st != CG_E_USAGE)
        st = cg_status_merge(st, tune ? cg_cmd_write_files(o, &rep) : write_reports(o, &rep, out));
    if (o->quiet && st != CG_E_USAGE) cg_cli_run_summary(&rep, stderr); /* --quiet: one line, not nothing */
    cg_ctx_fini(&ctx);
out_list:
    cg_report_fini(&rep);
    cg_device_list_fini(&l);
    return st;
}

cg_status cg_cmd_run(const cg_opts *o, int argc, char **argv, FILE *out)
{
    return run_or_tune(o, argc, argv, out, false);
}

cg_status cg_cmd_tune(const cg_opts *o, int argc, char **argv, FILE *out)
{
    return run_or_tune(o, argc, argv, out, true);
}
