/* The histogram workload: 256 bins of N seeded pixels (--pixel u8: bytes, u32: 32-bit words whose value is
 * the bin; --pattern random, allequal or image), a ladder that first walks the seed's steps (../shared/seeds/
 * 000_b840b7a245847c19.txt, AMD's games chapter: per-work-item sub-histograms in global memory, one local
 * histogram per group, 1 to 32 copies of each bin, groups = compute units, a two-pass merge), then today's
 * rungs from one global atomic per pixel to per-lane sub-histograms fed by uint4 loads. This file owns the
 * inputs (their bytes: histogram_input.c), the CPU reference (an exact count, computed once), the device
 * buffers (the pixels, 256 uint bins, the rows of the two-pass merge), the rung table and the enqueue of each
 * rung: a fill that zeroes the bins and one kernel, or a kernel that writes rows and hist_reduce that sums
 * them, or one kernel whose last group writes the bins (all timed), and the tuning spaces of the local-memory
 * rungs. A rung's shape is data in p[] (in quotes: the tuning parameter's name): p[0] work-group size, a
 * power of two (a table row's is clamped to the device and rounded down to one; a tuning candidate's is
 * refused instead; never 0, every kernel requires its WG) ("wg"); p[1] sub-histograms per group in local
 * memory (COPIES; work-item lid counts into copy lid % COPIES), 1 to the work-group size ("copies"); p[2] 0:
 * one pixel per load (hist_global, hist_local); k > 0: k uint4 loads per work-item per step
 *        ("loads"; a candidate keeps its rung's kind);
 *   p[3] 0: one work-item per pixel; k > 0: a grid of k x compute-units groups strides over the input;
 *        -k: k work-items in all (the seed's 8192) ("grid", groups per compute unit: k > 0 only);
 *   p[4] merge: 0 global atomics into the bins; 1 one row per group, summed by hist_reduce; 2 one row per
 *        work-item (hist_subhist), summed by hist_reduce; 3 one row per group, summed by the last group of
 *        the same launch; 4 global atomics into the rung's own accumulator, which the last group moves to
 *        the bins (3 and 4: one launch, nothing zeroed by the host, -DLAST_GROUP). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "core/log.h"
#include "core/workload.h"
#include "workloads/histogram/histogram_input.h"

enum { P_WG, P_COPIES, P_LOADS, P_GRID, P_MERGE };
enum { MERGE_ATOMIC, MERGE_GROUP_ROWS, MERGE_ITEM_ROWS, MERGE_LAST_ROWS, MERGE_LAST_ACC };

#define HIST_DEFAULT_GPU   (1ull << 28) /* bytes of input by default, whatever the pixel */
#define HIST_DEFAULT_OTHER (1ull << 24)
#define HIST_MAX_N         (1ull << 31) /* kernels index with 32-bit unsigned ints */
#define LB(copies)         ((size_t)HIST_BINS * (copies)*4)
#define SEED_NT            (-8192) /* the seed's "at least 8192 work-items and a work-group size of 64" */
#define HIST_STATE_WORDS   272     /* a LAST_GROUP rung's state: 256 accumulator words, the ticket, padding */

