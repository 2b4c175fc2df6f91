/* The JSON reader for runs: file -> cJSON -> cg_report, the inverse of json.c. It checks, in this order, that
 * the file can be read, that it is JSON, that it is a clgauge run (tool.name), that its schema_version is the
 * one this build writes, and that the keys the reports need are there; each failure is one line naming the
 * file. Row keys are read through cg_result_fields, so a field added to the model is read back too; a string
 * key a row lacks reads as "" (files written before `variant` existed load unchanged). */
#include "report/load.h"
#include "report/report.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE (256u << 20) /* far above any run: refuses /dev/zero and the like */

#define SZ(m)                                                                                                \
    {                                                                                                        \
        offsetof(cg_result, m), sizeof((cg_result *)0)->m                                                    \
    }
static const struct {
    size_t offset, size;
} str_sizes[] = {SZ(workload), SZ(rung),      SZ(variant),    SZ(why),    SZ(size_desc),
                 SZ(reason),   SZ(item_unit), SZ(bytes_note), SZ(ceiling)};
#undef SZ

typedef struct loader {
    const char *path;
    char *err;
    size_t errlen;
} loader;

static int fail(const loader *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(const loader *l, const char *fmt, ...)
{
    int used = snprintf(l->err, l->errlen, "%s: ", l->path);
    va_list ap;
    va_start(ap, fmt);
    if (used >= 0 && (size_t)used < l->errlen) vsnprintf(l->err + used, l->errlen - (size_t)used, fmt, ap);
    va_end(ap);
    return -1;
}

/* The whole file, NUL-terminated, or NULL with err set. */
static char *slurp(const loader *l, size_t *len)
{
    FILE *f = fopen(l->path, "rb");
    if (!f) {
        fail(l, "cannot read: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || cap >= MAX_FILE) break;
        char *grown = realloc(buf, 2 * cap + 1);
        if (!grown) free(buf);
        buf = grown;
        cap *= 2;
    }
    bool bad = !buf || ferror(f) || n >= MAX_FILE;
    int err = errno;
    fclose(f);
    if (bad) {
        fail(l, "cannot read: %s", !buf ? "out of memory" : n >= MAX_FILE ? "file too large" : strerror(err));
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static void get_str(const cJSON *o, const char *key, char *dst, size_t size)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    snprintf(dst, size, "%s", cJSON_IsString(v) && v->valuestring ? v->valuestring : "");
}

/* A number; null (a non-finite value when written) reads as NaN, a missing key as 0. */
static double get_num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : cJSON_IsNull(v) ? NAN : 0;
}

static unsigned long long get_ull(const cJSON *o, const char *key)
{
    double v =
        get_num(o, key); /* above 2^53 the value was rounded by the parser: clamped, never overflowed */
    if (!isfinite(v) || v <= 0) return 0;
    return v >= 18446744073709551615.0 ? ULLONG_MAX : (unsigned long long)v;
}

static size_t str_size(size_t offset)
{
    for (size_t i = 0; i < sizeof str_sizes / sizeof str_sizes[0]; i++)
        if (str_sizes[i].offset == offset) return str_sizes[i].size;
    return 1;
}

static bool parse_status(const char *s, cg_rung_status *st)
{
    for (int k = CG_RUNG_OK; k <= CG_RUNG_CL_ERROR; k++)
        if (!strcmp(s, cg_rung_status_name((cg_rung_status)k))) {
            *st = (cg_rung_status)k;
            return true;
        }
    return false;
}

static unsigned parse_warnings(const cJSON *a)
{
    unsigned bits = 0;
    const cJSON *s;
    cJSON_ArrayForEach(s, a)
    {
        for (unsigned i = 0; i < CG_WARN_COUNT; i++)
            if (cJSON_IsString(s) && !strcmp(s->valuestring, cg_warning_name(1u << i))) bits |= 1u << i;
    }
    return bits;
}

static bool read_field(const cJSON *o, const cg_field *fd, cg_result *row)
{
    void *p = (char *)row + fd->offset;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, fd->name);
    switch (fd->kind) {
    case CG_F_STR:
        get_str(o, fd->name, p, str_size(fd->offset));
        return true;
    case CG_F_DOUBLE:
        *(double *)p = get_num(o, fd->name);
        return true;
    case CG_F_SIZE:
        *(size_t *)p = (size_t)get_ull(o, fd->name);
        return true;
    case CG_F_BOOL:
        *(bool *)p = cJSON_IsTrue(v);
        return true;
    case CG_F_LL:
        *(long long *)p = cJSON_IsNumber(v) && fabs(v->valuedouble) < 9e18 ? (long long)v->valuedouble : -1;
        return true;
    case CG_F_STATUS:
        return cJSON_IsString(v) && parse_status(v->valuestring, p);
    case CG_F_WARNINGS:
        *(unsigned *)p = parse_warnings(v);
        return true;
    }
    return false;
}

static int read_rows(const loader *l, const cJSON *a, cg_report *r)
{
    const cJSON *o;
    size_t i = 0;
    cJSON_ArrayForEach(o, a)
    {
        if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "workload")) ||
            !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "rung")) ||
            !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(o, "t_median_s")))
            return fail(l, "results[%zu] lacks workload, rung or t_median_s; the file is damaged", i);
        cg_result *row = cg_report_add(r);
        if (!row) return fail(l, "out of memory");
        for (size_t k = 0; k < cg_result_nfields; k++)
            if (!read_field(o, &cg_result_fields[k], row))
                return fail(l, "results[%zu] (%s:%s) has a missing or unknown %s", i, row->workload,
                            row->rung, cg_result_fields[k].name);
        i++;
    }
    return i ? 0 : fail(l, "the run has no results; rerun `clgauge run ... --json FILE`");
}

