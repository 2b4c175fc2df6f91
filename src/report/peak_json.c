/* The peak JSON report: the shared metadata and device blocks (jsonmeta.c), the options, and one object per
 * figure whose keys come from cg_peak_fields in table order. Non-finite numbers become null.
 * docs/report-schema.md describes every key. */
#include "report/jsonmeta.h"
#include "model/peak_result.h"

#include <errno.h>

static bool add_field(cJSON *o, const cg_peak_field *f, const cg_peak_row *row)
{
    const void *p = (const char *)row + f->offset;
    switch (f->kind) {
    case CG_PF_STR:
        return cg_json_add_str(o, f->name, p);
    case CG_PF_DOUBLE:
        return cg_json_add_num(o, f->name, *(const double *)p);
    case CG_PF_INT:
        return cg_json_add_ll(o, f->name, *(const int *)p);
    case CG_PF_STATUS:
        return cg_json_add_str(o, f->name, cg_peak_status_name(*(const cg_peak_status *)p));
    }
    return false;
}

static bool add_row(cJSON *arr, const cg_peak_row *row)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(arr, o)) {
        cJSON_Delete(o);
        return false;
    }
    for (size_t i = 0; i < cg_peak_nfields; i++)
        if (!add_field(o, &cg_peak_fields[i], row)) return false;
    return true;
}

static bool add_meta(cJSON *top, const cg_peak_report *r)
{
    const cg_report_meta m = {"peak", r->tool_version, r->git_commit, r->time_utc, r->command_line};
    cJSON *dev, *opt;
    return cg_json_add_meta(top, &m) && (dev = cJSON_AddObjectToObject(top, "device")) &&
           cg_json_add_device(dev, &r->device) && (opt = cJSON_AddObjectToObject(top, "options")) &&
           cg_json_add_bool(opt, "quick", r->quick) && cg_json_add_num(opt, "max_time_s", r->max_time);
}

int cg_peak_report_json(const cg_peak_report *r, const char *path)
{
    cJSON *top = cJSON_CreateObject();
    cJSON *arr = top && add_meta(top, r) ? cJSON_AddArrayToObject(top, "results") : NULL;
    bool ok = arr != NULL;
    for (size_t i = 0; ok && i < r->n; i++)
        ok = add_row(arr, &r->rows[i]);
    int rc = -1;
    if (ok)
        rc = cg_json_write(top, path);
    else
        errno = ENOMEM;
    int err = errno;
    cJSON_Delete(top);
    errno = err;
    return rc;
}
