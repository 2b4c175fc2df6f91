/* The scan workload: the prefix sum of N seeded int32 values or floats (--type), exclusive (default) or
 * inclusive (--inclusive), after the local-memory prefix sum of ../shared/seeds/002 and then device-wide.
 * This file owns the options, the size rule, the inputs, the CPU reference and the float error bound, the
 * device buffers (input, output, tile totals, look-back state: all registered with the core, which poisons
 * the written ones before every run), the rung table, its tuning spaces and the enqueue of each rung's plan.
 * A rung's shape is data in p[] (in quotes: the tuning parameter's name):
 *   p[0] work-group size, a power of two (a table row's is clamped to the device and rounded down to one; a
 *        tuning candidate's is refused instead; never 0, every kernel requires its WG; 1 for the chunked
 *        rungs, one work-item per group walking a tile; at least 32 with a look-back window) ("wg");
 *   p[1] elements per work-item, at least 1 (a tile is their product; a power of two for scan_blelloch,
 *        whose tree spans the tile) ("items");
 *   p[2] the plan joining the tiles; p[3] the padding shift passed to the kernels (with -DPAD). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clerr.h"
#include "core/log.h"
#include "core/rng.h"
#include "core/workload.h"

enum { P_WG, P_ITEMS, P_PLAN, P_PAD };
enum { PLAN_PROPAGATE, PLAN_REDUCE, PLAN_LOOKBACK };

#define SCAN_EXACT_MAX_N     (1ull << 23) /* float --check exact: sums of 1s and 2s stay below 2^24 */
#define SCAN_LOCAL(tile, wg) (((tile) + (tile) / 32 + (wg) + (wg) / 32 + 33) * 4)

