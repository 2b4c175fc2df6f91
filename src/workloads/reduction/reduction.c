/* The reduction workload: the sum of N seeded random floats in [0.5, 1) (bounded away from zero, so that
 * every element matters), or with --check exact of N integers 1 or 2 (every partial sum exact in float), as
 * Harris's ladder of reductions ported to OpenCL 1.2. This file owns the inputs, the CPU reference (a
 * compensated double sum, computed once), the per-rung forward error bound, the device buffers (input, two
 * ping-pong partial buffers sized for the worst rung, a one-float output; all registered with the core, which
 * poisons the written ones before every run), the rung table, its tuning spaces and the enqueue of each
 * rung's launches. A rung's shape is data in p[]:
 *   p[0] work-group size, a power of two (a table row's is clamped to the device and rounded down to one; a
 *        tuning candidate's is refused instead: `wg`, 32..1024; never 0, every kernel requires its WG);
 *   p[1] loads per work-item per step (multi-pass: elements added while loading; grid: float4 accumulators),
 *        at least 1 (`loads`);
 *   p[2] 0: multi-pass, the host relaunches on the partials until one value is left; k > 0: a grid of
 *        k x compute-units groups covers the input, then one group sums the partials (`grid`, groups per
 *        compute unit; a candidate keeps its rung's kind). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "core/log.h"
#include "core/rng.h"
#include "core/workload.h"

enum { P_WG, P_LOADS, P_GRID };

#define RED_DEFAULT_GPU   (1ull << 28)
#define RED_DEFAULT_OTHER (1ull << 24)
#define RED_MAX_N         (1ull << 31) /* kernels index with 32-bit unsigned ints */
#define RED_EXACT_MAX_N   (1ull << 23) /* --check exact: the sum of N values <= 2 stays below 2^24 */
#define RED_BOUND_C       1.0          /* c of the bound c * gamma_d * sum|x| (docs/workloads/reduction.md) */
#define RED_REF_ERR       0x1p-48      /* relative error of the compensated double reference, with room */

/* clang-format off */
static const cg_rung rungs[] = {
    /* name, why (one line, shown in every report), kernel, build options, needs, local bytes, p[] */
    {"naive", "interleaved tree, lid % (2s) test: divergent warps and slow modulo",
     "reduce_naive", NULL, 0, 256 * 4, {256, 1, 0, 0}},
    {"strided", "index 2*s*lid: no divergence, but local-memory bank conflicts",
     "reduce_strided", NULL, 0, 256 * 4, {256, 1, 0, 0}},
    {"sequential", "sequential addressing (s = WG/2..1): conflict-free, whole warps retire",
     "reduce_seq", NULL, 0, 256 * 4, {256, 1, 0, 0}},
    {"first-add", "two elements added while loading: half the groups, no idle first step",
     "reduce_seq", NULL, 0, 256 * 4, {256, 2, 0, 0}},
    {"vec4-many", "8 groups/CU stride over float4s, tiny 2nd stage: few groups, 16 B loads",
     "reduce_vec4", NULL, 0, 256 * 4, {256, 1, 8, 0}},
    {"best", "8 float4 accumulators per work-item: 8 independent 16 B loads in flight",
     "reduce_vec4", NULL, 0, 256 * 4, {256, 8, 8, 0}},
    {"nv-shfl", "as best, but warp sums by inline-PTX shfl.sync: one local-memory round",
     "reduce_vec4", "-DUSE_PTX", CG_FEAT_NV_PTX, 256 * 4, {256, 8, 8, 0}},
    {"chunked", "one contiguous run per work-item: CPU caches/prefetch win, GPU loses coalescing",
     "reduce_chunks", NULL, 0, 64 * 4, {64, 8, 4, 0}},
};

/* The tuning spaces (`clgauge tune`, core/tune.h): the multi-pass rung with loads, the grid rungs. Values are
 * powers of two (WG must be one) and include each rung's own; no wg 0 (NULL local size): every kernel has a
 * local array of WG floats and reqd_work_group_size(WG). At most 54 candidates a space. */
