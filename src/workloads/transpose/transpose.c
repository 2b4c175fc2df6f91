/* The transpose workload: out (w rows of h floats) = the transpose of a seeded random h x w float matrix, the
 * ladder of the Apple guide's worked example (naive, the 16x16 local tile, diagonal block skew) carried on
 * to padded tiles, several elements per work-item and float4 moves. This file owns the input, the exact CPU
 * reference, the two device buffers (created once), the rung table and each rung's launch. A rung's shape is
 * data in p[]: the kernel kind, the tile side, the work-group height (rows each work-item steps over) and
 * flags (padded local rows, diagonal block order); nothing here looks at rung names. The tile and the rows
 * are tunable (`clgauge tune`, the spaces below the table): local memory follows from them (tr_local_need)
 * and tr_unsupported refuses a shape the kernels cannot take, with the reason. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clerr.h"
#include "core/log.h"
#include "core/rng.h"
#include "core/workload.h"

enum { K_NAIVE, K_TILE, K_VEC4 }; /* p[P_KIND]: which kernel shape */
/* The meaning of cg_rung.p[] here; (tunable) marks the entries the tuning spaces search. */
enum {
    P_KIND,  /* K_*: which kernel */
    P_TILE,  /* (tunable) the tile side; naive: the work-group width (0 with P_ROWS 0: local size NULL) */
    P_ROWS,  /* (tunable) the work-group height: each work-item moves TILE / ROWS rows (a divisor of TILE) */
    P_FLAGS, /* F_* bits */
};
/* p[P_FLAGS] bits: padded local rows; the SDK's diagonal block order; the seed's one-line skew of the block
 * row; the tile transposed on its way into local memory (the seed's listings) instead of on its way out. */
enum { F_PAD = 1, F_DIAG = 2, F_SKEW = 4, F_TW = 8 };

#define TILE_BYTES(t, pad) ((size_t)(t) * ((t) + (pad)) * sizeof(float))
#define TR_DEFAULT_GPU     16384
#define TR_DEFAULT_OTHER   2048

/* clang-format off */
static const cg_rung rungs[] = {
    /* name, why (one line, shown in every report), kernel, options, needs, local bytes,
       {P_KIND, P_TILE, P_ROWS, P_FLAGS} */
    {"naive", "one work-item per element: reads coalesced, writes stride h floats apart",
     "tr_naive", NULL, 0, 0, {K_NAIVE, 32, 8, 0}},
    {"seed-local16", "the seed's transposeL (vs naive): 16x16 local tile, transposed on the write into local memory",
     "tr_tile", NULL, 0, TILE_BYTES(16, 0), {K_TILE, 16, 16, F_TW}},
    {"seed-skew16", "the seed's transposeLS (vs seed-local16): one line, block row by = (by + bx) % groups(1)",
     "tr_tile", NULL, 0, TILE_BYTES(16, 0), {K_TILE, 16, 16, F_TW | F_SKEW}},
    {"local16", "vs seed-local16: the tile transposed on the read out of local memory instead of on the write",
     "tr_tile", NULL, 0, TILE_BYTES(16, 0), {K_TILE, 16, 16, 0}},
    {"diag16", "vs local16: NVIDIA SDK's diagonal block order (a bijection of the launch index), not the seed's skew",
     "tr_tile", NULL, 0, TILE_BYTES(16, 0), {K_TILE, 16, 16, F_DIAG}},
    {"pad16", "as local16, local rows padded to 17 floats: a tile column spans all banks, no conflicts",
     "tr_tile", NULL, 0, TILE_BYTES(16, 1), {K_TILE, 16, 16, F_PAD}},
    {"tile32", "32x32 padded tile, 32x8 groups: 4 elements per work-item, whole 128 B rows",
     "tr_tile", NULL, 0, TILE_BYTES(32, 1), {K_TILE, 32, 8, F_PAD}},
    {"vec4", "32x32 padded tile, float4 loads and stores: 16 elements per work-item, 4x fewer memory ops",
     "tr_vec4", NULL, 0, TILE_BYTES(32, 1), {K_VEC4, 32, 8, F_PAD}},
    {"best", "64x64 padded tile, float4 moves, 16x16 groups: 16 elements per work-item, 256 B rows",
     "tr_vec4", NULL, 0, TILE_BYTES(64, 1), {K_VEC4, 64, 16, F_PAD}},
};
/* The tuning spaces (core/tune.h). Naive: the work-group is TILE x ROWS itself, any shape, or NULL (both
 * 0). Tiled: the group is TILE x ROWS, ROWS dividing TILE. float4: the group is TILE / 4 x ROWS, so TILE is
 * not a work-group side (CG_TR_OTHER; tr_unsupported checks the product against the device). Tiles above 64
 * need more local memory than most GPUs have: the runner refuses them there (tr_local_need). */
