/* The JSON reader for runs: file -> cJSON -> cg_report, the inverse of json.c. It checks, in this order, that
 * the path is a regular file of at most CG_LOAD_MAX_BYTES, that it is JSON of at most CG_LOAD_MAX_VALUES
 * values, that it is a clgauge run (tool.name, kind "run" when given), that its schema_version is the one
 * this build writes or version 1 (read through the version 1 keys), and
 * then every key it reads (loadkeys.c): each failure is one line naming the file. Row keys are read through
 * the run fields of cg_row_fields, so a field added to the model is read back too; a string key a row lacks
 * reads as "" (files written before `variant` existed load unchanged). */
#include "model/load.h"
#include "model/loadkeys.h"
#include "model/fields.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cg_load_fail(const cg_loader *l, const char *fmt, ...)
{
    int used = snprintf(l->err, l->errlen, "%s%s: ", l->damaged ? "damaged file: " : "", l->path);
    va_list ap;
    va_start(ap, fmt);
    if (used >= 0 && (size_t)used < l->errlen) vsnprintf(l->err + used, l->errlen - (size_t)used, fmt, ap);
    va_end(ap);
    return -1;
}

/* An upper bound on the number of JSON values in text: every value but the first follows a '[', ',' or ':'
 * outside a string. Bounds the parser's memory (about 80 bytes a value) before it runs. */
static size_t count_values(const char *text, size_t len)
{
    size_t n = 1;
    bool in_string = false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
        } else {
            in_string = c == '"';
            n += c == '[' || c == ',' || c == ':';
        }
    }
    return n;
}

/* The seed as the exact digits json.c wrote: the parser keeps numbers as doubles, which round above 2^53. The
 * digits after the first "seed" key of a run are used when they agree with the parsed value. */
static unsigned long long exact_seed(const char *text, unsigned long long parsed)
{
    const char *p = strstr(text, "\"seed\"");
    if (!p) return parsed;
    p += strlen("\"seed\"");
    p += strspn(p, " \t\r\n");
    if (*p++ != ':') return parsed;
    p += strspn(p, " \t\r\n");
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    bool same = !errno && end != p && *p != '-' && (double)v == (double)parsed;
    return same ? v : parsed;
}

/* A schema_version for the message: the shortest form that reads back as the same double, so that 1 and
 * 1.0000000000000002 never print alike. */
static void fmt_version(char *buf, size_t n, double v)
{
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, n, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) return;
    }
}

/* A schema_version 2 document of another kind (a peak run, a device list) is not a run. */
static int check_kind(const cg_loader *l, const cJSON *top)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(top, "kind");
    if (!kind || (cJSON_IsString(kind) && !strcmp(kind->valuestring, "run"))) return 0;
    if (cJSON_IsString(kind) && (!strcmp(kind->valuestring, "peak") || !strcmp(kind->valuestring, "devices")))
        return cg_load_fail(l, "a clgauge %s file, not a run; give a file written by `clgauge run --json`",
                            kind->valuestring);
    return cg_load_fail(l, "kind is not \"run\"; give a file written by `clgauge run --json`");
}

/* Is it a clgauge run of a schema this build reads? Sets l->version. */
static int check_identity(cg_loader *l, const cJSON *top)
{
    const cJSON *tool = cJSON_GetObjectItemCaseSensitive(top, "tool");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(tool, "name");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(top, "schema_version");
    if (!cJSON_IsObject(top) || !cJSON_IsObject(tool) || !cJSON_IsString(name) ||
        strcmp(name->valuestring, "clgauge") || !cJSON_IsNumber(ver))
        return cg_load_fail(l, "not a clgauge run (no tool.name \"clgauge\" and schema_version); give a file "
                               "written by `clgauge run --json`");
    double v = ver->valuedouble;
    char shown[32];
    fmt_version(shown, sizeof shown, v);
    if (!isfinite(v) || v != floor(v))
        return cg_load_fail(l,
                            "schema_version %s is not a whole number; the file is damaged: rerun "
                            "`clgauge run --json FILE` or restore it",
                            shown);
    if (v != CG_SCHEMA_VERSION && v != 1)
        return cg_load_fail(l,
                            "schema_version %s, but this clgauge reads schema_version 1 to %d; use the "
                            "clgauge (%s) that wrote it, or rerun the benchmark",
                            shown, CG_SCHEMA_VERSION, v > CG_SCHEMA_VERSION ? "newer" : "older");
    l->version = (int)v;
    if (check_kind(l, top)) return -1;
    if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(top, "device")) ||
        !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(top, "results")))
        return cg_load_fail(l, "a clgauge run without \"device\" or \"results\"; the file is damaged");
    return 0;
}

/* The parsed document, or NULL with err set: too many values, or not JSON. */
static cJSON *parse(const cg_loader *l, const char *text, size_t len)
{
    size_t values = count_values(text, len);
    if (values > CG_LOAD_MAX_VALUES) {
        cg_load_fail(l, "%zu JSON values, over the %u a run file may have; not a clgauge run", values,
                     CG_LOAD_MAX_VALUES);
        return NULL;
    }
    const char *end = NULL;
    cJSON *top = cJSON_ParseWithOpts(text, &end, true);
    if (!top) {
        size_t at = end && end >= text && end <= text + len ? (size_t)(end - text) : len;
        cg_load_fail(
            l,
            "not valid JSON (truncated or corrupt near byte %zu of %zu, or nested over 1000 deep); give a "
            "complete file written by `clgauge run --json`",
            at, len);
    }
    return top;
}

int cg_report_parse(const char *path, const char *text, size_t len, cg_report *r, char *err, size_t errlen)
{
    cg_loader l = {path, err, errlen, false, CG_SCHEMA_VERSION};
    cg_report_init(r);
    cJSON *top = parse(&l, text, len);
    int rc = -1;
    if (top && (rc = check_identity(&l, top)) == 0) {
        l.damaged = true; /* from here on every failure is a key of the wrong type or value */
        rc = cg_load_meta(&l, top, r);
        r->seed = exact_seed(text, r->seed);
        if (rc == 0) rc = cg_load_rows(&l, cJSON_GetObjectItemCaseSensitive(top, "results"), r);
    }
    cJSON_Delete(top);
    return rc;
}
