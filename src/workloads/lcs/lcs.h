/* The lcs workload's shared definitions: the meaning of a rung's p[], the plans (how a rung launches), the
 * padding of the device arrays, and the state that lcs.c (options, inputs, setup, check), lcs_launch.c (each
 * rung's kernels and launches) and lcs_ref.c (the CPU references) share. */
#ifndef CG_LCS_H
#define CG_LCS_H
#include <stdbool.h>
#include <stdint.h>
#include "core/workload.h"

/* cg_rung.p[]: plan, work-group size, tile side (or vector width; the tiled plan: columns), bits per word,
 * rows per work-item of the tiled plan (0: 1; its tiles are WG x that rows high). */
enum { P_PLAN, P_WG, P_TILE, P_WBITS, P_RPI };
/* How a rung launches: one launch per cell diagonal (row-major matrix, three diagonals, padded three
 * diagonals), per tile diagonal (one tile per work-item, scalar or 16 rows as vector
 * lanes; one per work-group), bit-parallel (one work-item, one
 * group, many groups handing carries on), and the host reference (a native kernel running the pthreads DP).
 */
enum {
    PLAN_NAIVE,
    PLAN_DIAG3,
    PLAN_PADDED,
    PLAN_TILE_ITEM,
    PLAN_TILE_SIMD,
    PLAN_TILED,
    PLAN_BITPAR,
    PLAN_BITPAR_WG,
    PLAN_BITPAR_GRID,
    PLAN_REF
};
#define LCS_SIMD_ROWS 16 /* rows of a tile-simd tile: the lanes of its int16 vectors */

#define LCS_PAD       1024 /* padding of the diagonal arrays and ushort strings: >= work-group x 4 */
#define LCS_STR_ROUND 4096 /* the byte strings are padded to a multiple of this (>= every tile side) */
#define LCS_MAX_LEN   ((1 << 30) - 1) /* n + m (a diagonal's index) stays below 2^31 */
#define LCS_MAX_PAIRS (1 << 24)       /* --pairs */
#define LCS_PAIRS_LEN 2048            /* each string's default length with --pairs above 1 */
#define LCS_TRACE_LEN 16384           /* each string's default length with --traceback */
/* Elements of a padded ushort string of len characters (lcs.c): sentinels before and after. */
#define LCS_WIDE_LEN(len) ((len) + 2 * LCS_PAD + LCS_STR_ROUND)

/* A call that returns a cg_status, in a function with `cg_status st` and an `out:` label: jumps there on
 * failure (the callee has logged why). */
#define CG_TRY_ST(call)                                                                                      \
    do {                                                                                                     \
        if ((st = (call)) != CG_OK) goto out;                                                                \
    } while (0)

typedef struct lcs_state {
    size_t n, m;      /* lengths of a (rows) and b (columns) */
    int alphabet;     /* characters are 0 .. alphabet - 1 */
    uint8_t *a, *b;   /* host copies, n and m bytes */
    size_t pairs;     /* --pairs: independent pairs of strings, pair k at a + k n and b + k m */
    uint32_t *refs;   /* each pair's score from the bit-parallel CPU reference */
    bool trace;       /* --traceback: the bit-parallel rungs keep V after every row in `rows` */
    uint8_t sym[256]; /* the byte of each character code (--input relabels; else sym[c] = c) */
    uint32_t *out;    /* the last verified traceback: its positions in a, last first */
    size_t out_len;
    bool have_out;
    size_t max_wg;
    cl_ulong max_alloc;
    bool native;         /* the device runs native kernels (the reference row) */
    int ref_threads;     /* threads of the pthreads reference */
    int host_score;      /* what the reference row computed (poisoned before every run) */
    size_t n_pad, m_pad; /* the byte strings' padded lengths (pair k of a8 at k n_pad, of b8 at k m_pad) */
    size_t nw64;         /* 64-bit words of a's bit vector */
    cl_mem a8, b8, ap, bp, diag[3], H, V, K, masks, bits, score, full; /* full: the naive rung's matrix */
    cl_mem rows; /* --traceback: m rows of V, each (n + 63) / 64 x 8 bytes; else NULL */
} lcs_state;

/* lcs_launch.c */
cg_status lcs_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs);
cg_status lcs_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev);
void lcs_release(void *rs);
/* The plan of a prepared rung, and its bits per word. */
int lcs_rung_plan(const void *rs);
int lcs_rung_wbits(const void *rs);
/* True when the rung cannot run at this size on this device, with the reason in why. */
bool lcs_unsupported(const void *state, const cg_rung *r, char *why, size_t len);

/* lcs_io.c: --input A,B into a, b, n, m (relabelled: alphabet and sym set); CG_E_USAGE (with --size,
 * --alphabet or --pairs, an empty or too long file, not two paths) or CG_E_IO (unreadable), one line logged.
 */
cg_status lcs_read_input(const cg_run_opts *o, lcs_state *s);
/* --output: the last verified traceback's bytes, written all-or-nothing; CG_E_IO when none or unwritable. */
cg_status lcs_save_output(cg_ctx *ctx, void *state, const char *path);

/* lcs_ref.c: the CPU references. The plain DP (O(m) memory, one thread). */
int64_t lcs_ref_dp(const uint8_t *a, size_t n, const uint8_t *b, size_t m);
/* The bit-parallel DP with 64-bit words (n m / 64 word steps); -1 when out of memory. */
int64_t lcs_ref_bitpar(const uint8_t *a, size_t n, const uint8_t *b, size_t m);
/* The anti-diagonal DP on `threads` pthreads, three padded diagonals and an inner loop the compiler
 * vectorises (the talk's "GCD + SSE" stand-in); -1 when out of memory or a thread cannot start. */
int64_t lcs_ref_threads(const uint8_t *a, size_t n, const uint8_t *b, size_t m, int threads);
/* The LCS itself from the rows a bit-parallel rung kept (row j: V after character j of b, `stride` bytes, bit
 * i of V little-endian at byte i / 8): walks back from (n, m), diagonal on a match, up where bit i-1 of V is
 * 1 (the cell above holds the same length), else left. Writes the matched positions of a and b, last first,
 * to ai and bj (room for min(n, m)); returns how many. */
size_t lcs_traceback(const uint8_t *a, size_t n, const uint8_t *b, size_t m, const uint8_t *rows,
                     size_t stride, uint32_t *ai, uint32_t *bj);
/* True when the len positions (last first, as lcs_traceback writes them) pick equal characters of a and b
 * at strictly increasing positions in both: a common subsequence. */
bool lcs_is_common(const uint8_t *a, size_t n, const uint8_t *b, size_t m, const uint32_t *ai,
                   const uint32_t *bj, size_t len);
/* lcs_ref_tiles.c: tile-simd's algorithm on `threads` pthreads (bands of 16 rows as vector lanes, blocks of
 * 1024 columns, a wavefront of bands); -1 when out of memory. */
int64_t lcs_ref_tiles(const uint8_t *a, size_t n, const uint8_t *b, size_t m, int threads);

#endif
