/* Reading a run's objects key by key (for load.c). Every object is read through a table of slots (key,
 * kind, destination): one pass over the object's keys finds each slot's value and refuses a key given twice,
 * then each value is checked against its kind (a string, a number >= 0 or null, seconds, a whole number in
 * range, true/false, a status, warning names) and stored. Keys no slot names are ignored, so that a later
 * writer of the same schema may add some. Strings are copied cut on a character boundary, with invalid UTF-8
 * and control characters replaced (model/utf8.h): nothing from a file reaches a terminal or a page raw. */
#include "model/loadkeys.h"
#include "model/fields.h"
#include "model/times.h"
#include "model/utf8.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum kind {
    K_ANY,  /* read elsewhere (only given twice is checked) */
    K_OBJ,  /* an object, read by its own table */
    K_STR,  /* a string, into a buffer of `size` bytes */
    K_NUM,  /* a number >= 0, or null (written for NaN) */
    K_TIME, /* as K_NUM, at most CG_LOAD_MAX_TIME seconds */
    K_CEIL, /* as K_NUM, at most CG_LOAD_MAX_CEILING (a roofline ceiling in GB/s or GFLOP/s) */
    K_UINT, /* whole numbers into unsigned, int, unsigned long long, size_t */
    K_INT,
    K_ULL,
    K_SIZE,
    K_LL, /* a whole number >= -1 (first_mismatch) */
    K_BOOL,
    K_STATUS, /* a cg_rung_status by name */
    K_WARN,   /* an array of warning names: cg_warning bits (unknown names ignored) */
    K_TIMES,  /* an array of seconds above 0 (cg_times, model/times.h) */
    K_STAGES, /* an object of stage names to seconds >= 0 (cg_stages, model/times.h) */
    K_FP16,   /* true, false or null (not probed) into a cg_report_device's fp16 and fp16_known */
} kind;

/* What a kind wants, for messages. */
static const char *const wants[] = {
    [K_ANY] = "anything",
    [K_OBJ] = "an object",
    [K_STR] = "a string",
    [K_NUM] = "a number >= 0, or null",
    [K_TIME] = "seconds from 0 to 1e+06, or null",
    [K_CEIL] = "a number from 0 to 1e+09, or null",
    [K_UINT] = "a whole number from 0 to 4294967295",
    [K_INT] = "a whole number from 0 to 2147483647",
    [K_ULL] = "a whole number from 0 to 2^64",
    [K_SIZE] = "a whole number from 0 to 2^53",
    [K_LL] = "a whole number >= -1",
    [K_BOOL] = "true or false",
    [K_STATUS] = "one of ok, wrong_result, unsupported, build_failed, cl_error",
    [K_WARN] = "an array of warning names",
    [K_TIMES] = "an array of at most 1000000 seconds, each above 0 and at most 1e+06",
    [K_STAGES] =
        "an object of at most 8 stage names (under 24 bytes) to seconds, each >= 0 and at most 1e+06",
    [K_FP16] = "true, false or null",
};

typedef struct slot {
    const char *name;
    kind k;
    void *dst;
    size_t size; /* K_STR: the buffer's size */
    bool required;
} slot;
#define MAX_SLOTS 96

/* Where the object lies, for messages: "field device.name", "field t_median_s of row 2 (reduction:naive)". */
typedef struct where {
    const char *object; /* "device", or "" for the top level; NULL for a row */
    size_t row;
    const cg_result *r;
} where;

/* The value as the message shows it: a number in its shortest exact form, a string quoted (cleaned, cut at
 * 40 bytes), else its type. */
static void describe(const cJSON *v, char *buf, size_t n)
{
    if (cJSON_IsNumber(v)) {
        for (int digits = 1; digits <= 17; digits++) {
            snprintf(buf, n, "%.*g", digits, v->valuedouble);
            if (!isfinite(v->valuedouble) || strtod(buf, NULL) == v->valuedouble) return;
        }
    } else if (cJSON_IsString(v)) {
        char s[44];
        bool whole = cg_utf8_clean(s, sizeof s, v->valuestring, true) && strlen(v->valuestring) < 41;
        snprintf(buf, n, "\"%s%s\"", s, whole ? "" : "...");
    } else {
        snprintf(buf, n, "%s",
                 cJSON_IsArray(v)    ? "an array"
                 : cJSON_IsObject(v) ? "an object"
                 : cJSON_IsTrue(v)   ? "true"
                 : cJSON_IsFalse(v)  ? "false"
                                     : "null");
    }
}

