/* The cloth workload: the WWDC 2010 talk's mass-spring cloth (Bullet's soft body) as a ladder of ways to
 * relax its springs in parallel. This file owns the options (--grid, --iterations, --steps), their checks,
 * the initial cloth (seeded), the device buffers (the initial state as input; both frame ping-pong sets and
 * the Jacobi iterate written, so poisoned before every run), the work model and the rung table. After the
 * ladder: one line timing the CPU-order reference against the fastest rung, and --output (the state of the
 * first cloth kept from the last verified run, drawn by cloth_draw.c). The checks are in cloth_check.c, the
 * launches in cloth_launch.c, the kernels in cloth.cl. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "core/log.h"
#include "core/pngio.h"
#include "core/rng.h"
#include "core/stats.h"
#include "workloads/cloth/cloth.h"

#define CLOTH_SPACING 0.01 /* rest distance of neighbours (m) */
#define CLOTH_FLOPS   45.0 /* per spring relaxation, as cloth_colour counts them */
#define CLOTH_CPU_S   2.0  /* the timed CPU reference repeats (up to --runs times) until this many seconds */

/* clang-format off */
static const cg_rung rungs[] = {
    /* name, why (one line, shown in every report), kernel, options, needs, local bytes,
       {P_SCHEME, P_WGX, P_WGY, P_READBACK} */
    {"colour", "springs in 12 colours (each family by parity): a launch per colour, a work-item per spring",
     "cloth_colour", NULL, 0, 0, {S_COLOUR, 64, 1, 0}},
    {"merged", "the talk's merged batches: a work-item per particle recomputes its 12 springs, 5 particle colours",
     "cloth_vertex", NULL, 0, 0, {S_VERTEX, 64, 1, 0}},
    {"single", "one batch per iteration in place: neighbours race, no serialisation point, slower convergence",
     "cloth_vertex", NULL, 0, 0, {S_SINGLE, 64, 1, 0}},
    {"jacobi", "one batch per iteration from the last iterate into a second buffer: deterministic, no race",
     "cloth_jacobi", NULL, 0, 0, {S_JACOBI, 64, 1, 0}},
    {"local", "tiles of 16x16 in local memory: the 5 colours inside a work-group, one launch per iteration",
     "cloth_tile", NULL, 0, 20 * 20 * 16, {S_TILE, 16, 16, 0}},
    {"best", "as jacobi in 16x16 work-groups: a group's neighbours share cache lines two rows up and down",
     "cloth_jacobi", NULL, 0, 0, {S_JACOBI, 16, 16, 0}},
    {"fma", "as best, each multiply then add of the spring arithmetic as one fma(): one instruction, one rounding",
     "cloth_jacobi", "-DFMA", 0, 0, {S_JACOBI, 16, 16, 0}},
    {"merged-fma", "as merged, its spring arithmetic in fma() as the fma rung's: the same step for Gauss-Seidel",
     "cloth_vertex", "-DFMA", 0, 0, {S_VERTEX, 64, 1, 0}},
    {"merged-cm", "as merged, particles stored colour by colour: a batch's particles and each of their neighbours are consecutive",
     "cloth_vertex", "-DCM", 0, 0, {S_VERTEX, 64, 1, 0}},
    {"fma-interior", "as fma, particles 2 or more from every edge skip the 12 inside-the-grid tests: no branch between the loads",
     "cloth_jacobi", "-DFMA -DINTERIOR", 0, 0, {S_JACOBI, 16, 16, 0}},
    {"cm-interior", "as merged-cm, particles 2 or more from every edge skip the 12 inside-the-grid tests: no branch between the loads",
     "cloth_vertex", "-DCM -DINTERIOR", 0, 0, {S_VERTEX, 64, 1, 0}},
    {"cm-fma", "as merged-cm, its spring arithmetic in fma() as the fma rung's: with the loads coalesced, the arithmetic may count",
     "cloth_vertex", "-DCM -DFMA", 0, 0, {S_VERTEX, 64, 1, 0}},
    {"interior-r32", "as fma-interior, NVIDIA's compiler held to 32 registers a work-item: every warp slot of an SM filled, not 3 in 4",
     "cloth_jacobi", "-DFMA -DINTERIOR -cl-nv-maxrregcount=32", CG_FEAT_NV_PTX, 0, {S_JACOBI, 16, 16, 0}},
    {"interior-2rows", "as fma-interior, 2 particles a work-item, one above the other: their 26 neighbour reads from 18 loads",
     "cloth_jacobi", "-DFMA -DINTERIOR -DPR=2", 0, 0, {S_JACOBI, 16, 16, 0}},
    {"interior-noprev", "as fma-interior, the integration writes the new state only (48 of 64 B a particle): the old one stays where it is",
     "cloth_jacobi", "-DFMA -DINTERIOR -DNOPREV", 0, 0, {S_JACOBI, 16, 16, 0}},
    {"noprev-grid", "as interior-noprev, the grid's size compiled in (-D): row offsets and bounds become constants",
     "cloth_jacobi", "-DFMA -DINTERIOR -DNOPREV -DGRID", 0, 0, {S_JACOBI, 16, 16, 0}},
    {"grid-rsq2", "as noprev-grid, 1/sqrt from 2 Newton steps, not 3 (relative error 4.6e-6): 3 of about 30 operations a spring fewer",
     "cloth_jacobi", "-DFMA -DINTERIOR -DNOPREV -DGRID -DRSQ2", 0, 0, {S_JACOBI, 16, 16, 0}},
    {"jacobi-once", "as fma, each spring computed once, by the particle it starts from, and handed to its other end",
     CLOTH_ONCE_KERNEL, "-DFMA", 0, 0, {S_JACOBI, 128, 16, 0}},
    {"jacobi-local", "as best, the tile and a 2-particle halo copied to local memory first: the 12 gathers from there",
     "cloth_jtile", "-DJK=1", 0, 2 * 20 * 20 * 16, {S_JACOBI, 16, 16, 0, 0}},
    {"jacobi-k2", "as jacobi-local, 2 iterations per launch on a 4-particle halo: half the launches, halo recomputed",
     "cloth_jtile", "-DJK=2", 0, 2 * 24 * 24 * 16, {S_JACOBI, 16, 16, 0, 0}},
    {"jacobi-k4", "as jacobi-k2, 4 iterations per launch on an 8-particle halo: a quarter of the launches",
     "cloth_jtile", "-DJK=4", 0, 2 * 32 * 32 * 16, {S_JACOBI, 16, 16, 0, 0}},
    {"per-cloth", "as best, one launch per cloth (the demo's flags one at a time): --cloths times the launches",
     "cloth_jacobi", NULL, 0, 0, {S_JACOBI, 16, 16, 0, 1}},
    {"readback", "as best, plus the positions copied to the host every frame (the demo's way to draw them)",
     "cloth_jacobi", NULL, 0, 0, {S_JACOBI, 16, 16, 1}},
};
/* clang-format on */

