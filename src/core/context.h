/* The OpenCL context and profiling queue on the selected device, with the settings every build and run reads
 * (kernel source directory, program cache). */
#ifndef CG_CONTEXT_H
#define CG_CONTEXT_H
#include <stdbool.h>
#include <stdint.h>
#include "core/device.h"

/* The programs this process built (core/program.c), by cache key: a rung whose source and options were built
 * earlier in the run (the next size of a sweep, rungs sharing options) gets the same program again instead of
 * a new build. At most CG_PROG_MEMO_MAX; cg_ctx_fini releases them. */
#define CG_PROG_MEMO_MAX 256
typedef struct cg_prog_memo {
    size_t n;
    struct {
        uint64_t hi, lo;
        cl_program p;
        bool cache_hit; /* the program came from the binary cache (cg_build_info.cache_hit, repeated) */
    } e[CG_PROG_MEMO_MAX];
} cg_prog_memo;

typedef struct cg_ctx {
    const cg_device *dev;
    cl_context context;
    cl_command_queue queue;  /* in-order, CL_QUEUE_PROFILING_ENABLE */
    unsigned offered;        /* dev->features plus the image formats the context supports (CG_FEAT_IMAGE_*) */
    unsigned features;       /* offered minus what the user masked (--mask-features) */
    const char *kernel_dir;  /* NULL: the .cl sources embedded at build time */
    bool no_cache;           /* true: never read or write the program cache */
    char cache_dir[1024];    /* "" when no cache directory could be found or it is not trusted */
    struct cg_buf_reg *bufs; /* the buffers workloads created through cg_buffer_create (core/buffers.h) */
    cg_prog_memo *memo;      /* NULL when it could not be allocated: every rung builds its own program */
    /* CLGAUGE_EMULATE_MMA=1 where the device lacks nvidia-mma: offered has it, and the rungs that need it
     * build with -DEMULATE_MMA=1 (their kernels' OpenCL C stand-in for the inline PTX: a test of their logic,
     * not of their speed) */
    bool mma_emulated;
} cg_ctx;

/* Creates the context and queue. cache_dir NULL picks $CLGAUGE_CACHE_DIR, $XDG_CACHE_HOME/clgauge or
 * ~/.cache/clgauge. Unless no_cache, the directory and its programs/ subdirectory are created (mode 0700) and
 * must be owned by the effective user and not writable by group or others; otherwise one warning is logged
 * and c->cache_dir is left empty (no cache this run). */
cg_status cg_ctx_init(cg_ctx *c, const cg_device *dev, unsigned masked, const char *kernel_dir, bool no_cache,
                      const char *cache_dir);
void cg_ctx_fini(cg_ctx *c);

#endif