/* clang-format off */
static const cg_rung rungs[] = {
    /* name, why (one line, shown in every report), kernel, build options, needs, local bytes,
       {P_WG, P_ITEMS, P_PLAN, P_PAD} */
    {"hillis-steele", "Hillis-Steele over 1024-element tiles in local memory: O(n log n) adds; tiles joined by scan-then-propagate (3 kernels)",
     "scan_hs", NULL, 0, 2 * 1024 * 4, {256, 4, PLAN_PROPAGATE, 0}},
    {"blelloch", "the seed's up-sweep/down-sweep, work-items looping over pairs: O(n) adds, strided pairs share banks",
     "scan_blelloch", NULL, 0, 1024 * 4, {256, 4, PLAN_PROPAGATE, 0}},
    {"pad-arith", "as blelloch plus padding's index arithmetic e + (e >> pad) with pad 31: every offset 0, conflicts kept",
     "scan_blelloch", "-DPAD", 0, 1056 * 4, {256, 4, PLAN_PROPAGATE, 31}},
    {"padded", "pad 5 instead of 31: one word of padding per 32 moves strided pairs to other banks",
     "scan_blelloch", "-DPAD", 0, 1056 * 4, {256, 4, PLAN_PROPAGATE, 5}},
    {"registers", "4 consecutive elements per work-item summed in registers first: the tree scans 256 sums, not 1024",
     "scan_regs", "-DPAD", 0, SCAN_LOCAL(1024, 256), {256, 4, PLAN_PROPAGATE, 5}},
    {"reduce-then-scan", "first pass only sums each tile, the last scans it with its carry: 3 N global accesses, not 4 N",
     "scan_regs_carry", "-DPAD", 0, SCAN_LOCAL(1024, 256), {256, 4, PLAN_REDUCE, 5}},
    {"look-back", "one pass: each tile's carry by decoupled look-back on earlier tiles' flags (needs started groups to progress)",
     "scan_lookback", "-DPAD", 0, SCAN_LOCAL(1024, 256), {256, 4, PLAN_LOOKBACK, 5}},
    {"look-back-32", "as look-back, 32 work-items poll 32 earlier tiles at once: one wait per window, not per tile",
     "scan_lookback", "-DPAD -DLB_WINDOW=32", 0, SCAN_LOCAL(1024, 256) + 32 * 8, {256, 4, PLAN_LOOKBACK, 5}},
    {"best", "as look-back-32, 16 elements per work-item: 4x larger tiles, 4x fewer look-backs and group scans",
     "scan_lookback", "-DPAD -DLB_WINDOW=32", 0, SCAN_LOCAL(4096, 256) + 32 * 8, {256, 16, PLAN_LOOKBACK, 5}},
    {"packed", "as best, a tile's status and value in one 64-bit word: one atomic publishes both, no fence between them",
     "scan_lookback", "-DPAD -DLB_WINDOW=32 -DPACKED", CG_FEAT_INT64_ATOMICS, SCAN_LOCAL(4096, 256) + 32 * 8, {256, 16, PLAN_LOOKBACK, 5}},
    {"vec", "as packed, a work-item's 16 elements loaded and stored as four 16-byte vectors in place: no local-memory tile",
     "scan_lookback", "-DPAD -DLB_WINDOW=32 -DPACKED -DDIRECT", CG_FEAT_INT64_ATOMICS, SCAN_LOCAL(0, 256) + 32 * 8,
     {256, 16, PLAN_LOOKBACK, 5}},
    {"reread", "as packed, a work-item's 16 elements read again from the local tile to store them, not held in registers",
     "scan_lookback", "-DPAD -DLB_WINDOW=32 -DPACKED -DREREAD", CG_FEAT_INT64_ATOMICS, SCAN_LOCAL(4096, 256) + 32 * 8,
     {256, 16, PLAN_LOOKBACK, 5}},
    {"vload", "as reread, whole tiles moved between global and local memory as coalesced 16-byte vectors: 4x fewer loads and stores",
     "scan_lookback", "-DPAD -DLB_WINDOW=32 -DPACKED -DREREAD -DVLOAD", CG_FEAT_INT64_ATOMICS, SCAN_LOCAL(4096, 256) + 32 * 8,
     {256, 16, PLAN_LOOKBACK, 5}},
    {"nv-shfl", "as packed, but the work-items' sums scanned by inline-PTX shfl.sync.up warp scans",
     "scan_lookback", "-DPAD -DLB_WINDOW=32 -DPACKED -DUSE_PTX", CG_FEAT_NV_PTX | CG_FEAT_INT64_ATOMICS,
     SCAN_LOCAL(4096, 256) + 32 * 8,
     {256, 16, PLAN_LOOKBACK, 5}},
    {"nv-reread", "as nv-shfl, a work-item's 16 elements read again from the local tile to store them, not held in registers",
     "scan_lookback", "-DPAD -DLB_WINDOW=32 -DPACKED -DUSE_PTX -DREREAD", CG_FEAT_NV_PTX | CG_FEAT_INT64_ATOMICS,
     SCAN_LOCAL(4096, 256) + 32 * 8,
     {256, 16, PLAN_LOOKBACK, 5}},
    {"nv-vload", "as nv-reread, whole tiles moved between global and local memory as coalesced 16-byte vectors: 4x fewer loads and stores",
     "scan_lookback", "-DPAD -DLB_WINDOW=32 -DPACKED -DUSE_PTX -DREREAD -DVLOAD", CG_FEAT_NV_PTX | CG_FEAT_INT64_ATOMICS,
     SCAN_LOCAL(4096, 256) + 32 * 8,
     {256, 16, PLAN_LOOKBACK, 5}},
    {"nv-wide", "as nv-vload, 32 elements per work-item in 128-wide groups: the same 4096-element tile with half the work-items",
     "scan_lookback", "-DPAD -DLB_WINDOW=32 -DPACKED -DUSE_PTX -DREREAD -DVLOAD", CG_FEAT_NV_PTX | CG_FEAT_INT64_ATOMICS,
     SCAN_LOCAL(4096, 128) + 32 * 8,
     {128, 32, PLAN_LOOKBACK, 5}},
    {"chunked", "as look-back, one work-item per group looping over a contiguous 16384-element tile: CPU caches win, GPU loses coalescing",
     "scan_chunks", NULL, 0, 0, {1, 16384, PLAN_LOOKBACK, 0}},
    {"chunked-vec8", "as chunked, 8 elements per step: vload8, a 3-step scan of the 8 lanes in registers, vstore8",
     "scan_chunks8", NULL, 0, 0, {1, 16384, PLAN_LOOKBACK, 0}},
};

