/* The ladder runner: for each selected rung, requirements -> build -> warm-up -> timed, verified runs -> one
 * result row with statistics, rates, roofline % and speedup. Nothing here knows a workload's or rung's name.
 */
#include "core/runner.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>
#include "core/clerr.h"
#include "core/kfacts.h"
#include "core/log.h"
#include "core/program.h"
#include "core/resample.h"
#include "core/stats.h"

static void copy_str(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src ? src : "");
}

/* Names of the features the rung needs and the context lacks, or false when it has them all. */
static bool missing_features(const cg_ctx *ctx, const cg_rung *r, char *buf, size_t len)
{
    unsigned miss = r->needs & ~ctx->features;
    size_t used = 0;
    buf[0] = 0;
    for (unsigned b = 1; miss && b; b <<= 1)
        if (miss & b) {
            int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", cg_feature_name(b));
            if (w > 0 && (size_t)w < len - used) used += (size_t)w;
        }
    return miss != 0;
}

/* The device's local memory, or less where CLGAUGE_LOCAL_MEM_CAP (a byte count) says so: a smaller device's
 * limit tried on this one (docs/clgauge.1, ENVIRONMENT). A value that is no byte count is ignored, once said.
 */
static size_t local_limit(const cg_ctx *ctx)
{
    static bool warned;
    size_t lim = (size_t)ctx->dev->local_mem;
    const char *env = getenv("CLGAUGE_LOCAL_MEM_CAP");
    if (!env || !*env) return lim;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(env, &end, 10);
    if (errno || *end || env[0] < '0' || env[0] > '9') {
        if (!warned) CG_WARN("CLGAUGE_LOCAL_MEM_CAP=%.40s ignored: give a byte count such as 49152", env);
        warned = true;
        return lim;
    }
    return v < lim ? (size_t)v : lim;
}

static bool unsupported(const cg_ctx *ctx, const cg_workload *w, const void *state, const cg_rung *r,
                        cg_result *row)
{
    char miss[128];
    if (missing_features(ctx, r, miss, sizeof miss)) {
        snprintf(row->reason, sizeof row->reason, "device lacks %s%s", miss,
                 (r->needs & ~ctx->offered) ? "" : " (masked by --mask-features)");
        return true;
    }
    size_t need = r->local_bytes, lim = local_limit(ctx),
           at_opts = w->local_need ? w->local_need(state, r) : 0;
    if (at_opts > need) need = at_opts;
    if (need > lim) {
        snprintf(row->reason, sizeof row->reason,
                 "needs %zu B of local memory with these options, device has %zu B", need, lim);
        return true;
    }
    return w->unsupported && w->unsupported(state, r, row->reason, sizeof row->reason);
}

static void fill_model(const cg_workload *w, const void *state, const cg_rung *r, cg_result *row)
{
    cg_model m = {0};
    w->model(state, r, &m);
    row->bytes = m.bytes;
    row->flops = m.flops;
    row->items = m.items;
    copy_str(row->item_unit, sizeof row->item_unit, m.item_unit);
    copy_str(row->bytes_note, sizeof row->bytes_note, m.bytes_note);
    copy_str(row->ceiling, sizeof row->ceiling, m.ceiling == CG_CEIL_READ ? "read" : "copy");
    row->tensor = m.tensor;
}

static void fill_check(cg_result *row, const cg_check *c)
{
    row->check_ok = c->ok;
    row->max_abs_err = c->max_abs_err;
    row->max_rel_err = c->max_rel_err;
    row->tolerance = c->tolerance;
    row->bound_ratio = c->bound_ratio;
    row->first_mismatch = c->first_index;
    row->mismatches = c->mismatches;
}

