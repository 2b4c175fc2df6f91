/* The JSON value helpers, metadata block and device block that the run, peak and devices documents share. */
#include "report/jsonmeta.h"
#include "report/csvcell.h"
#include "report/outfile.h"
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

static bool add_dev_field(cJSON *o, const cg_dev_field *f, const cg_report_device *d)
{
    const void *p = (const char *)d + f->offset;
    switch (f->kind) {
    case CG_D_STR:
        return cg_json_add_str(o, f->key, p);
    case CG_D_UINT:
        return cg_json_add_ull(o, f->key, *(const unsigned *)p);
    case CG_D_ULL:
    case CG_D_BYTES:
        return cg_json_add_ull(o, f->key, *(const unsigned long long *)p);
    case CG_D_BOOL:
        return cg_json_add_bool(o, f->key, *(const bool *)p);
    case CG_D_FP16:
        if (!d->fp16_known) return cJSON_AddNullToObject(o, f->key) != NULL;
        return cg_json_add_bool(o, f->key, d->fp16);
    }
    return false;
}

bool cg_json_add_device(cJSON *o, const cg_report_device *d)
{
    for (size_t i = 0; i < cg_device_nfields; i++)
        if (!add_dev_field(o, &cg_device_fields[i], d)) return false;
    return true;
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