#define WG_VALUES 6, {32, 64, 128, 256, 512, 1024}
static const cg_tspace spaces[] = {
    {"first-add", 2, {{"wg", P_WG, CG_TR_WG_X, WG_VALUES},
                      {"loads", P_LOADS, CG_TR_OTHER, 5, {1, 2, 4, 8, 16}}}},
    {"vec4-many", 2, {{"wg", P_WG, CG_TR_WG_X, WG_VALUES},
                      {"grid", P_GRID, CG_TR_GROUPS_PER_CU, 6, {1, 2, 4, 8, 16, 32}}}},
    {"best,nv-shfl", 3, {{"wg", P_WG, CG_TR_WG_X, WG_VALUES},
                         {"loads", P_LOADS, CG_TR_OTHER, 3, {4, 8, 16}},
                         {"grid", P_GRID, CG_TR_GROUPS_PER_CU, 3, {4, 8, 16}}}},
    {"chunked", 3, {{"wg", P_WG, CG_TR_WG_X, WG_VALUES},
                    {"loads", P_LOADS, CG_TR_OTHER, 3, {4, 8, 16}},
                    {"grid", P_GRID, CG_TR_GROUPS_PER_CU, 3, {2, 4, 8}}}},
};
#undef WG_VALUES
/* clang-format on */

typedef struct red_state {
    uint64_t n;
    double ref;         /* compensated double sum of the inputs */
    double absum;       /* sum |x| (the inputs are positive: ref) */
    bool exact;         /* --check exact: compare with zero tolerance */
    unsigned cus;       /* compute units */
    size_t max_wg;      /* device limit on the work-group size */
    cl_mem in, out;     /* n floats; 1 float */
    cl_mem part[2];     /* ping-pong partial sums */
    size_t part_len[2]; /* their lengths in floats */
} red_state;

typedef struct red_rung {
    const cg_rung *r;
    cl_kernel k, k2; /* k2: the grid rungs' second stage (the same kernel, other arguments) */
    size_t wg, loads, groups;
    size_t depth; /* the summation depth of the error bound (rung_depth) */
} red_rung;

/* The rung's work-group size: its p[0] clamped to the device and rounded down to a power of two. */
static size_t rung_wg(const red_state *s, const cg_rung *r)
{
    return cg_rung_pow2_wg(r->p[P_WG], 256, s->max_wg);
}

static size_t rung_loads(const cg_rung *r)
{
    return r->p[P_LOADS] > 0 ? (size_t)r->p[P_LOADS] : 1;
}

static size_t div_up(uint64_t a, uint64_t b)
{
    return (size_t)((a + b - 1) / b);
}

/* Groups of a grid rung's first stage: k x compute units, but no more than the float4s need. */
static size_t grid_groups(const red_state *s, const cg_rung *r, size_t wg)
{
    size_t g = (size_t)r->p[P_GRID] * (s->cus ? s->cus : 1);
    size_t most = div_up(s->n > 4 ? s->n / 4 : 1, wg);
    return g < most ? g : most;
}

/* Partial-buffer lengths this rung needs: [0] after the first pass, [1] after the second. */
static void rung_partials(const red_state *s, const cg_rung *r, size_t len[2])
{
    size_t wg = rung_wg(s, r);
    if (r->p[P_GRID] > 0) {
        len[0] = grid_groups(s, r, wg);
        len[1] = 1;
        return;
    }
    size_t per = wg * rung_loads(r);
    len[0] = div_up(s->n, per);
    len[1] = div_up(len[0], per);
}

static size_t log2_size(size_t x)
{
    size_t l = 0;
    while (((size_t)1 << l) < x)
        l++;
    return l;
}

/* The additions on the longest path from an input to the result of one grid stage over n floats with
 * `groups` groups (Higham's depth of a summation): ceil(per-item float4s / LOADS) into each accumulator, up
 * to LOADS - 1 more in the tail loop and LOADS - 1 merging the accumulators, 2 over the lanes, 1 for the
 * scalar tail, then the in-group sum (log2 WG levels; the PTX warp sums take at most 2 more). */
static size_t grid_stage_depth(size_t n, size_t groups, size_t wg, size_t loads)
{
    size_t n4 = n / 4, global = groups * wg;
    size_t per = div_up(n4, global);
    return div_up(per, loads) + 2 * (loads - 1) + 3 + log2_size(wg) + 2;
}

/* The summation depth d of the rung at this size: every rung's result is within gamma_d * sum|x| of the exact
 * sum, whatever order the additions of one level run in. */
static size_t rung_depth(const red_state *s, const cg_rung *r)
{
    size_t wg = rung_wg(s, r), loads = rung_loads(r), d = 0;
    if (r->p[P_GRID] > 0) {
        size_t g = grid_groups(s, r, wg);
        d = grid_stage_depth((size_t)s->n, g, wg, loads);
        if (g > 1) d += grid_stage_depth(g, 1, wg, loads);
        return d;
    }
    for (size_t n = (size_t)s->n;; n = div_up(n, wg * loads)) {
        d += loads + log2_size(wg); /* LOADS adds while loading, then the tree */
        if (div_up(n, wg * loads) == 1) return d;
    }
}

