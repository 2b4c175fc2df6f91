/* The JSON report of `run` and `peak`: the shared metadata and device blocks (jsonmeta.c), the document's
 * options (and a run's roofline ceilings), then one object per row whose keys are the fields of cg_row_fields
 * its kind carries, in table order, written by one row writer. Non-finite numbers become null; integers that
 * may pass 2^53 (seed, counts) are written as exact digits. docs/report-schema.md describes every key. */
#include "report/report.h"
#include "report/jsonmeta.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>

/* Adds "results": one object per row of r. */
static bool add_rows(cJSON *top, const cg_report *r)
{
    cJSON *a = cJSON_AddArrayToObject(top, "results");
    if (!a) return false;
    for (size_t i = 0; i < r->n; i++) {
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(a, o)) {
            cJSON_Delete(o);
            return false;
        }
        if (!cg_json_add_row(o, &r->rows[i], r->kind)) return false;
    }
    return true;
}

/* A run's options and roofline ceilings. */
static bool add_run_options(cJSON *top, cJSON *opt, const cg_report *r)
{
    cJSON *roof;
    if (!cg_json_add_ull(opt, "seed", r->seed) || !cg_json_add_ll(opt, "runs", r->runs) ||
        !cg_json_add_ll(opt, "warmup", r->warmup) || !cg_json_add_str(opt, "size", r->size_arg) ||
        !cg_json_add_bool(opt, "no_cache", r->no_cache))
        return false;
    if (!(roof = cJSON_AddObjectToObject(top, "roofline"))) return false;
    return cg_json_add_num(roof, "copy_gbps", r->copy_gbps) &&
           cg_json_add_num(roof, "read_gbps", r->read_gbps) &&
           cg_json_add_num(roof, "mad_gflops", r->mad_gflops) &&
           cg_json_add_str(roof, "source", r->roofline_source);
}

/* The metadata block, the device block and the options of the report's kind. */
static bool add_head(cJSON *top, const cg_report *r)
{
    bool peak = r->kind == CG_KIND_PEAK;
    const cg_report_meta m = {peak ? "peak" : "run", r->tool_version, r->git_commit, r->time_utc,
                              r->command_line};
    cJSON *dev, *opt;
    if (!cg_json_add_meta(top, &m) || !(dev = cJSON_AddObjectToObject(top, "device")) ||
        !cg_json_add_device(dev, &r->device) || !(opt = cJSON_AddObjectToObject(top, "options")))
        return false;
    if (!peak) return add_run_options(top, opt, r);
    return cg_json_add_bool(opt, "quick", r->quick) && cg_json_add_num(opt, "max_time_s", r->max_time);
}

/* Adds "estimates" (run --estimate): one object per row of r->est; nothing when there are none. */
static bool add_estimates(cJSON *top, const cg_report *r)
{
    if (!r->n_est) return true;
    cJSON *a = cJSON_AddArrayToObject(top, "estimates");
    if (!a) return false;
    for (size_t i = 0; i < r->n_est; i++) {
        const cg_est_row *e = &r->est[i];
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(a, o)) {
            cJSON_Delete(o);
            return false;
        }
        if (!cg_json_add_str(o, "workload", e->workload) || !cg_json_add_str(o, "algorithm", e->algorithm) ||
            !cg_json_add_num(o, "accesses", e->accesses) || !cg_json_add_num(o, "flops", e->flops) ||
            !cg_json_add_num(o, "cm_ratio", e->flops / e->accesses) ||
            !cg_json_add_num(o, "predicted_items_per_s", e->predicted) ||
            !cg_json_add_num(o, "seed_items_per_s", e->seed > 0 ? e->seed : NAN) ||
            !cg_json_add_str(o, "rungs", e->rungs) || !cg_json_add_str(o, "rung", e->rung) ||
            !cg_json_add_num(o, "measured_items_per_s", e->measured > 0 ? e->measured : NAN))
            return false;
    }
    return true;
}

int cg_report_json(const cg_report *r, const char *path)
{
    cJSON *top = cJSON_CreateObject();
    bool filled = top && add_head(top, r) && add_rows(top, r) && add_estimates(top, r);
    int rc = -1;
    if (filled)
        rc = cg_json_write(top, path);
    else
        errno = ENOMEM;
    int err = errno;
    cJSON_Delete(top);
    errno = err;
    return rc;
}
