/* The cloth rungs' host loops: per frame one integration launch, then per iteration the scheme's launches
 * (12 spring colours, 5 particle colours, one racing batch, one Jacobi sweep, or one launch of tiles),
 * optionally a copy of the positions to the host (the demo's way to draw them); every command's event goes
 * into the run's list, so that the run is timed from the first launch's start to the last command's end.
 * Arguments that change from launch to launch (the buffers of the frame ping-pong, the colour) are set before
 * each enqueue. The last dimension of every launch is the cloth: one launch covers all of them, or (the
 * per-cloth rung) one launch per cloth picks its cloth by that dimension's global offset. */
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "core/log.h"
#include "workloads/cloth/cloth.h"

typedef struct cloth_rung {
    const char *name;
    cloth_scheme scheme;
    bool readback, percloth, verified;
    int arith;   /* cloth_rung_arith: -DFMA, -DRSQ2, as the host replays them */
    bool cm;     /* built with -DCM: its states colour-major, starting from s->init_cm */
    bool noprev; /* built with -DNOPREV: the integration writes the next state only (cloth_enqueue) */
    int jk;      /* cloth_jtile's iterations per launch (0: cloth_jacobi, one per launch) */
    int rows;    /* cloth_jonce's strip: rows a group walks (0: another kernel) */
    int pr;      /* cloth_jacobi's particles a work-item, one above the other (-DPR=n; 1 without) */
    cl_kernel integ, relax;
    size_t wg[2];
    cl_mem result; /* where the last run left the final state */
    cl_mem pre[2]; /* the last frame's integration inputs, current and previous state, as the run left them */
    float *host;   /* the readback rung's per-frame copy */
} cloth_rung;

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

cl_mem cloth_result_buf(const void *rs)
{
    return ((const cloth_rung *)rs)->result;
}

const char *cloth_rung_name(const void *rs)
{
    return ((const cloth_rung *)rs)->name;
}

void cloth_rung_pre(const void *rs, cl_mem pre[2])
{
    pre[0] = ((const cloth_rung *)rs)->pre[0];
    pre[1] = ((const cloth_rung *)rs)->pre[1];
}

cloth_scheme cloth_rung_scheme(const void *rs)
{
    return ((const cloth_rung *)rs)->scheme;
}

int cloth_rung_arith_of(const void *rs)
{
    return ((const cloth_rung *)rs)->arith;
}

bool cloth_rung_cm_of(const void *rs)
{
    return ((const cloth_rung *)rs)->cm;
}

bool cloth_rung_first_verify(void *rs)
{
    cloth_rung *q = rs;
    bool first = !q->verified;
    q->verified = true;
    return first;
}

void cloth_release(void *rs)
{
    cloth_rung *q = rs;
    if (!q) return;
    if (q->integ) clReleaseKernel(q->integ);
    if (q->relax) clReleaseKernel(q->relax);
    free(q->host);
    free(q);
}

static bool is_once(const cg_rung *r)
{
    return r->kernel && !strcmp(r->kernel, CLOTH_ONCE_KERNEL);
}

void cloth_rung_wg(const cloth_state *s, const cg_rung *r, size_t wg[2], int *rows)
{
    size_t wx = r->p[P_WGX] > 0 ? (size_t)r->p[P_WGX] : 64, wy = r->p[P_WGY] > 0 ? (size_t)r->p[P_WGY] : 1;
    if (rows) *rows = is_once(r) ? (int)wy : 0;
    if (is_once(r)) wy = 1;
    while (wx * wy > s->max_wg && wx * wy > 1)
        *(wx >= wy ? &wx : &wy) /= 2;
    wg[0] = wx;
    wg[1] = wy;
}

size_t cloth_once_local(size_t tx)
{
    return 5 * (tx + 1) * 4 * sizeof(float) + 6 * tx * sizeof(float);
}

