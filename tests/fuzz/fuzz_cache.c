/* Fuzz target: program-binary cache entries (cg_cache_load), the file a later run hands to the OpenCL driver.
 * Each input is read twice: as it is, with the key it names (so the reader gets past the key check), and with
 * its size and checksum fields recomputed (a crafted entry: valid checksum, any binary), which must then load
 * whole. Contract checked: no crash, leak or sanitizer report; a refusal has a reason; what loads is exactly
 * the stored binary. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "core/program.h"
#include "fuzz.h"

/* Layout (cache.c): magic 8 | version u32 | key hi u64 | key lo u64 | size u64 | binary | XXH64 u64. */
#define HEAD 36

static cg_cache_key key_of(const uint8_t *data, size_t size)
{
    cg_cache_key k = {0x0123456789abcdefull, 0xfedcba9876543210ull};
    if (size >= 28) {
        memcpy(&k.hi, data + 12, 8);
        memcpy(&k.lo, data + 20, 8);
    }
    return k;
}

static bool load(const uint8_t *data, size_t size, unsigned char **bin, size_t *n)
{
    char why[256] = "";
    const char *path = cg_fuzz_file(0, data, size);
    bool ok = cg_cache_load(path, key_of(data, size), bin, n, why, sizeof why);
    if (ok ? !*bin || !*n : *bin || !why[0]) abort();
    return ok;
}

/* The input with a consistent size and checksum: loading it must give back its binary. */
static void crafted(const uint8_t *data, size_t size)
{
    if (size < HEAD) return;
    uint64_t n = size - HEAD, sum = XXH64(data + HEAD, n, 0);
    uint8_t *copy = malloc(size + 8);
    if (!copy) abort();
    memcpy(copy, data, size);
    memcpy(copy + 28, &n, 8);
    memcpy(copy + size, &sum, 8);
    unsigned char *bin = NULL;
    size_t got = 0;
    if (load(copy, size + 8, &bin, &got) && (got != n || memcmp(bin, data + HEAD, n))) abort();
    free(bin);
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *bin = NULL;
    size_t n = 0;
    load(data, size, &bin, &n);
    free(bin);
    crafted(data, size);
    return 0;
}