/* The tuning spaces (core/tune.h): the work-group of the kernels that take any (the tile rungs' group is
 * their tile and their local memory, left out). Each holds its rungs' own values. */
/* clang-format off */
static const cg_tspace spaces[] = {
    {"colour", 1, {{"wgx", P_WGX, CG_TR_WG_X, 6, {32, 64, 128, 256, 512, 1024}}}},
    {"merged,single,jacobi,best,fma,merged-fma,merged-cm,fma-interior,cm-interior,cm-fma,interior-r32,"
     "interior-2rows,interior-noprev,noprev-grid,grid-rsq2,per-cloth,readback", 2,
     {{"wgx", P_WGX, CG_TR_WG_X, 6, {8, 16, 32, 64, 128, 256}},
      {"wgy", P_WGY, CG_TR_WG_Y, 5, {1, 2, 4, 8, 16}}}},
    {"jacobi-once", 2,
     {{"wgx", P_WGX, CG_TR_WG_X, 4, {32, 64, 128, 256}},
      {"rows", P_WGY, CG_TR_OTHER, 5, {4, 8, 16, 32, 64}}}},
};
/* clang-format on */

static const cg_wopt wopts[] = {
    {"grid", "WxH",
     "particles across and down, 2 to 1024 each (default " CLOTH_DEFAULT_GRID "); a list sweeps",
     CG_WOPT_EXTENTS, NULL, CLOTH_DEFAULT_GRID, CLOTH_MAX_SIDE},
    {"iterations", "K",
     "iterations: cloth's spring relaxations per frame, 1 to 1000; opticalflow's Lucas-Kanade steps per "
     "level, 1 to 100 (default 10)",
     CG_WOPT_NUMBER, NULL, "10", 0},
    {"steps", "S", "frames simulated per timed run, 1 to 1000 (default 4)", CG_WOPT_NUMBER, NULL, "4", 0},
    {"cloths", "N", "independent cloths of --grid each, simulated together, 1 to 4096 (default 1)",
     CG_WOPT_NUMBER, NULL, "1", 0},
};