/* The arguments that stay: grid, rest lengths, stiffness (and Jacobi's scales). */
static cg_status fixed_args(const cloth_state *s, cloth_rung *q)
{
    cg_status st = CG_OK;
    const cloth_params *p = &s->prm;
    cl_int W = p->w, H = p->h;
    cl_float4 wind = {{p->wind[0], p->wind[1], p->wind[2], 0.0f}};
    cl_float4 rest = {{p->rest[0], p->rest[1], p->rest[2], 0.0f}};
    cl_float4 stiff = {{p->stiff[0], p->stiff[1], p->stiff[2], 0.0f}};
    CG_TRY(clSetKernelArg(q->integ, 4, sizeof W, &W));
    CG_TRY(clSetKernelArg(q->integ, 5, sizeof H, &H));
    CG_TRY(clSetKernelArg(q->integ, 6, sizeof wind, &wind));
    CG_TRY(clSetKernelArg(q->integ, 7, sizeof p->grav, &p->grav));
    CG_TRY(clSetKernelArg(q->integ, 8, sizeof p->damp, &p->damp));
    if (q->scheme == S_COLOUR) {
        CG_TRY(clSetKernelArg(q->relax, 1, sizeof W, &W));
        CG_TRY(clSetKernelArg(q->relax, 2, sizeof H, &H));
    } else if (q->scheme == S_JACOBI || q->scheme == S_TILE) {
        CG_TRY(clSetKernelArg(q->relax, 2, sizeof W, &W));
        CG_TRY(clSetKernelArg(q->relax, 3, sizeof H, &H));
        CG_TRY(clSetKernelArg(q->relax, 4, sizeof rest, &rest));
        CG_TRY(clSetKernelArg(q->relax, 5, sizeof stiff, &stiff));
        if (q->scheme == S_JACOBI) CG_TRY(clSetKernelArg(q->relax, 6, sizeof s->jscale_buf, &s->jscale_buf));
    } else {
        CG_TRY(clSetKernelArg(q->relax, 1, sizeof W, &W));
        CG_TRY(clSetKernelArg(q->relax, 2, sizeof H, &H));
        CG_TRY(clSetKernelArg(q->relax, 4, sizeof rest, &rest));
        CG_TRY(clSetKernelArg(q->relax, 5, sizeof stiff, &stiff));
    }
out:
    return st;
}

cg_status cloth_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs)
{
    cg_status st = CG_OK;
    cloth_state *s = state;
    (void)ctx;
    cloth_rung *q = calloc(1, sizeof *q);
    CG_FAIL_IF(!q, CG_E_RUNTIME, "cloth: out of host memory");
    q->name = r->name;
    q->scheme = (cloth_scheme)r->p[P_SCHEME];
    q->readback = r->p[P_READBACK] != 0;
    q->percloth = r->p[P_PERCLOTH] != 0;
    q->jk = cloth_rung_jk(r);
    q->arith = cloth_rung_arith(r);
    q->cm = cloth_rung_cm(r);
    q->noprev = cloth_rung_noprev(r);
    q->pr = cloth_rung_pr(r);
    cloth_rung_wg(s, r, q->wg, &q->rows);
    CG_FAIL_IF(q->rows > 0 && q->wg[0] < 4, CG_E_RUNTIME,
               "cloth:%s: needs work-groups of at least 4, this device's largest is %zu", r->name, s->max_wg);
    if (q->scheme == S_TILE) {
        s->tile[0] = (int)q->wg[0];
        s->tile[1] = (int)q->wg[1];
    }
    if (q->readback) {
        q->host = malloc(s->total * 4 * sizeof(float));
        CG_FAIL_IF(!q->host, CG_E_RUNTIME, "cloth: out of host memory");
    }
    CG_TRY_OBJ(q->integ, clCreateKernel(prog, "cloth_integrate", CG_ERRP));
    CG_TRY_OBJ(q->relax, clCreateKernel(prog, r->kernel, CG_ERRP));
    st = fixed_args(s, q);
out:
    if (st != CG_OK) {
        cloth_release(q);
        q = NULL;
    }
    *rs = q;
    return st;
}

/* Enqueues k over global (its last dimension: the cloths) in groups of local: once, or for the per-cloth
 * rung once per cloth, that dimension 1 wide at the cloth's offset. Every event goes into ev. */
static cg_status launch(cg_ctx *ctx, cg_events *ev, cl_kernel k, const cloth_rung *q, cl_uint dims,
                        size_t *global, const size_t *local)
{
    size_t n = global[dims - 1], off[3] = {0, 0, 0};
    if (!q->percloth || n == 1) return cg_enqueue_kernel(ctx, ev, k, dims, global, local);
    global[dims - 1] = 1;
    for (off[dims - 1] = 0; off[dims - 1] < n; off[dims - 1]++) {
        cl_event *e = cg_events_next(ev);
        cl_int err = e ? clEnqueueNDRangeKernel(ctx->queue, k, dims, off, global, local, 0, NULL, e)
                       : CL_OUT_OF_HOST_MEMORY;
        if (err != CL_SUCCESS) {
            CG_ERROR("cloth: enqueueing a cloth's launch failed: %s", cg_cl_strerror(err));
            return CG_E_RUNTIME;
        }
    }
    return CG_OK;
}

