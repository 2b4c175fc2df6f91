/* The tuning cache: the winners of `clgauge tune`, which `clgauge run` applies to its rungs unless --no-tuned
 * (docs/tune.md, "The tuning cache"). The program cache's rules (core/program.h): one file per key under
 * <cache dir>/tuned/, named by the key's hex digest; written to a unique temporary name (mkstemp, 0600),
 * fsync'd and renamed (cg_fs_write_atomic); used only when the directory and the file are the user's and not
 * writable by group or others. The file is a small JSON object (cJSON) holding its own key fields and an
 * XXH64 of its canonical content; a file that cannot be read, is not such an object, names another key or
 * fails the checksum gives one warning line and is ignored (the next tune of that key replaces it). */
#ifndef CG_TUNECACHE_H
#define CG_TUNECACHE_H
#include <stdbool.h>
#include <stddef.h>

/* What a winner is keyed by: the device (platform, name, driver version), the workload, the rung, the size
 * class (the rung's item count rounded to a power of two: "2^24") and the workload options given on the
 * command line in a canonical form ("filter=5"; "" for none). */
typedef struct cg_tune_key {
    const char *platform, *device, *driver;
    const char *workload, *rung, *size_class, *options;
} cg_tune_key;

/* A stored winner. */
typedef struct cg_tune_entry {
    char params[128];    /* "wg=128,copies=4" (cg_tune_format) */
    double t_best_s;     /* the winner's median, seconds */
    double t_default_s;  /* the rung's own parameters' median in the same search, seconds (0: not timed) */
    char strategy[16];   /* "exhaustive", "random", "anneal" */
    unsigned candidates; /* candidates timed */
    char when[32];       /* UTC time of the search, ISO 8601 */
} cg_tune_entry;

/* "2^24" for n items: the power of two nearest to n (log2 rounded), "0" for n < 1. */
void cg_tune_size_class(double items, char *buf, size_t len);

/* The file for key k under cache_dir: "<cache_dir>/tuned/<32 hex>.json". */
void cg_tunecache_path(const char *cache_dir, const cg_tune_key *k, char *buf, size_t len);

/* The stored winner for k: true and *e filled when a trusted, well-formed entry with this key exists; false
 * when there is none (silently) or the entry is damaged or untrusted (one warning line naming the file).
 * cache_dir
 * "" or NULL: false. */
bool cg_tunecache_load(const char *cache_dir, const cg_tune_key *k, cg_tune_entry *e);

/* Stores e under k, replacing any entry atomically (creating <cache_dir>/tuned, 0700, when missing). false
 * with one warning line when it cannot be written; the old entry, if any, is then unchanged. */
bool cg_tunecache_store(const char *cache_dir, const cg_tune_key *k, const cg_tune_entry *e);

#endif