/* "field NAME[ of row N (w:r)] " + what, with the fix. */
static int bad(const cg_loader *l, const where *w, const char *name, const char *what)
{
    char at[112] = "";
    if (!w->object)
        snprintf(at, sizeof at, " of row %zu%s%s%s%s%s", w->row, w->r->workload[0] ? " (" : "",
                 w->r->workload, w->r->workload[0] ? ":" : "", w->r->rung, w->r->workload[0] ? ")" : "");
    return cg_load_fail(l, "field %s%s%s%s %s; rerun `clgauge run --json FILE` or restore the file",
                        w->object ? w->object : "", w->object && w->object[0] ? "." : "", name, at, what);
}

static int bad_value(const cg_loader *l, const where *w, const slot *s, const cJSON *v, const char *want)
{
    char shown[64], what[192];
    describe(v, shown, sizeof shown);
    snprintf(what, sizeof what, "is %s, want %s", shown, want);
    return bad(l, w, s->name, what);
}

static bool parse_status(const char *s, cg_rung_status *st)
{
    for (int k = CG_RUNG_OK; k <= CG_RUNG_LAST_RUN; k++)
        if (!strcmp(s, cg_rung_status_name((cg_rung_status)k))) {
            *st = (cg_rung_status)k;
            return true;
        }
    return false;
}

static bool read_warnings(const cJSON *a, unsigned *bits)
{
    const cJSON *s;
    *bits = 0;
    if (!cJSON_IsArray(a)) return false;
    cJSON_ArrayForEach(s, a)
    {
        if (!cJSON_IsString(s)) return false;
        for (unsigned i = 0; i < CG_WARN_COUNT; i++)
            if (!strcmp(s->valuestring, cg_warning_name(1u << i))) *bits |= 1u << i;
    }
    return true;
}

/* A whole number of kind k stored at dst; false when v is not one in the kind's range. */
static bool read_whole(const cJSON *v, kind k, void *dst)
{
    static const double max[] = {[K_UINT] = UINT_MAX,
                                 [K_INT] = INT_MAX,
                                 [K_ULL] = 18446744073709551616.0,
                                 [K_SIZE] = 9007199254740992.0,
                                 [K_LL] = 9e18};
    double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!isfinite(d) || d != floor(d) || d < (k == K_LL ? -1 : 0) || d > max[k]) return false;
    if (k == K_UINT) *(unsigned *)dst = (unsigned)d;
    if (k == K_INT) *(int *)dst = (int)d;
    if (k == K_ULL)
        *(unsigned long long *)dst = d >= 18446744073709551615.0 ? ULLONG_MAX : (unsigned long long)d;
    if (k == K_SIZE) *(size_t *)dst = (size_t)d;
    if (k == K_LL) *(long long *)dst = (long long)d;
    return true;
}

/* The largest value of a number kind. */
static double max_of(kind k)
{
    return k == K_TIME ? CG_LOAD_MAX_TIME : k == K_CEIL ? CG_LOAD_MAX_CEILING : HUGE_VAL;
}

/* Checks v against the slot's kind and stores it; false when it does not fit. */
static bool read_value(const cJSON *v, const slot *s)
{
    double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    switch (s->k) {
    case K_ANY:
        return true;
    case K_OBJ:
        return cJSON_IsObject(v);
    case K_STR:
        if (cJSON_IsString(v)) cg_utf8_clean(s->dst, s->size, v->valuestring, true);
        return cJSON_IsString(v);
    case K_NUM:
    case K_TIME:
    case K_CEIL:
        if (!cJSON_IsNull(v) && !(isfinite(d) && d >= 0 && d <= max_of(s->k))) return false;
        *(double *)s->dst = cJSON_IsNull(v) ? NAN : d;
        return true;
    case K_BOOL:
        if (cJSON_IsBool(v)) *(bool *)s->dst = cJSON_IsTrue(v);
        return cJSON_IsBool(v);
    case K_STATUS:
        return cJSON_IsString(v) && parse_status(v->valuestring, s->dst);
    case K_WARN:
        return read_warnings(v, s->dst);
    case K_TIMES:
        return cg_times_from_json(v, CG_LOAD_MAX_TIME, s->dst);
    case K_STAGES:
        return cg_stages_from_json(v, CG_LOAD_MAX_TIME, s->dst);
    case K_FP16:
        if (!cJSON_IsBool(v) && !cJSON_IsNull(v)) return false;
        ((cg_report_device *)s->dst)->fp16 = cJSON_IsTrue(v);
        ((cg_report_device *)s->dst)->fp16_known = cJSON_IsBool(v);
        return true;
    default:
        return read_whole(v, s->k, s->dst);
    }
}