static double kahan_sum(const float *x, size_t n)
{
    double sum = 0.0, c = 0.0;
    for (size_t i = 0; i < n; i++) {
        double y = (double)x[i] - c;
        double t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    return sum;
}

/* N: --size, or the default for the device type halved until it fits one allocation and half the global
 * memory. */
static const cg_size_rule size_rule = {
    .workload = "reduction",
    .unit = "floats",
    .dims = 1,
    .dflt_gpu = RED_DEFAULT_GPU,
    .dflt_other = RED_DEFAULT_OTHER,
    .dflt_floor = 1024,
    .elem_bytes = sizeof(float),
    .buffers = 1,
    .max_count = RED_MAX_N,
};

/* N from the size rule; --check exact caps it at RED_EXACT_MAX_N (refusing a larger --size). */
static cg_status pick_size(const cg_ctx *ctx, const cg_run_opts *o, uint64_t *n)
{
    if (o->check_exact && o->size.dims == 1 && o->size.n > RED_EXACT_MAX_N) {
        CG_ERROR(
            "reduction: --check exact takes --size up to 2^23 (the exact sum must fit a float's 24 bits): "
            "use --size <= 8M or --check random");
        return CG_E_USAGE;
    }
    size_t w, h;
    cg_status st = cg_size_pick(ctx, &size_rule, o, &w, &h);
    *n = w;
    if (o->check_exact && *n > RED_EXACT_MAX_N) *n = RED_EXACT_MAX_N;
    return st;
}

/* The size check of setup, before any device work (cg_workload.validate). */
static cg_status red_validate(const cg_ctx *ctx, const cg_run_opts *o)
{
    uint64_t n;
    return pick_size(ctx, o, &n);
}

static void describe_size(uint64_t n, char *buf, size_t len)
{
    int lg = 0;
    while ((1ull << lg) < n)
        lg++;
    if ((1ull << lg) == n)
        snprintf(buf, len, "2^%d floats", lg);
    else
        snprintf(buf, len, "%llu floats", (unsigned long long)n);
}

static void red_teardown(void *state)
{
    red_state *s = state;
    if (!s) return;
    if (s->in) clReleaseMemObject(s->in);
    if (s->out) clReleaseMemObject(s->out);
    for (int i = 0; i < 2; i++)
        if (s->part[i]) clReleaseMemObject(s->part[i]);
    free(s);
}

/* Inputs and reference. Random: uniform in [0.5, 1), so that a lost element (>= 0.5) exceeds the bound at
 * test sizes; exact: 1 or 2, so that every partial sum in any order is an integer below 2^24. The inputs are
 * positive: sum|x| is the reference itself. */
static cg_status make_input(cg_ctx *ctx, const cg_run_opts *o, red_state *s)
{
    cg_status st = CG_OK;
    float *x = malloc(s->n * sizeof *x);
    CG_FAIL_IF(!x, CG_E_RUNTIME, "reduction: out of host memory for %llu floats", (unsigned long long)s->n);
    cg_rng rng;
    cg_rng_init(&rng, o->seed);
    s->exact = o->check_exact;
    if (s->exact)
        for (size_t i = 0; i < s->n; i++)
            x[i] = (float)(1 + (cg_rng_next(&rng) >> 63));
    else
        cg_rng_fill_float(&rng, x, s->n, 0.5f, 1.0f);
    s->ref = kahan_sum(x, s->n);
    s->absum = s->ref;
    CG_TRY_BUF(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->n * sizeof *x, x, CG_BUF_INPUT, &s->in);
out:
    free(x);
    return st;
}

static void grow_partials(const cg_rung *r, void *user)
{
    red_state *s = user;
    size_t l[2];
    rung_partials(s, r, l);
    for (int j = 0; j < 2; j++)
        s->part_len[j] = l[j] > s->part_len[j] ? l[j] : s->part_len[j];
}

/* The partial buffers' lengths: the most any row or any candidate of its tuning space needs. */
static void size_partials(red_state *s)
{
    cg_rungs_each_candidate(rungs, sizeof rungs / sizeof rungs[0], spaces, sizeof spaces / sizeof spaces[0],
                            grow_partials, s);
}

static cg_status red_setup(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len)
{
    cg_status st = CG_OK;
    red_state *s = calloc(1, sizeof *s);
    CG_FAIL_IF(!s, CG_E_RUNTIME, "reduction: out of host memory");
    s->cus = ctx->dev->compute_units;
    s->max_wg = ctx->dev->max_wg ? ctx->dev->max_wg : 1;
    st = pick_size(ctx, o, &s->n);
    if (st != CG_OK) goto out;
    describe_size(s->n, size_desc, len);
    size_partials(s);
    st = make_input(ctx, o, s);
    if (st != CG_OK) goto out;
    CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, sizeof(float), NULL, CG_BUF_WRITTEN, &s->out);
    for (int j = 0; j < 2; j++)
        CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, s->part_len[j] * sizeof(float), NULL, CG_BUF_WRITTEN, &s->part[j]);
