/* The saxpy workload: out = alpha * x + y over N seeded floats, the example of docs/adding-a-workload.md. It
 * owns everything of its ladder: its option (--alpha, declared in `wopts` below and merged by the CLI into
 * parsing, help, `list`, completions and the checks), its size rule, the inputs, the CPU reference and its
 * error bound, the three device buffers (created once) and the rung table. A rung's launch is data in p[]:
 * elements per work-item and, for the strided walk, groups per compute unit. */
#include <limits.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/clerr.h"
#include "core/log.h"
#include "core/rng.h"
#include "core/workload.h"

enum { P_WG, P_PER_ITEM, P_GRID }; /* the meaning of cg_rung.p[] here; P_GRID 0: one item per element */

#define SAXPY_DEFAULT_ALPHA 2.0
#define SAXPY_MAX_ALPHA     1e6 /* keeps alpha * x far from float overflow */

/* clang-format off */
static const cg_rung rungs[] = {
    /* name, why (one line, shown in every report), kernel, options, needs, local bytes,
       {P_WG, P_PER_ITEM, P_GRID} */
    {"naive", "one work-item per element: three scalar memory operations each",
     "saxpy_naive", NULL, 0, 0, {256, 1, 0}},
    {"vec4", "float4 loads and stores, four elements per work-item: 4x fewer memory instructions",
     "saxpy_vec4", NULL, 0, 0, {256, 4, 0}},
    {"stride", "as naive (scalar), but a fixed grid of 8 groups per CU walks the array: fewer work-items to schedule",
     "saxpy_stride", NULL, 0, 0, {256, 1, 8}},
};
/* clang-format on */

/* --alpha: its range is checked in pick_alpha (validate and setup). */
static const cg_wopt wopts[] = {
    {"alpha", "A", "the scale of x in alpha * x + y, positive, up to 1e6 (default 2)", CG_WOPT_NUMBER, NULL,
     "2", 0},
};

/* N floats; x, y and out must fit in global memory together; the kernels index with uint. */
static const cg_size_rule size_rule = {
    .workload = "saxpy",
    .unit = "floats",
    .dims = 1,
    .dflt_gpu = 1ull << 26,
    .dflt_other = 1ull << 22,
    .dflt_floor = 1024,
    .elem_bytes = sizeof(float),
    .buffers = 3,
    .max_count = INT_MAX,
};

typedef struct saxpy_state {
    size_t n;
    float alpha;
    bool exact;
    cl_uint cus;
    size_t max_wg;
    float *ref, *absum, *got; /* reference, sum of |terms| per element (the error bound), read back */
    cl_mem x, y, out;
} saxpy_state;

typedef struct saxpy_rung {
    cl_kernel k;
    size_t global, local;
} saxpy_rung;

/* ---- setup ------------------------------------------------------------------------------------------ */

/* alpha from --alpha, else the default; --check exact needs it a multiple of 1/256 below 2^12 (then every
 * alpha * x + y of small integers is exact in float). */
static cg_status pick_alpha(const cg_run_opts *o, double *alpha)
{
    *alpha = cg_wopts_number(o->wopts, "alpha", SAXPY_DEFAULT_ALPHA);
    if (*alpha < FLT_MIN) { /* a float kernel would scale by a subnormal or by 0 */
        CG_ERROR("saxpy: --alpha %g is below the smallest normal float (%g): use a larger --alpha", *alpha,
                 (double)FLT_MIN);
        return CG_E_USAGE;
    }
    if (*alpha > SAXPY_MAX_ALPHA) {
        CG_ERROR("saxpy: --alpha %g is above %g: use a smaller --alpha", *alpha, SAXPY_MAX_ALPHA);
        return CG_E_USAGE;
    }
    if (o->check_exact && (*alpha >= 4096 || *alpha * 256 != floor(*alpha * 256))) {
        CG_ERROR(
            "saxpy: --check exact needs --alpha a multiple of 1/256 below 4096, not %g: use e.g. --alpha "
            "2.5 or --check random",
            *alpha);
        return CG_E_USAGE;
    }
    return CG_OK;
}