static void read_device(const cJSON *o, cg_report_device *d)
{
    get_str(o, "platform", d->platform, sizeof d->platform);
    get_str(o, "platform_version", d->platform_version, sizeof d->platform_version);
    get_str(o, "name", d->name, sizeof d->name);
    get_str(o, "vendor", d->vendor, sizeof d->vendor);
    get_str(o, "version", d->version, sizeof d->version);
    get_str(o, "driver", d->driver, sizeof d->driver);
    get_str(o, "type", d->type, sizeof d->type);
    d->compute_units = (unsigned)get_ull(o, "compute_units");
    d->clock_mhz = (unsigned)get_ull(o, "clock_mhz");
    d->global_mem = get_ull(o, "global_mem");
    d->local_mem = get_ull(o, "local_mem");
    d->max_alloc = get_ull(o, "max_alloc");
}

/* The seed as the exact digits json.c wrote: the parser keeps numbers as doubles, which round above 2^53. The
 * digits after the only "seed" key of a run are used when they agree with the parsed value. */
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

static void read_meta(const cJSON *top, cg_report *r)
{
    const cJSON *tool = cJSON_GetObjectItemCaseSensitive(top, "tool");
    const cJSON *opt = cJSON_GetObjectItemCaseSensitive(top, "options");
    const cJSON *roof = cJSON_GetObjectItemCaseSensitive(top, "roofline");
    get_str(tool, "version", r->tool_version, sizeof r->tool_version);
    get_str(tool, "git_commit", r->git_commit, sizeof r->git_commit);
    get_str(top, "time_utc", r->time_utc, sizeof r->time_utc);
    get_str(top, "command_line", r->command_line, sizeof r->command_line);
    read_device(cJSON_GetObjectItemCaseSensitive(top, "device"), &r->device);
    r->seed = get_ull(opt, "seed");
    r->runs = (int)get_ull(opt, "runs");
    r->warmup = (int)get_ull(opt, "warmup");
    get_str(opt, "size", r->size_arg, sizeof r->size_arg);
    r->no_cache = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opt, "no_cache"));
    r->copy_gbps = get_num(roof, "copy_gbps");
    r->read_gbps = get_num(roof, "read_gbps");
    r->mad_gflops = get_num(roof, "mad_gflops");
    get_str(roof, "source", r->roofline_source, sizeof r->roofline_source);
}

/* Is it a clgauge run of the schema this build reads? */
static int check_identity(const loader *l, const cJSON *top)
{
    const cJSON *tool = cJSON_GetObjectItemCaseSensitive(top, "tool");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(tool, "name");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(top, "schema_version");
    if (!cJSON_IsObject(top) || !cJSON_IsString(name) || strcmp(name->valuestring, "clgauge") ||
        !cJSON_IsNumber(ver))
        return fail(l, "not a clgauge run (no tool.name \"clgauge\" and schema_version); give a file written "
                       "by `clgauge run --json`");
    if (ver->valuedouble != CG_SCHEMA_VERSION)
        return fail(l,
                    "schema_version %g, but this clgauge reads schema_version %d; use the clgauge %s wrote "
                    "it with, or rerun the benchmark",
                    ver->valuedouble, CG_SCHEMA_VERSION,
                    ver->valuedouble > CG_SCHEMA_VERSION ? "(newer) that" : "(older) that");
    if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(top, "device")) ||
        !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(top, "results")))
        return fail(l, "a clgauge run without \"device\" or \"results\"; the file is damaged");
    return 0;
}

int cg_report_load(const char *path, cg_report *r, char *err, size_t errlen)
{
    loader l = {path, err, errlen};
    cg_report_init(r);
    size_t len = 0;
    char *text = slurp(&l, &len);
    if (!text) return -1;
    const char *end = NULL;
    cJSON *top = cJSON_ParseWithOpts(text, &end, true);
    int rc;
    if (!top) {
        size_t at = end && end >= text ? (size_t)(end - text) : len;
        rc = fail(&l,
                  "not valid JSON (truncated or corrupt near byte %zu of %zu); give a complete file written "
                  "by `clgauge run --json`",
                  at, len);
    } else if ((rc = check_identity(&l, top)) == 0) {
        read_meta(top, r);
        r->seed = exact_seed(text, r->seed);
        rc = read_rows(&l, cJSON_GetObjectItemCaseSensitive(top, "results"), r);
    }
    cJSON_Delete(top);
    free(text);
    return rc;
}