/* One pass over o's keys: vals[k] is the value of slots[k] (NULL when absent); a key given twice fails. */
static int collect(const cg_loader *l, const where *w, const cJSON *o, const slot *slots, size_t n,
                   const cJSON **vals)
{
    const cJSON *it;
    memset(vals, 0, n * sizeof *vals);
    cJSON_ArrayForEach(it, o)
    {
        for (size_t k = 0; it->string && k < n; k++) {
            if (strcmp(it->string, slots[k].name)) continue;
            if (vals[k]) return bad(l, w, slots[k].name, "is given twice");
            vals[k] = it;
            break;
        }
    }
    return 0;
}

/* Reads object o through its slots; vals (n entries) gets each slot's value. */
static int read_object(const cg_loader *l, const where *w, const cJSON *o, const slot *slots, size_t n,
                       const cJSON **vals)
{
    if (collect(l, w, o, slots, n, vals)) return -1;
    for (size_t k = 0; k < n; k++) {
        if (!vals[k] && slots[k].required) return bad(l, w, slots[k].name, "is missing");
        if (vals[k] && !read_value(vals[k], &slots[k]))
            return bad_value(l, w, &slots[k], vals[k], wants[slots[k].k]);
    }
    return 0;
}

#define STR(o, key, m)                                                                                       \
    {                                                                                                        \
        key, K_STR, (o)->m, sizeof((o)->m), false                                                            \
    }
#define VAL(o, key, k, m)                                                                                    \
    {                                                                                                        \
        key, k, &(o)->m, sizeof((o)->m), false                                                               \
    }
#define SUB(key)                                                                                             \
    {                                                                                                        \
        key, K_OBJ, NULL, 0, false                                                                           \
    }

/* One object of the run's metadata, when present (it must then be an object). */
static int read_part(const cg_loader *l, const cJSON *top, const char *name, const slot *slots, size_t n)
{
    const cJSON *vals[MAX_SLOTS], *o = name[0] ? cJSON_GetObjectItemCaseSensitive(top, name) : top;
    where w = {name, 0, NULL};
    return o ? read_object(l, &w, o, slots, n, vals) : 0;
}

/* The slot kind of each field kind (model/fields.h). */
static const kind by_field[] = {
    [CG_F_STR] = K_STR,         [CG_F_DOUBLE] = K_NUM,    [CG_F_SIZE] = K_SIZE,     [CG_F_INT] = K_INT,
    [CG_F_UINT] = K_UINT,       [CG_F_ULL] = K_ULL,       [CG_F_LL] = K_LL,         [CG_F_BOOL] = K_BOOL,
    [CG_F_MAYBE_BOOL] = K_FP16, [CG_F_STATUS] = K_STATUS, [CG_F_WARNINGS] = K_WARN, [CG_F_TIMES] = K_TIMES,
    [CG_F_STAGES] = K_STAGES};

/* The slots of the device block, from cg_device_fields: the keys of the file's schema_version. */
static size_t device_slots(const cg_loader *l, cg_report_device *d, slot *slots)
{
    size_t n = 0;
    for (size_t i = 0; i < cg_device_nfields && n < MAX_SLOTS; i++) {
        const cg_field *f = &cg_device_fields[i];
        const char *key = l->version == 1 ? f->name1 : f->name;
        if (!key) continue;
        kind k = by_field[f->kind];
        slots[n++] = (slot){key, k, k == K_FP16 ? (void *)d : (char *)d + f->offset, f->size, false};
    }
    return n;
}