/* A launch of w x h items per cloth, in groups of the rung's shape. */
static cg_status launch3(cg_ctx *ctx, cg_events *ev, cl_kernel k, const cloth_rung *q, const cloth_state *s,
                         size_t w, size_t h)
{
    size_t global[3] = {round_up(w, q->wg[0]), round_up(h, q->wg[1]), (size_t)s->cloths};
    size_t local[3] = {q->wg[0], q->wg[1], 1};
    return launch(ctx, ev, k, q, 3, global, local);
}

/* The integration from (cur, prev) into (ncur, nprev): a work-item per particle, colour-major rungs' in the
 * store's order (5 x ceil(W / 5)). */
static cg_status integrate(cg_ctx *ctx, const cloth_state *s, cloth_rung *q, const cl_mem io[4],
                           cg_events *ev)
{
    cg_status st = CG_OK;
    size_t w = q->cm ? 5 * (((size_t)s->prm.w + 4) / 5) : (size_t)s->prm.w;
    for (cl_uint a = 0; a < 4; a++)
        CG_TRY(clSetKernelArg(q->integ, a, sizeof io[a], &io[a]));
    st = launch3(ctx, ev, q->integ, q, s, w, (size_t)s->prm.h);
out:
    return st;
}

/* One iteration of the spring-colour scheme: 12 launches (a colour without springs is skipped). */
static cg_status iter_colour(cg_ctx *ctx, const cloth_state *s, cloth_rung *q, cl_mem pos, cg_events *ev)
{
    cg_status st = CG_OK;
    CG_TRY(clSetKernelArg(q->relax, 0, sizeof pos, &pos));
    for (int c = 0; c < CLOTH_COLOURS; c++) {
        size_t na, total = cloth_colour_count(&s->prm, c, &na);
        if (!total) continue;
        cl_int fam = c / 2, par = c % 2, cna = (cl_int)na, ctot = (cl_int)total;
        float L = s->prm.rest[fam / 2], k = s->prm.stiff[fam / 2];
        CG_TRY(clSetKernelArg(q->relax, 3, sizeof fam, &fam));
        CG_TRY(clSetKernelArg(q->relax, 4, sizeof par, &par));
        CG_TRY(clSetKernelArg(q->relax, 5, sizeof cna, &cna));
        CG_TRY(clSetKernelArg(q->relax, 6, sizeof ctot, &ctot));
        CG_TRY(clSetKernelArg(q->relax, 7, sizeof L, &L));
        CG_TRY(clSetKernelArg(q->relax, 8, sizeof k, &k));
        size_t local[2] = {q->wg[0] * q->wg[1], 1},
               global[2] = {round_up(total, local[0]), (size_t)s->cloths};
        if ((st = launch(ctx, ev, q->relax, q, 2, global, local)) != CG_OK) goto out;
    }
out:
    return st;
}

/* One iteration of a per-particle scheme: 5 colour launches, or one launch over every particle. */
static cg_status iter_vertex(cg_ctx *ctx, const cloth_state *s, cloth_rung *q, cl_mem pos, cg_events *ev)
{
    cg_status st = CG_OK;
    size_t W = (size_t)s->prm.w, H = (size_t)s->prm.h;
    CG_TRY(clSetKernelArg(q->relax, 0, sizeof pos, &pos));
    for (cl_int c = q->scheme == S_VERTEX ? 0 : -1; c < (q->scheme == S_VERTEX ? CLOTH_VCOLOURS : 0); c++) {
        CG_TRY(clSetKernelArg(q->relax, 3, sizeof c, &c));
        if ((st = launch3(ctx, ev, q->relax, q, s, c < 0 ? W : (W + 4) / 5, H)) != CG_OK) goto out;
    }
out:
    return st;
}