out:
    if (st != CG_OK) {
        red_teardown(s);
        s = NULL;
    }
    *state = s;
    return st;
}

static void red_model(const void *state, const cg_rung *r, cg_model *m)
{
    const red_state *s = state;
    (void)r;
    m->bytes = (double)s->n * sizeof(float);
    m->flops = (double)s->n;
    m->items = (double)s->n;
    m->item_unit = "elem";
    m->bytes_note = "R: 4 B/elem read once";
    m->ceiling = CG_CEIL_READ;
}

/* Local memory: the kernels' WG floats (the table rows state it too; a candidate's comes from here). */
static size_t red_local_need(const void *state, const cg_rung *r)
{
    return rung_wg(state, r) * sizeof(float);
}

/* The table row a rung (or a tuning candidate, a copy of one) comes from. */
static const cg_rung *row_of(const cg_rung *r)
{
    for (size_t i = 0; i < sizeof rungs / sizeof rungs[0]; i++)
        if (!strcmp(rungs[i].name, r->name)) return &rungs[i];
    return r;
}

/* What the kernels and buffers cannot take, for tuning candidates (the table rows always pass): a work-group
 * that is not a power of two (it would be rounded, not run as asked), loads below 1, a grid rung turned
 * multi-pass or back, more partial sums than setup sized the buffers for. */
static bool red_unsupported(const void *state, const cg_rung *r, char *why, size_t len)
{
    const red_state *s = state;
    int wg = r->p[P_WG];
    size_t l[2];
    if (wg <= 0 || (wg & (wg - 1))) {
        snprintf(why, len,
                 "wg=%d: the kernels need a power of two (reqd_work_group_size(WG), a tree halving it)", wg);
        return true;
    }
    if (r->p[P_LOADS] < 1) {
        snprintf(why, len, "loads=%d: each work-item needs at least 1", r->p[P_LOADS]);
        return true;
    }
    if ((r->p[P_GRID] > 0) != (row_of(r)->p[P_GRID] > 0) || r->p[P_GRID] < 0) {
        snprintf(why, len, "grid=%d: the rung's kernel %s", r->p[P_GRID],
                 row_of(r)->p[P_GRID] > 0 ? "strides a grid of at least 1 group per compute unit"
                                          : "is multi-pass (grid 0)");
        return true;
    }
    rung_partials(s, r, l);
    for (int j = 0; j < 2; j++)
        if (l[j] > s->part_len[j]) {
            snprintf(why, len, "needs %zu partials in pass %d, the buffer holds %zu (sized for the spaces)",
                     l[j], j + 1, s->part_len[j]);
            return true;
        }
    return false;
}

/* "-DWG=256 -DLOADS=4", plus -DWG_ASKED=N when the device forced a smaller work-group size. */
static void red_options(const void *state, const cg_rung *r, char *buf, size_t len)
{
    const red_state *s = state;
    size_t wg = rung_wg(s, r);
    int n = snprintf(buf, len, "-DWG=%zu -DLOADS=%zu", wg, rung_loads(r));
    if (n >= 0 && (size_t)n < len && wg != (size_t)r->p[P_WG])
        snprintf(buf + n, len - (size_t)n, " -DWG_ASKED=%d", r->p[P_WG]);
}

static void red_release(void *rs)
{
    red_rung *q = rs;
    if (!q) return;
    if (q->k) clReleaseKernel(q->k);
    if (q->k2) clReleaseKernel(q->k2);
    free(q);
}

