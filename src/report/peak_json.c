/* The peak JSON report: metadata (tool, device, options) and one object per figure whose keys come from
 * cg_peak_fields in table order. Non-finite numbers become null. docs/peak.md describes the keys. */
#include "report/outfile.h"
#include "report/peak_result.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

static bool add_num(cJSON *o, const char *key, double v)
{
    if (!isfinite(v)) return cJSON_AddNullToObject(o, key) != NULL;
    return cJSON_AddNumberToObject(o, key, v) != NULL;
}

static bool add_row(cJSON *arr, const cg_peak_row *row)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(arr, o)) return false;
    for (size_t i = 0; i < cg_peak_nfields; i++) {
        const cg_peak_field *f = &cg_peak_fields[i];
        const void *p = (const char *)row + f->offset;
        bool ok = true;
        if (f->kind == CG_PF_STR)
            ok = cJSON_AddStringToObject(o, f->name, p) != NULL;
        else if (f->kind == CG_PF_DOUBLE)
            ok = add_num(o, f->name, *(const double *)p);
        else if (f->kind == CG_PF_INT)
            ok = cJSON_AddNumberToObject(o, f->name, *(const int *)p) != NULL;
        else
            ok = cJSON_AddStringToObject(o, f->name, cg_peak_status_name(*(const cg_peak_status *)p)) != NULL;
        if (!ok) return false;
    }
    return true;
}

static bool add_meta(cJSON *top, const cg_peak_report *r)
{
    const cg_report_device *d = &r->device;
    cJSON *dev = cJSON_AddObjectToObject(top, "device");
    return cJSON_AddNumberToObject(top, "schema_version", CG_PEAK_SCHEMA_VERSION) &&
           cJSON_AddStringToObject(top, "kind", "peak") && cJSON_AddStringToObject(top, "tool", "clgauge") &&
           cJSON_AddStringToObject(top, "tool_version", r->tool_version) &&
           cJSON_AddStringToObject(top, "git_commit", r->git_commit) &&
           cJSON_AddStringToObject(top, "time_utc", r->time_utc) &&
           cJSON_AddStringToObject(top, "command_line", r->command_line) &&
           cJSON_AddBoolToObject(top, "quick", r->quick) && add_num(top, "max_time_s", r->max_time) && dev &&
           cJSON_AddStringToObject(dev, "platform", d->platform) &&
           cJSON_AddStringToObject(dev, "name", d->name) &&
           cJSON_AddStringToObject(dev, "vendor", d->vendor) &&
           cJSON_AddStringToObject(dev, "version", d->version) &&
           cJSON_AddStringToObject(dev, "driver", d->driver) &&
           cJSON_AddStringToObject(dev, "type", d->type) &&
           cJSON_AddNumberToObject(dev, "compute_units", d->compute_units) &&
           cJSON_AddNumberToObject(dev, "clock_mhz", d->clock_mhz);
}

static int emit(FILE *f, const void *ctx)
{
    const cg_peak_report *r = ctx;
    cJSON *top = cJSON_CreateObject();
    cJSON *arr = top && add_meta(top, r) ? cJSON_AddArrayToObject(top, "results") : NULL;
    bool ok = arr != NULL;
    for (size_t i = 0; ok && i < r->n; i++)
        ok = add_row(arr, &r->rows[i]);
    char *text = ok ? cJSON_Print(top) : NULL;
    int rc = text && fputs(text, f) >= 0 && fputc('\n', f) != EOF ? 0 : -1;
    cJSON_free(text);
    cJSON_Delete(top);
    return rc;
}

int cg_peak_report_json(const cg_peak_report *r, const char *path)
{
    return cg_outfile_write(path, emit, r);
}
