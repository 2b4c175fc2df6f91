/* The histogram workload: 256 bins of N seeded bytes (--pattern random, allequal or image), a ladder from one
 * global atomic per byte to per-lane sub-histograms in local memory fed by uint4 loads. This file owns the
 * inputs, the CPU reference (an exact count, computed once), the device buffers (the bytes, 256 uint bins),
 * the rung table and the enqueue of each rung: a fill that zeroes the bins, then one kernel (both timed).
 * A rung's shape is data in p[]:
 *   p[0] work-group size (clamped to the device, rounded down to a power of two);
 *   p[1] sub-histograms per group in local memory (COPIES; work-item lid counts into copy lid % COPIES);
 *   p[2] 0: byte loads (hist_global, hist_local); k > 0: hist_vec, k uint4 loads per work-item per step;
 *   p[3] 0: one work-item per byte; k > 0: a grid of k x compute-units groups strides over the input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "core/log.h"
#include "core/rng.h"
#include "core/workload.h"

enum { P_WG, P_COPIES, P_LOADS, P_GRID };

#define HIST_BINS          256
#define HIST_DEFAULT_GPU   (1ull << 28)
#define HIST_DEFAULT_OTHER (1ull << 24)
#define HIST_MAX_N         (1ull << 31) /* kernels index with 32-bit unsigned ints */
#define HIST_IMAGE_W       4096         /* the image pattern's row length in bytes */
#define LB(copies)         ((size_t)HIST_BINS * (copies)*4)

/* clang-format off */
static const cg_rung rungs[] = {
    /* name, why (one line, shown in every report), kernel, build options, needs, local bytes, p[] */
    {"global-atomic", "one global atomic per input byte: 256 hot words in L2, one word on all-equal data",
     "hist_global", NULL, 0, 0, {256, 1, 0, 0}},
    {"local", "one local histogram per group, local atomic per byte, merged once per group",
     "hist_local", NULL, 0, LB(1), {256, 1, 0, 8}},
    {"local-spread", "32 sub-histograms per group, h[bin*32+lane]: a warp's updates hit 32 banks",
     "hist_local", NULL, 0, LB(32), {256, 32, 0, 4}},
    {"packed-uint4", "as local-spread, but uint4 loads: 16 bytes per load, counted from registers",
     "hist_vec", NULL, 0, LB(32), {256, 32, 1, 4}},
    {"best", "512-wide groups, 4/CU, two uint4 loads in flight per step, 32 sub-histograms",
     "hist_vec", NULL, 0, LB(32), {512, 32, 2, 4}},
    {"deep-loads", "256-wide groups, 6/CU, four uint4 loads in flight: more bytes in flight per CU",
     "hist_vec", NULL, 0, LB(32), {256, 32, 4, 6}},
};
/* clang-format on */

static const char *const patterns[] = {"random", "allequal", "image"};
enum { PAT_RANDOM, PAT_ALLEQUAL, PAT_IMAGE, PAT_COUNT };

typedef struct hist_state {
    uint64_t n;
    int pattern;
    bool exact;              /* --check exact with the random pattern: fill_exact's runs instead */
    uint32_t ref[HIST_BINS]; /* exact counts of the input */
    unsigned cus;            /* compute units */
    size_t max_wg;           /* device limit on the work-group size */
    cl_mem in, out;          /* n bytes; 256 uints */
} hist_state;