static void fill_rates(cg_result *row, const cg_ceilings *ceil, const double *t, size_t n)
{
    cg_stats s;
    cg_stats_compute(t, n, &s);
    row->runs = s.n;
    row->t_min = s.min;
    row->t_median = s.median;
    row->t_mean = s.mean;
    row->t_stddev = s.stddev;
    row->t_cv = s.cv;
    row->t_max = s.max;
    row->outliers = s.outliers;
    if (s.median <= 0) return;
    row->gbps = row->bytes / s.median * 1e-9;
    row->gflops = row->flops / s.median * 1e-9;
    row->items_per_s = row->items / s.median;
    double bw = strcmp(row->ceiling, "read") ? ceil->copy_gbps : ceil->read_gbps;
    double floor_s = 0;
    bool mad_binds = false;
    if (bw > 0) floor_s = row->bytes / (bw * 1e9);
    if (ceil->mad_gflops > 0 && row->flops / (ceil->mad_gflops * 1e9) > floor_s) {
        floor_s = row->flops / (ceil->mad_gflops * 1e9);
        mad_binds = true;
    }
    row->roofline_pct = floor_s > 0 ? 100.0 * floor_s / s.median : NAN;
    if (s.cv > CG_STATS_HIGH_CV) row->warnings |= CG_WARN_HIGH_CV;
    if (s.median < 20e-6) row->warnings |= CG_WARN_TOO_SHORT;
    /* outliers warn only where they matter: a steady rung (CV under 1%) never does, and high_cv says it */
    if (s.outliers && s.cv >= CG_STATS_QUIET_CV && !(row->warnings & CG_WARN_HIGH_CV))
        row->warnings |= CG_WARN_OUTLIERS;
    if (row->roofline_pct > 105 && !(row->tensor && mad_binds)) row->warnings |= CG_WARN_ABOVE_ROOF;
}

/* Seconds on the monotonic clock: the host-side phases' wall time for the debug log. */
static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Timed run `run`'s stage times (its marked stages, cg_events_stage; summed by cg_events_elapsed) into row
 * run of stg (CG_STAGES_MAX a row), their names into g. */
static void stage_keep(const cg_events *ev, double *stg, size_t run, cg_stages *g)
{
    if (!ev->n_stages || !stg) return;
    g->n = ev->n_stages;
    for (size_t i = 0; i < g->n; i++) {
        snprintf(g->name[i], sizeof g->name[i], "%s", ev->stage[i]);
        stg[run * CG_STAGES_MAX + i] = ev->stage_s[i];
    }
}

/* Each stage's median over the runs rows of stg (no stages when out of host memory). */
static void stage_medians(const double *stg, size_t runs, cg_stages *g)
{
    double *col = malloc(runs * sizeof *col);
    for (size_t i = 0; col && i < g->n; i++) {
        for (size_t k = 0; k < runs; k++)
            col[k] = stg[k * CG_STAGES_MAX + i];
        cg_stats s;
        cg_stats_compute(col, runs, &s);
        g->median_s[i] = s.median;
    }
    if (!col) g->n = 0;
    free(col);
}

/* Warm-up and timed runs, each verified. Before each, untimed, every buffer a rung writes (outputs and
 * intermediates, core/buffers.h) is poisoned, so that the rung starts as if it ran alone. Stops at the first
 * failed check. The last warm-up run (the first timed one without warm-up) records its kernel launches in
 * log (the row's kernel facts: fill_facts). */