typedef struct cloth_opts {
    int w, h, iters, steps, cloths;
} cloth_opts;

/* An integer option 1..max, or a one-line refusal. */
static cg_status pick_count(const cg_run_opts *o, const char *name, int dflt, int max, int *out)
{
    double v = cg_wopts_number(o->wopts, name, dflt);
    if (v != floor(v) || v < 1 || v > max) {
        CG_ERROR("cloth: --%s %g is not a whole number from 1 to %d: use e.g. --%s %d", name, v, max, name,
                 dflt);
        return CG_E_USAGE;
    }
    *out = (int)v;
    return CG_OK;
}

/* All cloths' seven float4 buffers (init in both layouts, two frame sets of cur and prev, the Jacobi iterate;
 * each sized for the colour-major layout's padding) against the particle bound, one allocation and the
 * device's memory. */
static cg_status check_memory(const cg_ctx *ctx, const cloth_opts *c)
{
    double n = (double)c->w * c->h * c->cloths,
           bytes = (double)cloth_cm_slots(c->w, c->h) * c->cloths * 4 * sizeof(float);
    char need[32], have[32];
    cg_format_bytes(bytes, need, sizeof need);
    const char *fix = "use a smaller --grid or fewer --cloths";
    if (n > CLOTH_MAX_PARTICLES) {
        CG_ERROR("cloth: --grid %dx%d x --cloths %d is %.0f particles, above %d: %s", c->w, c->h, c->cloths,
                 n, CLOTH_MAX_PARTICLES, fix);
        return CG_E_USAGE;
    }
    cg_format_bytes((double)ctx->dev->max_alloc, have, sizeof have);
    if (bytes > (double)ctx->dev->max_alloc) {
        CG_ERROR("cloth: %.0f particles need %s buffers, above this device's largest allocation (%s): %s", n,
                 need, have, fix);
        return CG_E_USAGE;
    }
    cg_format_bytes((double)ctx->dev->global_mem, have, sizeof have);
    if (7 * bytes > (double)ctx->dev->global_mem) {
        CG_ERROR("cloth: %.0f particles need 7 buffers of %s, more than this device's %s of memory: %s", n,
                 need, have, fix);
        return CG_E_USAGE;
    }
    return CG_OK;
}

static cg_status pick_opts(const cg_ctx *ctx, const cg_run_opts *o, cloth_opts *c)
{
    const cg_wopt_value *g = cg_wopts_find(o->wopts, "grid");
    c->w = g ? g->w : 128;
    c->h = g ? g->h : 128;
    cg_status st = pick_count(o, "iterations", CLOTH_DEFAULT_ITERS, CLOTH_MAX_ITERS, &c->iters);
    if (st == CG_OK) st = pick_count(o, "steps", CLOTH_DEFAULT_STEPS, CLOTH_MAX_STEPS, &c->steps);
    if (st == CG_OK) st = pick_count(o, "cloths", 1, CLOTH_MAX_CLOTHS, &c->cloths);
    if (st != CG_OK) return st;
    if (c->w < 2 || c->h < 2) {
        CG_ERROR("cloth: --grid %dx%d has no springs both ways: use at least 2x2", c->w, c->h);
        return CG_E_USAGE;
    }
    if ((long)c->iters * c->steps > CLOTH_MAX_WORK) {
        CG_ERROR("cloth: --steps %d x --iterations %d is above %d iterations per run: lower one of them",
                 c->steps, c->iters, CLOTH_MAX_WORK);
        return CG_E_USAGE;
    }
    if ((double)c->iters * c->steps * c->cloths > CLOTH_MAX_LAUNCHES) {
        CG_ERROR(
            "cloth: --steps %d x --iterations %d x --cloths %d is above %d (the per-cloth rung's launches): "
            "lower one of them",
            c->steps, c->iters, c->cloths, CLOTH_MAX_LAUNCHES);
        return CG_E_USAGE;
    }
    return check_memory(ctx, c);
}