/* The tuning spaces (`clgauge tune`, core/tune.h) of the fastest rungs: the register-tile kernels' wg x items
 * (the multi-kernel plans and the look-backs), the chunked rungs' tile length (their wg stays 1). Every value
 * a power of two (WG must be one) and each rung's own among them; no wg 0 (NULL local size): every kernel has
 * reqd_work_group_size(WG). A large tile over the device's local memory is refused (scan_local_need). */
static const cg_tspace spaces[] = {
    {"registers,reduce-then-scan,look-back,look-back-32,best,packed,vec,reread,vload,nv-shfl,nv-reread,nv-vload,nv-wide", 2,
     {{"wg", P_WG, CG_TR_WG_X, 6, {32, 64, 128, 256, 512, 1024}},
      {"items", P_ITEMS, CG_TR_OTHER, 6, {1, 2, 4, 8, 16, 32}}}},
    {"chunked,chunked-vec8", 1,
     {{"items", P_ITEMS, CG_TR_OTHER, 8, {1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072}}}},
};
/* clang-format on */

/* --type, --inclusive, --exclusive: read by pick_opts (validate and setup). */
static const cg_wopt wopts[] = {
    {"type", "T", "element type: int32 (exact; sums wrap modulo 2^32) or float (error bound) (default int32)",
     CG_WOPT_WORD, "int32|float", "int32", 0},
    {"inclusive", NULL, "inclusive scan: out[i] = x[0] + ... + x[i]", CG_WOPT_FLAG, NULL, NULL, 0},
    {"exclusive", NULL, "exclusive scan (the default): out[0] = 0, out[i] = x[0] + ... + x[i-1]",
     CG_WOPT_FLAG, NULL, NULL, 0},
};

/* N elements; input and output must fit in global memory together; the kernels index with uint. */
static const cg_size_rule size_rule = {
    .workload = "scan",
    .unit = "elements",
    .dims = 1,
    .dflt_gpu = 1ull << 28,
    .dflt_other = 1ull << 24,
    .dflt_floor = 1024,
    .elem_bytes = 4,
    .buffers = 2,
    .max_count = INT_MAX,
};

typedef struct scan_opts {
    bool is_float, incl, exact;
    size_t n;
} scan_opts;

typedef struct scan_state {
    scan_opts o;
    size_t max_wg;
    bool nv;          /* NVIDIA's platform: the look-back's fence is PTX membar.gl (-DNV_FENCE) */
    void *ref, *got;  /* n uint32_t or float: the reference, the read-back output */
    size_t tiles_max; /* tile totals the worst rung needs */
    cl_mem in, out;   /* n elements each */
    cl_mem sums;      /* tile totals, scanned in place */
    cl_mem st;        /* look-back state: 1 + 3 tiles_max words */
} scan_state;

typedef struct scan_rung {
    const cg_rung *r;
    cl_kernel k, k_pre, k_mid, k_post; /* the rung's kernel; tile_reduce, scan_partials, scan_add */
    size_t wg, tile, tiles;
    bool packed;  /* -DPACKED: the look-back state is 2 + 2 tiles words (scan.cl) */
    double depth; /* summation depth of the float bound (rung_depth) */
} scan_rung;

/* ---- options and size ------------------------------------------------------------------------------ */

/* --type and the scan kind; the size (float --check exact: at most 2^23). CG_E_USAGE with one line. */
static cg_status pick_opts(const cg_ctx *ctx, const cg_run_opts *o, scan_opts *so)
{
    const cg_wopt_value *t = cg_wopts_find(o->wopts, "type");
    so->is_float = t && !strcmp(t->text, "float");
    so->incl = cg_wopts_find(o->wopts, "inclusive") != NULL;
    so->exact = o->check_exact;
    if (so->incl && cg_wopts_find(o->wopts, "exclusive")) {
        CG_ERROR("scan: --inclusive and --exclusive both given: give one of them (exclusive is the default)");
        return CG_E_USAGE;
    }
    if (so->exact && so->is_float && o->size.dims == 1 && o->size.n > SCAN_EXACT_MAX_N) {
        CG_ERROR(
            "scan: --check exact --type float takes --size up to 2^23 (every prefix exact in a float's 24 "
            "bits): use --size <= 8M, --type int32 or --check random");
        return CG_E_USAGE;
    }
    size_t w, h;
    cg_status st = cg_size_pick(ctx, &size_rule, o, &w, &h);
    so->n = w;
    if (so->exact && so->is_float && so->n > SCAN_EXACT_MAX_N) so->n = SCAN_EXACT_MAX_N;
    return st;
}