static cg_status timed_runs(cg_ctx *ctx, const cg_workload *w, void *state, void *rs, const cg_run_opts *o,
                            double *t, cg_result *row, cg_launches *log)
{
    int rec = o->warmup > 0 ? o->warmup - 1 : 0;
    cg_status st = CG_OK;
    cg_events ev;
    cg_events_init(&ev);
    double wall[4] = {wall_now(), 0, 0, 0}; /* start; poison, run, verify totals */
    int done = 0;
    double *stg = calloc((size_t)o->runs * CG_STAGES_MAX, sizeof *stg); /* NULL: no stage times */
    for (int k = 0; k < o->warmup + o->runs; k++, done++) {
        cg_check c;
        double sec = 0, t0 = wall_now(), t1 = t0, t2 = t0;
        ev.launches = k == rec ? log : NULL;
        if ((st = cg_buffers_poison(ctx, (unsigned)k)) != CG_OK ||
            (w->poison && (st = w->poison(ctx, state, rs)) != CG_OK) || (t1 = wall_now(), false) ||
            (st = w->enqueue(ctx, state, rs, &ev)) != CG_OK || (st = cg_events_elapsed(&ev, &sec)) != CG_OK ||
            (t2 = wall_now(), false) || (st = w->verify(ctx, state, rs, &c)) != CG_OK)
            break;
        double t3 = wall_now();
        if (k == rec) cg_launches_main(log, &ev);
        wall[1] += t1 - t0, wall[2] += t2 - t1, wall[3] += t3 - t2;
        if (k >= o->warmup) stage_keep(&ev, stg, (size_t)(k - o->warmup), &row->stages);
        cg_events_clear(&ev);
        fill_check(row, &c);
        if (!c.ok) {
            row->status = CG_RUNG_WRONG;
            snprintf(row->reason, sizeof row->reason, "run %d: %s", k + 1, c.detail);
            st = CG_E_VERIFY;
            break;
        }
        if (k >= o->warmup) t[k - o->warmup] = sec;
    }
    CG_DEBUG(
        "%s:%s: %d of %d runs in %.2f s wall: poison %.2f s, enqueue to events done %.2f s, verify %.2f s",
        row->workload, row->rung, done, o->warmup + o->runs, wall_now() - wall[0], wall[1], wall[2], wall[3]);
    if (st == CG_E_RUNTIME || st == CG_E_IO) {
        row->status = CG_RUNG_CL_ERROR;
        copy_str(row->reason, sizeof row->reason,
                 "an OpenCL call failed while running the rung (see the log)");
    }
    if (st == CG_OK && stg) stage_medians(stg, (size_t)o->runs, &row->stages);
    free(stg);
    cg_events_fini(&ev);
    return st;
}

/* The row's kernel facts: the recorded run's kernel with the most device time, as it was launched, with its
 * registers on NVIDIA (an untimed -cl-nv-verbose build of the same source and options). Best effort: a failed
 * query leaves what was learnt. */
static void fill_facts(const cg_ctx *ctx, const char *file, const char *opts, const cg_launches *log,
                       cg_kfacts *f)
{
    if (log->main_k < 0) return;
    const cg_launch *m = &log->k[log->main_k];
    f->kernels = (unsigned)log->n;
    if (cg_kfacts_query(ctx, m->k, m->dims, m->auto_local ? NULL : m->local, 0, f) != CG_OK) return;
    if (!cg_kfacts_has_nv_verbose(ctx->dev)) return;
    f->registers = cg_kfacts_registers(ctx, file, opts, f->kernel);
    cg_kfacts_occupancy(ctx->dev, f);
}

