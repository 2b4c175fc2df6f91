/* The three ceilings the roofline needs: copy and read bandwidth and the fp32 MAD rate. They come from the
 * per-device cache that `clgauge peak` writes (every width and strategy: the "full" figures) when present,
 * else from the quick cache, else `peak --quick` is measured through the same code and cached. */
#ifndef CG_ROOFLINE_H
#define CG_ROOFLINE_H
#include <stdbool.h>
#include "core/context.h"

typedef struct cg_roofline {
    double copy_gbps;  /* bytes read + bytes written, once each */
    double read_gbps;  /* bytes read */
    double mad_gflops; /* 2 FLOPs per MAD */
    bool from_cache;
    bool full; /* the figures of a full `clgauge peak` run (else `peak --quick`) */
} cg_roofline;

/* Returns the cached ceilings for this device and driver (the full peak figures first, then the quick ones),
 * or measures the quick ones (a fraction of a second on a GPU, a few seconds on PoCL) and caches them. A
 * corrupt cache file is measured again with a warning. */
cg_status cg_roofline_get(cg_ctx *ctx, bool no_cache, cg_roofline *out);

/* The cached ceilings only (the full figures first, then the quick ones), never measured: false when neither
 * cache file exists or the cache is off. Sets out->full. */
bool cg_roofline_cached(const cg_ctx *ctx, cg_roofline *out);

/* Reads one roofline cache file (exposed for the fuzz target tests/fuzz/fuzz_roofline.c): true with the three
 * ceilings set (each a number > 0) in r; false when the file is missing or unreadable, or with one warning
 * when it is corrupt. Never crashes or hangs on a hostile file. */
bool cg_roofline_load(const char *path, cg_roofline *r);

/* Caches ceilings taken from a peak run (full: a run of every bandwidth width and fp32 width, which `run`
 * then prefers). Failure to write is a warning. */
void cg_roofline_save(const cg_ctx *ctx, const cg_roofline *r);

#endif
