/* `clgauge peak`: options -> test selection -> device (fp16 probed) -> the selected peak tests -> reports
 * (table, JSON, CSV). A run that measured read, copy and fp32 becomes the device's cached roofline (the full
 * figures, or the quick ones with --quick), which `run` then uses. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/commands.h"
#include "cli/meta.h"
#include "cli/outputs.h"
#include "core/context.h"
#include "core/log.h"
#include "peak/peak.h"
#include "peak/roofline.h"
#include "report/report.h"

/* On a terminal: "[k/N] family test: rows so far, ETA" after each test, overwritten in place. The ETA
 * assumes the remaining tests take the mean time of those done. */
static void progress(const cg_report *rep, size_t first, size_t i, size_t n, double elapsed, void *user)
{
    (void)user;
    const char *test = first < rep->n ? rep->rows[first].rung : ""; /* a peak row's test */
    double eta = i < n ? elapsed / (double)i * (double)(n - i) : 0;
    fprintf(stderr, "\r\033[K[%zu/%zu] %s done, %zu rows, %.0f s elapsed", i, n, test, rep->n, elapsed);
    if (i < n) fprintf(stderr, ", about %.0f s left", eta);
    if (i == n) fprintf(stderr, "\r\033[K");
}

/* The metadata block and the peak's options. */
static void fill_meta(cg_report *rep, const cg_opts *o, const cg_device *d, int argc, char **argv)
{
    cg_cli_fill_meta(rep, d, argc, argv);
    rep->quick = o->quick;
    rep->max_time = o->max_time;
}

static cg_status write_reports(const cg_opts *o, const cg_report *rep, FILE *out)
{
    if (cg_cli_table_wanted(o)) cg_report_text(rep, out);
    return cg_cmd_write_files(o, rep);
}

/* The run's read, copy and fp32 figures become the roofline cache when all three were measured. */
static void save_roofline(const cg_ctx *ctx, const cg_opts *o, const cg_report *rep)
{
    cg_roofline r = {0};
    cg_peak_ceilings(rep, &r.copy_gbps, &r.read_gbps, &r.mad_gflops);
    r.full = !o->quick;
    if (o->timer && strcmp(o->timer, "events")) return; /* the roofline is events-timed */
    if (r.copy_gbps > 0 && r.read_gbps > 0 && r.mad_gflops > 0) cg_roofline_save(ctx, &r);
}

static cg_status check_opts(const cg_opts *o, bool *sel, unsigned *mask)
{
    char err[160];
    cg_status st = cg_peak_select(o->only, o->quick, sel);
    if (st != CG_OK) return st;
    cg_peak_timer t;
    if (o->timer && !cg_peak_timer_parse(o->timer, &t)) {
        CG_ERROR("unknown --timer '%s': use events, host or both", o->timer);
        return CG_E_USAGE;
    }
    if (o->mask && !cg_feature_parse(o->mask, mask, err, sizeof err)) {
        CG_ERROR("unknown feature '%s' in --mask-features; features: " CG_FEAT_LIST, err);
        return CG_E_USAGE;
    }
    const cg_out_file files[] = {{"--json", o->json}, {"--csv", o->csv}};
    return cg_cli_check_outputs(files, sizeof files / sizeof files[0]);
}

cg_status cg_cmd_peak(const cg_opts *o, int argc, char **argv, FILE *out)
{
    bool sel[CG_PEAK_MAX_TESTS];
    unsigned mask = 0;
    cg_status st = check_opts(o, sel, &mask);
    if (st != CG_OK) return st;
    cg_device_list l;
    if ((st = cg_device_list_init(&l)) != CG_OK) return st;
    const cg_device *dev;
    cg_ctx ctx;
    cg_report rep;
    cg_report_init_kind(&rep, CG_KIND_PEAK);
    if ((st = cg_device_select(&l, o->device, &dev)) != CG_OK) goto out_list;
    cg_device_probe_fp16(&l.dev[dev - l.dev]); /* NVIDIA does not list cl_khr_fp16: compile to learn */
    cg_device_probe_wg_multiple(&l.dev[dev - l.dev]);
    if ((st = cg_ctx_init(&ctx, dev, mask, o->kernel_dir, o->no_cache, o->cache_dir)) != CG_OK) goto out_list;
    fill_meta(&rep, o, dev, argc, argv);
    bool tty = !o->quiet && isatty(STDERR_FILENO);
    cg_peak_opts po = {o->quick, o->max_time, o->seed, tty ? progress : NULL, NULL, CG_PEAK_TIMER_EVENTS};
    cg_peak_timer_parse(o->timer ? o->timer : "events", &po.timer); /* checked by check_opts */
    if (!o->quiet)
        CG_INFO("measuring the ceilings of %s (--max-time %g s per figure)", dev->name, o->max_time);
    st = cg_peak_run(&ctx, &po, sel, &rep);
    save_roofline(&ctx, o, &rep);
    if (rep.n > 0) st = cg_status_merge(st, write_reports(o, &rep, out));
    cg_ctx_fini(&ctx);
out_list:
    cg_report_fini(&rep);
    cg_device_list_fini(&l);
    return st;
}