static cg_status run_rung(cg_ctx *ctx, const cg_workload *w, void *state, const cg_rung *r,
                          const cg_run_opts *o, const cg_ceilings *ceil, cg_result *row)
{
    cg_status st = CG_OK;
    cl_program prog = NULL;
    void *rs = NULL;
    double *t = NULL;
    cg_launches log;
    cg_launches_init(&log);
    row->facts.occupancy = NAN;
    fill_model(w, state, r, row);
    if (unsupported(ctx, w, state, r, row)) {
        row->status = CG_RUNG_UNSUPPORTED;
        return CG_OK;
    }
    char opts[CG_EXTRA_OPTIONS_MAX + 512] = "", extra[CG_EXTRA_OPTIONS_MAX] = "";
    if (w->options) w->options(state, r, extra, sizeof extra);
    snprintf(opts, sizeof opts, "%s %s%s", r->options ? r->options : "", extra,
             ctx->mma_emulated && (r->needs & CG_FEAT_NV_MMA) ? " -DEMULATE_MMA=1" : "");
    cg_build_info bi;
    const char *file = cg_rung_cl_file(w, r);
    st = cg_program_build(ctx, file, opts, &prog, &bi);
    row->build_s = bi.ms / 1e3;
    row->cache_hit = bi.cache_hit;
    CG_DEBUG("%s:%s: program built in %.2f s%s", row->workload, row->rung, row->build_s,
             bi.cache_hit ? " (from the cache)" : "");
    if (st == CG_OK && r->kernel && (st = cg_program_check_kernel(ctx, prog, file, r->kernel)) != CG_OK) {
        row->status = CG_RUNG_BUILD_FAILED;
        snprintf(row->reason, sizeof row->reason, "kernel '%s' not found in %s", r->kernel, file);
        goto out;
    }
    if (st != CG_OK) {
        row->status = bi.build_failed ? CG_RUNG_BUILD_FAILED : CG_RUNG_CL_ERROR;
        snprintf(row->reason, sizeof row->reason, "%s",
                 bi.build_failed ? bi.log_head : "program build failed");
        return st;
    }
    t = calloc((size_t)o->runs, sizeof *t);
    CG_FAIL_IF(!t, CG_E_RUNTIME, "out of host memory");
    if ((st = w->prepare(ctx, state, r, prog, &rs)) != CG_OK) {
        row->status = CG_RUNG_CL_ERROR;
        copy_str(row->reason, sizeof row->reason, "preparing the rung's kernels failed (see the log)");
        goto out;
    }
    st = timed_runs(ctx, w, state, rs, o, t, row, &log);
    fill_facts(ctx, file, opts, &log, &row->facts);
    if (st == CG_OK) {
        fill_rates(row, ceil, t, (size_t)o->runs);
        if (ctx->mma_emulated && (r->needs & CG_FEAT_NV_MMA)) row->warnings |= CG_WARN_EMULATED;
        row->times = (cg_times){t, (size_t)o->runs}; /* the row keeps the raw times */
        t = NULL;
    }
out:
    cg_launches_fini(&log);
    if (rs) w->release(rs);
    if (prog) clReleaseProgram(prog);
    free(t);
    return st;
}

/* Speedups over the first rung's median, each with its bootstrap interval from the two rungs' raw times
 * (core/resample.h); the first rung's own is exactly 1. */
static void fill_speedups(cg_report *rep, size_t first_row, const char *first_rung)
{
    const cg_result *base = NULL;
    for (size_t i = first_row; i < rep->n; i++)
        if (!strcmp(rep->rows[i].rung, first_rung) && rep->rows[i].status == CG_RUNG_OK) base = &rep->rows[i];
    for (size_t i = first_row; base && base->t_median > 0 && i < rep->n; i++) {
        cg_result *row = &rep->rows[i];
        if (row->status != CG_RUNG_OK || !(row->t_median > 0)) continue;
        row->speedup = base->t_median / row->t_median;
        if (row == base)
            row->speedup_lo = row->speedup_hi = 1;
        else
            cg_boot_ratio(row->times.s, row->times.n, base->times.s, base->times.n, &row->speedup_lo,
                          &row->speedup_hi);
    }
}

struct cg_runner {
    cg_ctx *ctx;
    const cg_workload *w;
    const cg_run_opts *o;
    const cg_ceilings *ceil;
    void *state;
    char size_desc[64];
};

cg_status cg_runner_open(cg_ctx *ctx, const cg_workload *w, const cg_run_opts *o, const cg_ceilings *ceil,
                         cg_runner **out)
{
    *out = NULL;
    cg_runner *run = calloc(1, sizeof *run);
    if (!run) {
        CG_ERROR("out of host memory");
        return CG_E_RUNTIME;
    }
    *run = (cg_runner){ctx, w, o, ceil, NULL, ""};
    cg_buffers_clear(ctx); /* the registry holds this workload's buffers only */
    double t0 = wall_now();
    cg_status st = w->setup(ctx, o, &run->state, run->size_desc, sizeof run->size_desc);
    CG_DEBUG("%s: set up (inputs, reference) in %.2f s wall", w->name, wall_now() - t0);
    if (st != CG_OK) {
        cg_buffers_clear(ctx);
        free(run);
        return st;
    }
    *out = run;
    return CG_OK;
}

