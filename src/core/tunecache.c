/* The tuning cache file (see the contract in tunecache.h): one small JSON object per key under
 * <cache dir>/tuned/, named by the XXH3-128 of the format version and the key fields (length-prefixed, as
 * cg_cache_key_make does). The object holds "kind", "version", the key fields in clear, the entry and
 * "checksum": the XXH64, in 16 hex digits, of the canonical content (the version, then the key fields and the
 * entry fields in a fixed order, length-prefixed, numbers as %.17g). Loads check, in this order: a regular
 * file in trusted directories, owned by the user and not writable by group or others, of at most MAX_BYTES;
 * JSON with no NUL byte; kind and version; every field present, of its type and within its bounds; the
 * checksum; the key fields against the key asked for. Stores go through cg_fs_write_atomic. */
#include "core/tunecache.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "core/fs.h"
#include "core/log.h"

#define FORMAT_VERSION 1u
#define KIND           "clgauge tuning cache"
#define MAX_BYTES      ((size_t)64 << 10) /* the largest file a load reads */
#define PATH_LEN       4096
#define NKEY           7

static const char *const key_names[NKEY] = {"platform", "device",     "driver", "workload",
                                            "rung",     "size_class", "options"};

/* The key's fields in key_names' order, NULL read as "". */
static void key_fields(const cg_tune_key *k, const char *f[NKEY])
{
    const char *v[NKEY] = {k->platform, k->device,     k->driver, k->workload,
                           k->rung,     k->size_class, k->options};
    for (int i = 0; i < NKEY; i++)
        f[i] = v[i] ? v[i] : "";
}

static bool fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return false;
}

void cg_tune_size_class(double items, char *buf, size_t len)
{
    if (!len) return;
    if (!isfinite(items) || items < 1)
        snprintf(buf, len, "0");
    else
        snprintf(buf, len, "2^%ld", lround(log2(items)));
}

/* ---- key and checksum */

static void feed128(XXH3_state_t *s, const char *field)
{
    uint64_t n = strlen(field); /* length-prefixed, so that ("ab","c") and ("a","bc") differ */
    XXH3_128bits_update(s, &n, sizeof n);
    if (n) XXH3_128bits_update(s, field, n);
}

/* The key's 32 hex digits (all zeros when out of memory, as cg_cache_key_make: the key fields in the file
 * still tell entries apart). */
static void key_hex(const cg_tune_key *k, char out[33])
{
    const char *f[NKEY];
    XXH128_hash_t h = {0, 0};
    XXH3_state_t *s = XXH3_createState();
    key_fields(k, f);
    if (s) {
        uint32_t v = FORMAT_VERSION;
        XXH3_128bits_reset(s);
        XXH3_128bits_update(s, &v, sizeof v);
        for (int i = 0; i < NKEY; i++)
            feed128(s, f[i]);
        h = XXH3_128bits_digest(s);
        XXH3_freeState(s);
    }
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
}

static void feed64(XXH64_state_t *s, const char *field)
{
    uint64_t n = strlen(field);
    XXH64_update(s, &n, sizeof n);
    if (n) XXH64_update(s, field, n);
}

/* XXH64 of the canonical content; false when out of memory. */
static bool checksum(const char *const f[NKEY], const cg_tune_entry *e, uint64_t *sum)
{
    XXH64_state_t *s = XXH64_createState();
    if (!s) return false;
    char best[40], dflt[40], cands[16];
    snprintf(best, sizeof best, "%.17g", e->t_best_s);
    snprintf(dflt, sizeof dflt, "%.17g", e->t_default_s);
    snprintf(cands, sizeof cands, "%u", e->candidates);
    const char *fields[] = {e->params, best, dflt, e->strategy, cands, e->when};
    uint32_t v = FORMAT_VERSION;
    XXH64_reset(s, 0);
    XXH64_update(s, &v, sizeof v);
    for (int i = 0; i < NKEY; i++)
        feed64(s, f[i]);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        feed64(s, fields[i]);
    *sum = XXH64_digest(s);
    XXH64_freeState(s);
    return true;
}

/* "<cache_dir>/tuned" and the key's file in it; false when either does not fit. */
static bool paths(const char *cache_dir, const cg_tune_key *k, char dir[PATH_LEN], char path[PATH_LEN])
{
    char hex[33];
    key_hex(k, hex);
    return snprintf(dir, PATH_LEN, "%s/tuned", cache_dir) < PATH_LEN &&
           snprintf(path, PATH_LEN, "%s/%s.json", dir, hex) < PATH_LEN;
}

