/* What the run, peak and devices documents share: the JSON value helpers, the metadata block, and the one
 * field writer (any cg_field of a row, run or peak, or of the device block). */
#include "report/jsonmeta.h"
#include "report/csvcell.h"
#include "report/outfile.h"
#include "model/times.h"
#include "model/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cg_json_add_str(cJSON *o, const char *key, const char *s)
{
    char small[1100], *buf = small;
    size_t size = strlen(s) + 1;
    if (size > sizeof small && !(buf = malloc(size))) return false;
    cg_utf8_clean(buf, size, s, false); /* a driver's name cut short must not make the file invalid JSON */
    bool ok = cJSON_AddStringToObject(o, key, buf) != NULL;
    if (buf != small) free(buf);
    return ok;
}

/* The fewest digits that read back as the same double (cJSON's own printing may round off the last bit). */
bool cg_json_add_num(cJSON *o, const char *key, double v)
{
    char buf[40];
    if (!isfinite(v)) return cJSON_AddNullToObject(o, key) != NULL;
    cg_csv_fmt_double(buf, sizeof buf, v);
    return cJSON_AddRawToObject(o, key, buf) != NULL;
}

bool cg_json_add_bool(cJSON *o, const char *key, bool v)
{
    return cJSON_AddBoolToObject(o, key, v) != NULL;
}

/* cJSON keeps numbers as doubles, which round above 2^53: the digits go in raw. */
bool cg_json_add_ull(cJSON *o, const char *key, unsigned long long v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", v);
    return cJSON_AddRawToObject(o, key, buf) != NULL;
}

bool cg_json_add_ll(cJSON *o, const char *key, long long v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%lld", v);
    return cJSON_AddRawToObject(o, key, buf) != NULL;
}

bool cg_json_add_meta(cJSON *top, const cg_report_meta *m)
{
    cJSON *tool;
    if (!cg_json_add_ull(top, "schema_version", CG_SCHEMA_VERSION) ||
        !cg_json_add_str(top, "kind", m->kind) || !(tool = cJSON_AddObjectToObject(top, "tool")))
        return false;
    if (!cg_json_add_str(tool, "name", "clgauge") || !cg_json_add_str(tool, "version", m->tool_version) ||
        !cg_json_add_str(tool, "git_commit", m->git_commit))
        return false;
    if (m->time_utc && !cg_json_add_str(top, "time_utc", m->time_utc)) return false;
    return !m->command_line || cg_json_add_str(top, "command_line", m->command_line);
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

/* Field f of the struct at base, as its kind says. */
static bool add_field(cJSON *o, const cg_field *f, const void *base)
{
    const char *p = (const char *)base + f->offset;
    switch (f->kind) {
    case CG_F_STR:
        return cg_json_add_str(o, f->name, p);
    case CG_F_DOUBLE:
        return cg_json_add_num(o, f->name, *(const double *)p);
    case CG_F_SIZE:
        return cg_json_add_ull(o, f->name, *(const size_t *)p);
    case CG_F_INT:
        return cg_json_add_ll(o, f->name, *(const int *)p);
    case CG_F_UINT:
        return cg_json_add_ull(o, f->name, *(const unsigned *)p);
    case CG_F_ULL:
        return cg_json_add_ull(o, f->name, *(const unsigned long long *)p);
    case CG_F_LL:
        return cg_json_add_ll(o, f->name, *(const long long *)p);
    case CG_F_BOOL:
        return cg_json_add_bool(o, f->name, *(const bool *)p);
    case CG_F_MAYBE_BOOL:
        if (!*(const bool *)(p + sizeof(bool))) return cJSON_AddNullToObject(o, f->name) != NULL;
        return cg_json_add_bool(o, f->name, *(const bool *)p);
    case CG_F_STATUS:
        return cg_json_add_str(o, f->name, cg_rung_status_name(*(const cg_rung_status *)p));
    case CG_F_WARNINGS:
        return add_warnings(o, f->name, *(const unsigned *)p);
    case CG_F_TIMES:
        return cg_times_to_json(o, f->name, (const cg_times *)p);
    case CG_F_STAGES:
        return cg_stages_to_json(o, f->name, (const cg_stages *)p);
    }
    return false;
}

/* The n fields of the struct at base, in table order. */
static bool add_fields(cJSON *o, const void *base, const cg_field *fields, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!add_field(o, &fields[i], base)) return false;
    return true;
}

bool cg_json_add_row(cJSON *o, const cg_result *row, cg_report_kind k)
{
    for (size_t i = 0; i < cg_row_nfields; i++)
        if (cg_field_carried(&cg_row_fields[i], k) && !add_field(o, &cg_row_fields[i], row)) return false;
    return true;
}

bool cg_json_add_device(cJSON *o, const cg_report_device *d)
{
    return add_fields(o, d, cg_device_fields, cg_device_nfields);
}

static int emit_text(FILE *f, const void *text)
{
    return fputs(text, f) < 0 || fputc('\n', f) == EOF ? -1 : 0;
}

int cg_json_write(const cJSON *top, const char *path)
{
    char *text = cJSON_Print(top);
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