static cg_status cloth_validate(const cg_ctx *ctx, const cg_run_opts *o)
{
    cloth_opts c;
    return pick_opts(ctx, o, &c);
}

static void cloth_teardown(void *state)
{
    cloth_state *s = state;
    if (!s) return;
    if (s->summary[0]) /* one line for the ladder; CLGAUGE_DEBUG=1 gives each rung's figures */
        CG_INFO(
            "cloth: spring stretch (rms) after %d iterations of the last frame, against the spring-coloured "
            "Gauss-Seidel scheme: %s",
            s->iters, s->summary);
    cl_mem m[] = {s->init_buf, s->init_cm, s->cur[0], s->cur[1],
                  s->prev[0],  s->prev[1], s->tmp,    s->jscale_buf};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (m[i]) clReleaseMemObject(m[i]);
    for (int f = 0; f < CLOTH_ARITHS; f++)
        for (int i = 0; i < S_COUNT; i++)
            cloth_ref_free(&s->ref[f][i]);
    free(s->init);
    free(s->got);
    free(s->scratch);
    free(s->cm);
    free(s->shot);
    free(s);
}

static void set_params(cloth_params *p, int w, int h)
{
    double dt2 = CLOTH_DT * CLOTH_DT;
    p->w = w;
    p->h = h;
    p->rest[0] = (float)CLOTH_SPACING;
    p->rest[1] = (float)(CLOTH_SPACING * sqrt(2.0));
    p->rest[2] = (float)(2 * CLOTH_SPACING);
    p->stiff[0] = 1.0f;
    p->stiff[1] = 0.5f;
    p->stiff[2] = 0.2f;
    p->grav = (float)(CLOTH_GRAVITY * dt2);
    p->damp = (float)CLOTH_DAMPING;
    p->wind[0] = (float)(CLOTH_WIND_X * dt2);
    p->wind[1] = 0.0f;
    p->wind[2] = (float)(CLOTH_WIND_Z * dt2);
    p->newton = 3;
    p->jscale[0] = 0.0f;
    for (int n = 1; n < 16; n++)
        p->jscale[n] = (float)(CLOTH_JACOBI_W / n);
}

/* Each cloth hangs in the x-y plane from its top row (inverse mass 0), rows going down, each particle off
 * the plane by a seeded jitter of up to 1% of the spacing (the cloths differ only in it). */
static void make_init(cloth_state *s, uint64_t seed)
{
    cg_rng rng;
    cg_rng_init(&rng, seed);
    int W = s->prm.w, H = s->prm.h;
    for (size_t c = 0; c < (size_t)s->cloths; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float *q = s->init + 4 * (c * s->n + (size_t)y * W + x);
                q[0] = (float)((x - (W - 1) / 2.0) * CLOTH_SPACING);
                q[1] = (float)(-y * CLOTH_SPACING);
                q[2] = (float)((cg_rng_float(&rng) - 0.5) * 0.01 * CLOTH_SPACING);
                q[3] = y == 0 ? 0.0f : 1.0f;
            }
}

size_t cloth_cm_slots(int w, int h)
{
    return 5 * (((size_t)w + 4) / 5) * (size_t)h;
}

/* Particle (x, y)'s slot in a colour-major cloth of w x h (cloth.cl's IDX with -DCM). */
static size_t cm_index(int w, int h, int x, int y)
{
    size_t p5 = ((size_t)w + 4) / 5;
    return (size_t)((x + 2 * y) % 5) * p5 * (size_t)h + (size_t)y * p5 + (size_t)x / 5;
}