typedef struct hist_rung {
    cl_kernel k;
    size_t wg, groups;
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

/* Groups of a rung: one work-item per byte, or k x compute units but no more than the loads need (and enough
 * work-items for hist_vec's tail of up to 15 bytes). */
static size_t rung_groups(const hist_state *s, const cg_rung *r, size_t wg)
{
    if (r->p[P_GRID] <= 0) return div_up(s->n, wg);
    uint64_t units = r->p[P_LOADS] > 0 ? s->n / 16 : s->n;
    size_t most = div_up(units > 16 ? units : 16, wg);
    size_t g = (size_t)r->p[P_GRID] * (s->cus ? s->cus : 1);
    return g < most ? g : most;
}

static int find_pattern(const char *name)
{
    if (!name) return PAT_RANDOM;
    for (int i = 0; i < PAT_COUNT; i++)
        if (!strcmp(patterns[i], name)) return i;
    return -1;
}

/* N: --size, or the default for the device type halved until it fits one allocation and half the global
 * memory. */
static const cg_size_rule size_rule = {
    .workload = "histogram",
    .unit = "bytes",
    .dims = 1,
    .dflt_gpu = HIST_DEFAULT_GPU,
    .dflt_other = HIST_DEFAULT_OTHER,
    .dflt_floor = 1024,
    .elem_bytes = 1,
    .buffers = 1,
    .max_count = HIST_MAX_N,
};

/* --pattern: the input bytes (its values are checked by the CLI before any device work, and again here). */
static const cg_wopt wopts[] = {
    {"pattern", "P", "the input bytes, random (default), allequal (worst-case contention) or image",
     CG_WOPT_WORD, "random|allequal|image", "random", 0},
};

static const char *pattern_arg(const cg_run_opts *o)
{
    const cg_wopt_value *v = cg_wopts_find(o->wopts, "pattern");
    return v ? v->text : NULL;
}

static cg_status pick_size(const cg_ctx *ctx, const cg_run_opts *o, uint64_t *n)
{
    size_t w, h;
    cg_status st = cg_size_pick(ctx, &size_rule, o, &w, &h);
    *n = w;
    return st;
}

/* The --pattern and size checks of setup, before any device work (cg_workload.validate). */
static cg_status hist_validate(const cg_ctx *ctx, const cg_run_opts *o)
{
    uint64_t n;
    if (find_pattern(pattern_arg(o)) < 0) {
        CG_ERROR("histogram: unknown --pattern '%s': use random, allequal or image", pattern_arg(o));
        return CG_E_USAGE;
    }
    return pick_size(ctx, o, &n);
}

static void describe_size(const hist_state *s, char *buf, size_t len)
{
    int lg = 0;
    while ((1ull << lg) < s->n)
        lg++;
    if ((1ull << lg) == s->n)
        snprintf(buf, len, "2^%d B, %s", lg, s->exact ? "exact" : patterns[s->pattern]);
    else
        snprintf(buf, len, "%llu B, %s", (unsigned long long)s->n, s->exact ? "exact" : patterns[s->pattern]);
}

/* The image pattern: rows of HIST_IMAGE_W bytes, diagonal bands (a triangle wave over x + y, 16 px per grey
 * level) plus seeded noise in [-3, 3]: a smooth picture with a few distinct values per neighbourhood. */
static void fill_image(cg_rng *rng, uint8_t *x, size_t n)
{
    uint64_t bits = 0;
    int left = 0;
    for (size_t i = 0; i < n; i++) {
        if (left < 3) {
            bits = cg_rng_next(rng);
            left = 63;
        }
        int noise = (int)(bits % 7) - 3;
        bits /= 7;
        left -= 3;
        size_t t = ((i % HIST_IMAGE_W) + i / HIST_IMAGE_W) / 16 % 510;
        int v = (int)(t < 256 ? t : 509 - t) + noise;
        x[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

/* The --check exact pattern: runs of ascending bins, bin b's run (b + 1) units long, so that every bin has
 * its own count (a mislabelled or lost bin shows) and the input ends in the highest bins (a dropped tail
 * shows); lane i % 16 of each 16-byte vector adds 37 x lane to the bin, so that a uint4 kernel counting one
 * byte lane twice and another never changes the counts. Long runs of one bin also make a non-atomic update
 * lose counts wherever work-items run concurrently. Bin 255 is kept for 8 single bytes spread over the input,
 * each alone in its part of it, so that a merge that skips a bin a group counted once shows. */
static void fill_exact(uint8_t *x, size_t n)
{
    const double total = HIST_BINS * (HIST_BINS + 1) / 2.0;
    size_t b = 0;
    for (size_t i = 0; i < n; i++) {
        double at = (double)i * total / (double)n;
        while (b + 1 < HIST_BINS && (double)(b + 1) * (b + 2) / 2.0 <= at)
            b++;
        x[i] = (uint8_t)((b + 37 * (i % 16)) % 255);
    }
    for (size_t k = 0; k < 8; k++)
        x[(size_t)((double)(2 * k + 1) * (double)n / 16.0)] = 255;
}

static void fill_pattern(const cg_run_opts *o, int pattern, uint8_t *x, size_t n)
{
    cg_rng rng;
    cg_rng_init(&rng, o->seed);
    if (pattern == PAT_RANDOM && o->check_exact)
        fill_exact(x, n);
    else if (pattern == PAT_RANDOM)
        cg_rng_fill_bytes(&rng, x, n);
    else if (pattern == PAT_ALLEQUAL)
        memset(x, (int)(cg_rng_next(&rng) & 0xFF), n);
    else
        fill_image(&rng, x, n);
}

static cg_status make_input(cg_ctx *ctx, const cg_run_opts *o, hist_state *s)
{
    cg_status st = CG_OK;
    uint8_t *x = malloc(s->n);
    CG_FAIL_IF(!x, CG_E_RUNTIME, "histogram: out of host memory for %llu bytes", (unsigned long long)s->n);
    fill_pattern(o, s->pattern, x, (size_t)s->n);
    for (size_t i = 0; i < s->n; i++)
        s->ref[x[i]]++;
    CG_TRY_BUF(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)s->n, x, CG_BUF_INPUT, &s->in);
out:
    free(x);
    return st;
}

static void hist_teardown(void *state)
{
    hist_state *s = state;
    if (!s) return;
    if (s->in) clReleaseMemObject(s->in);
    if (s->out) clReleaseMemObject(s->out);
    free(s);
}

static cg_status hist_setup(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len)
{
    cg_status st = CG_OK;
    hist_state *s = calloc(1, sizeof *s);
    CG_FAIL_IF(!s, CG_E_RUNTIME, "histogram: out of host memory");
    s->cus = ctx->dev->compute_units;
    s->max_wg = ctx->dev->max_wg ? ctx->dev->max_wg : 1;
    s->pattern = find_pattern(pattern_arg(o));
    if (s->pattern < 0) {
        CG_ERROR("histogram: unknown --pattern '%s': use random, allequal or image", pattern_arg(o));
        st = CG_E_USAGE;
        goto out;
    }
    if ((st = pick_size(ctx, o, &s->n)) != CG_OK) goto out;
    s->exact = o->check_exact && s->pattern == PAT_RANDOM;
    describe_size(s, size_desc, len);
    if ((st = make_input(ctx, o, s)) != CG_OK) goto out;
    CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, sizeof s->ref, NULL, CG_BUF_WRITTEN, &s->out);
out:
    if (st != CG_OK) {
        hist_teardown(s);
        s = NULL;
    }
    *state = s;
    return st;
}

static void hist_model(const void *state, const cg_rung *r, cg_model *m)
{
    const hist_state *s = state;
    (void)r;
    m->bytes = (double)s->n;
    m->flops = 0;
    m->items = (double)s->n;
    m->item_unit = "B";
    m->bytes_note = "R: 1 B per input byte, read once";
    m->ceiling = CG_CEIL_READ;
}

/* "-DWG=256 -DCOPIES=32 -DLOADS=2", plus -DWG_ASKED=N when the device forced a smaller work-group size. */
static void hist_options(const void *state, const cg_rung *r, char *buf, size_t len)
{
    const hist_state *s = state;
    size_t wg = rung_wg(s, r);
    int copies = r->p[P_COPIES] > 0 ? r->p[P_COPIES] : 1, loads = r->p[P_LOADS] > 0 ? r->p[P_LOADS] : 1;
    int n = snprintf(buf, len, "-DWG=%zu -DCOPIES=%d -DLOADS=%d", wg, copies, loads);
    if (n >= 0 && (size_t)n < len && wg != (size_t)r->p[P_WG])
        snprintf(buf + n, len - (size_t)n, " -DWG_ASKED=%d", r->p[P_WG]);
}

static void hist_release(void *rs)
{
    hist_rung *q = rs;
    if (!q) return;
    if (q->k) clReleaseKernel(q->k);
    free(q);
}

static cg_status hist_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs)
{
    cg_status st = CG_OK;
    hist_state *s = state;
    (void)ctx;
    hist_rung *q = calloc(1, sizeof *q);
    CG_FAIL_IF(!q, CG_E_RUNTIME, "histogram: out of host memory");
    q->wg = rung_wg(s, r);
    q->groups = rung_groups(s, r, q->wg);
    if (q->wg != (size_t)r->p[P_WG])
        CG_WARN("histogram:%s: work-group size %d clamped to %zu for this device", r->name, r->p[P_WG],
                q->wg);
    cl_uint nn = (cl_uint)s->n;
    CG_TRY_OBJ(q->k, clCreateKernel(prog, r->kernel, CG_ERRP));
    CG_TRY(clSetKernelArg(q->k, 0, sizeof s->in, &s->in));
    CG_TRY(clSetKernelArg(q->k, 1, sizeof s->out, &s->out));
    CG_TRY(clSetKernelArg(q->k, 2, sizeof nn, &nn));
out:
    if (st != CG_OK) {
        hist_release(q);
        q = NULL;
    }
    *rs = q;
    return st;
}

/* Zeroing the bins is part of the rung (every kernel adds into them): a timed fill, then the kernel. */
static cg_status hist_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev)
{
    cg_status st = CG_OK;
    hist_state *s = state;
    hist_rung *q = rs;
    const cl_uint zero = 0;
    size_t global = q->groups * q->wg;
    cl_event *e = cg_events_next(ev);
    CG_FAIL_IF(!e, CG_E_RUNTIME, "histogram: out of host memory for events");
    CG_TRY(clEnqueueFillBuffer(ctx->queue, s->out, &zero, sizeof zero, 0, sizeof s->ref, 0, NULL, e));
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
    .summary =
        "256 bins of N bytes: one global atomic per byte to per-lane local sub-histograms, uint4 loads",
    .size_help = "N bytes (2^28, 256M, 1000003); default 2^28 on GPUs, 2^24 elsewhere",
    .cl_file = "histogram.cl",
    .takes_images_io = false,
    .wopts = wopts,
    .n_wopts = sizeof wopts / sizeof wopts[0],
    .rungs = rungs,
    .n_rungs = sizeof rungs / sizeof rungs[0],
    .setup = hist_setup,
    .teardown = hist_teardown,
    .model = hist_model,
    .options = hist_options,
    .prepare = hist_prepare,
    .poison = NULL, /* the core poisons the bins (0xFF.. / 0xA5..) before every run: a rung that skips
                       zeroing them or writes nothing fails */
    .enqueue = hist_enqueue,
    .verify = hist_verify,
    .release = hist_release,
    .save_output = NULL,
    .validate = hist_validate,
};