/* clang-format off */
static const cg_rung rungs[] = {
    /* name, why (one line, shown in every report), kernel, build options, needs, local bytes,
       {P_WG, P_COPIES, P_LOADS, P_GRID, P_MERGE} */
    {"seed-subhist", "the seed's multiBinHistogram: 8192 work-items (64 a group), each counts its uint4s into its own 256 bins in global memory; a 2nd kernel sums the rows",
     "hist_subhist", NULL, 0, 64 * 4, {64, 1, 1, SEED_NT, MERGE_ITEM_ROWS}},
    {"seed-local", "the seed's histogramLocal (vs seed-subhist): one histogram per group in local memory, local atomics; group rows summed by a 2nd kernel",
     "hist_vec", NULL, 0, LB(1), {64, 1, 1, SEED_NT, MERGE_GROUP_ROWS}},
    {"seed-copies2", "the seed's histogramKernel with NBANKS = 2 (vs seed-local): 2 copies of each bin, h[bin * 2 + lid % 2]",
     "hist_vec", NULL, 0, LB(2), {64, 2, 1, SEED_NT, MERGE_GROUP_ROWS}},
    {"seed-copies4", "the seed's histogramKernel with NBANKS = 4 (vs seed-copies2): 4 copies of each bin",
     "hist_vec", NULL, 0, LB(4), {64, 4, 1, SEED_NT, MERGE_GROUP_ROWS}},
    {"seed-copies8", "the seed's histogramKernel with NBANKS = 8 (vs seed-copies4): 8 copies of each bin",
     "hist_vec", NULL, 0, LB(8), {64, 8, 1, SEED_NT, MERGE_GROUP_ROWS}},
    {"seed-copies16", "the seed's histogramKernel with NBANKS = 16 (vs seed-copies8): 16 copies of each bin",
     "hist_vec", NULL, 0, LB(16), {64, 16, 1, SEED_NT, MERGE_GROUP_ROWS}},
    {"seed-copies32", "the seed's histogramKernel, NBANKS = 32 (vs seed-copies16): 32 copies of each bin, one per bank",
     "hist_vec", NULL, 0, LB(32), {64, 32, 1, SEED_NT, MERGE_GROUP_ROWS}},
    {"seed-cu-groups", "the seed's sizing rule (vs seed-copies32): as many 64-wide groups as compute units, not 8192 work-items",
     "hist_vec", NULL, 0, LB(32), {64, 32, 1, 1, MERGE_GROUP_ROWS}},
    {"global-atomic", "beyond the seed, the floor: one global atomic per input pixel, one work-item per pixel",
     "hist_global", NULL, 0, 0, {256, 1, 0, 0, MERGE_ATOMIC}},
    {"local", "vs global-atomic: 256-wide groups, 8/CU, count pixel loads into a local histogram, 256 global atomics per group",
     "hist_local", NULL, 0, LB(1), {256, 1, 0, 8, MERGE_ATOMIC}},
    {"local-copies32", "vs local: 32 copies of each bin, h[bin * 32 + lid % 32], on the same grid",
     "hist_local", NULL, 0, LB(32), {256, 32, 0, 8, MERGE_ATOMIC}},
    {"local-spread", "vs local-copies32: 4 groups per compute unit instead of 8 (32 KiB of local memory each)",
     "hist_local", NULL, 0, LB(32), {256, 32, 0, 4, MERGE_ATOMIC}},
    {"packed-uint4", "vs local-spread: uint4 loads, 16 bytes (16 u8 or 4 u32 pixels) per load, counted from registers",
     "hist_vec", NULL, 0, LB(32), {256, 32, 1, 4, MERGE_ATOMIC}},
    {"packed-1copy", "vs packed-uint4: one copy of each bin (the seed's spreading undone on today's grid)",
     "hist_vec", NULL, 0, LB(1), {256, 1, 1, 4, MERGE_ATOMIC}},
    {"two-pass", "vs packed-uint4: group histograms written out and summed by a 2nd kernel, no global atomics",
     "hist_vec", NULL, 0, LB(32), {256, 32, 1, 4, MERGE_GROUP_ROWS}},
    {"best", "vs packed-uint4: 512-wide groups and two uint4 loads in flight per step",
     "hist_vec", NULL, 0, LB(32), {512, 32, 2, 4, MERGE_ATOMIC}},
    {"deep-loads", "vs best: 256-wide groups, 6 per compute unit, four uint4 loads in flight",
     "hist_vec", NULL, 0, LB(32), {256, 32, 4, 6, MERGE_ATOMIC}},
    {"one-kernel", "vs best: one launch, no fill: groups write rows, the last group to finish (a ticket) sums them into the bins",
     "hist_vec", NULL, 0, LB(32), {512, 32, 2, 4, MERGE_LAST_ROWS}},
    {"self-zero", "vs best: one launch, no fill: groups add into an accumulator the kernel keeps zeroed; the last group moves it to the bins",
     "hist_vec", NULL, 0, LB(32), {512, 32, 2, 4, MERGE_LAST_ACC}},
    {"chunked", "vs self-zero: each group walks its own contiguous chunk of the input, not the grid-wide stride",
     "hist_vec", "-DCHUNKED", 0, LB(32), {512, 32, 2, 4, MERGE_LAST_ACC}},
    {"nv-match", "vs self-zero: warp-aggregated local updates: lanes with one bin (inline-PTX match.any.sync) elect one that adds their count",
     "hist_vec", "-DNV_MATCH", CG_FEAT_NV_PTX, LB(32), {512, 32, 2, 4, MERGE_LAST_ACC}},
    {"nc-loads", "vs self-zero: the uint4 loads take the read-only path and leave no line in L1 (inline-PTX ld.global.nc.L1::no_allocate)",
     "hist_vec", "-DNV_NC", CG_FEAT_NV_PTX, LB(32), {512, 32, 2, 4, MERGE_LAST_ACC}},
    {"cpu-private", "vs best, the CPU's layout: a group is one work-item counting its own chunk into 4 private copies of the bins, no atomics until its 256 adds",
     "hist_private", NULL, 0, 0, {1, 4, 1, 4, MERGE_ATOMIC}},
};

