/* Program builds from the embedded .cl sources (or --kernel-dir), through the program-binary cache.
 *
 * Cache contract (after ggml's cl-program-cache): one file per program under ctx->cache_dir named by the key,
 * key = XXH3-128 of (format version, source text, build options, platform name+version, device name+version,
 * driver version). The file holds a magic header, the format version, the key, the binary size, the binary
 * and an XXH64 of the binary; it is written to a temporary name and renamed. Any failure to read, a wrong
 * magic, key or checksum, or a binary the driver refuses gives one warning line and a normal build from
 * source, whose binary then replaces the bad file. */
#ifndef CG_PROGRAM_H
#define CG_PROGRAM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/context.h"

typedef struct cg_build_info {
    double ms;          /* wall time of the build (or of loading and building the cached binary) */
    bool cache_hit;     /* the binary came from the cache */
    bool build_failed;  /* the compiler rejected the source: the log was logged */
    char log_head[256]; /* first line(s) of the build log on failure */
} cg_build_info;

#define CG_CACHE_FORMAT_VERSION 1u

/* Source text of a .cl file: from ctx->kernel_dir when set (CG_E_IO with a logged line if unreadable), else
 * the embedded copy (CG_E_RUNTIME if no such file was embedded). *text is malloc'd; free it. */
cg_status cg_program_source(const cg_ctx *ctx, const char *file, char **text);

/* Builds `file` with `options` ("-cl-std=CL1.2" is not added: the caller owns the options). On a compile
 * error returns CG_E_RUNTIME with bi->build_failed set and the build log logged. */
cg_status cg_program_build(const cg_ctx *ctx, const char *file, const char *options, cl_program *out,
                           cg_build_info *bi);

/* The cache key of a build (exposed for tests). */
typedef struct cg_cache_key {
    uint64_t hi, lo;
} cg_cache_key;
cg_cache_key cg_cache_key_make(const char *source, const char *options, const char *platform,
                               const char *device, const char *driver);
/* Hex name of a key: 32 characters + NUL. */
void cg_cache_key_hex(cg_cache_key k, char out[33]);

/* Cache file I/O (exposed for tests): store writes temp-then-rename; load returns false and fills why with a
 * short reason when the file is missing, corrupt or for another key. *bin is malloc'd. */
bool cg_cache_store(const char *path, cg_cache_key k, const unsigned char *bin, size_t n);
bool cg_cache_load(const char *path, cg_cache_key k, unsigned char **bin, size_t *n, char *why,
                   size_t whylen);

#endif