static cg_status scan_validate(const cg_ctx *ctx, const cg_run_opts *o)
{
    scan_opts so;
    return pick_opts(ctx, o, &so);
}

static size_t div_up(size_t a, size_t b)
{
    return (a + b - 1) / b;
}

static size_t rung_wg(const scan_state *s, const cg_rung *r)
{
    return cg_rung_pow2_wg(r->p[P_WG], 256, s->max_wg);
}

static size_t rung_tile(const scan_state *s, const cg_rung *r)
{
    return rung_wg(s, r) * (size_t)r->p[P_ITEMS];
}

/* ---- inputs and reference ------------------------------------------------------------------------- */

static void scan_teardown(void *state)
{
    scan_state *s = state;
    if (!s) return;
    if (s->in) clReleaseMemObject(s->in);
    if (s->out) clReleaseMemObject(s->out);
    if (s->sums) clReleaseMemObject(s->sums);
    if (s->st) clReleaseMemObject(s->st);
    free(s->ref);
    free(s->got);
    free(s);
}

/* int32: seeded 32-bit words, prefixes wrapping modulo 2^32 (two's complement int32 addition). */
static void ref_int(const scan_opts *so, const uint32_t *x, uint32_t *ref)
{
    uint32_t acc = 0;
    for (size_t i = 0; i < so->n; i++) {
        uint32_t v = x[i];
        ref[i] = so->incl ? acc + v : acc;
        acc += v;
    }
}

/* float: a compensated running sum in double, each prefix rounded once to float. */
static void ref_float(const scan_opts *so, const float *x, float *ref)
{
    double sum = 0.0, c = 0.0;
    for (size_t i = 0; i < so->n; i++) {
        if (!so->incl) ref[i] = (float)sum;
        double y = (double)x[i] - c, t = sum + y;
        c = (t - sum) - y;
        sum = t;
        if (so->incl) ref[i] = (float)sum;
    }
}

/* Inputs: int32 any 32-bit word; float uniform in [0.5, 1) (positive: sum |x| of a prefix is the prefix), or
 * with --check exact 1 or 2 (every prefix an integer below 2^24, exact in any order). */
static cg_status make_data(cg_ctx *ctx, const cg_run_opts *o, scan_state *s)
{
    cg_status st = CG_OK;
    size_t n = s->o.n;
    uint32_t *x = malloc(n * 4);
    s->ref = malloc(n * 4);
    s->got = malloc(n * 4);
    CG_FAIL_IF(!x || !s->ref || !s->got, CG_E_RUNTIME, "scan: out of host memory for %zu elements", n);
    cg_rng rng;
    cg_rng_init(&rng, o->seed);
    if (!s->o.is_float) {
        for (size_t i = 0; i < n; i++)
            x[i] = (uint32_t)(cg_rng_next(&rng) >> 32);
        ref_int(&s->o, x, s->ref);
    } else {
        float *xf = (float *)x;
        if (s->o.exact)
            for (size_t i = 0; i < n; i++)
                xf[i] = (float)(1 + (cg_rng_next(&rng) >> 63));
        else
            cg_rng_fill_float(&rng, xf, n, 0.5f, 1.0f);
        ref_float(&s->o, xf, s->ref);
    }
    CG_TRY_BUF(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, x, CG_BUF_INPUT, &s->in);
    CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, n * 4, NULL, CG_BUF_WRITTEN, &s->out);
    CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, s->tiles_max * 4, NULL, CG_BUF_WRITTEN, &s->sums);
    CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, (1 + 3 * s->tiles_max) * 4, NULL, CG_BUF_WRITTEN, &s->st);
out:
    free(x);
    return st;
}

static void describe_size(const scan_opts *so, char *buf, size_t len)
{
    int lg = 0;
    while ((1ull << lg) < so->n)
        lg++;
    const char *kind = so->incl ? "inclusive" : "exclusive", *type = so->is_float ? "float" : "int32";
    if ((1ull << lg) == so->n)
        snprintf(buf, len, "2^%d %s, %s", lg, type, kind);
    else
        snprintf(buf, len, "%zu %s, %s", so->n, type, kind);
}