/* The tuning spaces (`clgauge tune`, core/tune.h) of the local-memory rungs: hist_local's, hist_vec's with
 * atomic merges (best among them), and the two-pass merges on a grid. Every value a power of two (WG must
 * be one; copies need not, but only lane-aligned counts are worth a run) and each rung's own among them; no
 * wg 0 (NULL local size): every kernel has reqd_work_group_size(WG). Copies above the work-group size are
 * refused (hist_unsupported); 64 copies (64 KiB) fit few GPUs' local memory. At most 60 candidates. The
 * one-launch rungs' space adds grid 2 (on an H100 the groups best's 512-wide kernel holds at once: one wave).
 * nc-loads' own space reaches 8 loads in flight and grid 1 (session 20's H200 searches of its kernel preferred
 * 1024-wide groups with 8 loads, 1 or 2 groups a compute unit): 36 candidates. */
static const cg_tspace spaces[] = {
    {"local,local-copies32,local-spread", 3,
     {{"wg", P_WG, CG_TR_WG_X, 6, {32, 64, 128, 256, 512, 1024}},
      {"copies", P_COPIES, CG_TR_OTHER, 3, {1, 8, 32}},
      {"grid", P_GRID, CG_TR_GROUPS_PER_CU, 3, {2, 4, 8}}}},
    {"packed-uint4,packed-1copy,best,deep-loads", 4,
     {{"wg", P_WG, CG_TR_WG_X, 5, {64, 128, 256, 512, 1024}},
      {"copies", P_COPIES, CG_TR_OTHER, 2, {1, 32}},
      {"loads", P_LOADS, CG_TR_OTHER, 3, {1, 2, 4}},
      {"grid", P_GRID, CG_TR_GROUPS_PER_CU, 2, {4, 6}}}},
    {"one-kernel,self-zero,chunked,nv-match", 4,
     {{"wg", P_WG, CG_TR_WG_X, 3, {256, 512, 1024}},
      {"copies", P_COPIES, CG_TR_OTHER, 2, {1, 32}},
      {"loads", P_LOADS, CG_TR_OTHER, 3, {1, 2, 4}},
      {"grid", P_GRID, CG_TR_GROUPS_PER_CU, 3, {2, 4, 6}}}},
    {"nc-loads", 4,
     {{"wg", P_WG, CG_TR_WG_X, 2, {512, 1024}},
      {"copies", P_COPIES, CG_TR_OTHER, 2, {1, 32}},
      {"loads", P_LOADS, CG_TR_OTHER, 3, {2, 4, 8}},
      {"grid", P_GRID, CG_TR_GROUPS_PER_CU, 3, {1, 2, 4}}}},
    {"cpu-private", 2,
     {{"copies", P_COPIES, CG_TR_OTHER, 4, {1, 2, 4, 8}},
      {"grid", P_GRID, CG_TR_GROUPS_PER_CU, 4, {1, 2, 4, 8}}}},
    {"seed-cu-groups,two-pass", 3,
     {{"wg", P_WG, CG_TR_WG_X, 6, {32, 64, 128, 256, 512, 1024}},
      {"copies", P_COPIES, CG_TR_OTHER, 3, {1, 8, 32}},
      {"grid", P_GRID, CG_TR_GROUPS_PER_CU, 3, {1, 2, 4}}}},
};
/* clang-format on */

static const char *const patterns[] = {"random", "allequal", "image"}; /* hist_pattern's order */

typedef struct hist_state {
    uint64_t n;  /* pixels */
    unsigned pb; /* bytes per pixel: 1 (u8) or 4 (u32) */
    int pattern;
    bool exact;              /* --check exact with the random pattern: fill_exact's runs instead */
    uint32_t ref[HIST_BINS]; /* exact counts of the input */
    unsigned cus;            /* compute units */
    size_t max_wg;           /* device limit on the work-group size */
    bool nv;                 /* NVIDIA's platform: LAST_GROUP's fence is PTX membar.gl (-DNV_FENCE) */
    cl_mem in, out, rows;    /* n pixels; 256 uints; the rows of the two-pass merges (256 uints each) */
    size_t nrows;            /* rows the rows buffer holds */
} hist_state;