static const cg_tspace spaces[] = {
    {"naive", 2,
     {{"tile", P_TILE, CG_TR_WG_X, 6, {0, 8, 16, 32, 64, 128}},
      {"rows", P_ROWS, CG_TR_WG_Y, 7, {0, 1, 2, 4, 8, 16, 32}}}},
    {"seed-local16,seed-skew16,local16,diag16,pad16,tile32", 2,
     {{"tile", P_TILE, CG_TR_WG_X, 4, {8, 16, 32, 64}}, {"rows", P_ROWS, CG_TR_WG_Y, 6, {1, 2, 4, 8, 16, 32}}}},
    {"vec4,best", 2,
     {{"tile", P_TILE, CG_TR_OTHER, 5, {8, 16, 32, 64, 128}},
      {"rows", P_ROWS, CG_TR_WG_Y, 6, {1, 2, 4, 8, 16, 32}}}},
};
/* clang-format on */

typedef struct tr_state {
    size_t w, h, n;
    size_t max_wg; /* the device's work-group limit */
    float *in, *ref, *got;
    cl_mem in_buf, out_buf;
} tr_state;

typedef struct tr_rung {
    cl_kernel k;
    size_t global[2], local[2];
} tr_rung;

/* ---- setup ------------------------------------------------------------------------------------------ */

/* WxH from --size (N: NxN); by default 16384x16384 on GPUs (2048x2048 elsewhere), halved until both matrices
 * fit in one allocation each and together in half the global memory. The kernels index with int. */
static const cg_size_rule size_rule = {
    .workload = "transpose",
    .unit = "elements",
    .dims = 2,
    .dflt_gpu = TR_DEFAULT_GPU,
    .dflt_other = TR_DEFAULT_OTHER,
    .dflt_floor = 256,
    .elem_bytes = sizeof(float),
    .buffers = 2,
    .max_count = INT_MAX,
};

static cg_status pick_size(const cg_ctx *ctx, const cg_run_opts *o, tr_state *s)
{
    return cg_size_pick(ctx, &size_rule, o, &s->w, &s->h);
}

/* The size check of setup, before any device work (cg_workload.validate). */
static cg_status tr_validate(const cg_ctx *ctx, const cg_run_opts *o)
{
    tr_state s = {0};
    return pick_size(ctx, o, &s);
}

/* The reference, by 32x32 blocks so that both matrices are walked cache-friendly. */
static void reference(const float *in, float *out, size_t w, size_t h)
{
    for (size_t y0 = 0; y0 < h; y0 += 32)
        for (size_t x0 = 0; x0 < w; x0 += 32)
            for (size_t y = y0; y < y0 + 32 && y < h; y++)
                for (size_t x = x0; x < x0 + 32 && x < w; x++)
                    out[x * h + y] = in[y * w + x];
}

static void tr_teardown(void *state)
{
    tr_state *s = state;
    if (!s) return;
    if (s->in_buf) clReleaseMemObject(s->in_buf);
    if (s->out_buf) clReleaseMemObject(s->out_buf);
    free(s->in);
    free(s->ref);
    free(s->got);
    free(s);
}

static cg_status make_data(cg_ctx *ctx, const cg_run_opts *o, tr_state *s)
{
    cg_status st = CG_OK;
    size_t bytes = s->n * sizeof(float);
    s->in = malloc(bytes);
    s->ref = malloc(bytes);
    s->got = malloc(bytes);
    CG_FAIL_IF(!s->in || !s->ref || !s->got, CG_E_RUNTIME,
               "transpose: out of host memory for three %zux%zu float matrices: use a smaller --size", s->w,
               s->h);
    cg_rng rng;
    cg_rng_init(&rng, o->seed);
    if (o->check_exact) /* each element its own index (mod 2^24, exact in float): a misplaced one says where
                         */
        for (size_t i = 0; i < s->n; i++)
            s->in[i] = (float)(i & 0xFFFFFF);
    else
        cg_rng_fill_float(&rng, s->in, s->n, 0.0f, 1.0f);
    reference(s->in, s->ref, s->w, s->h);
    CG_TRY_BUF(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, s->in, CG_BUF_INPUT, &s->in_buf);
    CG_TRY_BUF(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, CG_BUF_WRITTEN, &s->out_buf);
out:
    return st;
}