static void grow_tiles(const cg_rung *r, void *user)
{
    scan_state *s = user;
    size_t t = r->p[P_ITEMS] > 0 ? div_up(s->o.n, rung_tile(s, r)) : 0;
    s->tiles_max = t > s->tiles_max ? t : s->tiles_max;
}

/* The tile totals and look-back state: as many tiles as any row or candidate of its tuning space makes. */
static void size_tiles(scan_state *s)
{
    cg_rungs_each_candidate(rungs, sizeof rungs / sizeof rungs[0], spaces, sizeof spaces / sizeof spaces[0],
                            grow_tiles, s);
}

static cg_status scan_setup(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len)
{
    cg_status st = CG_OK;
    scan_state *s = calloc(1, sizeof *s);
    CG_FAIL_IF(!s, CG_E_RUNTIME, "scan: out of host memory");
    s->max_wg = ctx->dev->max_wg ? ctx->dev->max_wg : 1;
    s->nv = ctx->dev->nvidia;
    if ((st = pick_opts(ctx, o, &s->o)) != CG_OK) goto out;
    size_tiles(s);
    if ((st = make_data(ctx, o, s)) == CG_OK) describe_size(&s->o, size_desc, len);
out:
    if (st != CG_OK) {
        scan_teardown(s);
        s = NULL;
    }
    *state = s;
    return st;
}

/* ---- rungs ------------------------------------------------------------------------------------------ */

/* Every rung reads each element once and writes each prefix once (8 B per element), one add per element. */
static void scan_model(const void *state, const cg_rung *r, cg_model *m)
{
    const scan_state *s = state;
    (void)r;
    m->bytes = (double)s->o.n * 8.0;
    m->flops = (double)s->o.n;
    m->items = (double)s->o.n;
    m->item_unit = "elem";
    m->bytes_note = "R+W: 4 B/elem read + 4 B/elem written";
    m->ceiling = CG_CEIL_COPY;
}

/* The local memory of each tile kernel (scan.cl's __local arrays) from WG and TILE: Hillis-Steele's two
 * buffers; Blelloch's tile, padded with -DPAD; the register kernels' padded tile (none with -DDIRECT), the
 * group scan's words (SCAN_LOCAL, with room), plus the look-back window's flags and values; the chunked
 * kernels' none. */
typedef enum { LK_HS, LK_BLELLOCH, LK_REGS, LK_NONE } local_kind;
static const struct {
    const char *kernel;
    local_kind kind;
} kernel_local[] = {
    {"scan_hs", LK_HS},           {"scan_blelloch", LK_BLELLOCH}, {"scan_regs", LK_REGS},
    {"scan_regs_carry", LK_REGS}, {"scan_lookback", LK_REGS},     {"scan_chunks", LK_NONE},
    {"scan_chunks8", LK_NONE},
};

/* The largest local memory of the rung's kernels (its tile kernel; scan_partials' 2 WG words and
 * tile_reduce's WG in the three-kernel plans): the table rows state it too, a candidate's comes from here. */
static size_t scan_local_need(const void *state, const cg_rung *r)
{
    size_t wg = rung_wg(state, r), tile = rung_tile(state, r), need = 0;
    bool pad = cg_rung_has_option(r, "-DPAD"), window = cg_rung_has_option(r, "-DLB_WINDOW"),
         direct = cg_rung_has_option(r, "-DDIRECT");
    for (size_t i = 0; i < sizeof kernel_local / sizeof kernel_local[0]; i++) {
        if (strcmp(kernel_local[i].kernel, r->kernel)) continue;
        local_kind k = kernel_local[i].kind;
        need = k == LK_HS         ? 2 * tile * 4
               : k == LK_BLELLOCH ? (pad ? tile + tile / 32 : tile) * 4
               : k == LK_REGS     ? SCAN_LOCAL(direct ? 0 : tile, wg) + (window ? 32 * 8 : 0)
                                  : 0;
    }
    if (r->p[P_PLAN] != PLAN_LOOKBACK && need < 2 * wg * 4) need = 2 * wg * 4;
    return need;
}