int cg_load_meta(const cg_loader *l, const cJSON *top, cg_report *r)
{
    char tool_name[16];
    cg_report_device *d = &r->device;
    const slot top_slots[] = {{"schema_version", K_ANY, NULL, 0, false},
                              {"kind", K_ANY, NULL, 0, false},
                              SUB("tool"),
                              STR(r, "time_utc", time_utc),
                              STR(r, "command_line", command_line),
                              SUB("device"),
                              SUB("options"),
                              SUB("roofline"),
                              {"results", K_ANY, NULL, 0, false}};
    const slot tool[] = {{"name", K_STR, tool_name, sizeof tool_name, false},
                         STR(r, "version", tool_version),
                         STR(r, "git_commit", git_commit)};
    slot device[MAX_SLOTS];
    size_t ndev = device_slots(l, d, device);
    unsigned long long seed = 0;
    const slot options[] = {{"seed", K_ULL, &seed, 0, false},
                            VAL(r, "runs", K_INT, runs),
                            VAL(r, "warmup", K_INT, warmup),
                            STR(r, "size", size_arg),
                            VAL(r, "no_cache", K_BOOL, no_cache)};
    const slot roofline[] = {VAL(r, "copy_gbps", K_CEIL, copy_gbps), VAL(r, "read_gbps", K_CEIL, read_gbps),
                             VAL(r, "mad_gflops", K_CEIL, mad_gflops), STR(r, "source", roofline_source)};
#define PART(name, t) read_part(l, top, name, t, sizeof t / sizeof t[0])
    int rc = PART("", top_slots) || PART("tool", tool) || read_part(l, top, "device", device, ndev) ||
                     PART("options", options) || PART("roofline", roofline)
                 ? -1
                 : 0;
#undef PART
    r->seed = seed;
    return rc;
}

/* The slots of one row, from the run fields of cg_row_fields: workload, rung, status and t_median_s are
 * required. */
static size_t row_slots(const cg_loader *l, cg_result *row, slot *slots)
{
    size_t n = 0;
    for (size_t k = 0; k < cg_row_nfields && n < MAX_SLOTS; k++) {
        const cg_field *fd = &cg_row_fields[k];
        if (!cg_field_carried(fd, CG_KIND_RUN)) continue;
        kind kd = by_field[fd->kind];
        const char *name = l->version == 1 && !strcmp(fd->name, "build_s") ? "build_ms" : fd->name;
        slots[n] = (slot){name, kd == K_NUM && !strcmp(fd->unit, "s") ? K_TIME : kd, (char *)row + fd->offset,
                          fd->size, false};
        slots[n++].required = !strcmp(fd->name, "workload") || !strcmp(fd->name, "rung") ||
                              !strcmp(fd->name, "status") || !strcmp(fd->name, "t_median_s");
    }
    return n;
}

/* A row that ran ok has a median above 0; times_s, when given, has one entry per run. */
static int check_ok_row(const cg_loader *l, const where *w, const cg_result *row)
{
    char what[96];
    if (row->status == CG_RUNG_OK && !(row->t_median > 0))
        return bad(l, w, "t_median_s", "is not above 0 in a row of status ok");
    snprintf(what, sizeof what, "has %zu entries, but runs is %zu", row->times.n, row->runs);
    return row->times.n && row->times.n != row->runs ? bad(l, w, "times_s", what) : 0;
}

int cg_load_rows(const cg_loader *l, const cJSON *a, cg_report *r)
{
    const cJSON *o, *vals[MAX_SLOTS];
    slot slots[MAX_SLOTS];
    size_t i = 0;
    int count = cJSON_GetArraySize(a); /* before anything is allocated for the rows */
    if (count < 0 || (unsigned)count > CG_LOAD_MAX_ROWS)
        return cg_load_fail(l, "%d rows in results, over the %u a run file may have", count,
                            CG_LOAD_MAX_ROWS);
    cJSON_ArrayForEach(o, a)
    {
        cg_result *row = cg_report_add(r);
        if (!row) return cg_load_fail(l, "out of memory at row %zu", i);
        where w = {NULL, i, row};
        if (!cJSON_IsObject(o)) {
            char shown[64], what[96];
            describe(o, shown, sizeof shown);
            snprintf(what, sizeof what, "is %s, want an object", shown);
            return cg_load_fail(
                l, "row %zu of results %s; rerun `clgauge run --json FILE` or restore the file", i, what);
        }
        size_t n = row_slots(l, row, slots);
        if (read_object(l, &w, o, slots, n, vals) || check_ok_row(l, &w, row)) return -1;
        if (l->version == 1) row->build_s /= 1e3; /* version 1 wrote build_ms */
        i++;
    }
    if (i) return 0;
    cg_loader quiet = *l;
    quiet.damaged = false;
    return cg_load_fail(&quiet, "the run has no results; rerun `clgauge run ... --json FILE`");
}
