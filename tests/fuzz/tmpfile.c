/* The fuzz targets' scratch files: one per slot and process, created on first use and removed at exit. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "fuzz.h"

#define SLOTS 4

static char paths[SLOTS][512];

static void remove_all(void)
{
    for (int i = 0; i < SLOTS; i++)
        if (paths[i][0]) unlink(paths[i]);
}

static void create(int slot)
{
    const char *dir = getenv("TMPDIR");
    char *p = paths[slot];
    snprintf(p, sizeof paths[slot], "%s/cgfuzz-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(p);
    if (fd < 0) {
        perror("cg_fuzz_file: mkstemp");
        abort();
    }
    close(fd);
    static int registered;
    if (!registered++) atexit(remove_all);
}

const char *cg_fuzz_file(int slot, const uint8_t *data, size_t size)
{
    if (slot < 0 || slot >= SLOTS) abort();
    if (!paths[slot][0]) create(slot);
    FILE *f = fopen(paths[slot], "wb");
    if (!f || (size && fwrite(data, size, 1, f) != 1) || fclose(f) != 0) {
        perror("cg_fuzz_file: write");
        abort();
    }
    return paths[slot];
}