/* The table row a rung (or a tuning candidate, a copy of one) comes from. */
static const cg_rung *row_of(const cg_rung *r)
{
    for (size_t i = 0; i < sizeof rungs / sizeof rungs[0]; i++)
        if (!strcmp(rungs[i].name, r->name)) return &rungs[i];
    return r;
}

static bool pow2(int v)
{
    return v > 0 && !(v & (v - 1));
}

/* What the kernels and buffers cannot take, for tuning candidates (the table rows always pass): a work-group
 * that is not a power of two (it would be rounded, not run as asked), a chunked rung's wg other than 1, a
 * look-back window wider than the group, items below 1 (or not a power of two for scan_blelloch's tile
 * tree), more tiles than setup sized the totals and look-back state for. */
static bool scan_unsupported(const void *state, const cg_rung *r, char *why, size_t len)
{
    const scan_state *s = state;
    int wg = r->p[P_WG], items = r->p[P_ITEMS];
    if (!pow2(wg))
        snprintf(why, len,
                 "wg=%d: the kernels need a power of two (reqd_work_group_size(WG), trees halving it)", wg);
    else if ((wg == 1) != (row_of(r)->p[P_WG] == 1))
        snprintf(why, len, "wg=%d: the rung's kernel runs %s", wg,
                 wg == 1 ? "a work-group over a tile (wg above 1)" : "one work-item per group (wg 1)");
    else if (cg_rung_has_option(r, "-DLB_WINDOW=32") && wg < 32)
        snprintf(why, len, "wg=%d: the look-back window polls 32 tiles, one per work-item (wg >= 32)", wg);
    else if (items < 1 || (!strcmp(r->kernel, "scan_blelloch") && !pow2(items)))
        snprintf(why, len, "items=%d: %s", items,
                 items < 1 ? "at least 1" : "a power of two (the Blelloch tree spans the tile)");
    else if (cg_rung_has_option(r, "-DDIRECT") && items % 4)
        snprintf(why, len, "items=%d: a multiple of 4 (a work-item's elements move as 16-byte vectors)",
                 items);
    else if (div_up(s->o.n, rung_tile(s, r)) > s->tiles_max)
        snprintf(why, len, "makes %zu tiles, the totals hold %zu (sized for the tuning spaces' values)",
                 div_up(s->o.n, rung_tile(s, r)), s->tiles_max);
    else
        return false;
    return true;
}

/* "-DWG=256 -DITEMS=4", plus -DTYPE_FLOAT for --type float and -DNV_FENCE on NVIDIA's platform. */
static void scan_options(const void *state, const cg_rung *r, char *buf, size_t len)
{
    const scan_state *s = state;
    snprintf(buf, len, "-DWG=%zu -DITEMS=%d%s%s", rung_wg(s, r), r->p[P_ITEMS],
             s->o.is_float ? " -DTYPE_FLOAT" : "", s->nv ? " -DNV_FENCE" : "");
}

static double log2_ceil(size_t x)
{
    double l = 0;
    while (((size_t)1 << (size_t)l) < x)
        l++;
    return l;
}

/* The summation depth d of the rung (docs/workloads/scan.md): every float prefix is within gamma_d times the
 * sum of its |terms| of the exact prefix. Within a tile at most ITEMS + 2 log2(TILE) + 2 additions (the
 * registers' run, an up- and a down-sweep or log2(TILE) Hillis-Steele steps, the inclusive add); the carry:
 * scan_partials' run of ceil(tiles / WG) totals, its log2(WG) steps and the final add, or the look-back's
 * chain of at most two adds per earlier tile (a window's sum, then the carry). */
static double rung_depth(const scan_rung *q)
{
    double d = (double)q->r->p[P_ITEMS] + 2 * log2_ceil(q->tile) + 2;
    if (q->r->p[P_PLAN] == PLAN_LOOKBACK) return d + 2 * (double)q->tiles + 2;
    return d + (double)div_up(q->tiles, q->wg) + log2_ceil(q->wg) + 2;
}

static void scan_release(void *rs)
{
    scan_rung *q = rs;
    if (!q) return;
    if (q->k) clReleaseKernel(q->k);
    if (q->k_pre) clReleaseKernel(q->k_pre);
    if (q->k_mid) clReleaseKernel(q->k_mid);
    if (q->k_post) clReleaseKernel(q->k_post);
    free(q);
}