static cg_status tr_setup(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len)
{
    cg_status st = CG_OK;
    tr_state *s = calloc(1, sizeof *s);
    CG_FAIL_IF(!s, CG_E_RUNTIME, "transpose: out of host memory");
    if (o->input || o->output)
        CG_WARN("transpose: --input/--output are for picture workloads; transpose ignores them");
    st = pick_size(ctx, o, s);
    if (st != CG_OK) goto out;
    s->n = s->w * s->h;
    s->max_wg = ctx->dev->max_wg;
    st = make_data(ctx, o, s);
    if (st == CG_OK) snprintf(size_desc, len, "%zux%zu floats", s->w, s->h);
out:
    if (st != CG_OK) {
        tr_teardown(s);
        s = NULL;
    }
    *state = s;
    return st;
}

/* ---- rungs ------------------------------------------------------------------------------------------ */

/* Each element read once and written once (4 + 4 B) and no arithmetic; the ceiling is the copy bandwidth. */
static void tr_model(const void *state, const cg_rung *r, cg_model *m)
{
    const tr_state *s = state;
    (void)r;
    m->bytes = (double)s->n * 8.0;
    m->flops = 0;
    m->items = (double)s->n;
    m->item_unit = "elem";
    m->bytes_note = "R+W: 4 B/elem read + 4 B/elem written";
    m->ceiling = CG_CEIL_COPY;
}

/* A naive rung with local size NULL (TILE 0) leaves TILE and ROWS to the .cl file's defaults: the tiled
 * kernels in the same program need a tile of at least one element, and the naive kernel reads neither. */
static void tr_options(const void *state, const cg_rung *r, char *buf, size_t len)
{
    const tr_state *s = state;
    int f = r->p[P_FLAGS], n = 0;
    if (r->p[P_TILE] > 0) n = snprintf(buf, len, "-DTILE=%d -DROWS=%d ", r->p[P_TILE], r->p[P_ROWS]);
    if (n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "-DPAD=%d -DDIAG=%d -DSKEW=%d -DTW=%d -DALIGN4=%d", !!(f & F_PAD),
                 !!(f & F_DIAG), !!(f & F_SKEW), !!(f & F_TW), s->w % 4 == 0 && s->h % 4 == 0);
}

static size_t div_up(size_t a, size_t b)
{
    return (a + b - 1) / b;
}

/* Naive: one work-item per element over TILE x ROWS groups (TILE 0: w x h with local size NULL). Tiled: one
 * group of (TILE / v) x ROWS per TILE x TILE block, v = 4 for the float4 kernel. Shapes tr_unsupported
 * refuses never get here. */
static void launch_shape(const tr_state *s, const cg_rung *r, tr_rung *q)
{
    size_t tile = (size_t)r->p[P_TILE], rows = (size_t)r->p[P_ROWS];
    if (r->p[P_KIND] == K_NAIVE && tile == 0) {
        q->local[0] = q->local[1] = 0;
        q->global[0] = s->w;
        q->global[1] = s->h;
        return;
    }
    if (r->p[P_KIND] == K_NAIVE) {
        q->local[0] = tile;
        q->local[1] = rows;
        q->global[0] = div_up(s->w, tile) * tile;
        q->global[1] = div_up(s->h, rows) * rows;
        return;
    }
    q->local[0] = r->p[P_KIND] == K_VEC4 ? tile / 4 : tile;
    q->local[1] = rows;
    q->global[0] = div_up(s->w, tile) * q->local[0];
    q->global[1] = div_up(s->h, tile) * rows;
}

static void tr_release(void *rs)
{
    tr_rung *q = rs;
    if (!q) return;
    if (q->k) clReleaseKernel(q->k);
    free(q);
}

static cg_status tr_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs)
{
    cg_status st = CG_OK;
    tr_state *s = state;
    cl_int w = (cl_int)s->w, h = (cl_int)s->h;
    tr_rung *q = calloc(1, sizeof *q);
    CG_FAIL_IF(!q, CG_E_RUNTIME, "transpose: out of host memory");
    launch_shape(s, r, q);
    CG_FAIL_IF(q->local[0] && q->local[0] * q->local[1] > ctx->dev->max_wg, CG_E_RUNTIME,
               "transpose:%s: a %zux%zu work-group is larger than this device's %zu", r->name, q->local[0],
               q->local[1], ctx->dev->max_wg);
    CG_TRY_OBJ(q->k, clCreateKernel(prog, r->kernel, CG_ERRP));
    CG_TRY(clSetKernelArg(q->k, 0, sizeof s->in_buf, &s->in_buf));
    CG_TRY(clSetKernelArg(q->k, 1, sizeof s->out_buf, &s->out_buf));
    CG_TRY(clSetKernelArg(q->k, 2, sizeof w, &w));
    CG_TRY(clSetKernelArg(q->k, 3, sizeof h, &h));
out:
    if (st != CG_OK) {
        tr_release(q);
        q = NULL;
    }
    *rs = q;
    return st;
}

