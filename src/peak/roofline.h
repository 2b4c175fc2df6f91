/* The two quick ceilings the roofline needs: copy (and read-only) bandwidth from a float4 copy/read kernel
 * and the fp32 MAD rate, measured once per device and cached next to the program cache. */
#ifndef CG_ROOFLINE_H
#define CG_ROOFLINE_H
#include <stdbool.h>
#include "core/context.h"

typedef struct cg_roofline {
    double copy_gbps; /* bytes read + bytes written, once each */
    double read_gbps; /* bytes read */
    double mad_gflops; /* 2 FLOPs per MAD */
    bool from_cache;
} cg_roofline;

/* Returns the cached ceilings for this device and driver, or measures them (a fraction of a second on a GPU,
 * a few seconds on PoCL) and caches them. A corrupt cache file is measured again with a warning. */
cg_status cg_roofline_get(cg_ctx *ctx, bool no_cache, cg_roofline *out);

#endif