typedef struct hist_rung {
    cl_kernel k, reduce; /* reduce: hist_reduce for the two-pass merges, else NULL */
    cl_mem state;        /* a LAST_GROUP rung's accumulator and ticket (its own, not poisoned), else NULL */
    size_t wg, groups;
    cl_uint nrows;
} hist_rung;

/* The rung's work-group size: its p[0] clamped to the device and rounded down to a power of two. */
static size_t rung_wg(const hist_state *s, const cg_rung *r)
{
    return cg_rung_pow2_wg(r->p[P_WG], 256, s->max_wg);
}

static size_t div_up(uint64_t a, uint64_t b)
{
    return (size_t)((a + b - 1) / b);
}

/* Groups of a rung: one work-item per pixel; k x compute units but no more than the loads need (and enough
 * work-items for the uint4 kernels' tail of up to 15 pixels); or a fixed count of work-items. */
static size_t rung_groups(const hist_state *s, const cg_rung *r, size_t wg)
{
    if (r->p[P_GRID] == 0) return div_up(s->n, wg);
    if (r->p[P_GRID] < 0) return div_up((uint64_t)-r->p[P_GRID], wg);
    uint64_t units = r->p[P_LOADS] > 0 ? s->n / (16 / s->pb) : s->n;
    size_t most = div_up(units > 16 ? units : 16, wg);
    size_t g = (size_t)r->p[P_GRID] * (s->cus ? s->cus : 1);
    return g < most ? g : most;
}

/* Rows of 256 bins the rung writes before hist_reduce sums them (0: it merges with atomics). */
static size_t rung_rows(const hist_state *s, const cg_rung *r)
{
    size_t wg = rung_wg(s, r), groups = rung_groups(s, r, wg);
    if (r->p[P_MERGE] == MERGE_ITEM_ROWS) return groups * wg;
    return r->p[P_MERGE] == MERGE_GROUP_ROWS || r->p[P_MERGE] == MERGE_LAST_ROWS ? groups : 0;
}

/* Whether hist_reduce sums the rung's rows (a second kernel), and whether the rung's kernel ends with the
 * last group's merge (one launch, -DLAST_GROUP). */
static bool two_kernels(const cg_rung *r)
{
    return r->p[P_MERGE] == MERGE_GROUP_ROWS || r->p[P_MERGE] == MERGE_ITEM_ROWS;
}

static bool last_group(const cg_rung *r)
{
    return r->p[P_MERGE] == MERGE_LAST_ROWS || r->p[P_MERGE] == MERGE_LAST_ACC;
}

static const char *const pixels[] = {"u8", "u32"};
enum { PIX_U8, PIX_U32, PIX_COUNT };

static int find_word(const char *const *words, int count, const char *name)
{
    if (!name) return 0;
    for (int i = 0; i < count; i++)
        if (!strcmp(words[i], name)) return i;
    return -1;
}

/* N: --size, or the default for the device type (2^28 bytes on GPUs, 2^24 elsewhere, whatever the pixel)
 * halved until it fits one allocation and half the global memory; one rule per --pixel. */
static const cg_size_rule size_rules[PIX_COUNT] = {
    {.workload = "histogram",
     .unit = "bytes",
     .dims = 1,
     .dflt_gpu = HIST_DEFAULT_GPU,
     .dflt_other = HIST_DEFAULT_OTHER,
     .dflt_floor = 1024,
     .elem_bytes = 1,
     .buffers = 1,
     .max_count = HIST_MAX_N},
    {.workload = "histogram",
     .unit = "pixels",
     .dims = 1,
     .dflt_gpu = HIST_DEFAULT_GPU / 4,
     .dflt_other = HIST_DEFAULT_OTHER / 4,
     .dflt_floor = 256,
     .elem_bytes = 4,
     .buffers = 1,
     .max_count = HIST_MAX_N},
};

/* --pattern and --pixel (their values are checked by the CLI before any device work, and again here). */
static const cg_wopt wopts[] = {
    {"pattern", "P", "the input pixels, random (default), allequal (worst-case contention) or image",
     CG_WOPT_WORD, "random|allequal|image", "random", 0},
    {"pixel", "T",
     "the pixel type, u8 (default: a byte, its value the bin) or u32 (the seed's 32-bit pixels, value 0-255 "
     "the bin)",
     CG_WOPT_WORD, "u8|u32", "u8", 0},
};

