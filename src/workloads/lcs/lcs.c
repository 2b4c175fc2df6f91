/* The lcs workload: the length of the longest common subsequence of two byte strings (the WWDC 2010 talk's
 * dynamic-programming example), as a ladder from one launch per anti-diagonal over a row-major matrix to
 * bit-parallel words, with the talk's hand-threaded SIMD comparison as a reference row. This file owns the
 * options (--size NxM for the lengths, --alphabet), the size and memory checks, the seeded strings, the CPU
 * reference (bit-parallel, itself checked against the plain DP on small sizes), the device buffers, the work
 * model (cells) and the check of the score. lcs_launch.c owns the launches, lcs_ref.c the host arithmetic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core/clerr.h"
#include "core/log.h"
#include "core/rng.h"
#include "workloads/lcs/lcs.h"

/* clang-format off */
static const cg_rung rungs[] = {
    /* name, why (one line, shown in every report), kernel, options, needs, local bytes,
       {P_PLAN, P_WG, P_TILE (vector width for the padded plan), P_WBITS} */
    {"naive", "one launch per anti-diagonal, one work-item per cell, the whole DP matrix row-major",
     "lcs_naive", NULL, 0, 0, {PLAN_NAIVE, 256, 0, 32}},
    {"diag3", "cells stored by anti-diagonal, only three diagonals kept: O(n) memory, contiguous loads",
     "lcs_diag3", NULL, 0, 0, {PLAN_DIAG3, 256, 0, 32}},
    {"pad", "both ends padded with never-matching characters: whole groups, no border or range tests",
     "lcs_pad", NULL, 0, 0, {PLAN_PADDED, 256, 1, 32}},
    {"branchless", "the match/max choice made with a mask (the talk's masked store) instead of if/else",
     "lcs_mask", NULL, 0, 0, {PLAN_PADDED, 256, 1, 32}},
    {"vec4", "four cells of a diagonal per work-item as int4 vectors: 4x fewer work-items and loads",
     "lcs_vec4", NULL, 0, 0, {PLAN_PADDED, 256, 4, 32}},
    {"tile-item", "large work-items: each walks a cache-sized 256x256 tile row by row; a launch per tile diagonal",
     "lcs_tile_item", NULL, 0, 0, {PLAN_TILE_ITEM, 1, 256, 32}},
    {"tile-simd", "as tile-item, a 16x1024 tile per work-item walked by diagonals, its 16 rows the lanes of int16",
     "lcs_tile_simd", NULL, 0, 0, {PLAN_TILE_SIMD, 1, 1024, 32}},
    {"tiled", "a work-group per 64x64 tile in local memory, one barrier per inner diagonal (Rodinia NW)",
     "lcs_tiled", NULL, 0, 3 * 65 * 4 + 64, {PLAN_TILED, 64, 64, 32}},
    {"tiled-rows", "as tiled, each work-item owns 4 rows of a 256x64 tile, computed top to bottom: 4 cells per barrier",
     "lcs_tiled_rows", NULL, 0, 65 * 4 + 2 * 65 * 4 + 64, {PLAN_TILED, 64, 64, 32, 4}},
    {"tiled-wide", "as tiled-rows with 256 columns (256x256 tiles): 4x fewer tile diagonals, so launches",
     "lcs_tiled_rows", NULL, 0, 257 * 4 + 2 * 65 * 4 + 256, {PLAN_TILED, 64, 256, 32, 4}},
    {"bitpar", "bit-parallel (Allison-Dix/Hyyro): 32 cells per word step, carries across words; one work-item",
     "lcs_bitpar", NULL, 0, 0, {PLAN_BITPAR, 1, 0, 32}},
    {"bitpar-wg", "as bitpar, the words striped over 256 work-items of one group, a wavefront over b",
     "lcs_bitpar_wg", NULL, 0, 2 * 256 * 4 + 256 * 4, {PLAN_BITPAR_WG, 256, 0, 32}},
    {"best", "as bitpar-wg with 64-bit words: half the word steps and carries per cell",
     "lcs_bitpar_wg", NULL, 0, 2 * 256 * 8 + 256 * 4, {PLAN_BITPAR_WG, 256, 0, 64}},
    {"grid", "as best, a's words over many groups of 32 (not one of 256), carries handed on in 32-row chunks",
     "lcs_bitpar_grid", "-DGRID", CG_FEAT_INT64_ATOMICS, 2 * 32 * 8 + 32 * 4 + 4, {PLAN_BITPAR_GRID, 32, 0, 64}},
    {"nv-ballot", "as grid, a row's carries across the warp by lookahead from 2 ballots (PTX): no skew, no barrier",
     "lcs_bitpar_ballot", "-DGRID -DUSE_PTX", CG_FEAT_NV_PTX | CG_FEAT_INT64_ATOMICS, 32 * 4 + 8,
     {PLAN_BITPAR_GRID, 32, 0, 64}},
    {"nv-ballot32", "as nv-ballot with 32-bit words: a shorter chain of dependent instructions per row, 2x the warps",
     "lcs_bitpar_ballot", "-DGRID -DUSE_PTX", CG_FEAT_NV_PTX | CG_FEAT_INT64_ATOMICS, 32 * 4 + 8,
     {PLAN_BITPAR_GRID, 32, 0, 32}},
    {"ref-threads", "reference, not a rung: hand-written C, pthreads + compiler-vectorised anti-diagonal DP",
     NULL, NULL, 0, 0, {PLAN_REF, 0, 0, 32}},
    {"ref-tiles", "reference, not a rung: tile-simd's 16x1024 tiles in C, pthreads wavefront of bands, vectorised",
     NULL, NULL, 0, 0, {PLAN_REF, 0, 1, 32}},
};
/* clang-format on */