/* cloth.h: every cloth's state between the row-major layout and the colour-major one. */
void cloth_cm_convert(const cloth_state *s, float *row, float *cm, bool to_cm)
{
    int W = s->prm.w, H = s->prm.h;
    size_t per = cloth_cm_slots(W, H);
    for (size_t c = 0; c < (size_t)s->cloths; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float *r = row + 4 * (c * s->n + (size_t)y * W + x),
                      *m = cm + 4 * (c * per + cm_index(W, H, x, y));
                memcpy(to_cm ? m : r, to_cm ? r : m, 4 * sizeof(float));
            }
}

static cg_status make_buffers(cg_ctx *ctx, cloth_state *s)
{
    cg_status st = CG_OK;
    size_t bytes = s->slots * 4 * sizeof(float), in = s->total * 4 * sizeof(float);
    memset(s->cm, 0, bytes);
    cloth_cm_convert(s, s->init, s->cm, true);
    CG_TRY_BUF(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in, s->init, CG_BUF_INPUT, &s->init_buf);
    CG_TRY_BUF(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, s->cm, CG_BUF_INPUT, &s->init_cm);
    CG_TRY_BUF(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof s->prm.jscale, s->prm.jscale,
               CG_BUF_INPUT, &s->jscale_buf);
    for (int d = 0; d < 2; d++) {
        CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, bytes, NULL, CG_BUF_WRITTEN, &s->cur[d]);
        CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, bytes, NULL, CG_BUF_WRITTEN, &s->prev[d]);
    }
    CG_TRY_BUF(ctx, CL_MEM_READ_WRITE, bytes, NULL, CG_BUF_WRITTEN, &s->tmp);
out:
    return st;
}

static cg_status cloth_setup(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len)
{
    cg_status st = CG_OK;
    cloth_opts c;
    cloth_state *s = calloc(1, sizeof *s);
    CG_FAIL_IF(!s, CG_E_RUNTIME, "cloth: out of host memory");
    if ((st = pick_opts(ctx, o, &c)) != CG_OK) goto out;
    if (o->size.dims) CG_WARN("cloth: --size is not the cloth's size and is ignored: use --grid WxH");
    set_params(&s->prm, c.w, c.h);
    s->iters = c.iters;
    s->steps = c.steps;
    s->cloths = c.cloths;
    s->n = (size_t)c.w * (size_t)c.h;
    s->total = s->n * (size_t)c.cloths;
    s->slots = cloth_cm_slots(c.w, c.h) * (size_t)c.cloths; /* at least total */
    s->nsprings = cloth_spring_total(c.w, c.h) * (size_t)c.cloths;
    s->max_wg = ctx->dev->max_wg ? ctx->dev->max_wg : 1;
    s->runs = o->runs;
    if (o->output) {
        s->shot = malloc(s->n * 4 * sizeof(float));
        CG_FAIL_IF(!s->shot, CG_E_RUNTIME, "cloth: out of host memory for the --output picture");
    }
    s->init = malloc(s->total * 4 * sizeof(float));
    s->got = malloc(s->total * 4 * sizeof(float));
    s->scratch = malloc(s->total * 16 * sizeof(float));
    s->cm = malloc(s->slots * 4 * sizeof(float));
    CG_FAIL_IF(!s->init || !s->got || !s->scratch || !s->cm, CG_E_RUNTIME,
               "cloth: out of host memory for %zu particles", s->total);
    make_init(s, o->seed);
    if ((st = make_buffers(ctx, s)) != CG_OK) goto out;
    int k = snprintf(size_desc, len, "%dx%d particles", c.w, c.h);
    if (k > 0 && (size_t)k < len && c.cloths > 1)
        k += snprintf(size_desc + k, len - (size_t)k, " x %d", c.cloths);
    if (k > 0 && (size_t)k < len)
        snprintf(size_desc + k, len - (size_t)k, ", %d frames x %d iterations", c.steps, c.iters);
out:
    if (st != CG_OK) {
        cloth_teardown(s);
        s = NULL;
    }
    *state = s;
    return st;
}

/* Per frame: the integration reads cur and prev and writes both (4 x 16 B per particle; 3 x 16 B for
 * -DNOPREV, which writes the next state only), each iteration reads and writes every particle once (2 x 16
 * B): the traffic of a perfect cache. Items: springs relaxed. */