void cg_tunecache_path(const char *cache_dir, const cg_tune_key *k, char *buf, size_t len)
{
    char hex[33];
    if (!len) return;
    buf[0] = 0;
    if (!cache_dir || !*cache_dir || !k) return;
    key_hex(k, hex);
    snprintf(buf, len, "%s/tuned/%s.json", cache_dir, hex);
}

/* ---- load */

/* The file's text (malloc'd, NUL-terminated) when it is a trusted regular file of at most MAX_BYTES; else
 * NULL with *missing set when it does not exist, or a reason in why. */
static char *read_trusted(const char *path, const char *cache_dir, const char *dir, size_t *len,
                          bool *missing, char *why, size_t wl)
{
    struct stat st;
    char trust[96], *text = NULL;
    size_t n = 0;
    FILE *f = cg_fs_fopen_regular(path, &st);
    if (!f) {
        if (errno == ENOENT)
            *missing = true;
        else
            fail(why, wl, "cannot read it: %s", cg_fs_strerror(errno));
        return NULL;
    }
    if (!cg_fs_dir_trusted(cache_dir, trust, sizeof trust))
        fail(why, wl, "its directory %s is not trusted: %s", cache_dir, trust);
    else if (!cg_fs_dir_trusted(dir, trust, sizeof trust))
        fail(why, wl, "its directory %s is not trusted: %s", dir, trust);
    else if (!cg_fs_file_trusted(&st, trust, sizeof trust))
        fail(why, wl, "not trusted: %s", trust);
    else if ((uintmax_t)st.st_size > MAX_BYTES)
        fail(why, wl, "larger than %zu bytes: not a tuning cache file", MAX_BYTES);
    else if (!(text = malloc(MAX_BYTES + 1)))
        fail(why, wl, "out of memory");
    else if ((n = fread(text, 1, MAX_BYTES + 1, f)) > MAX_BYTES || ferror(f)) {
        if (n > MAX_BYTES)
            fail(why, wl, "grew past %zu bytes while being read", MAX_BYTES);
        else
            fail(why, wl, "read error");
        free(text);
        text = NULL;
    }
    fclose(f);
    if (text) {
        text[n] = 0;
        *len = n;
    }
    return text;
}

/* o's member name as a string, or NULL with why set. */
static const char *get_str(const cJSON *o, const char *where, const char *name, char *why, size_t wl)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (cJSON_IsString(v) && v->valuestring) return v->valuestring;
    fail(why, wl, "%s%s%s is %s", where, *where ? "." : "", name, v ? "not a string" : "missing");
    return NULL;
}

/* o's member name as a number within [lo, hi] (whole when asked), or false with why set. */
static bool get_num(const cJSON *o, const char *where, const char *name, double lo, double hi, bool whole,
                    double *out, char *why, size_t wl)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsNumber(v))
        return fail(why, wl, "%s%s%s is %s", where, *where ? "." : "", name, v ? "not a number" : "missing");
    double d = v->valuedouble;
    if (!isfinite(d) || d < lo || d > hi || (whole && d != floor(d)))
        return fail(why, wl, "%s%s%s is out of range", where, *where ? "." : "", name);
    *out = d;
    return true;
}

/* Copies entry.name into dst (cap bytes with the NUL), or false with why set. */
static bool copy_str(const cJSON *o, const char *name, char *dst, size_t cap, char *why, size_t wl)
{
    const char *s = get_str(o, "entry", name, why, wl);
    if (!s) return false;
    size_t n = strlen(s);
    if (n >= cap)
        return fail(why, wl, "entry.%s is %zu bytes long, over the %zu this build holds", name, n, cap - 1);
    memcpy(dst, s, n + 1);
    return true;
}

static bool read_entry(const cJSON *top, cg_tune_entry *e, char *why, size_t wl)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(top, "entry");
    double c = 0;
    if (!cJSON_IsObject(o)) return fail(why, wl, "entry is %s", o ? "not an object" : "missing");
    if (!copy_str(o, "params", e->params, sizeof e->params, why, wl) ||
        !get_num(o, "entry", "t_best_s", 0, HUGE_VAL, false, &e->t_best_s, why, wl) ||
        !get_num(o, "entry", "t_default_s", 0, HUGE_VAL, false, &e->t_default_s, why, wl) ||
        !copy_str(o, "strategy", e->strategy, sizeof e->strategy, why, wl) ||
        !get_num(o, "entry", "candidates", 0, UINT_MAX, true, &c, why, wl) ||
        !copy_str(o, "when", e->when, sizeof e->when, why, wl))
        return false;
    e->candidates = (unsigned)c;
    return true;
}