static const char *wopt_arg(const cg_run_opts *o, const char *name)
{
    const cg_wopt_value *v = cg_wopts_find(o->wopts, name);
    return v ? v->text : NULL;
}

/* The --pattern and --pixel choices: CG_E_USAGE with one line for an unknown value. */
static cg_status pick_words(const cg_run_opts *o, int *pattern, int *pixel)
{
    *pattern = find_word(patterns, PAT_COUNT, wopt_arg(o, "pattern"));
    *pixel = find_word(pixels, PIX_COUNT, wopt_arg(o, "pixel"));
    if (*pattern < 0) {
        CG_ERROR("histogram: unknown --pattern '%s': use random, allequal or image", wopt_arg(o, "pattern"));
        return CG_E_USAGE;
    }
    if (*pixel < 0) {
        CG_ERROR("histogram: unknown --pixel '%s': use u8 or u32", wopt_arg(o, "pixel"));
        return CG_E_USAGE;
    }
    return CG_OK;
}

static cg_status pick_size(const cg_ctx *ctx, const cg_run_opts *o, int pixel, uint64_t *n)
{
    size_t w, h;
    cg_status st = cg_size_pick(ctx, &size_rules[pixel], o, &w, &h);
    *n = w;
    return st;
}

/* The --pattern, --pixel and size checks of setup, before any device work (cg_workload.validate). */
static cg_status hist_validate(const cg_ctx *ctx, const cg_run_opts *o)
{
    uint64_t n;
    int pattern, pixel;
    cg_status st = pick_words(o, &pattern, &pixel);
    return st != CG_OK ? st : pick_size(ctx, o, pixel, &n);
}

/* "2^24 B, random" for bytes (as before --pixel), "2^22 px u32, image" for 32-bit pixels. */
static void describe_size(const hist_state *s, char *buf, size_t len)
{
    int lg = 0;
    const char *unit = s->pb == 1 ? "B" : "px u32", *pat = s->exact ? "exact" : patterns[s->pattern];
    while ((1ull << lg) < s->n)
        lg++;
    if ((1ull << lg) == s->n)
        snprintf(buf, len, "2^%d %s, %s", lg, unit, pat);
    else
        snprintf(buf, len, "%llu %s, %s", (unsigned long long)s->n, unit, pat);
}

/* The pixel values (fill_pattern's bytes; for u32 each widened to a 32-bit word), their exact counts, and
 * the input buffer. */
static cg_status make_input(cg_ctx *ctx, const cg_run_opts *o, hist_state *s)
{
    cg_status st = CG_OK;
    size_t n = (size_t)s->n;
    uint8_t *x = malloc(n);
    uint32_t *w = s->pb == 4 ? malloc(n * 4) : NULL;
    CG_FAIL_IF(!x || (s->pb == 4 && !w), CG_E_RUNTIME, "histogram: out of host memory for %llu pixels",
               (unsigned long long)s->n);
    hist_fill_pattern(o->seed, s->pattern, o->check_exact, x, n);
    for (size_t i = 0; i < n; i++) {
        s->ref[x[i]]++;
        if (w) w[i] = x[i];
    }
    CG_TRY_BUF(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * s->pb, w ? (void *)w : (void *)x,
               CG_BUF_INPUT, &s->in);
out:
    free(w);
    free(x);
    return st;
}

static void hist_teardown(void *state)
{
    hist_state *s = state;
    if (!s) return;
    if (s->in) clReleaseMemObject(s->in);
    if (s->out) clReleaseMemObject(s->out);
    if (s->rows) clReleaseMemObject(s->rows);
    free(s);
}

static void grow_rows(const cg_rung *r, void *user)
{
    hist_state *s = user;
    size_t n = rung_rows(s, r);
    s->nrows = n > s->nrows ? n : s->nrows;
}

/* The rows buffer of the two-pass merges: as many rows of 256 uints as the row or tuning candidate writing
 * most needs (an intermediate: registered WRITTEN, so poisoned before every run like the bins). */
static cg_status make_rows(cg_ctx *ctx, hist_state *s)
{
    cg_status st = CG_OK;
    s->nrows = 1;
    cg_rungs_each_candidate(rungs, sizeof rungs / sizeof rungs[0], spaces, sizeof spaces / sizeof spaces[0],
                            grow_rows, s);
    size_t most = s->nrows;
    CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, most * HIST_BINS * sizeof(cl_uint), NULL, CG_BUF_WRITTEN, &s->rows);
out:
    return st;
}