/* Arguments 0-5 of every tile kernel: in, out, tile totals / carries / state, n, incl, pad. */
static cg_status set_tile_args(cl_kernel k, const scan_state *s, const cg_rung *r, cl_mem aux)
{
    cg_status st = CG_OK;
    cl_uint n = (cl_uint)s->o.n, incl = s->o.incl, pad = (cl_uint)r->p[P_PAD];
    CG_TRY(clSetKernelArg(k, 0, sizeof s->in, &s->in));
    CG_TRY(clSetKernelArg(k, 1, sizeof s->out, &s->out));
    CG_TRY(clSetKernelArg(k, 2, sizeof aux, &aux));
    CG_TRY(clSetKernelArg(k, 3, sizeof n, &n));
    CG_TRY(clSetKernelArg(k, 4, sizeof incl, &incl));
    CG_TRY(clSetKernelArg(k, 5, sizeof pad, &pad));
out:
    return st;
}

/* The helper kernels of the three-kernel plans: scan_partials (both), then tile_reduce or scan_add. */
static cg_status make_helpers(const scan_state *s, scan_rung *q, cl_program prog)
{
    cg_status st = CG_OK;
    cl_uint n = (cl_uint)s->o.n, g = (cl_uint)q->tiles;
    CG_TRY_OBJ(q->k_mid, clCreateKernel(prog, "scan_partials", CG_ERRP));
    CG_TRY(clSetKernelArg(q->k_mid, 0, sizeof s->sums, &s->sums));
    CG_TRY(clSetKernelArg(q->k_mid, 1, sizeof g, &g));
    if (q->r->p[P_PLAN] == PLAN_REDUCE) {
        CG_TRY_OBJ(q->k_pre, clCreateKernel(prog, "tile_reduce", CG_ERRP));
        CG_TRY(clSetKernelArg(q->k_pre, 0, sizeof s->in, &s->in));
        CG_TRY(clSetKernelArg(q->k_pre, 1, sizeof s->sums, &s->sums));
        CG_TRY(clSetKernelArg(q->k_pre, 2, sizeof n, &n));
    } else {
        CG_TRY_OBJ(q->k_post, clCreateKernel(prog, "scan_add", CG_ERRP));
        CG_TRY(clSetKernelArg(q->k_post, 0, sizeof s->out, &s->out));
        CG_TRY(clSetKernelArg(q->k_post, 1, sizeof s->sums, &s->sums));
        CG_TRY(clSetKernelArg(q->k_post, 2, sizeof n, &n));
    }
out:
    return st;
}

static cg_status scan_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs)
{
    cg_status st = CG_OK;
    scan_state *s = state;
    (void)ctx;
    scan_rung *q = calloc(1, sizeof *q);
    CG_FAIL_IF(!q, CG_E_RUNTIME, "scan: out of host memory");
    q->r = r;
    q->wg = rung_wg(s, r);
    q->tile = rung_tile(s, r);
    q->tiles = div_up(s->o.n, q->tile);
    q->depth = rung_depth(q);
    q->packed = cg_rung_has_option(r, "-DPACKED");
    if (q->wg != (size_t)r->p[P_WG])
        CG_WARN("scan:%s: work-group size %d clamped to %zu for this device", r->name, r->p[P_WG], q->wg);
    CG_TRY_OBJ(q->k, clCreateKernel(prog, r->kernel, CG_ERRP));
    if (r->p[P_PLAN] == PLAN_LOOKBACK) {
        cl_uint g = (cl_uint)q->tiles;
        st = set_tile_args(q->k, s, r, s->st);
        if (st == CG_OK) CG_TRY(clSetKernelArg(q->k, 6, sizeof g, &g));
    } else {
        st = set_tile_args(q->k, s, r, s->sums);
        if (st == CG_OK) st = make_helpers(s, q, prog);
    }
out:
    if (st != CG_OK) {
        scan_release(q);
        q = NULL;
    }
    *rs = q;
    return st;
}