static void cloth_model(const void *state, const cg_rung *r, cg_model *m)
{
    const cloth_state *s = state;
    bool noprev = cloth_rung_noprev(r);
    double n = (double)s->total, frames = s->steps, iters = s->iters;
    m->bytes = frames * n * ((noprev ? 48.0 : 64.0) + iters * 32.0);
    m->items = frames * iters * (double)s->nsprings;
    m->flops = m->items * CLOTH_FLOPS;
    m->item_unit = "spring";
    m->bytes_note =
        noprev ? "R+W: per frame 48 B/particle (integration: 2 states in, 1 out), per iteration 32 "
                 "B/particle (float4 in, out)"
               : "R+W: per frame 64 B/particle (integration), per iteration 32 B/particle (float4 in, out)";
    m->ceiling = CG_CEIL_COPY;
}

int cloth_rung_jk(const cg_rung *r)
{
    return cg_rung_option_int(r, "-DJK=");
}

int cloth_rung_arith(const cg_rung *r)
{
    return (cg_rung_has_option(r, "-DFMA") ? CLOTH_A_FMA : 0) |
           (cg_rung_has_option(r, "-DRSQ2") ? CLOTH_A_RSQ2 : 0);
}

bool cloth_rung_cm(const cg_rung *r)
{
    return cg_rung_has_option(r, "-DCM");
}

bool cloth_rung_noprev(const cg_rung *r)
{
    return cg_rung_has_option(r, "-DNOPREV");
}

int cloth_rung_pr(const cg_rung *r)
{
    int n = cg_rung_option_int(r, "-DPR=");
    return n > 1 ? n : 1;
}

/* The tile rungs' tile, their work-group: -DTX=16 -DTY=16 (cloth_jtile's -DJK comes with the row);
 * cloth_jonce's group and strip: -DTX=128 -DSR=16; a -DGRID rung's grid: -DGW=1024 -DGH=1024. */
static void cloth_options(const void *state, const cg_rung *r, char *buf, size_t len)
{
    size_t wg[2];
    int rows;
    const cloth_state *s = state;
    cloth_rung_wg(state, r, wg, &rows);
    if (rows > 0)
        snprintf(buf, len, "-DTX=%zu -DSR=%d", wg[0], rows);
    else if (r->p[P_SCHEME] == S_TILE || cloth_rung_jk(r) > 0)
        snprintf(buf, len, "-DTX=%zu -DTY=%zu", wg[0], wg[1]);
    else if (cg_rung_has_option(r, "-DGRID"))
        snprintf(buf, len, "-DGW=%d -DGH=%d", s->prm.w, s->prm.h);
}

/* cloth_jonce's local memory at its group's width (the tile rungs' is in the rung table). */
static size_t cloth_local_need(const void *state, const cg_rung *r)
{
    size_t wg[2];
    int rows;
    cloth_rung_wg(state, r, wg, &rows);
    return rows > 0 ? cloth_once_local(wg[0]) : 0;
}

/* --output: the first cloth after the last verified run of the last deterministic rung that passed (of
 * single, the racing one, when no deterministic rung passed), drawn by cloth_draw. */
static cg_status cloth_save_output(cg_ctx *ctx, void *state, const char *path)
{
    (void)ctx;
    const cloth_state *s = state;
    if (!s->shot_taken) {
        CG_ERROR("cannot write %s: no cloth rung produced a verified state", path);
        return CG_E_IO;
    }
    uint8_t *pix = malloc((size_t)CLOTH_PICTURE_W * CLOTH_PICTURE_H);
    cg_status st =
        pix ? cloth_draw(s->shot, s->prm.w, s->prm.h, pix, CLOTH_PICTURE_W, CLOTH_PICTURE_H) : CG_E_RUNTIME;
    if (st == CG_OK) {
        CG_DEBUG("cloth: --output draws rung %s's first cloth", s->shot_rung);
        st = cg_png_write_grey(path, pix, CLOTH_PICTURE_W, CLOTH_PICTURE_H);
    } else {
        CG_ERROR("cannot write %s: out of host memory for the picture", path);
        st = CG_E_IO;
    }
    free(pix);
    return st;
}

/* The CPU-order reference timed on this thread: run up to --runs times, until CLOTH_CPU_S seconds have passed
 * (at least once); its median. 0 when out of memory; *stretch gets its final state's residual. */