/* The lengths are --size N|NxM (the shared size rule below): --length as a workload option cannot be used,
 * since the CLI caps an EXTENTS option's sides at 1024. */
static const cg_wopt wopts[] = {
    {"alphabet", "N", "random characters 0..N-1, N from 1 to 256 (default 4)", CG_WOPT_NUMBER, NULL, "4", 0},
    {"traceback", NULL,
     "also the subsequence itself, walked back from the bit-parallel rows (default 16384 each)", CG_WOPT_FLAG,
     NULL, NULL, 0},
    {"pairs", "N",
     "N independent pairs solved in one batch, 1 to 2^24 (default 1); each --size long (default 2048)",
     CG_WOPT_NUMBER, NULL, "1", 0},
};

/* Only the lengths: the memory the ladder needs is checked by check_memory (it is not w x h). */
static const cg_size_rule size_rule = {
    .workload = "lcs",
    .unit = "characters",
    .dims = 2,
    .dflt_gpu = 1ull << 20,
    .dflt_other = 1ull << 15,
    .dflt_floor = 1024,
    .elem_bytes = 0,
    .buffers = 0,
    .max_count = 1ull << 60,
    .max_side = LCS_MAX_LEN,
};

/* ---- options and sizes --------------------------------------------------------------------------------- */

static cg_status pick_alphabet(const cg_run_opts *o, int *alphabet)
{
    double v = cg_wopts_number(o->wopts, "alphabet", 4);
    if (v < 1 || v > 256 || v != (double)(int)v) {
        CG_ERROR("lcs: --alphabet %g is not a whole number from 1 to 256: use e.g. --alphabet 4", v);
        return CG_E_USAGE;
    }
    *alphabet = (int)v;
    return CG_OK;
}

static cg_status pick_pairs(const cg_run_opts *o, size_t *pairs)
{
    double v = cg_wopts_number(o->wopts, "pairs", 1);
    if (v < 1 || v > LCS_MAX_PAIRS || v != (double)(size_t)v) {
        CG_ERROR("lcs: --pairs %.15g is not a whole number from 1 to %d: use e.g. --pairs 1000", v,
                 LCS_MAX_PAIRS);
        return CG_E_USAGE;
    }
    *pairs = (size_t)v;
    return CG_OK;
}