cg_ctx *cg_runner_ctx(const cg_runner *run)
{
    return run->ctx;
}

void cg_runner_fill_identity(const cg_runner *run, const cg_rung *r, cg_result *row)
{
    copy_str(row->workload, sizeof row->workload, run->w->name);
    copy_str(row->rung, sizeof row->rung, r->name);
    copy_str(row->variant, sizeof row->variant, run->o->variant);
    copy_str(row->why, sizeof row->why, r->why);
    copy_str(row->size_desc, sizeof row->size_desc, run->size_desc);
    row->first_mismatch = -1;
    row->facts.occupancy = NAN;
}

cg_status cg_runner_rung(cg_runner *run, const cg_rung *r, cg_report *rep, cg_result **rowp)
{
    cg_result *row = *rowp = cg_report_add(rep);
    if (!row) return CG_E_RUNTIME;
    cg_runner_fill_identity(run, r, row);
    return run_rung(run->ctx, run->w, run->state, r, run->o, run->ceil, row);
}

/* "filter=5x5,sigma=2": the workload's own options as they act, sorted by name, so that the same run gives
 * one key however it was spelled: an option not given counts as its default (--sigma 5 and no --sigma are one
 * key), a number by its value (5, 5.0), and another workload's options do not count. A flag counts when
 * given. */
static void options_text(const cg_workload *w, const cg_wopts *s, char *buf, size_t len)
{
    const cg_wopt *v[CG_WOPTS_MAX];
    size_t n = 0, used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < w->n_wopts && n < CG_WOPTS_MAX; i++) {
        size_t j = n++;
        while (j > 0 && strcmp(v[j - 1]->name, w->wopts[i].name) > 0) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = &w->wopts[i];
    }
    for (size_t i = 0; i < n && used < len; i++) {
        const cg_wopt_value *g = cg_wopts_find(s, v[i]->name);
        const char *text = g ? (g->text ? g->text : "") : v[i]->dflt;
        char num[32];
        if (!text) continue; /* a flag not given, or no default */
        if (v[i]->kind == CG_WOPT_NUMBER) {
            snprintf(num, sizeof num, "%.17g", g ? g->num : strtod(text, NULL));
            text = num;
        }
        int k = snprintf(buf + used, len - used, "%s%s=%s", used ? "," : "", v[i]->name, text);
        if (k < 0) break;
        used += (size_t)k;
    }
}

/* With --kernel-dir the key's options end in "kernels=" and the XXH64 of the rung's .cl file as read from the
 * dir (0 where it cannot be read: its build then fails with the reason): a winner found for other kernels is
 * never applied to the built-in ones, nor theirs to these, nor one to an edited file. */
static void kernels_tag(const cg_runner *run, const cg_rung *r, char *buf, size_t len)
{
    char *text = NULL;
    unsigned long long h = 0;
    if (cg_program_source(run->ctx, cg_rung_cl_file(run->w, r), &text) == CG_OK)
        h = (unsigned long long)XXH64(text, strlen(text), 0);
    free(text);
    size_t used = strlen(buf);
    if (used < len) snprintf(buf + used, len - used, "%skernels=%016llx", used ? "," : "", h);
}

void cg_runner_tune_key(const cg_runner *run, const cg_rung *r, cg_tune_keybuf *kb)
{
    cg_model m = {0};
    run->w->model(run->state, r, &m);
    cg_tune_size_class(m.items, kb->size_class, sizeof kb->size_class);
    options_text(run->w, run->o->wopts, kb->options, sizeof kb->options);
    if (run->ctx->kernel_dir) kernels_tag(run, r, kb->options, sizeof kb->options);
    const cg_device *d = run->ctx->dev;
    kb->k = (cg_tune_key){d->platform_name, d->name,        d->driver,  run->w->name,
                          r->name,          kb->size_class, kb->options};
}

