/* The JSON reports of `run` and `peak`: the shared metadata and device blocks (jsonmeta.c), each document's
 * options (and the run's roofline ceilings), then one object per row whose keys come from the document's
 * field table (cg_result_fields or cg_peak_fields), in table order, written by one row writer. Non-finite
 * numbers become null; integers that may pass 2^53 (seed, counts) are written as exact digits.
 * docs/report-schema.md describes every key. */
#include "report/report.h"
#include "report/jsonmeta.h"

#include <cjson/cJSON.h>
#include <errno.h>

/* Adds "results": one object per row, the n rows lying stride bytes apart from rows, each with the nfields
 * fields of its table. */
static bool add_rows(cJSON *top, const void *rows, size_t n, size_t stride, const cg_field *fields,
                     size_t nfields)
{
    cJSON *a = cJSON_AddArrayToObject(top, "results");
    if (!a) return false;
    for (size_t i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(a, o)) {
            cJSON_Delete(o);
            return false;
        }
        if (!cg_json_add_fields(o, (const char *)rows + i * stride, fields, nfields)) return false;
    }
    return true;
}

/* Adds the metadata block m, the device block d and an empty "options" object, which it returns (NULL when
 * out of memory). */
static cJSON *add_head(cJSON *top, const cg_report_meta *m, const cg_report_device *d)
{
    cJSON *dev;
    if (!cg_json_add_meta(top, m) || !(dev = cJSON_AddObjectToObject(top, "device")) ||
        !cg_json_add_device(dev, d))
        return NULL;
    return cJSON_AddObjectToObject(top, "options");
}

/* Writes top (when filled) to path and frees it; 0, or -1 with errno set. */
static int finish(cJSON *top, bool filled, const char *path)
{
    int rc = -1;
    if (top && filled)
        rc = cg_json_write(top, path);
    else
        errno = ENOMEM;
    int err = errno;
    cJSON_Delete(top);
    errno = err;
    return rc;
}

static bool add_run(cJSON *top, const cg_report *r)
{
    const cg_report_meta m = {"run", r->tool_version, r->git_commit, r->time_utc, r->command_line};
    cJSON *opt = add_head(top, &m, &r->device), *roof;
    if (!opt || !cg_json_add_ull(opt, "seed", r->seed) || !cg_json_add_ll(opt, "runs", r->runs) ||
        !cg_json_add_ll(opt, "warmup", r->warmup) || !cg_json_add_str(opt, "size", r->size_arg) ||
        !cg_json_add_bool(opt, "no_cache", r->no_cache))
        return false;
    if (!(roof = cJSON_AddObjectToObject(top, "roofline"))) return false;
    return cg_json_add_num(roof, "copy_gbps", r->copy_gbps) &&
           cg_json_add_num(roof, "read_gbps", r->read_gbps) &&
           cg_json_add_num(roof, "mad_gflops", r->mad_gflops) &&
           cg_json_add_str(roof, "source", r->roofline_source);
}

int cg_report_json(const cg_report *r, const char *path)
{
    cJSON *top = cJSON_CreateObject();
    bool filled = top && add_run(top, r) &&
                  add_rows(top, r->rows, r->n, sizeof *r->rows, cg_result_fields, cg_result_nfields);
    return finish(top, filled, path);
}

static bool add_peak(cJSON *top, const cg_peak_report *r)
{
    const cg_report_meta m = {"peak", r->tool_version, r->git_commit, r->time_utc, r->command_line};
    cJSON *opt = add_head(top, &m, &r->device);
    return opt && cg_json_add_bool(opt, "quick", r->quick) && cg_json_add_num(opt, "max_time_s", r->max_time);
}

int cg_peak_report_json(const cg_peak_report *r, const char *path)
{
    cJSON *top = cJSON_CreateObject();
    bool filled = top && add_peak(top, r) &&
                  add_rows(top, r->rows, r->n, sizeof *r->rows, cg_peak_fields, cg_peak_nfields);
    return finish(top, filled, path);
}