static cg_status hist_setup(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len)
{
    cg_status st = CG_OK;
    int pixel = 0;
    hist_state *s = calloc(1, sizeof *s);
    CG_FAIL_IF(!s, CG_E_RUNTIME, "histogram: out of host memory");
    s->cus = ctx->dev->compute_units;
    s->max_wg = ctx->dev->max_wg ? ctx->dev->max_wg : 1;
    s->nv = ctx->dev->nvidia;
    if ((st = pick_words(o, &s->pattern, &pixel)) != CG_OK) goto out;
    s->pb = pixel == PIX_U32 ? 4 : 1;
    if ((st = pick_size(ctx, o, pixel, &s->n)) != CG_OK) goto out;
    s->exact = o->check_exact && s->pattern == PAT_RANDOM;
    describe_size(s, size_desc, len);
    if ((st = make_input(ctx, o, s)) != CG_OK) goto out;
    CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, sizeof s->ref, NULL, CG_BUF_WRITTEN, &s->out);
    st = make_rows(ctx, s);
out:
    if (st != CG_OK) {
        hist_teardown(s);
        s = NULL;
    }
    *state = s;
    return st;
}

/* Every rung reads each input pixel once; the bins and the rows of the two-pass merges are not counted. */
static void hist_model(const void *state, const cg_rung *r, cg_model *m)
{
    const hist_state *s = state;
    (void)r;
    m->bytes = (double)s->n * s->pb;
    m->flops = 0;
    m->items = (double)s->n;
    m->item_unit = s->pb == 1 ? "B" : "px";
    m->bytes_note = s->pb == 1 ? "R: 1 B per input byte, read once" : "R: 4 B per u32 pixel, read once";
    m->ceiling = CG_CEIL_READ;
}

/* Local memory: hist_local's and hist_vec's 256 x COPIES bins (the last group's sum of the rows reuses them),
 * hist_reduce's WG partial sums (a two-kernel rung); the largest of its kernels' (the table rows state it
 * too; a candidate's comes from here). */
static size_t hist_local_need(const void *state, const cg_rung *r)
{
    size_t wg = rung_wg(state, r), copies = r->p[P_COPIES] > 0 ? (size_t)r->p[P_COPIES] : 1;
    size_t bins = strcmp(r->kernel, "hist_local") && strcmp(r->kernel, "hist_vec") ? 0 : LB(copies);
    size_t reduce = two_kernels(r) ? wg * sizeof(cl_uint) : 0;
    return bins > reduce ? bins : reduce;
}

/* The table row a rung (or a tuning candidate, a copy of one) comes from. */
static const cg_rung *row_of(const cg_rung *r)
{
    for (size_t i = 0; i < sizeof rungs / sizeof rungs[0]; i++)
        if (!strcmp(rungs[i].name, r->name)) return &rungs[i];
    return r;
}

/* -1, 0 or 1: the kind a p[] entry selects (loads: per pixel or uint4s; grid: work-items in all, one per
 * pixel, a grid). */
static int kind(int v)
{
    return (v > 0) - (v < 0);
}

/* What the kernels and buffers cannot take, for tuning candidates (the table rows always pass): a work-group
 * that is not a power of two (it would be rounded, not run as asked), copies outside 1..wg (a copy no
 * work-item counts into; hist_private's private copies: 1..8), loads or grid of another kind than the rung's,
 * more rows than setup sized. */
static bool hist_unsupported(const void *state, const cg_rung *r, char *why, size_t len)
{
    const hist_state *s = state;
    const cg_rung *row = row_of(r);
    int wg = r->p[P_WG], copies = r->p[P_COPIES];
    if (wg <= 0 || (wg & (wg - 1))) {
        snprintf(why, len,
                 "wg=%d: the kernels need a power of two (reqd_work_group_size(WG), a tree halving it)", wg);
    } else if (!strcmp(r->kernel, "hist_private") && (copies < 1 || copies > 8)) {
        snprintf(why, len, "copies=%d: 1 to 8 private copies of the bins (hist_private)", copies);
    } else if (strcmp(r->kernel, "hist_private") && (copies < 1 || copies > wg)) {
        snprintf(why, len, "copies=%d: 1 to wg=%d (work-item lid counts into copy lid %% copies)", copies,
                 wg);
    } else if (kind(r->p[P_LOADS]) != kind(row->p[P_LOADS])) {
        snprintf(why, len, "loads=%d: the rung's kernel loads %s", r->p[P_LOADS],
                 row->p[P_LOADS] > 0 ? "uint4s (loads >= 1)" : "one pixel at a time (loads 0)");
    } else if (kind(r->p[P_GRID]) != kind(row->p[P_GRID])) {
        snprintf(why, len, "grid=%d: the rung runs %s", r->p[P_GRID],
                 row->p[P_GRID] > 0    ? "a grid of at least 1 group per compute unit"
                 : row->p[P_GRID] == 0 ? "one work-item per pixel (grid 0)"
                                       : "a fixed count of work-items (grid < 0)");
    } else if (rung_rows(s, r) > s->nrows) {
        snprintf(why, len, "writes %zu rows, the rows buffer holds %zu (sized for the tuning spaces' values)",
                 rung_rows(s, r), s->nrows);
    } else
        return false;
    return true;
}