static cg_status saxpy_validate(const cg_ctx *ctx, const cg_run_opts *o)
{
    double alpha;
    size_t w, h;
    cg_status st = pick_alpha(o, &alpha);
    return st == CG_OK ? cg_size_pick(ctx, &size_rule, o, &w, &h) : st;
}

static void saxpy_teardown(void *state)
{
    saxpy_state *s = state;
    if (!s) return;
    if (s->x) clReleaseMemObject(s->x);
    if (s->y) clReleaseMemObject(s->y);
    if (s->out) clReleaseMemObject(s->out);
    free(s->ref);
    free(s->absum);
    free(s->got);
    free(s);
}

/* Inputs: uniform in [0.5, 1) (exact: integers 0..15); the reference in double, rounded once. */
static cg_status make_data(cg_ctx *ctx, const cg_run_opts *o, saxpy_state *s)
{
    cg_status st = CG_OK;
    float *x = malloc(s->n * sizeof *x), *y = malloc(s->n * sizeof *y);
    s->ref = malloc(s->n * sizeof *s->ref);
    s->absum = malloc(s->n * sizeof *s->absum);
    s->got = malloc(s->n * sizeof *s->got);
    CG_FAIL_IF(!x || !y || !s->ref || !s->absum || !s->got, CG_E_RUNTIME, "saxpy: out of host memory");
    cg_rng rng;
    cg_rng_init(&rng, o->seed);
    for (size_t i = 0; i < s->n && s->exact; i++) {
        x[i] = (float)(cg_rng_next(&rng) >> 60);
        y[i] = (float)(cg_rng_next(&rng) >> 60);
    }
    if (!s->exact) {
        cg_rng_fill_float(&rng, x, s->n, 0.5f, 1.0f);
        cg_rng_fill_float(&rng, y, s->n, 0.5f, 1.0f);
    }
    for (size_t i = 0; i < s->n; i++) {
        s->ref[i] = (float)((double)s->alpha * x[i] + y[i]);
        s->absum[i] = (float)(fabs((double)s->alpha * x[i]) + fabs((double)y[i]));
    }
    cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    CG_TRY_BUF(ctx, in, s->n * sizeof *x, x, CG_BUF_INPUT, &s->x);
    CG_TRY_BUF(ctx, in, s->n * sizeof *y, y, CG_BUF_INPUT, &s->y);
    CG_TRY_BUF(ctx, CL_MEM_WRITE_ONLY, s->n * sizeof(float), NULL, CG_BUF_WRITTEN, &s->out);
out:
    free(x);
    free(y);
    return st;
}

static cg_status saxpy_setup(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len)
{
    cg_status st = CG_OK;
    double alpha;
    size_t w, h;
    saxpy_state *s = calloc(1, sizeof *s);
    CG_FAIL_IF(!s, CG_E_RUNTIME, "saxpy: out of host memory");
    if ((st = pick_alpha(o, &alpha)) != CG_OK || (st = cg_size_pick(ctx, &size_rule, o, &w, &h)) != CG_OK)
        goto out;
    s->n = w;
    s->alpha = (float)alpha;
    s->exact = o->check_exact;
    s->cus = ctx->dev->compute_units;
    s->max_wg = ctx->dev->max_wg ? ctx->dev->max_wg : 1;
    if ((st = make_data(ctx, o, s)) == CG_OK) snprintf(size_desc, len, "%zu floats, alpha %g", s->n, alpha);
out:
    if (st != CG_OK) {
        saxpy_teardown(s);
        s = NULL;
    }
    *state = s;
    return st;
}

/* ---- rungs ------------------------------------------------------------------------------------------ */

