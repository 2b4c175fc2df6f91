/* The program-binary cache file format and key (see the contract in program.h).
 * Layout: "CLGCACHE" (8 bytes) | format version u32 | key hi u64 | key lo u64 | size u64 | binary |
 * XXH64(binary). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>
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

bool cg_cache_store(const char *path, cg_cache_key k, const unsigned char *bin, size_t n)
{
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) return false;
    uint32_t v = CG_CACHE_FORMAT_VERSION;
    uint64_t size = n, sum = XXH64(bin, n, 0);
    bool ok = fwrite(magic, 8, 1, f) == 1 && fwrite(&v, sizeof v, 1, f) == 1 && fwrite(&k.hi, 8, 1, f) == 1 &&
              fwrite(&k.lo, 8, 1, f) == 1 && fwrite(&size, 8, 1, f) == 1 &&
              (n == 0 || fwrite(bin, n, 1, f) == 1) && fwrite(&sum, 8, 1, f) == 1;
    ok = (fclose(f) == 0) && ok;
    if (ok) ok = rename(tmp, path) == 0;
    if (!ok) remove(tmp);
    return ok;
}

static bool fail(char *why, size_t len, const char *msg)
{
    snprintf(why, len, "%s", msg);
    return false;
}

bool cg_cache_load(const char *path, cg_cache_key k, unsigned char **bin, size_t *n, char *why, size_t whylen)
{
    *bin = NULL;
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return fail(why, whylen, errno == ENOENT ? "missing" : strerror(errno));
    char m[8];
    uint32_t v = 0;
    uint64_t hi = 0, lo = 0, size = 0, sum = 0;
    bool ok = false;
    if (fread(m, 8, 1, f) != 1 || memcmp(m, magic, 8))
        fail(why, whylen, "not a clgauge cache file (bad magic)");
    else if (fread(&v, sizeof v, 1, f) != 1 || v != CG_CACHE_FORMAT_VERSION)
        fail(why, whylen, "cache format version differs");
    else if (fread(&hi, 8, 1, f) != 1 || fread(&lo, 8, 1, f) != 1 || hi != k.hi || lo != k.lo)
        fail(why, whylen, "key mismatch (stale entry)");
    else if (fread(&size, 8, 1, f) != 1 || size == 0 || size > (1ull << 31))
        fail(why, whylen, "truncated or corrupt (bad size)");
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