/* "-DWG=256 -DCOPIES=32 -DLOADS=2 -DMERGE_ROWS=0 -DPIXEL=8", plus -DLAST_GROUP (and -DNV_FENCE on NVIDIA's
 * platform) for the one-launch merges and -DWG_ASKED=N when the device forced a smaller work-group size. */
static void hist_options(const void *state, const cg_rung *r, char *buf, size_t len)
{
    const hist_state *s = state;
    size_t wg = rung_wg(s, r);
    int copies = r->p[P_COPIES] > 0 ? r->p[P_COPIES] : 1, loads = r->p[P_LOADS] > 0 ? r->p[P_LOADS] : 1;
    bool rows = r->p[P_MERGE] != MERGE_ATOMIC && r->p[P_MERGE] != MERGE_LAST_ACC, last = last_group(r);
    int n = snprintf(buf, len, "-DWG=%zu -DCOPIES=%d -DLOADS=%d -DMERGE_ROWS=%d -DPIXEL=%u%s%s", wg, copies,
                     loads, rows, s->pb * 8, last ? " -DLAST_GROUP" : "", last && s->nv ? " -DNV_FENCE" : "");
    if (n >= 0 && (size_t)n < len && wg != (size_t)r->p[P_WG])
        snprintf(buf + n, len - (size_t)n, " -DWG_ASKED=%d", r->p[P_WG]);
}

static void hist_release(void *rs)
{
    hist_rung *q = rs;
    if (!q) return;
    if (q->k) clReleaseKernel(q->k);
    if (q->reduce) clReleaseKernel(q->reduce);
    if (q->state) clReleaseMemObject(q->state);
    free(q);
}

/* A LAST_GROUP rung's state (256 accumulator words and the ticket), created zeroed for this rung alone and
 * registered nowhere: the core does not poison it, since the kernel leaves it zeroed at the end of every
 * launch (the last group zeroes the accumulator and resets the ticket), so no fill has to be timed. A rung
 * whose kernel breaks that (a mutant) finds it non-zero in its next run and fails the check there; no other
 * rung or tuning candidate shares it. Arguments 3 (the bins) and 4 (the state). */
static cg_status make_last_state(cg_ctx *ctx, hist_state *s, hist_rung *q)
{
    cg_status st = CG_OK;
    cl_uint zeros[HIST_STATE_WORDS] = {0};
    CG_TRY_OBJ(q->state, clCreateBuffer(ctx->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zeros,
                                        zeros, CG_ERRP));
    CG_TRY(clSetKernelArg(q->k, 3, sizeof s->out, &s->out));
    CG_TRY(clSetKernelArg(q->k, 4, sizeof q->state, &q->state));
out:
    return st;
}

/* The rung's kernel writes the bins (atomic merge) or its rows; hist_reduce sums the rows into the bins. A
 * LAST_GROUP kernel writes its rows (or adds into its accumulator) and its last group writes the bins. */