/* Device bytes of every buffer but the naive rung's matrix, the largest one alone, for `pairs` pairs of
 * lengths n x m (the per-cell and tile rungs' buffers are for one pair: they solve only --pairs 1). */
static double device_bytes(size_t n, size_t m, int alphabet, size_t pairs, double *largest)
{
    double p = (double)pairs, masks = p * (double)alphabet * (double)((n + 63) / 64) * 8.0;
    double diag = (double)(n + 2 * LCS_PAD + 1) * 4.0;
    double strings = (p + 2.0) * (double)(n + m) + 8.0 * LCS_PAD + 6.0 * LCS_STR_ROUND * p;
    *largest = masks > diag ? masks : diag;
    return masks + 3.0 * diag + strings + 4.0 * (double)(n + m) + p * (double)((n + 63) / 64) * 8.0 +
           4.0 * p + 65536.0;
}

/* The rows --traceback keeps: m of (n + 63) / 64 64-bit words. */
static double trace_bytes(size_t n, size_t m)
{
    return (double)m * (double)((n + 63) / 64) * 8.0;
}

static cg_status check_trace(const cg_ctx *ctx, const lcs_state *s)
{
    double rows = trace_bytes(s->n, s->m);
    char need[32], alloc[32];
    if (s->pairs > 1) {
        CG_ERROR("lcs: --traceback walks back one pair: leave out --pairs or --traceback");
        return CG_E_USAGE;
    }
    if (rows <= (double)ctx->dev->max_alloc && rows <= (double)ctx->dev->global_mem / 4) return CG_OK;
    cg_format_bytes(rows, need, sizeof need);
    cg_format_bytes((double)ctx->dev->max_alloc, alloc, sizeof alloc);
    CG_ERROR("lcs: --traceback at %zux%zu keeps %s of rows, above one allocation (%s) or a quarter of the "
             "device's memory: use a smaller --size (the traceback's default is %d)",
             s->n, s->m, need, alloc, LCS_TRACE_LEN);
    return CG_E_USAGE;
}

static cg_status check_memory(const cg_ctx *ctx, size_t n, size_t m, int alphabet, size_t pairs)
{
    double largest, total = device_bytes(n, m, alphabet, pairs, &largest);
    char need[32], one[32], alloc[32], mem[32];
    if (largest <= (double)ctx->dev->max_alloc && total <= (double)ctx->dev->global_mem / 2) return CG_OK;
    cg_format_bytes(total, need, sizeof need);
    cg_format_bytes(largest, one, sizeof one);
    cg_format_bytes((double)ctx->dev->max_alloc, alloc, sizeof alloc);
    cg_format_bytes((double)ctx->dev->global_mem, mem, sizeof mem);
    CG_ERROR(
        "lcs: %zu pair(s) of %zux%zu characters (alphabet %d) need %s of device memory, %s in one buffer: "
        "above this device's limits (%s per allocation, half of %s in all): use a smaller --size or --pairs",
        pairs, n, m, alphabet, need, one, alloc, mem);
    return CG_E_USAGE;
}

/* Everything validate and setup both decide: alphabet, pairs and lengths (with --pairs above 1 and no --size,
 * LCS_PAIRS_LEN each, a typical read length, not the one-pair default of 2^20). */
static cg_status pick_problem(const cg_ctx *ctx, const cg_run_opts *o, lcs_state *s)
{
    cg_size_rule rule = size_rule;
    cg_status st = pick_pairs(o, &s->pairs);
    s->trace = cg_wopts_find(o->wopts, "traceback") != NULL;
    if (st == CG_OK && o->output && !s->trace) {
        CG_ERROR("lcs: --output writes the --traceback subsequence: add --traceback");
        st = CG_E_USAGE;
    }
    if (st == CG_OK && o->input) {
        st = lcs_read_input(o, s);
    } else if (st == CG_OK) {
        st = pick_alphabet(o, &s->alphabet);
        if (st == CG_OK && s->pairs > 1) rule.dflt_gpu = rule.dflt_other = LCS_PAIRS_LEN;
        if (st == CG_OK && s->trace) rule.dflt_gpu = rule.dflt_other = LCS_TRACE_LEN;
        if (st == CG_OK) st = cg_size_pick(ctx, &rule, o, &s->n, &s->m);
    }
    if (st == CG_OK) st = check_memory(ctx, s->n, s->m, s->alphabet, s->pairs);
    if (st == CG_OK && s->trace) st = check_trace(ctx, s);
    return st;
}