/* The stored checksum (16 hex digits) against the one of the content read. */
static bool check_sum(const cJSON *top, const char *const f[NKEY], const cg_tune_entry *e, char *why,
                      size_t wl)
{
    const char *s = get_str(top, "", "checksum", why, wl);
    uint64_t sum;
    if (!s) return false;
    if (strlen(s) != 16 || strspn(s, "0123456789abcdef") != 16)
        return fail(why, wl, "checksum is not 16 hex digits");
    if (!checksum(f, e, &sum)) return fail(why, wl, "out of memory");
    if (strtoull(s, NULL, 16) != sum) return fail(why, wl, "checksum mismatch (corrupt or edited)");
    return true;
}

/* Checks the parsed document against k and fills *e. */
static bool check_doc(const cJSON *top, const cg_tune_key *k, cg_tune_entry *e, char *why, size_t wl)
{
    const cJSON *kind = cJSON_IsObject(top) ? cJSON_GetObjectItemCaseSensitive(top, "kind") : NULL;
    const char *f[NKEY], *want[NKEY];
    double v = 0;
    if (!cJSON_IsString(kind) || !kind->valuestring || strcmp(kind->valuestring, KIND))
        return fail(why, wl, "not a tuning cache file (no \"kind\": \"" KIND "\")");
    if (!get_num(top, "", "version", -HUGE_VAL, HUGE_VAL, false, &v, why, wl)) return false;
    if (v != FORMAT_VERSION)
        return fail(why, wl, "format version differs (this build reads version %u)", FORMAT_VERSION);
    const cJSON *key = cJSON_GetObjectItemCaseSensitive(top, "key");
    if (!cJSON_IsObject(key)) return fail(why, wl, "key is %s", key ? "not an object" : "missing");
    for (int i = 0; i < NKEY; i++)
        if (!(f[i] = get_str(key, "key", key_names[i], why, wl))) return false;
    if (!read_entry(top, e, why, wl) || !check_sum(top, f, e, why, wl)) return false;
    key_fields(k, want);
    for (int i = 0; i < NKEY; i++)
        if (strcmp(f[i], want[i]))
            return fail(why, wl, "holds the entry of another key (its %s differs)", key_names[i]);
    return true;
}

static bool parse_check(const char *text, size_t len, const cg_tune_key *k, cg_tune_entry *e, char *why,
                        size_t wl)
{
    if (strlen(text) != len) return fail(why, wl, "not a tuning cache file (it holds a NUL byte)");
    cJSON *top = cJSON_ParseWithOpts(text, NULL, true);
    if (!top) return fail(why, wl, "not valid JSON (truncated or corrupt)");
    bool ok = check_doc(top, k, e, why, wl);
    cJSON_Delete(top);
    return ok;
}

bool cg_tunecache_load(const char *cache_dir, const cg_tune_key *k, cg_tune_entry *e)
{
    char dir[PATH_LEN], path[PATH_LEN], why[192] = "";
    if (!cache_dir || !*cache_dir || !k || !e) return false;
    if (!paths(cache_dir, k, dir, path)) {
        CG_WARN("tuning cache directory %s/tuned: path too long; not using tuned parameters", cache_dir);
        return false;
    }
    bool missing = false;
    size_t len = 0;
    cg_tune_entry got;
    memset(&got, 0, sizeof got);
    char *text = read_trusted(path, cache_dir, dir, &len, &missing, why, sizeof why);
    bool ok = text && parse_check(text, len, k, &got, why, sizeof why);
    free(text);
    if (ok)
        *e = got;
    else if (!missing)
        CG_WARN("tuning cache file %s: %s; ignoring it (the next `clgauge tune` of this rung replaces it)",
                path, why);
    return ok;
}

/* ---- store */