/* One Jacobi launch from src into dst: one sweep, or with cloth_jtile `iters` (at most jk) sweeps. */
static cg_status iter_jacobi(cg_ctx *ctx, const cloth_state *s, cloth_rung *q, cl_mem src, cl_mem dst,
                             cl_int iters, cg_events *ev)
{
    cg_status st = CG_OK;
    CG_TRY(clSetKernelArg(q->relax, 0, sizeof src, &src));
    CG_TRY(clSetKernelArg(q->relax, 1, sizeof dst, &dst));
    if (q->jk > 0) CG_TRY(clSetKernelArg(q->relax, 7, sizeof iters, &iters));
    if (q->rows > 0) { /* cloth_jonce: groups of wg[0] for wg[0] - 3 columns, each over a strip of rows */
        size_t groups = ((size_t)s->prm.w + q->wg[0] - 4) / (q->wg[0] - 3);
        size_t strips = ((size_t)s->prm.h + (size_t)q->rows - 1) / (size_t)q->rows;
        size_t global[3] = {groups * q->wg[0], strips, (size_t)s->cloths}, local[3] = {q->wg[0], 1, 1};
        st = launch(ctx, ev, q->relax, q, 3, global, local);
    } else {
        st = launch3(ctx, ev, q->relax, q, s, (size_t)s->prm.w,
                     ((size_t)s->prm.h + (size_t)q->pr - 1) / (size_t)q->pr);
    }
out:
    return st;
}

/* One frame: integrate io = (cur, prev, ncur, nprev), relax in ncur with `other` as the Jacobi iterate's
 * second buffer; *relaxed gets the buffer that holds the relaxed state (ncur or other). */
static cg_status frame(cg_ctx *ctx, cloth_state *s, cloth_rung *q, const cl_mem io[4], cl_mem other,
                       cl_mem *relaxed, cg_events *ev)
{
    cg_events_stage(ev, "integrate"); /* the JSON's stages_s, summed over the frames */
    cg_status st = integrate(ctx, s, q, io, ev);
    cl_mem pos = io[2];
    cg_events_stage(ev, "relax");
    for (int k = 0; k < s->iters && st == CG_OK; k++) {
        if (q->scheme == S_COLOUR) {
            st = iter_colour(ctx, s, q, pos, ev);
        } else if (q->scheme == S_JACOBI || q->scheme == S_TILE) {
            cl_int n = q->jk > 0 && s->iters - k > q->jk ? q->jk : q->jk > 0 ? s->iters - k : 1;
            st = iter_jacobi(ctx, s, q, pos, other, n, ev);
            k += n - 1;
            cl_mem t = pos;
            pos = other;
            other = t;
        } else {
            st = iter_vertex(ctx, s, q, pos, ev);
        }
    }
    *relaxed = pos;
    if (st == CG_OK && q->readback) {
        cg_events_stage(ev, "readback");
        cl_event *e = cg_events_next(ev);
        if (!e) return CG_E_RUNTIME;
        cl_int err = clEnqueueReadBuffer(ctx->queue, pos, CL_FALSE, 0, s->total * 4 * sizeof(float), q->host,
                                         0, NULL, e);
        if (err != CL_SUCCESS) {
            CG_ERROR("cloth: reading the positions back failed: %s", cg_cl_strerror(err));
            st = CG_E_RUNTIME;
        }
    }
    return st;
}

/* A state buffer that is none of a, b, c (five for at most three in use). */
static cl_mem spare(const cloth_state *s, cl_mem a, cl_mem b, cl_mem c)
{
    const cl_mem pool[5] = {s->cur[0], s->cur[1], s->prev[0], s->prev[1], s->tmp};
    for (int k = 0; k < 5; k++)
        if (pool[k] != a && pool[k] != b && pool[k] != c) return pool[k];
    return NULL;
}

/* S frames from the initial state (frame 0 reads it as both cur and prev). Frame f integrates into set
 * f % 2, writing the current state's copy as the next previous one; with Jacobi the relaxed state may sit in
 * tmp, from where the next frame's integration reads it. A -DNOPREV rung's integration writes no copy: the
 * next frame reads the current state's own buffer as its previous one, so the integration writes, and the
 * relaxation works in, two buffers that are neither of its inputs. Either way the last frame's inputs
 * survive the run (q->pre: the checks integrate them again). */
cg_status cloth_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev)
{
    cloth_state *s = state;
    cloth_rung *q = rs;
    cg_status st = CG_OK;
    cl_mem cur = q->cm ? s->init_cm : s->init_buf, prev = cur;
    for (int f = 0; f < s->steps && st == CG_OK; f++) {
        cl_mem io[4] = {cur, prev, s->cur[f % 2], s->prev[f % 2]}, other = s->tmp;
        if (q->noprev) {
            io[2] = io[3] = spare(s, cur, prev, NULL);
            other = spare(s, cur, prev, io[2]);
        }
        q->pre[0] = q->noprev ? cur : io[3];
        q->pre[1] = prev;
        st = frame(ctx, s, q, io, other, &cur, ev);
        prev = q->pre[0];
    }
    q->result = cur;
    return st;
}