/* Look-back: zero the ticket counter and the tiles' flags (timed: part of the rung's work), then one pass. */
static cg_status enqueue_lookback(cg_ctx *ctx, scan_state *s, scan_rung *q, cg_events *ev)
{
    cg_status st = CG_OK;
    cl_uint zero = 0;
    cg_events_stage(ev, "zero-flags");
    cl_event *e = cg_events_next(ev);
    CG_FAIL_IF(!e, CG_E_RUNTIME, "out of host memory for an event");
    CG_TRY(clEnqueueFillBuffer(ctx->queue, s->st, &zero, sizeof zero, 0,
                               (q->packed ? 2 + 2 * q->tiles : 1 + q->tiles) * sizeof zero, 0, NULL, e));
    cg_events_stage(ev, "one-pass");
    st = cg_enqueue_groups(ctx, ev, q->k, q->tiles, q->wg);
out:
    return st;
}

/* Scan-then-propagate: tiles scanned (and their totals written), totals scanned, carries added. Reduce-then-
 * scan: tile totals, totals scanned, tiles scanned with their carries. */
static cg_status scan_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev)
{
    scan_state *s = state;
    scan_rung *q = rs;
    cg_status st = CG_OK;
    if (q->r->p[P_PLAN] == PLAN_LOOKBACK) return enqueue_lookback(ctx, s, q, ev);
    if (q->r->p[P_PLAN] == PLAN_REDUCE) { /* the JSON's stages_s: each kernel's time */
        cg_events_stage(ev, "tile-totals");
        st = cg_enqueue_groups(ctx, ev, q->k_pre, q->tiles, q->wg);
        cg_events_stage(ev, "scan-totals");
        if (st == CG_OK) st = cg_enqueue_groups(ctx, ev, q->k_mid, 1, q->wg);
        cg_events_stage(ev, "scan-tiles");
        return st == CG_OK ? cg_enqueue_groups(ctx, ev, q->k, q->tiles, q->wg) : st;
    }
    cg_events_stage(ev, "scan-tiles");
    st = cg_enqueue_groups(ctx, ev, q->k, q->tiles, q->wg);
    if (st != CG_OK || q->tiles == 1) return st;
    cg_events_stage(ev, "scan-totals");
    st = cg_enqueue_groups(ctx, ev, q->k_mid, 1, q->wg);
    cg_events_stage(ev, "add-carries");
    return st == CG_OK ? cg_enqueue_groups(ctx, ev, q->k_post, div_up(s->o.n, q->wg), q->wg) : st;
}

/* int32: every prefix equal. float: |got - ref| <= (gamma_d + 2u) |ref| (the inputs are positive: |ref| is
 * the sum of |terms|; 2u: the reference's one rounding, with room), or equal with --check exact. */
static cg_status scan_verify(cg_ctx *ctx, void *state, void *rs, cg_check *c)
{
    cg_status st = CG_OK;
    scan_state *s = state;
    scan_rung *q = rs;
    CG_TRY(clEnqueueReadBuffer(ctx->queue, s->out, CL_TRUE, 0, s->o.n * 4, s->got, 0, NULL, NULL));
    if (!s->o.is_float)
        cg_check_u32(c, s->got, s->ref, s->o.n);
    else
        cg_check_bound(c, s->got, s->ref, NULL, s->o.n,
                       s->o.exact ? 0.0 : cg_gamma(q->depth) + 2 * CG_FLOAT_U, 0.0);
out:
    return st;
}

const cg_workload cg_workload_scan = {
    .name = "scan",
    .summary = "prefix sum of N int32 or floats (--type, --inclusive): the seed's local-memory Blelloch to "
               "a single pass with decoupled look-back",
    .size_help = "N elements (2^24, 16M, 1000003); default 2^28 on GPUs, 2^24 elsewhere",
    .cl_file = "scan.cl",
    .wopts = wopts,
    .n_wopts = sizeof wopts / sizeof wopts[0],
    .rungs = rungs,
    .n_rungs = sizeof rungs / sizeof rungs[0],
    .tune = spaces,
    .n_tune = sizeof spaces / sizeof spaces[0],
    .setup = scan_setup,
    .teardown = scan_teardown,
    .model = scan_model,
    .options = scan_options,
    .prepare = scan_prepare,
    .enqueue = scan_enqueue,
    .verify = scan_verify,
    .release = scan_release,
    .validate = scan_validate,
    .local_need = scan_local_need,
    .unsupported = scan_unsupported,
};