void cg_runner_close(cg_runner *run)
{
    if (!run) return;
    run->w->teardown(run->state);
    cg_buffers_clear(run->ctx);
    free(run);
}

/* The rung to run for row k of w: the row itself, or a copy with the tuning cache's winner applied (its text
 * into params) when there is one and o allows it. */
static const cg_rung *tuned_rung(const cg_runner *run, const cg_rung *r, cg_rung *copy, char *params,
                                 size_t len)
{
    params[0] = 0;
    const cg_tspace *sp = cg_tune_space_of(run->w->tune, run->w->n_tune, r->name);
    if (run->o->no_tuned || !sp || run->ctx->no_cache || !run->ctx->cache_dir[0]) return r;
    cg_tune_keybuf kb;
    cg_tune_entry e;
    int vals[CG_TUNE_MAXP];
    cg_runner_tune_key(run, r, &kb);
    if (!cg_tunecache_load(run->ctx->cache_dir, &kb.k, &e)) {
        CG_DEBUG("%s:%s: no tuning-cache entry for size class %s, options '%s'", run->w->name, r->name,
                 kb.size_class, kb.options);
        return r;
    }
    CG_DEBUG("%s:%s: tuning-cache entry %s for size class %s, options '%s'", run->w->name, r->name, e.params,
             kb.size_class, kb.options);
    if (!cg_tune_parse(sp, e.params, vals)) {
        CG_WARN("%s:%s: tuned parameters '%.60s' do not fit the rung's parameters: ignored (tune it again)",
                run->w->name, r->name, e.params);
        return r;
    }
    int own[CG_TUNE_MAXP];
    cg_tune_defaults(sp, r->p, own);
    if (!memcmp(own, vals, sizeof(int) * (size_t)sp->n)) return r; /* the winner is the rung's own */
    *copy = *r;
    cg_tune_apply(sp, vals, copy->p);
    copy->local_bytes = 0;
    cg_tune_format(sp, vals, params, len);
    return copy;
}

cg_status cg_runner_run(cg_ctx *ctx, const cg_workload *w, const bool *selected, const cg_run_opts *o,
                        const cg_ceilings *ceil, cg_report *rep, cg_progress_fn progress, void *user)
{
    cg_runner *run = NULL;
    cg_status st = cg_runner_open(ctx, w, o, ceil, &run);
    if (st != CG_OK) return st;
    size_t n = 0, i = 0, first_row = rep->n;
    char label[96]; /* the progress line's name: "convolution[5x5]" for a run with a variant */
    if (o->variant)
        snprintf(label, sizeof label, "%s[%s]", w->name, o->variant);
    else
        copy_str(label, sizeof label, w->name);
    for (size_t k = 0; k < w->n_rungs; k++)
        n += selected[k];
    for (size_t k = 0; k < w->n_rungs; k++) {
        if (!selected[k]) continue;
        cg_rung copy;
        char params[96];
        const cg_rung *r = tuned_rung(run, &w->rungs[k], &copy, params, sizeof params);
        if (progress) progress(label, r->name, ++i, n, user);
        cg_result *row = NULL;
        st = cg_status_merge(st, cg_runner_rung(run, r, rep, &row));
        if (!row) break;
        if (params[0]) {
            copy_str(row->params, sizeof row->params, params);
            copy_str(row->params_from, sizeof row->params_from, "tuned");
        }
    }
    fill_speedups(rep, first_row, w->rungs[0].name);
    if (w->summarize) w->summarize(run->state, rep->rows + first_row, rep->n - first_row);
    if (o->output && w->save_output) st = cg_status_merge(st, w->save_output(ctx, run->state, o->output));
    cg_runner_close(run);
    return st;
}
