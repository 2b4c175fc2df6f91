/* The program-binary cache file format and key (see the contract in program.h).
 * Layout: "CLGCACHE" (8 bytes) | format version u32 | key hi u64 | key lo u64 | size u64 | binary |
 * XXH64(binary). Loads check, before a binary reaches the driver: a regular file owned by the user and not
 * writable by group or others, the magic, version and key, a size within bounds that matches the file's real
 * length, and the checksum. Stores go through cg_fs_write_atomic (mkstemp 0600, fsync, rename). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "core/fs.h"
#include "core/program.h"

static const char magic[8] = {'C', 'L', 'G', 'C', 'A', 'C', 'H', 'E'};

static void feed(XXH3_state_t *s, const char *field)
{
    /* length-prefixed, so that ("ab","c") and ("a","bc") differ */
    uint64_t n = field ? strlen(field) : 0;
    XXH3_128bits_update(s, &n, sizeof n);
    if (n) XXH3_128bits_update(s, field, n);
}

cg_cache_key cg_cache_key_make(const char *source, const char *options, const char *platform,
                               const char *device, const char *driver)
{
    XXH3_state_t *s = XXH3_createState();
    cg_cache_key k = {0, 0};
    if (!s) return k;
    XXH3_128bits_reset(s);
    uint32_t v = CG_CACHE_FORMAT_VERSION;
    XXH3_128bits_update(s, &v, sizeof v);
    feed(s, source);
    feed(s, options);
    feed(s, platform);
    feed(s, device);
    feed(s, driver);
    XXH128_hash_t h = XXH3_128bits_digest(s);
    XXH3_freeState(s);
    k.hi = h.high64;
    k.lo = h.low64;
    return k;
}

void cg_cache_key_hex(cg_cache_key k, char out[33])
{
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)k.hi, (unsigned long long)k.lo);
}

#define HEADER_BYTES (8 + 4 + 8 + 8 + 8)

bool cg_cache_store(const char *path, cg_cache_key k, const unsigned char *bin, size_t n)
{
    uint32_t v = CG_CACHE_FORMAT_VERSION;
    uint64_t size = n, sum = XXH64(bin, n, 0);
    size_t total = HEADER_BYTES + n + 8;
    unsigned char *buf = malloc(total), *p = buf;
    if (!buf) return false;
    memcpy(p, magic, 8);
    memcpy(p += 8, &v, 4);
    memcpy(p += 4, &k.hi, 8);
    memcpy(p += 8, &k.lo, 8);
    memcpy(p += 8, &size, 8);
    if (n)
        memcpy(p += 8, bin, n);
    else
        p += 8;
    memcpy(p + n, &sum, 8);
    bool ok = cg_fs_write_atomic(path, buf, total);
    int e = errno;
    free(buf);
    errno = e;
    return ok;
}

static bool fail(char *why, size_t len, const char *msg)
{
    snprintf(why, len, "%s", msg);
    return false;
}

/* Checks the header against the key and the file's real size; the binary's size in *size. */
static bool check_header(FILE *f, const struct stat *st, cg_cache_key k, uint64_t *size, char *why,
                         size_t whylen)
{
    char m[8];
    uint32_t v = 0;
    uint64_t hi = 0, lo = 0;
    if (fread(m, 8, 1, f) != 1 || memcmp(m, magic, 8))
        return fail(why, whylen, "not a clgauge cache file (bad magic)");
    if (fread(&v, sizeof v, 1, f) != 1 || v != CG_CACHE_FORMAT_VERSION)
        return fail(why, whylen, "cache format version differs");
    if (fread(&hi, 8, 1, f) != 1 || fread(&lo, 8, 1, f) != 1 || hi != k.hi || lo != k.lo)
        return fail(why, whylen, "key mismatch (stale entry)");
    if (fread(size, 8, 1, f) != 1 || *size == 0 || *size > CG_CACHE_MAX_BINARY)
        return fail(why, whylen, "truncated or corrupt (bad size)");
    if ((uint64_t)st->st_size != HEADER_BYTES + *size + 8)
        return fail(why, whylen, "truncated or corrupt (the file's length does not match its header)");
    return true;
}

bool cg_cache_load(const char *path, cg_cache_key k, unsigned char **bin, size_t *n, char *why, size_t whylen)
{
    *bin = NULL;
    *n = 0;
    struct stat st;
    char trust[96];
    FILE *f = cg_fs_fopen_regular(path, &st);
    if (!f) return fail(why, whylen, errno == ENOENT ? "missing" : cg_fs_strerror(errno));
    uint64_t size = 0, sum = 0;
    bool ok = false;
    if (!cg_fs_file_trusted(&st, trust, sizeof trust))
        snprintf(why, whylen, "not trusted: %s", trust);
    else if (!check_header(f, &st, k, &size, why, whylen))
        ;
    else if (!(*bin = malloc(size)))
        fail(why, whylen, "out of memory");
    else if (fread(*bin, size, 1, f) != 1 || fread(&sum, 8, 1, f) != 1)
        fail(why, whylen, "truncated");
    else if (XXH64(*bin, size, 0) != sum)
        fail(why, whylen, "checksum mismatch (corrupt)");
    else
        ok = true;
    fclose(f);
    if (!ok) {
        free(*bin);
        *bin = NULL;
        return false;
    }
    *n = size;
    return true;
}