/* Each of x and y read once and out written once (12 B), one multiply and one add (2 FLOPs) per element. */
static void saxpy_model(const void *state, const cg_rung *r, cg_model *m)
{
    const saxpy_state *s = state;
    (void)r;
    m->bytes = (double)s->n * 12.0;
    m->flops = (double)s->n * 2.0;
    m->items = (double)s->n;
    m->item_unit = "elem";
    m->bytes_note = "R+W: 8 B/elem read + 4 B/elem written";
    m->ceiling = CG_CEIL_COPY;
}

static void saxpy_release(void *rs)
{
    saxpy_rung *q = rs;
    if (!q) return;
    if (q->k) clReleaseKernel(q->k);
    free(q);
}

static cg_status saxpy_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs)
{
    cg_status st = CG_OK;
    saxpy_state *s = state;
    cl_uint n = (cl_uint)s->n;
    (void)ctx;
    saxpy_rung *q = calloc(1, sizeof *q);
    CG_FAIL_IF(!q, CG_E_RUNTIME, "saxpy: out of host memory");
    q->local = cg_rung_pow2_wg(r->p[P_WG], 256, s->max_wg);
    size_t items = (s->n + (size_t)r->p[P_PER_ITEM] - 1) / (size_t)r->p[P_PER_ITEM];
    if (r->p[P_GRID] > 0) {
        size_t grid = (size_t)r->p[P_GRID] * (s->cus ? s->cus : 1) * q->local;
        items = items < grid ? items : grid;
    }
    q->global = (items + q->local - 1) / q->local * q->local;
    CG_TRY_OBJ(q->k, clCreateKernel(prog, r->kernel, CG_ERRP));
    CG_TRY(clSetKernelArg(q->k, 0, sizeof s->x, &s->x));
    CG_TRY(clSetKernelArg(q->k, 1, sizeof s->y, &s->y));
    CG_TRY(clSetKernelArg(q->k, 2, sizeof s->out, &s->out));
    CG_TRY(clSetKernelArg(q->k, 3, sizeof s->alpha, &s->alpha));
    CG_TRY(clSetKernelArg(q->k, 4, sizeof n, &n));
out:
    if (st != CG_OK) {
        saxpy_release(q);
        q = NULL;
    }
    *rs = q;
    return st;
}

static cg_status saxpy_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev)
{
    (void)state;
    saxpy_rung *q = rs;
    return cg_enqueue_kernel(ctx, ev, q->k, 1, &q->global, &q->local);
}

/* Per element: |got - ref| <= 2 gamma_2 (|alpha x| + |y|), the device's two roundings (or one fused) and the
 * reference's one; exact inputs: equal. */
static cg_status saxpy_verify(cg_ctx *ctx, void *state, void *rs, cg_check *c)
{
    cg_status st = CG_OK;
    saxpy_state *s = state;
    (void)rs;
    CG_TRY(clEnqueueReadBuffer(ctx->queue, s->out, CL_TRUE, 0, s->n * sizeof(float), s->got, 0, NULL, NULL));
    cg_check_bound(c, s->got, s->ref, s->absum, s->n, s->exact ? 0.0 : 2.0 * cg_gamma(2), 0.0);
out:
    return st;
}

const cg_workload cg_workload_saxpy = {
    .name = "saxpy",
    .summary = "out = alpha * x + y over N floats (--alpha): scalar, float4, grid-stride",
    .size_help = "N floats (2^26, 64M, 1000003); default 2^26 on GPUs, 2^22 elsewhere",
    .cl_file = "saxpy.cl",
    .wopts = wopts,
    .n_wopts = sizeof wopts / sizeof wopts[0],
    .rungs = rungs,
    .n_rungs = sizeof rungs / sizeof rungs[0],
    .setup = saxpy_setup,
    .teardown = saxpy_teardown,
    .model = saxpy_model,
    .prepare = saxpy_prepare,
    .enqueue = saxpy_enqueue,
    .verify = saxpy_verify,
    .release = saxpy_release,
    .validate = saxpy_validate,
};
