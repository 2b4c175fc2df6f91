/* Program builds from the embedded .cl sources (or --kernel-dir), through the program-binary cache.
 *
 * Cache contract (after ggml's cl-program-cache): one file per program under ctx->cache_dir named by the key,
 * key = XXH3-128 of (format version, source text, build options, platform name+version, device name+version,
 * driver version). The file holds a magic header, the format version, the key, the binary size, the binary
 * and an XXH64 of the binary; it is written to a unique temporary name (mkstemp, mode 0600) and renamed, so a
 * killed write leaves no entry under the key's name. The directory is used only when it is the user's and not
 * writable by group or others (cg_ctx_init), an entry only when it is a regular file with the same owner and
 * mode rules. Any failure to read, an untrusted entry, a wrong magic, key, size or checksum, or a binary the
 * driver refuses (clCreateProgramWithBinary or clBuildProgram) gives one warning line and a normal build from
 * source, whose binary then replaces the bad file. A failure to write is one warning per run. */
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
/* The largest program binary a cache entry may hold (2 GiB). */
#define CG_CACHE_MAX_BINARY ((uint64_t)1 << 31)

/* Source text of a .cl file: from ctx->kernel_dir when set (CG_E_IO with a logged line if unreadable), else
 * the embedded copy (CG_E_RUNTIME if no such file was embedded). *text is malloc'd; free it. */
cg_status cg_program_source(const cg_ctx *ctx, const char *file, char **text);

/* The largest .cl file read from --kernel-dir (16 MiB). */
#define CG_SOURCE_MAX ((size_t)16 << 20)
/* Room for the build options a workload adds to a rung's (core/workload.h: options; blur's ring-taps writes
 * up to 193 taps as hex floats). */
#define CG_EXTRA_OPTIONS_MAX 4096

/* Checks, before any device work, that kernel_dir (NULL: the embedded sources, always fine) holds each of the
 * n files as a regular file that can be opened for reading. On the first that cannot, logs one line naming
 * the file, the reason and the fix, and returns CG_E_IO (exit 5; CG_E_USAGE for a path too long). */
cg_status cg_program_check_sources(const char *kernel_dir, const char *const *files, size_t n);

/* Checks that the built program p defines `kernel`; otherwise logs one line naming the kernel and the file it
 * came from ("kernel 'x' not found in DIR/file.cl (empty file, ...)") and returns CG_E_RUNTIME. */
cg_status cg_program_check_kernel(const cg_ctx *ctx, cl_program p, const char *file, const char *kernel);

/* Builds `file` with `options` ("-cl-std=CL1.2" is not added: the caller owns the options). On a compile
 * error returns CG_E_RUNTIME with bi->build_failed set and the build log logged. A program built earlier in
 * this process for the same source, options and device (ctx->memo) is returned again, retained, without a
 * build: bi->ms is then the lookup's time and bi->cache_hit that of the first build. The caller releases
 * *out.
 */
cg_status cg_program_build(const cg_ctx *ctx, const char *file, const char *options, cl_program *out,
                           cg_build_info *bi);

/* Builds `file` from source, followed by `extra` (more source, or NULL), with `options`, never through the
 * cache, and returns its build log in *log (malloc'd, NUL-terminated; free it), whether the build succeeded
 * or not; the program is released. For logs that only a build prints, such as NVIDIA's ptxas report under
 * -cl-nv-verbose (core/kfacts.h). CG_E_RUNTIME (*log NULL) when no log could be had. */
cg_status cg_program_build_log(const cg_ctx *ctx, const char *file, const char *extra, const char *options,
                               char **log);

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