/* Whether e can be written and read back: its strings end within their arrays, its numbers are finite. */
static bool entry_valid(const cg_tune_entry *e, char *why, size_t wl)
{
    if (strnlen(e->params, sizeof e->params) == sizeof e->params ||
        strnlen(e->strategy, sizeof e->strategy) == sizeof e->strategy ||
        strnlen(e->when, sizeof e->when) == sizeof e->when)
        return fail(why, wl, "the entry has an unterminated string");
    if (!isfinite(e->t_best_s) || !isfinite(e->t_default_s) || e->t_best_s < 0 || e->t_default_s < 0)
        return fail(why, wl, "the entry has a time that is negative or not finite");
    return true;
}

/* v as the fewest digits that read back as the same double (cJSON's own printer may round off the last bit,
 * which would fail the checksum), as in model/times.c. */
static cJSON *add_num(cJSON *o, const char *name, double v)
{
    char buf[40];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) break;
    }
    return cJSON_AddRawToObject(o, name, buf);
}

/* The file's text (malloc'd, ending in a newline), or NULL when out of memory. */
static char *render(const char *const f[NKEY], const cg_tune_entry *e, uint64_t sum)
{
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)sum);
    cJSON *top = cJSON_CreateObject();
    bool ok =
        cJSON_AddStringToObject(top, "kind", KIND) && cJSON_AddNumberToObject(top, "version", FORMAT_VERSION);
    cJSON *key = cJSON_AddObjectToObject(top, "key");
    for (int i = 0; i < NKEY; i++)
        ok = ok && cJSON_AddStringToObject(key, key_names[i], f[i]);
    cJSON *o = cJSON_AddObjectToObject(top, "entry");
    ok = ok && cJSON_AddStringToObject(o, "params", e->params) && add_num(o, "t_best_s", e->t_best_s) &&
         add_num(o, "t_default_s", e->t_default_s) && cJSON_AddStringToObject(o, "strategy", e->strategy) &&
         add_num(o, "candidates", e->candidates) && cJSON_AddStringToObject(o, "when", e->when) &&
         cJSON_AddStringToObject(top, "checksum", hex);
    char *text = ok ? cJSON_Print(top) : NULL, *out = NULL;
    cJSON_Delete(top);
    size_t n = text ? strlen(text) : 0;
    if (text && (out = malloc(n + 2))) {
        memcpy(out, text, n);
        memcpy(out + n, "\n", 2);
    }
    cJSON_free(text);
    return out;
}

/* Makes <cache_dir>/tuned and writes the file; false with why set. */
static bool write_entry(const char *cache_dir, const char *dir, const char *path, const cg_tune_key *k,
                        const cg_tune_entry *e, char *why, size_t wl)
{
    const char *f[NKEY];
    char trust[96], *text = NULL;
    uint64_t sum = 0;
    bool ok = false;
    key_fields(k, f);
    if (!entry_valid(e, why, wl))
        ;
    else if (!cg_fs_mkdirs(dir))
        fail(why, wl, "cannot create %s: %s", dir, strerror(errno));
    else if (!cg_fs_dir_trusted(cache_dir, trust, sizeof trust) ||
             !cg_fs_dir_trusted(dir, trust, sizeof trust))
        fail(why, wl, "its directory is not trusted: %s (chmod go-w, or --cache-dir DIR)", trust);
    else if (!checksum(f, e, &sum) || !(text = render(f, e, sum)))
        fail(why, wl, "out of memory");
    else if (strlen(text) > MAX_BYTES)
        fail(why, wl, "the file would be larger than the %zu bytes a load reads (key fields too long)",
             MAX_BYTES);
    else if (!cg_fs_write_atomic(path, text, strlen(text)))
        fail(why, wl, "%s", strerror(errno));
    else
        ok = true;
    free(text);
    return ok;
}

bool cg_tunecache_store(const char *cache_dir, const cg_tune_key *k, const cg_tune_entry *e)
{
    char dir[PATH_LEN], path[PATH_LEN], why[192] = "";
    if (!k || !e) return false;
    if (!cache_dir || !*cache_dir) {
        CG_WARN(
            "cannot store the tuned parameters: no usable cache directory (give one with --cache-dir DIR)");
        return false;
    }
    if (!paths(cache_dir, k, dir, path)) {
        CG_WARN("cannot write the tuning cache under %s: path too long (give a shorter --cache-dir)",
                cache_dir);
        return false;
    }
    if (write_entry(cache_dir, dir, path, k, e, why, sizeof why)) return true;
    CG_WARN("cannot write tuning cache file %s: %s; the tuned parameters are not kept", path, why);
    return false;
}