static double cpu_order_median(const cloth_state *s, int *runs, cloth_resid *stretch)
{
    double *t = malloc((size_t)s->runs * sizeof *t), sum = 0;
    float *pos = malloc(s->total * 4 * sizeof *pos);
    int k = 0;
    while (t && pos && k < s->runs && (k == 0 || sum < CLOTH_CPU_S) &&
           cloth_cpu_order_run(s, pos, &t[k]) == CG_OK)
        sum += t[k++];
    cg_stats st = {0};
    if (k) cg_stats_compute(t, (size_t)k, &st);
    if (k) *stretch = cloth_residual(&s->prm, pos, s->cloths);
    free(t);
    free(pos);
    *runs = k;
    return st.median;
}

/* sec as "1.37 ms" (s, ms or us, 3 digits). */
static const char *fmt_time(double sec, char *buf, size_t len)
{
    const char *unit = sec >= 1 ? "s" : sec >= 1e-3 ? "ms" : "us";
    snprintf(buf, len, "%.3g %s", sec >= 1 ? sec : sec >= 1e-3 ? sec * 1e3 : sec * 1e6, unit);
    return buf;
}

/* One line for the ladder: the CPU-order reference's time and rate on this machine's host, against the
 * fastest rung that passed (the goal: at least 50x). */
static void cloth_summarize(void *state, const cg_result *rows, size_t n)
{
    const cloth_state *s = state;
    const cg_result *best = NULL;
    for (size_t i = 0; i < n; i++)
        if (rows[i].status == CG_RUNG_OK && rows[i].t_median > 0 &&
            (!best || rows[i].t_median < best->t_median))
            best = &rows[i];
    int runs = 0;
    cloth_resid res = {0, 0};
    double t = cpu_order_median(s, &runs, &res), pit = (double)s->steps * s->iters * (double)s->total;
    if (!(t > 0)) {
        CG_WARN("cloth: the CPU-order reference could not run (out of host memory): no CPU figure");
        return;
    }
    char vs[160] = "no rung passed to compare with", a[24], b[24];
    if (best)
        snprintf(vs, sizeof vs, "the fastest rung, %s (%s), is %.3gx as fast", best->rung,
                 fmt_time(best->t_median, a, sizeof a), t / best->t_median);
    CG_INFO(
        "cloth: CPU-order reference (Gauss-Seidel in spring order, one host thread's CPU time, the same %d "
        "frames x %d iterations, integration included): %s (median of %d) = %.3g M particle-it/s; %s",
        s->steps, s->iters, fmt_time(t, b, sizeof b), runs, pit / t * 1e-6, vs);
    const cloth_ref *col = &s->ref[0][S_COLOUR];
    char cmp[80] = "";
    if (col->pos)
        snprintf(cmp, sizeof cmp, " (spring-coloured Gauss-Seidel: rms %.4g)", col->last[s->iters].rms);
    CG_DEBUG(
        "cloth: CPU-order reference's spring stretch after %d iterations of the last frame: rms %.4g, max "
        "%.3g%s",
        s->iters, res.rms, res.max, cmp);
}

const cg_workload cg_workload_cloth = {
    .name = "cloth",
    .summary =
        "mass-spring cloth (--grid, --iterations, --steps): coloured, merged, racing, Jacobi, tiled batches",
    .size_help = "not used: the cloth's size is --grid WxH (default " CLOTH_DEFAULT_GRID ")",
    .cl_file = "cloth.cl",
    .wopts = wopts,
    .n_wopts = sizeof wopts / sizeof wopts[0],
    .rungs = rungs,
    .n_rungs = sizeof rungs / sizeof rungs[0],
    .tune = spaces,
    .n_tune = sizeof spaces / sizeof spaces[0],
    .setup = cloth_setup,
    .teardown = cloth_teardown,
    .model = cloth_model,
    .options = cloth_options,
    .local_need = cloth_local_need,
    .prepare = cloth_prepare,
    .enqueue = cloth_enqueue,
    .verify = cloth_verify,
    .release = cloth_release,
    .summarize = cloth_summarize,
    .save_output = cloth_save_output,
    .validate = cloth_validate,
};