static void lcs_teardown(void *state)
{
    lcs_state *s = state;
    if (!s) return;
    cl_mem *bufs[] = {&s->a8, &s->b8, &s->ap,    &s->bp,   &s->diag[0], &s->diag[1], &s->diag[2], &s->H,
                      &s->V,  &s->K,  &s->masks, &s->bits, &s->score,   &s->full,    &s->rows};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (*bufs[i]) clReleaseMemObject(*bufs[i]);
    free(s->a);
    free(s->b);
    free(s->refs);
    free(s->out);
    free(s);
}

static cg_status lcs_validate(const cg_ctx *ctx, const cg_run_opts *o)
{
    lcs_state s = {0};
    cg_status st = pick_problem(ctx, o, &s);
    free(s.a);
    free(s.b);
    return st;
}

/* ---- inputs, reference, buffers ------------------------------------------------------------------------ */

static cg_status make_strings(const cg_run_opts *o, lcs_state *s)
{
    cg_status st = CG_OK;
    if (s->a) return CG_OK; /* --input: read (and relabelled) by pick_problem */
    for (int c = 0; c < 256; c++)
        s->sym[c] = (uint8_t)c;
    s->a = malloc(s->n * s->pairs);
    s->b = malloc(s->m * s->pairs);
    CG_FAIL_IF(!s->a || !s->b, CG_E_RUNTIME, "lcs: out of host memory");
    cg_rng rng;
    cg_rng_init(&rng, o->seed);
    for (size_t k = 0; k < s->pairs; k++) {
        for (size_t i = 0; i < s->n; i++)
            s->a[k * s->n + i] = (uint8_t)((cg_rng_next(&rng) >> 32) % (uint64_t)s->alphabet);
        for (size_t j = 0; j < s->m; j++)
            s->b[k * s->m + j] = (uint8_t)((cg_rng_next(&rng) >> 32) % (uint64_t)s->alphabet);
    }
out:
    return st;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Each pair's score by the bit-parallel reference; for the pairs within the first 2^26 cells also the plain
 * DP, which must agree. Both run on one host thread; their wall times go to the debug log (CLGAUGE_DEBUG=1),
 * the single-thread CPU figures that docs/workloads/lcs.md compares the GPU with. */
static cg_status make_reference(lcs_state *s)
{
    cg_status st = CG_OK;
    double cells = (double)s->n * (double)s->m * (double)s->pairs, t_bp = 0, t_dp = 0, t0;
    s->refs = malloc(s->pairs * sizeof *s->refs);
    CG_FAIL_IF(!s->refs, CG_E_RUNTIME, "lcs: out of host memory for the reference");
    for (size_t k = 0; k < s->pairs; k++) {
        const uint8_t *a = s->a + k * s->n, *b = s->b + k * s->m;
        t0 = seconds();
        int64_t ref = lcs_ref_bitpar(a, s->n, b, s->m);
        t_bp += seconds() - t0;
        CG_FAIL_IF(ref < 0, CG_E_RUNTIME, "lcs: out of host memory for the reference");
        s->refs[k] = (uint32_t)ref;
        if ((double)s->n * (double)s->m * (double)(k + 1) > 0x1p26) continue; /* the DP's first 2^26 cells */
        t0 = seconds();
        int64_t dp = lcs_ref_dp(a, s->n, b, s->m);
        t_dp += seconds() - t0;
        CG_FAIL_IF(dp != ref, CG_E_RUNTIME,
                   "lcs: internal error: the bit-parallel reference gives %lld, the plain DP %lld (pair %zu)",
                   (long long)ref, (long long)dp, k);
    }
    CG_DEBUG("lcs: CPU reference, bit-parallel, one thread: %.4g s, %.4g Gcell/s", t_bp, cells / t_bp * 1e-9);
    if (t_dp > 0)
        CG_DEBUG("lcs: CPU reference, plain DP, one thread: %.4g s, %.4g Gcell/s", t_dp, cells / t_dp * 1e-9);
out:
    return st;
}

/* A padded copy of a string: bytes (zeros after it, to a multiple of LCS_STR_ROUND) or ushort with
 * LCS_PAD sentinels before and LCS_PAD + LCS_STR_ROUND after (tile-simd reads up to a tile past the end). */
static void *padded(const uint8_t *x, size_t len, size_t plen, bool wide, uint16_t sentinel)
{
    if (!wide) {
        uint8_t *p = calloc(plen, 1);
        if (p) memcpy(p, x, len);
        return p;
    }
    uint16_t *p = malloc(LCS_WIDE_LEN(len) * sizeof *p);
    for (size_t i = 0; p && i < LCS_WIDE_LEN(len); i++)
        p[i] = i >= LCS_PAD && i < LCS_PAD + len ? x[i - LCS_PAD] : sentinel;
    return p;
}

static cg_status make_inputs(cg_ctx *ctx, lcs_state *s)
{
    cg_status st = CG_OK;
    cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    s->n_pad = (s->n + LCS_STR_ROUND - 1) / LCS_STR_ROUND * LCS_STR_ROUND;
    s->m_pad = (s->m + LCS_STR_ROUND - 1) / LCS_STR_ROUND * LCS_STR_ROUND;
    void *a8 = calloc(s->pairs, s->n_pad), *b8 = calloc(s->pairs, s->m_pad);
    void *ap = padded(s->a, s->n, 0, true, 256), *bp = padded(s->b, s->m, 0, true, 257);
    CG_FAIL_IF(!a8 || !b8 || !ap || !bp, CG_E_RUNTIME, "lcs: out of host memory");
    for (size_t k = 0; k < s->pairs; k++) {
        memcpy((uint8_t *)a8 + k * s->n_pad, s->a + k * s->n, s->n);
        memcpy((uint8_t *)b8 + k * s->m_pad, s->b + k * s->m, s->m);
    }
    CG_TRY_BUF(ctx, in, s->n_pad * s->pairs, a8, CG_BUF_INPUT, &s->a8);
    CG_TRY_BUF(ctx, in, s->m_pad * s->pairs, b8, CG_BUF_INPUT, &s->b8);
    CG_TRY_BUF(ctx, in, LCS_WIDE_LEN(s->n) * 2, ap, CG_BUF_INPUT, &s->ap);
    CG_TRY_BUF(ctx, in, LCS_WIDE_LEN(s->m) * 2, bp, CG_BUF_INPUT, &s->bp);
out:
    free(a8);
    free(b8);
    free(ap);
    free(bp);
    return st;
}

/* Every buffer a rung writes, poisoned by the runner before every run; the naive rung's matrix only where it
 * fits one allocation and a quarter of global memory (else that rung is unsupported). */
static cg_status make_outputs(cg_ctx *ctx, lcs_state *s)
{
    cg_status st = CG_OK;
    cl_mem_flags rw = CL_MEM_READ_WRITE;
    size_t nw64 = (s->n + 63) / 64, tiles = s->n_pad / LCS_SIMD_ROWS + s->m_pad / 64 + 1;
    for (int k = 0; k < 3; k++)
        CG_TRY_BUF(ctx, rw, (s->n + 2 * LCS_PAD + 1) * 4, NULL, CG_BUF_WRITTEN, &s->diag[k]);
    CG_TRY_BUF(ctx, rw, (s->m_pad + 1) * 4, NULL, CG_BUF_WRITTEN, &s->H);
    CG_TRY_BUF(ctx, rw, (s->n_pad + 1) * 4, NULL, CG_BUF_WRITTEN, &s->V);
    CG_TRY_BUF(ctx, rw, tiles * 4, NULL, CG_BUF_WRITTEN, &s->K);
    CG_TRY_BUF(ctx, rw, (size_t)s->alphabet * nw64 * 8 * s->pairs, NULL, CG_BUF_WRITTEN, &s->masks);
    CG_TRY_BUF(ctx, rw, nw64 * 8 * s->pairs, NULL, CG_BUF_WRITTEN, &s->bits);
    CG_TRY_BUF(ctx, rw, sizeof(cl_int) * s->pairs, NULL, CG_BUF_WRITTEN, &s->score);
    if (s->trace) CG_TRY_BUF(ctx, rw, (size_t)trace_bytes(s->n, s->m), NULL, CG_BUF_WRITTEN, &s->rows);
    double full = (double)(s->n + 1) * (double)(s->m + 1) * 4.0;
    if (full <= (double)ctx->dev->max_alloc && full <= (double)ctx->dev->global_mem / 4)
        CG_TRY_BUF(ctx, rw, (size_t)full, NULL, CG_BUF_WRITTEN, &s->full);
out:
    return st;
}

static cg_status lcs_setup(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len)
{
    cg_status st = CG_OK;
    cl_device_exec_capabilities caps = 0;
    lcs_state *s = calloc(1, sizeof *s);
    CG_FAIL_IF(!s, CG_E_RUNTIME, "lcs: out of host memory");
    if ((st = pick_problem(ctx, o, s)) != CG_OK || (st = make_strings(o, s)) != CG_OK ||
        (st = make_reference(s)) != CG_OK || (st = make_inputs(ctx, s)) != CG_OK ||
        (st = make_outputs(ctx, s)) != CG_OK)
        goto out;
    s->max_wg = ctx->dev->max_wg ? ctx->dev->max_wg : 1;
    s->max_alloc = ctx->dev->max_alloc;
    CG_TRY(clGetDeviceInfo(ctx->dev->id, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, NULL));
    s->native = (caps & CL_EXEC_NATIVE_KERNEL) != 0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    s->ref_threads = cpus > 0 ? (int)cpus : 1;
    if (s->pairs > 1)
        snprintf(size_desc, len, "%zu pairs of %zux%zu chars, alphabet %d", s->pairs, s->n, s->m,
                 s->alphabet);
    else
        snprintf(size_desc, len, "%zux%zu chars, %s %d%s", s->n, s->m,
                 o->input ? "from --input, distinct bytes" : "alphabet", s->alphabet,
                 s->trace ? ", traceback" : "");
out:
    if (st != CG_OK) {
        lcs_teardown(s);
        s = NULL;
    }
    *state = s;
    return st;
}

/* ---- model, options, check --------------------------------------------------------------------------- */

/* Rated on cells: n x m DP cells (items, GCUPS); bytes: the two strings read once. */
static void lcs_model(const void *state, const cg_rung *r, cg_model *m)
{
    const lcs_state *s = state;
    (void)r;
    m->bytes = (double)(s->n + s->m) * (double)s->pairs;
    m->flops = 0;
    m->items = (double)s->n * (double)s->m * (double)s->pairs;
    m->item_unit = "cell";
    m->bytes_note = "R: the two strings, 1 B/char read once";
    m->ceiling = CG_CEIL_READ;
}

static void lcs_options(const void *state, const cg_rung *r, char *buf, size_t len)
{
    const lcs_state *s = state;
    snprintf(buf, len, "-DWG=%zu -DTILE=%d -DPAD=%d -DWBITS=%d -DRPI=%d",
             cg_rung_pow2_wg(r->p[P_WG], 256, s->max_wg),
             r->p[P_PLAN] >= PLAN_TILE_ITEM && r->p[P_PLAN] <= PLAN_TILED ? r->p[P_TILE] : 64, LCS_PAD,
             r->p[P_WBITS] == 64 ? 64 : 32, r->p[P_RPI] > 1 ? r->p[P_RPI] : 1);
}

/* The reference row's answer lives on the host: poisoned like the device buffers. */
static cg_status lcs_poison(cg_ctx *ctx, void *state, void *rs)
{
    (void)ctx;
    (void)rs;
    ((lcs_state *)state)->host_score = -1;
    return CG_OK;
}

/* --traceback: the rung's rows read back, the LCS walked back from them; its length and whether it is a
 * common subsequence join the check (want: the reference's score, and 1). */
static cg_status check_traceback(cg_ctx *ctx, lcs_state *s, int wbits, uint32_t got[2])
{
    cg_status st = CG_OK;
    size_t stride = (s->n + (size_t)wbits - 1) / (size_t)wbits * (size_t)wbits / 8,
           most = s->n < s->m ? s->n : s->m;
    uint8_t *rows = malloc(stride * s->m);
    uint32_t *ai = malloc((most + 1) * sizeof *ai), *bj = malloc((most + 1) * sizeof *bj);
    CG_FAIL_IF(!rows || !ai || !bj, CG_E_RUNTIME, "lcs: out of host memory for the traceback");
    CG_TRY(clEnqueueReadBuffer(ctx->queue, s->rows, CL_TRUE, 0, stride * s->m, rows, 0, NULL, NULL));
    size_t len = lcs_traceback(s->a, s->n, s->b, s->m, rows, stride, ai, bj);
    got[0] = (uint32_t)len;
    got[1] = lcs_is_common(s->a, s->n, s->b, s->m, ai, bj, len);
    if (got[0] == s->refs[0] && got[1]) { /* kept for --output */
        free(s->out);
        s->out = ai, s->out_len = len, s->have_out = true;
        ai = NULL;
    }
    CG_DEBUG("lcs: traceback: %zu characters, %s", len,
             got[1] ? "a common subsequence" : "NOT a common subsequence");
out:
    free(rows);
    free(ai);
    free(bj);
    return st;
}

static cg_status lcs_verify(cg_ctx *ctx, void *state, void *rs, cg_check *c)
{
    cg_status st = CG_OK;
    lcs_state *s = state;
    bool ref_row = rs && lcs_rung_plan(rs) == PLAN_REF, trace = s->trace && !ref_row;
    size_t count = s->pairs + (trace ? 2 : 0);
    uint32_t *got = malloc(count * sizeof *got), *want = malloc(count * sizeof *want);
    CG_FAIL_IF(!got || !want, CG_E_RUNTIME, "lcs: out of host memory");
    if (ref_row)
        got[0] = (uint32_t)s->host_score;
    else
        CG_TRY(clEnqueueReadBuffer(ctx->queue, s->score, CL_TRUE, 0, s->pairs * sizeof *got, got, 0, NULL,
                                   NULL));
    memcpy(want, s->refs, s->pairs * sizeof *want);
    if (trace) {
        want[s->pairs] = s->refs[0], want[s->pairs + 1] = 1;
        CG_TRY_ST(check_traceback(ctx, s, lcs_rung_wbits(rs), got + s->pairs));
    }
    cg_check_u32(c, got, want, count);
out:
    free(got);
    free(want);
    return st;
}

const cg_workload cg_workload_lcs = {
    .name = "lcs",
    .summary =
        "longest common subsequence of two strings (--size NxM, --alphabet): wavefronts to bit-parallel",
    .size_help =
        "NxM: the two strings' lengths (N: both), up to 2^30-1; default 2^20 on GPUs, 2^15 elsewhere",
    .cl_file = "lcs.cl",
    .takes_images_io = false,
    .takes_text_io = true,
    .takes_length = true,
    .save_output = lcs_save_output,
    .wopts = wopts,
    .n_wopts = sizeof wopts / sizeof wopts[0],
    .rungs = rungs,
    .n_rungs = sizeof rungs / sizeof rungs[0],
    .setup = lcs_setup,
    .teardown = lcs_teardown,
    .model = lcs_model,
    .options = lcs_options,
    .prepare = lcs_prepare,
    .poison = lcs_poison,
    .enqueue = lcs_enqueue,
    .verify = lcs_verify,
    .release = lcs_release,
    .validate = lcs_validate,
    .unsupported = lcs_unsupported,
};