static cg_status set_args(cl_kernel k, cl_mem in, cl_mem out, size_t n)
{
    cg_status st = CG_OK;
    cl_uint nn = (cl_uint)n;
    CG_TRY(clSetKernelArg(k, 0, sizeof in, &in));
    CG_TRY(clSetKernelArg(k, 1, sizeof out, &out));
    CG_TRY(clSetKernelArg(k, 2, sizeof nn, &nn));
out:
    return st;
}

static cg_status red_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs)
{
    cg_status st = CG_OK;
    red_state *s = state;
    (void)ctx;
    red_rung *q = calloc(1, sizeof *q);
    CG_FAIL_IF(!q, CG_E_RUNTIME, "reduction: out of host memory");
    q->r = r;
    q->wg = rung_wg(s, r);
    q->loads = rung_loads(r);
    q->depth = rung_depth(s, r);
    if (q->wg != (size_t)r->p[P_WG])
        CG_WARN("reduction:%s: work-group size %d clamped to %zu for this device", r->name, r->p[P_WG],
                q->wg);
    CG_TRY_OBJ(q->k, clCreateKernel(prog, r->kernel, CG_ERRP));
    if (r->p[P_GRID] > 0) {
        q->groups = grid_groups(s, r, q->wg);
        CG_TRY_OBJ(q->k2, clCreateKernel(prog, r->kernel, CG_ERRP));
        st = set_args(q->k, s->in, q->groups > 1 ? s->part[0] : s->out, s->n);
        if (st == CG_OK) st = set_args(q->k2, s->part[0], s->out, q->groups);
    }
out:
    if (st != CG_OK) {
        red_release(q);
        q = NULL;
    }
    *rs = q;
    return st;
}

/* Multi-pass rungs: one launch per pass, each writing one partial per group, until one group is left; that
 * last pass writes the output. Passes ping-pong between the two partial buffers. */
static cg_status enqueue_passes(cg_ctx *ctx, red_state *s, red_rung *q, cg_events *ev)
{
    cg_status st = CG_OK;
    cl_mem src = s->in;
    size_t n = (size_t)s->n;
    for (int ping = 0;; ping ^= 1) {
        size_t groups = div_up(n, q->wg * q->loads);
        cl_mem dst = groups == 1 ? s->out : s->part[ping];
        st = set_args(q->k, src, dst, n);
        if (st == CG_OK) st = cg_enqueue_groups(ctx, ev, q->k, groups, q->wg);
        if (st != CG_OK || groups == 1) break;
        src = dst;
        n = groups;
    }
    return st;
}

static cg_status red_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev)
{
    red_state *s = state;
    red_rung *q = rs;
    if (q->r->p[P_GRID] == 0) return enqueue_passes(ctx, s, q, ev);
    cg_status st = cg_enqueue_groups(ctx, ev, q->k, q->groups, q->wg);
    if (st == CG_OK && q->groups > 1) st = cg_enqueue_groups(ctx, ev, q->k2, 1, q->wg);
    return st;
}

/* Reads the one output float; passes when |got - ref| <= c * gamma_d * sum|x| (RED_BOUND_C, rung_depth), or
 * got == ref exactly with --check exact. */
static cg_status red_verify(cg_ctx *ctx, void *state, void *rs, cg_check *c)
{
    cg_status st = CG_OK;
    red_state *s = state;
    red_rung *q = rs;
    float got = 0.0f;
    CG_TRY(clEnqueueReadBuffer(ctx->queue, s->out, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
    double bound = s->exact ? 0 : (RED_BOUND_C * cg_gamma((double)q->depth) + RED_REF_ERR) * s->absum;
    cg_check_scalar(c, got, s->ref, bound);
out:
    return st;
}

const cg_workload cg_workload_reduction = {
    .name = "reduction",
    .summary = "sum of N floats: Harris's reduction ladder, naive tree to many float4 loads in flight",
    .size_help = "N floats (2^24, 16M, 1000003); default 2^28 on GPUs, 2^24 elsewhere",
    .cl_file = "reduction.cl",
    .takes_images_io = false,
    .rungs = rungs,
    .n_rungs = sizeof rungs / sizeof rungs[0],
    .tune = spaces,
    .n_tune = sizeof spaces / sizeof spaces[0],
    .setup = red_setup,
    .teardown = red_teardown,
    .model = red_model,
    .options = red_options,
    .prepare = red_prepare,
    .poison = NULL, /* the core poisons out and both partial buffers before every run */
    .enqueue = red_enqueue,
    .verify = red_verify,
    .release = red_release,
    .save_output = NULL,
    .validate = red_validate,
    .local_need = red_local_need,
    .unsupported = red_unsupported,
};
