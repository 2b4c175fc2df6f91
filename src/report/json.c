/* The JSON report: run metadata (tool, device, options, roofline ceilings) and one object per result row
 * whose keys come from cg_result_fields, in table order. Non-finite numbers become null; integers that may
 * pass 2^53 (seed, counts) are written as exact digits. docs/report-schema.md describes every key. */
#include "report/report.h"
#include "report/outfile.h"
#include "report/utf8.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A string, a byte that is not valid UTF-8 written as '?' (a driver's name or a build log cut short must not
 * make the file invalid JSON). */
static bool add_str(cJSON *o, const char *key, const char *s)
{
    char small[1100], *buf = small;
    size_t size = strlen(s) + 1;
    if (size > sizeof small && !(buf = malloc(size))) return false;
    cg_utf8_clean(buf, size, s, false);
    bool ok = cJSON_AddStringToObject(o, key, buf) != NULL;
    if (buf != small) free(buf);
    return ok;
}

static bool add_num(cJSON *o, const char *key, double v)
{
    if (!isfinite(v)) return cJSON_AddNullToObject(o, key) != NULL;
    return cJSON_AddNumberToObject(o, key, v) != NULL;
}

static bool add_bool(cJSON *o, const char *key, bool v)
{
    return cJSON_AddBoolToObject(o, key, v) != NULL;
}

/* An integer as exact digits: cJSON keeps numbers as doubles, which round above 2^53. */
static bool add_ull(cJSON *o, const char *key, unsigned long long v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", v);
    return cJSON_AddRawToObject(o, key, buf) != NULL;
}

static bool add_ll(cJSON *o, const char *key, long long v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%lld", v);
    return cJSON_AddRawToObject(o, key, buf) != NULL;
}

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
        return add_str(o, fd->name, p);
    case CG_F_DOUBLE:
        return add_num(o, fd->name, *(const double *)p);
    case CG_F_SIZE:
        return add_ull(o, fd->name, *(const size_t *)p);
    case CG_F_BOOL:
        return add_bool(o, fd->name, *(const bool *)p);
    case CG_F_LL:
        return add_ll(o, fd->name, *(const long long *)p);
    case CG_F_STATUS:
        return add_str(o, fd->name, cg_rung_status_name(*(const cg_rung_status *)p));
    case CG_F_WARNINGS:
        return add_warnings(o, fd->name, *(const unsigned *)p);
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

static bool add_device(cJSON *top, const cg_report_device *d)
{
    cJSON *o = cJSON_AddObjectToObject(top, "device");
    return o && add_str(o, "platform", d->platform) && add_str(o, "platform_version", d->platform_version) &&
           add_str(o, "name", d->name) && add_str(o, "vendor", d->vendor) &&
           add_str(o, "version", d->version) && add_str(o, "driver", d->driver) &&
           add_str(o, "type", d->type) && add_ull(o, "compute_units", d->compute_units) &&
           add_ull(o, "clock_mhz", d->clock_mhz) && add_ull(o, "global_mem", d->global_mem) &&
           add_ull(o, "local_mem", d->local_mem) && add_ull(o, "max_alloc", d->max_alloc);
}

static bool add_run(cJSON *top, const cg_report *r)
{
    cJSON *tool, *opt, *roof;
    if (!add_num(top, "schema_version", CG_SCHEMA_VERSION)) return false;
    if (!(tool = cJSON_AddObjectToObject(top, "tool"))) return false;
    if (!add_str(tool, "name", "clgauge") || !add_str(tool, "version", r->tool_version) ||
        !add_str(tool, "git_commit", r->git_commit))
        return false;
    if (!add_str(top, "time_utc", r->time_utc) || !add_str(top, "command_line", r->command_line) ||
        !add_device(top, &r->device))
        return false;
    if (!(opt = cJSON_AddObjectToObject(top, "options"))) return false;
    if (!add_ull(opt, "seed", r->seed) || !add_ll(opt, "runs", r->runs) ||
        !add_ll(opt, "warmup", r->warmup) || !add_str(opt, "size", r->size_arg) ||
        !add_bool(opt, "no_cache", r->no_cache))
        return false;
    if (!(roof = cJSON_AddObjectToObject(top, "roofline"))) return false;
    return add_num(roof, "copy_gbps", r->copy_gbps) && add_num(roof, "read_gbps", r->read_gbps) &&
           add_num(roof, "mad_gflops", r->mad_gflops) && add_str(roof, "source", r->roofline_source);
}

static int emit_text(FILE *f, const void *text)
{
    return fputs(text, f) < 0 || fputc('\n', f) == EOF ? -1 : 0;
}

int cg_report_json(const cg_report *r, const char *path)
{
    cJSON *top = cJSON_CreateObject();
    char *text = NULL;
    if (top && add_run(top, r) && add_rows(top, r)) text = cJSON_Print(top);
    cJSON_Delete(top);
    if (!text) {
        errno = ENOMEM;
        return -1;
    }
    int rc = cg_outfile_write(path, emit_text, text);
    int err = errno;
    cJSON_free(text);
    errno = err;
    return rc;
}
