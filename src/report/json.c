/* The JSON report: the shared metadata and device blocks (jsonmeta.c), options, roofline ceilings and one
 * object per result row whose keys come from cg_result_fields, in table order. Non-finite numbers become
 * null; integers that may pass 2^53 (seed, counts) are written as exact digits. docs/report-schema.md
 * describes every key. */
#include "report/report.h"
#include "report/jsonmeta.h"
#include "model/times.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool add_warnings(cJSON *o, const char *key, unsigned bits)
{
    cJSON *a = cJSON_AddArrayToObject(o, key);
    if (!a) return false;
    for (unsigned i = 0; i < CG_WARN_COUNT; i++) {
        if (!(bits & (1u << i))) continue;
        cJSON *s = cJSON_CreateString(cg_warning_name(1u << i));
        if (!s || !cJSON_AddItemToArray(a, s)) {
            cJSON_Delete(s);
            return false;
        }
    }
    return true;
}

static bool add_field(cJSON *o, const cg_field *fd, const cg_result *row)
{
    const void *p = (const char *)row + fd->offset;
    switch (fd->kind) {
    case CG_F_STR:
        return cg_json_add_str(o, fd->name, p);
    case CG_F_DOUBLE:
        return cg_json_add_num(o, fd->name, *(const double *)p);
    case CG_F_SIZE:
        return cg_json_add_ull(o, fd->name, *(const size_t *)p);
    case CG_F_BOOL:
        return cg_json_add_bool(o, fd->name, *(const bool *)p);
    case CG_F_LL:
        return cg_json_add_ll(o, fd->name, *(const long long *)p);
    case CG_F_STATUS:
        return cg_json_add_str(o, fd->name, cg_rung_status_name(*(const cg_rung_status *)p));
    case CG_F_WARNINGS:
        return add_warnings(o, fd->name, *(const unsigned *)p);
    case CG_F_TIMES:
        return cg_times_to_json(o, fd->name, p);
    }
    return false;
}

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
        for (size_t k = 0; k < cg_result_nfields; k++)
            if (!add_field(o, &cg_result_fields[k], &r->rows[i])) return false;
    }
    return true;
}

static bool add_run(cJSON *top, const cg_report *r)
{
    const cg_report_meta m = {"run", r->tool_version, r->git_commit, r->time_utc, r->command_line};
    cJSON *dev, *opt, *roof;
    if (!cg_json_add_meta(top, &m) || !(dev = cJSON_AddObjectToObject(top, "device")) ||
        !cg_json_add_device(dev, &r->device))
        return false;
    if (!(opt = cJSON_AddObjectToObject(top, "options"))) return false;
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

int cg_report_json(const cg_report *r, const char *path)
{
    cJSON *top = cJSON_CreateObject();
    int rc = -1;
    if (top && add_run(top, r) && add_rows(top, r))
        rc = cg_json_write(top, path);
    else
        errno = ENOMEM;
    int err = errno;
    cJSON_Delete(top);
    errno = err;
    return rc;
}