static cg_status tr_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev)
{
    (void)state;
    tr_rung *q = rs;
    return cg_enqueue_kernel(ctx, ev, q->k, 2, q->global, q->local[0] ? q->local : NULL);
}

/* The tile in local memory: TILE x (TILE + PAD) floats for the tiled kernels (the table's local bytes; a
 * tuning candidate's tile needs it from here). */
static size_t tr_local_need(const void *state, const cg_rung *r)
{
    (void)state;
    if (r->p[P_KIND] == K_NAIVE || r->p[P_TILE] <= 0) return 0;
    return TILE_BYTES(r->p[P_TILE], !!(r->p[P_FLAGS] & F_PAD));
}

/* The shapes the kernels cannot take (a tuning candidate's; every table row passes): naive needs both sides
 * positive or both 0 (NULL); the tiled kernels step ROWS rows at a time through the tile, so ROWS must
 * divide TILE, and the float4 kernel moves 4 columns per work-item, so TILE must be a multiple of 4; and
 * the work-group must fit the device (for the float4 kernel TILE / 4 x ROWS, which the tuner's own check
 * cannot see). */
static bool tr_unsupported(const void *state, const cg_rung *r, char *why, size_t len)
{
    const tr_state *s = state;
    int tile = r->p[P_TILE], rows = r->p[P_ROWS];
    bool naive = r->p[P_KIND] == K_NAIVE;
    if (naive && (tile == 0) != (rows == 0)) {
        snprintf(why, len, "tile=%d, rows=%d: local size NULL needs both 0, a work-group both positive", tile,
                 rows);
        return true;
    }
    if (naive && tile == 0) return false;
    if (tile < 1 || rows < 1) {
        snprintf(why, len, "tile=%d, rows=%d: both must be positive", tile, rows);
        return true;
    }
    if (!naive && tile % rows) {
        snprintf(why, len, "rows=%d does not divide tile=%d: each work-item steps %d rows at a time", rows,
                 tile, rows);
        return true;
    }
    if (r->p[P_KIND] == K_VEC4 && tile % 4) {
        snprintf(why, len, "tile=%d is not a multiple of 4: the float4 kernel moves 4 columns per work-item",
                 tile);
        return true;
    }
    tr_rung q;
    launch_shape(s, r, &q);
    if (s->max_wg && q.local[0] * q.local[1] > s->max_wg) {
        snprintf(why, len, "a %zux%zu work-group is over the device's %zu", q.local[0], q.local[1],
                 s->max_wg);
        return true;
    }
    return false;
}

/* Exact: a transpose moves bits. A bitwise-equal output passes at once (memcmp); otherwise the element check
 * (tolerance 0) finds the first wrong element and its (x, y) in the output. */
static cg_status tr_verify(cg_ctx *ctx, void *state, void *rs, cg_check *c)
{
    cg_status st = CG_OK;
    tr_state *s = state;
    (void)rs;
    CG_TRY(
        clEnqueueReadBuffer(ctx->queue, s->out_buf, CL_TRUE, 0, s->n * sizeof(float), s->got, 0, NULL, NULL));
    if (memcmp(s->got, s->ref, s->n * sizeof(float)) == 0) {
        memset(c, 0, sizeof *c);
        c->ok = true;
        c->checked = s->n;
        c->first_index = -1;
        goto out;
    }
    cg_check_float(c, s->got, s->ref, s->n, 0.0, 0.0);
    if (c->ok) { /* equal values, different bits (-0 against +0): still wrong for a transpose */
        c->ok = false;
        snprintf(c->detail, sizeof c->detail, "output differs bitwise from the input's transpose");
    }
    cg_check_locate_2d(c, s->h);
out:
    return st;
}

const cg_workload cg_workload_transpose = {
    .name = "transpose",
    .summary = "float matrix transpose: naive, 16x16 local tile, diagonal skew, padding, float4 tiles",
    .size_help = "matrix WxH (16384x16384) or N for NxN; default 16384^2 on GPUs (or the largest that fits), "
                 "2048^2 elsewhere",
    .cl_file = "transpose.cl",
    .takes_images_io = false,
    .rungs = rungs,
    .n_rungs = sizeof rungs / sizeof rungs[0],
    .tune = spaces,
    .n_tune = sizeof spaces / sizeof spaces[0],
    .setup = tr_setup,
    .teardown = tr_teardown,
    .model = tr_model,
    .options = tr_options,
    .prepare = tr_prepare,
    .poison = NULL, /* the core poisons the output before every run */
    .enqueue = tr_enqueue,
    .verify = tr_verify,
    .release = tr_release,
    .save_output = NULL,
    .validate = tr_validate,
    .local_need = tr_local_need,
    .unsupported = tr_unsupported,
};