static cg_status hist_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs)
{
    cg_status st = CG_OK;
    hist_state *s = state;
    hist_rung *q = calloc(1, sizeof *q);
    CG_FAIL_IF(!q, CG_E_RUNTIME, "histogram: out of host memory");
    q->wg = rung_wg(s, r);
    q->groups = rung_groups(s, r, q->wg);
    q->nrows = (cl_uint)rung_rows(s, r);
    if (q->wg != (size_t)r->p[P_WG])
        CG_WARN("histogram:%s: work-group size %d clamped to %zu for this device", r->name, r->p[P_WG],
                q->wg);
    cl_uint nn = (cl_uint)s->n;
    CG_TRY_OBJ(q->k, clCreateKernel(prog, r->kernel, CG_ERRP));
    if (last_group(r) && (st = make_last_state(ctx, s, q)) != CG_OK) goto out;
    cl_mem dst = q->nrows ? s->rows : q->state ? q->state : s->out;
    CG_TRY(clSetKernelArg(q->k, 0, sizeof s->in, &s->in));
    CG_TRY(clSetKernelArg(q->k, 1, sizeof dst, &dst));
    CG_TRY(clSetKernelArg(q->k, 2, sizeof nn, &nn));
    if (two_kernels(r)) {
        CG_TRY_OBJ(q->reduce, clCreateKernel(prog, "hist_reduce", CG_ERRP));
        CG_TRY(clSetKernelArg(q->reduce, 0, sizeof s->rows, &s->rows));
        CG_TRY(clSetKernelArg(q->reduce, 1, sizeof s->out, &s->out));
        CG_TRY(clSetKernelArg(q->reduce, 2, sizeof q->nrows, &q->nrows));
    }
out:
    if (st != CG_OK) {
        hist_release(q);
        q = NULL;
    }
    *rs = q;
    return st;
}

/* An atomic merge adds into the bins, so zeroing them is part of the rung: a timed fill, then the kernel. A
 * two-pass rung writes its rows, then hist_reduce writes every bin: two kernels, nothing to zero. A
 * LAST_GROUP rung is its kernel alone. The JSON's stages_s: "zero-bins" (the fill), "count" (the counting
 * kernel, its group merges and a LAST_GROUP kernel's last group included), "merge" (hist_reduce); the run's
 * time minus their sum is the gaps between the commands. */
static cg_status hist_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev)
{
    cg_status st = CG_OK;
    hist_state *s = state;
    hist_rung *q = rs;
    const cl_uint zero = 0;
    size_t global = q->groups * q->wg, bins = HIST_BINS * q->wg;
    if (q->reduce || q->state) {
        cg_events_stage(ev, "count");
        if ((st = cg_enqueue_kernel(ctx, ev, q->k, 1, &global, &q->wg)) != CG_OK || !q->reduce) return st;
        cg_events_stage(ev, "merge");
        return cg_enqueue_kernel(ctx, ev, q->reduce, 1, &bins, &q->wg);
    }
    cg_events_stage(ev, "zero-bins");
    cl_event *e = cg_events_next(ev);
    CG_FAIL_IF(!e, CG_E_RUNTIME, "histogram: out of host memory for events");
    CG_TRY(clEnqueueFillBuffer(ctx->queue, s->out, &zero, sizeof zero, 0, sizeof s->ref, 0, NULL, e));
    cg_events_stage(ev, "count");
    st = cg_enqueue_kernel(ctx, ev, q->k, 1, &global, &q->wg);
out:
    return st;
}

/* Reads the 256 bins back: exact equality with the CPU count. */
static cg_status hist_verify(cg_ctx *ctx, void *state, void *rs, cg_check *c)
{
    cg_status st = CG_OK;
    hist_state *s = state;
    (void)rs;
    uint32_t got[HIST_BINS];
    CG_TRY(clEnqueueReadBuffer(ctx->queue, s->out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    cg_check_u32(c, got, s->ref, HIST_BINS);
out:
    return st;
}

const cg_workload cg_workload_histogram = {
    .name = "histogram",
    .summary = "256 bins of N pixels: the seed's global sub-histograms, local copies and two-pass merge, "
               "then global atomics to per-lane local sub-histograms fed by uint4 loads",
    .size_help = "N pixels (2^28, 256M, 1000003): bytes with --pixel u8 (default 2^28 on GPUs, 2^24 "
                 "elsewhere), 32-bit words with u32 (2^26, 2^22)",
    .cl_file = "histogram.cl",
    .takes_images_io = false,
    .wopts = wopts,
    .n_wopts = sizeof wopts / sizeof wopts[0],
    .rungs = rungs,
    .n_rungs = sizeof rungs / sizeof rungs[0],
    .tune = spaces,
    .n_tune = sizeof spaces / sizeof spaces[0],
    .setup = hist_setup,
    .teardown = hist_teardown,
    .model = hist_model,
    .options = hist_options,
    .prepare = hist_prepare,
    .poison = NULL, /* the core poisons the bins and the rows (0xFF.. / 0xA5..) before every run: a rung
                       that skips zeroing or writing them fails */
    .enqueue = hist_enqueue,
    .verify = hist_verify,
    .release = hist_release,
    .save_output = NULL,
    .validate = hist_validate,
    .local_need = hist_local_need,
    .unsupported = hist_unsupported,
};
