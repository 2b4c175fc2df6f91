/* The lcs workload's launches: what each plan (lcs.h) needs of the device, its kernels and their arguments,
 * and the commands of one run. The diagonal plans launch once per anti-diagonal of cells, the tile plans once
 * per anti-diagonal of tiles (the host loop is the wavefront: the in-order queue orders the launches), the
 * bit-parallel plans build a's match masks and then sweep b in one launch; the reference plan is one native
 * kernel that runs the pthreads DP on the host, so that the same profiling counters time it. */
#include <stdio.h>
#include <stdlib.h>
#include "core/clerr.h"
#include "core/log.h"
#include "workloads/lcs/lcs.h"

typedef struct lcs_rung {
    const cg_rung *r;
    int plan;
    size_t wg, tile, vec; /* vec: cells per work-item of the padded plans (1 or 4) */
    size_t rpi;           /* rows per work-item of the tiled plan */
    int wbits;
    cl_kernel k, zero, take, masks, sum;
    size_t groups, chunks; /* grid plan: work-groups, and 32-row chunks of carries each hands on */
    cl_mem carry, ticket, part;
} lcs_rung;

static size_t min_sz(size_t a, size_t b)
{
    return a < b ? a : b;
}

static size_t round_up(size_t x, size_t g)
{
    return (x + g - 1) / g * g;
}

/* The grid plan's work-groups of wg words of wbits bits and its chunks of 32 rows (8 bytes of carries each).
 */
static void grid_shape(const lcs_state *s, size_t wg, int wbits, size_t *groups, size_t *chunks)
{
    size_t nw = (s->n + (size_t)wbits - 1) / (size_t)wbits;
    *groups = (nw + wg - 1) / wg;
    *chunks = (s->m + 31) / 32;
}

bool lcs_unsupported(const void *state, const cg_rung *r, char *why, size_t len)
{
    const lcs_state *s = state;
    int plan = r->p[P_PLAN];
    bool bitpar = plan == PLAN_BITPAR || plan == PLAN_BITPAR_WG || plan == PLAN_BITPAR_GRID;
    if (s->pairs > 1 && !bitpar) {
        snprintf(why, len, "solves one pair of strings: only the bit-parallel rungs take --pairs above 1");
        return true;
    }
    if (s->trace && !bitpar) {
        snprintf(why, len, "keeps no rows to walk back: only the bit-parallel rungs take --traceback");
        return true;
    }
    if (r->p[P_PLAN] == PLAN_BITPAR_GRID) {
        size_t groups, chunks;
        grid_shape(s, cg_rung_pow2_wg(r->p[P_WG], 32, s->max_wg), r->p[P_WBITS] == 64 ? 64 : 32, &groups,
                   &chunks);
        double bytes = (double)groups * (double)chunks * 8.0 * (double)s->pairs;
        if (bytes > (double)s->max_alloc || bytes / 4 > 4294967295.0) {
            snprintf(why, len,
                     "the carries handed between groups need %.3g GiB, more than one allocation (%.3g GiB)",
                     bytes / 1073741824.0, (double)s->max_alloc / 1073741824.0);
            return true;
        }
    }
    if (r->p[P_PLAN] == PLAN_NAIVE && !s->full) {
        snprintf(why, len,
                 "the row-major (n+1) x (m+1) matrix needs %.3g GiB, more than one allocation (%.3g GiB) or "
                 "a quarter of global memory",
                 (double)(s->n + 1) * (double)(s->m + 1) * 4.0 / 1073741824.0,
                 (double)s->max_alloc / 1073741824.0);
        return true;
    }
    if (r->p[P_PLAN] == PLAN_REF && !s->native) {
        snprintf(why, len,
                 "the device runs no native kernels: the pthreads reference runs on CPU devices only");
        return true;
    }
    if (r->p[P_PLAN] == PLAN_TILED && (size_t)r->p[P_WG] > s->max_wg) {
        snprintf(why, len, "needs work-groups of %d, the device allows %zu", r->p[P_WG], s->max_wg);
        return true;
    }
    return false;
}

int lcs_rung_plan(const void *rs)
{
    return ((const lcs_rung *)rs)->plan;
}

int lcs_rung_wbits(const void *rs)
{
    return ((const lcs_rung *)rs)->wbits;
}

void lcs_release(void *rs)
{
    lcs_rung *q = rs;
    if (!q) return;
    if (q->k) clReleaseKernel(q->k);
    if (q->zero) clReleaseKernel(q->zero);
    if (q->take) clReleaseKernel(q->take);
    if (q->masks) clReleaseKernel(q->masks);
    if (q->sum) clReleaseKernel(q->sum);
    cl_mem bufs[] = {q->carry, q->ticket, q->part};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i]) clReleaseMemObject(bufs[i]);
    free(q);
}

/* The bit-parallel kernels' last two arguments, at `at`: the rows buffer (with --traceback; else any buffer,
 * never written) and whether to keep the rows. */
static cg_status set_trace_args(const lcs_state *s, cl_kernel k, cl_uint at)
{
    cg_status st = CG_OK;
    cl_int trace = s->trace;
    CG_TRY(clSetKernelArg(k, at, sizeof(cl_mem), s->trace ? &s->rows : &s->bits));
    CG_TRY(clSetKernelArg(k, at + 1, sizeof trace, &trace));
out:
    return st;
}

/* The grid plan's buffers (carries, ticket, the groups' parts) and the arguments after b and masks. */
static cg_status set_grid_args(const lcs_state *s, lcs_rung *q, cl_int n, cl_int m, cl_int nw)
{
    cg_status st = CG_OK;
    cl_int ng, bstride = (cl_int)s->m_pad, alphabet = s->alphabet;
    cl_kernel k = q->k;
    grid_shape(s, q->wg, q->wbits, &q->groups, &q->chunks);
    ng = (cl_int)q->groups;
    CG_TRY(clSetKernelArg(k, 2, sizeof n, &n));
    CG_TRY(clSetKernelArg(k, 3, sizeof m, &m));
    CG_TRY(clSetKernelArg(k, 4, sizeof nw, &nw));
    CG_TRY(clSetKernelArg(k, 5, sizeof(cl_mem), &q->carry));
    CG_TRY(clSetKernelArg(k, 6, sizeof(cl_mem), &q->ticket));
    CG_TRY(clSetKernelArg(k, 7, sizeof(cl_mem), &q->part));
    CG_TRY(clSetKernelArg(k, 8, sizeof bstride, &bstride));
    CG_TRY(clSetKernelArg(k, 9, sizeof alphabet, &alphabet));
    CG_TRY_ST(set_trace_args(s, k, 10));
    CG_TRY(clSetKernelArg(q->sum, 0, sizeof(cl_mem), &q->part));
    CG_TRY(clSetKernelArg(q->sum, 1, sizeof ng, &ng));
    CG_TRY(clSetKernelArg(q->sum, 2, sizeof(cl_mem), &s->score));
out:
    return st;
}

/* The mask kernel's and the bit-parallel sweep's arguments. */
static cg_status set_bitpar_args(const lcs_state *s, lcs_rung *q, cl_int n, cl_int m, cl_int nw)
{
    cg_status st = CG_OK;
    cl_int astride = (cl_int)s->n_pad, bstride = (cl_int)s->m_pad, alphabet = s->alphabet;
    cl_uint last;
    cl_kernel k = q->k;
    CG_TRY(clSetKernelArg(q->masks, 0, sizeof(cl_mem), &s->a8));
    CG_TRY(clSetKernelArg(q->masks, 1, sizeof(cl_mem), &s->masks));
    CG_TRY(clSetKernelArg(q->masks, 2, sizeof n, &n));
    CG_TRY(clSetKernelArg(q->masks, 3, sizeof nw, &nw));
    CG_TRY(clSetKernelArg(q->masks, 4, sizeof astride, &astride));
    CG_TRY(clSetKernelArg(k, 0, sizeof(cl_mem), &s->b8));
    CG_TRY(clSetKernelArg(k, 1, sizeof(cl_mem), &s->masks));
    if (q->plan == PLAN_BITPAR_GRID) return set_grid_args(s, q, n, m, nw);
    CG_TRY(clSetKernelArg(k, 2, sizeof(cl_mem), &s->bits));
    CG_TRY(clSetKernelArg(k, 3, sizeof n, &n));
    CG_TRY(clSetKernelArg(k, 4, sizeof m, &m));
    CG_TRY(clSetKernelArg(k, 5, sizeof nw, &nw));
    if (q->plan == PLAN_BITPAR) {
        CG_TRY(clSetKernelArg(k, 6, sizeof(cl_mem), &s->score));
        last = 6;
    } else {
        cl_int per = (nw + (cl_int)q->wg - 1) / (cl_int)q->wg;
        CG_TRY(clSetKernelArg(k, 6, sizeof per, &per));
        CG_TRY(clSetKernelArg(k, 7, sizeof(cl_mem), &s->score));
        last = 7;
    }
    CG_TRY(clSetKernelArg(k, last + 1, sizeof bstride, &bstride));
    CG_TRY(clSetKernelArg(k, last + 2, sizeof alphabet, &alphabet));
    st = set_trace_args(s, k, last + 3);
out:
    return st;
}

/* The arguments every launch of a plan shares (the per-launch ones are set by the enqueue). */
static cg_status set_static_args(const lcs_state *s, lcs_rung *q)
{
    cg_status st = CG_OK;
    cl_int n = (cl_int)s->n, m = (cl_int)s->m, tc = (cl_int)((s->m + q->tile - 1) / q->tile),
           nw = (cl_int)((s->n + (size_t)q->wbits - 1) / (size_t)q->wbits);
    cl_kernel k = q->k;
    switch (q->plan) {
    case PLAN_NAIVE:
    case PLAN_DIAG3:
    case PLAN_PADDED:
        CG_TRY(clSetKernelArg(k, 0, sizeof(cl_mem), q->plan == PLAN_PADDED ? &s->ap : &s->a8));
        CG_TRY(clSetKernelArg(k, 1, sizeof(cl_mem), q->plan == PLAN_PADDED ? &s->bp : &s->b8));
        if (q->plan != PLAN_NAIVE) break;
        CG_TRY(clSetKernelArg(k, 2, sizeof(cl_mem), &s->full));
        CG_TRY(clSetKernelArg(k, 3, sizeof n, &n));
        CG_TRY(clSetKernelArg(k, 4, sizeof m, &m));
        break;
    case PLAN_TILE_ITEM:
    case PLAN_TILE_SIMD:
    case PLAN_TILED:
        CG_TRY(clSetKernelArg(k, 0, sizeof(cl_mem), q->plan == PLAN_TILE_SIMD ? &s->ap : &s->a8));
        CG_TRY(clSetKernelArg(k, 1, sizeof(cl_mem), q->plan == PLAN_TILE_SIMD ? &s->bp : &s->b8));
        CG_TRY(clSetKernelArg(k, 2, sizeof(cl_mem), &s->H));
        CG_TRY(clSetKernelArg(k, 3, sizeof(cl_mem), &s->V));
        CG_TRY(clSetKernelArg(k, 4, sizeof(cl_mem), &s->K));
        CG_TRY(clSetKernelArg(k, 5, sizeof n, &n));
        CG_TRY(clSetKernelArg(k, 6, sizeof m, &m));
        CG_TRY(clSetKernelArg(k, 7, sizeof tc, &tc));
        CG_TRY(clSetKernelArg(k, 10, sizeof(cl_mem), &s->score));
        break;
    case PLAN_BITPAR:
    case PLAN_BITPAR_WG:
    case PLAN_BITPAR_GRID:
        st = set_bitpar_args(s, q, n, m, nw);
        break;
    }
out:
    return st;
}

/* The grid plan's own scratch: the carries (zeroed before each run by the enqueue), the ticket, the parts. */
static cg_status grid_buffers(cg_ctx *ctx, const lcs_state *s, lcs_rung *q, cl_program prog)
{
    cg_status st = CG_OK;
    size_t groups, chunks;
    grid_shape(s, q->wg, q->wbits, &groups, &chunks);
    CG_TRY_OBJ(q->sum, clCreateKernel(prog, "lcs_sum", CG_ERRP));
    groups *= s->pairs;
    CG_TRY_OBJ(q->carry, clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, groups * chunks * 8, NULL, CG_ERRP));
    CG_TRY_OBJ(q->ticket, clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, 4, NULL, CG_ERRP));
    CG_TRY_OBJ(q->part, clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, groups * 4, NULL, CG_ERRP));
out:
    return st;
}

cg_status lcs_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs)
{
    cg_status st = CG_OK;
    lcs_state *s = state;
    lcs_rung *q = calloc(1, sizeof *q);
    CG_FAIL_IF(!q, CG_E_RUNTIME, "lcs: out of host memory");
    q->r = r;
    q->plan = r->p[P_PLAN];
    q->wg = cg_rung_pow2_wg(r->p[P_WG], 256, s->max_wg);
    q->tile = r->p[P_TILE] > 0 ? (size_t)r->p[P_TILE] : 64;
    q->vec = q->plan == PLAN_PADDED && r->p[P_TILE] == 4 ? 4 : 1;
    q->wbits = r->p[P_WBITS] == 64 ? 64 : 32;
    q->rpi = r->p[P_RPI] > 1 ? (size_t)r->p[P_RPI] : 1;
    if (q->plan != PLAN_REF) {
        CG_TRY_OBJ(q->k, clCreateKernel(prog, r->kernel, CG_ERRP));
        CG_TRY_OBJ(q->zero, clCreateKernel(prog, "lcs_zero", CG_ERRP));
        CG_TRY_OBJ(q->take, clCreateKernel(prog, "lcs_take", CG_ERRP));
        CG_TRY_OBJ(q->masks, clCreateKernel(prog, "lcs_masks", CG_ERRP));
        CG_TRY(clSetKernelArg(q->take, 2, sizeof(cl_mem), &s->score));
        if (q->plan == PLAN_BITPAR_GRID) CG_TRY_ST(grid_buffers(ctx, s, q, prog));
        st = set_static_args(s, q);
    }
out:
    if (st != CG_OK) {
        lcs_release(q);
        q = NULL;
    }
    *rs = q;
    return st;
}

/* ---- one run's commands -------------------------------------------------------------------------------- */

static cg_status launch(cg_ctx *ctx, cg_events *ev, cl_kernel k, size_t global, size_t local)
{
    return cg_enqueue_kernel(ctx, ev, k, 1, &global, local ? &local : NULL);
}

static cg_status zero(cg_ctx *ctx, cg_events *ev, lcs_rung *q, cl_mem buf, size_t ints)
{
    cg_status st = CG_OK;
    cl_uint n = (cl_uint)ints;
    CG_TRY(clSetKernelArg(q->zero, 0, sizeof buf, &buf));
    CG_TRY(clSetKernelArg(q->zero, 1, sizeof n, &n));
    st = launch(ctx, ev, q->zero, round_up(ints, 256), 256);
out:
    return st;
}

static cg_status take(cg_ctx *ctx, cg_events *ev, lcs_rung *q, cl_mem src, size_t at)
{
    cg_status st = CG_OK;
    cl_ulong a = at;
    CG_TRY(clSetKernelArg(q->take, 0, sizeof src, &src));
    CG_TRY(clSetKernelArg(q->take, 1, sizeof a, &a));
    st = launch(ctx, ev, q->take, 1, 1);
out:
    return st;
}

/* naive and diag3: every cell of diagonal d, borders included; the padded plans: a whole number of groups of
 * G = wg x vec cells over the inner cells of d, from zeroed diagonals. */
static cg_status enqueue_diagonals(cg_ctx *ctx, lcs_state *s, lcs_rung *q, cg_events *ev)
{
    cg_status st = CG_OK;
    bool padded = q->plan == PLAN_PADDED, naive = q->plan == PLAN_NAIVE;
    size_t diag_len = s->n + 2 * LCS_PAD + 1, g = q->wg * q->vec;
    for (int k = 0; k < 3 && padded; k++)
        CG_TRY_ST(zero(ctx, ev, q, s->diag[k], diag_len));
    for (size_t d = padded ? 2 : 0; d <= s->n + s->m; d++) {
        size_t lo = d > s->m ? d - s->m : 0, hi = min_sz(s->n, d), items;
        cl_int dd = (cl_int)d, i0, count;
        if (padded) {
            lo = lo ? lo : 1, hi = min_sz(s->n, d - 1);
            i0 = (cl_int)(lo / g * g), items = round_up(hi - (size_t)i0 + 1, g) / q->vec;
        } else {
            i0 = (cl_int)lo, count = (cl_int)(hi - lo + 1), items = round_up(hi - lo + 1, q->wg);
        }
        const cl_uint at = 5; /* d, i0 (and count) are arguments 5, 6 (and 7) of every diagonal kernel */
        if (!naive) {
            CG_TRY(clSetKernelArg(q->k, 2, sizeof(cl_mem), &s->diag[d % 3]));
            CG_TRY(clSetKernelArg(q->k, 3, sizeof(cl_mem), &s->diag[(d + 2) % 3]));
            CG_TRY(clSetKernelArg(q->k, 4, sizeof(cl_mem), &s->diag[(d + 1) % 3]));
        }
        CG_TRY(clSetKernelArg(q->k, at, sizeof dd, &dd));
        CG_TRY(clSetKernelArg(q->k, at + 1, sizeof i0, &i0));
        if (!padded) CG_TRY(clSetKernelArg(q->k, at + 2, sizeof count, &count));
        CG_TRY_ST(launch(ctx, ev, q->k, items, q->wg));
    }
    if (naive)
        st = take(ctx, ev, q, s->full, s->n * (s->m + 1) + s->m);
    else
        st = take(ctx, ev, q, s->diag[(s->n + s->m) % 3], s->n + LCS_PAD);
out:
    return st;
}

/* Both tile plans: the borders zeroed, then one launch per diagonal D of tiles. */
static cg_status enqueue_tiles(cg_ctx *ctx, lcs_state *s, lcs_rung *q, cg_events *ev)
{
    cg_status st = CG_OK;
    size_t t = q->tile, rows = q->plan == PLAN_TILE_SIMD ? LCS_SIMD_ROWS
                               : q->plan == PLAN_TILED   ? q->wg * q->rpi
                                                         : t;
    size_t tr = (s->n + rows - 1) / rows, tc = (s->m + t - 1) / t;
    CG_TRY_ST(zero(ctx, ev, q, s->H, tc * t + 1));
    CG_TRY_ST(zero(ctx, ev, q, s->V, tr * rows + 1));
    CG_TRY_ST(zero(ctx, ev, q, s->K, tr + tc + 1));
    for (size_t D = 0; D + 1 < tr + tc; D++) {
        size_t ti0 = D + 1 > tc ? D + 1 - tc : 0, ti1 = min_sz(tr - 1, D);
        cl_int dd = (cl_int)D, t0 = (cl_int)ti0;
        CG_TRY(clSetKernelArg(q->k, 8, sizeof dd, &dd));
        CG_TRY(clSetKernelArg(q->k, 9, sizeof t0, &t0));
        if (q->plan == PLAN_TILED)
            CG_TRY_ST(launch(ctx, ev, q->k, (ti1 - ti0 + 1) * q->wg, q->wg));
        else
            CG_TRY_ST(launch(ctx, ev, q->k, ti1 - ti0 + 1, 0));
    }
out:
    return st;
}

static cg_status enqueue_bitpar(cg_ctx *ctx, lcs_state *s, lcs_rung *q, cg_events *ev)
{
    cg_status st = CG_OK;
    size_t nw = (s->n + (size_t)q->wbits - 1) / (size_t)q->wbits;
    size_t global[3] = {round_up(nw, 64), (size_t)s->alphabet, s->pairs}, local[3] = {64, 1, 1}, p = s->pairs;
    CG_TRY_ST(cg_enqueue_kernel(ctx, ev, q->masks, 3, global, local));
    if (q->plan == PLAN_BITPAR_GRID) {
        CG_TRY_ST(zero(ctx, ev, q, q->carry, q->groups * p * q->chunks * 2));
        CG_TRY_ST(zero(ctx, ev, q, q->ticket, 1));
        CG_TRY_ST(launch(ctx, ev, q->k, q->groups * p * q->wg, q->wg));
        st = launch(ctx, ev, q->sum, p * q->wg, q->wg);
        goto out;
    }
    st = launch(ctx, ev, q->k, q->plan == PLAN_BITPAR ? p : p * q->wg, q->plan == PLAN_BITPAR ? 1 : q->wg);
out:
    return st;
}

typedef struct native_args {
    lcs_state *s;
    bool tiles; /* lcs_ref_tiles, else lcs_ref_threads */
} native_args;

/* Runs on the device's (host) thread: one of the pthreads DPs, its answer kept for the check. */
static void CL_CALLBACK run_reference(void *args)
{
    native_args *na = args;
    lcs_state *s = na->s;
    int64_t r = na->tiles ? lcs_ref_tiles(s->a, s->n, s->b, s->m, s->ref_threads)
                          : lcs_ref_threads(s->a, s->n, s->b, s->m, s->ref_threads);
    s->host_score = r < 0 ? -2 : (int)r;
}

cg_status lcs_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev)
{
    cg_status st = CG_OK;
    lcs_state *s = state;
    lcs_rung *q = rs;
    switch (q->plan) {
    case PLAN_NAIVE:
    case PLAN_DIAG3:
    case PLAN_PADDED:
        return enqueue_diagonals(ctx, s, q, ev);
    case PLAN_TILE_ITEM:
    case PLAN_TILE_SIMD:
    case PLAN_TILED:
        return enqueue_tiles(ctx, s, q, ev);
    case PLAN_BITPAR:
    case PLAN_BITPAR_WG:
    case PLAN_BITPAR_GRID:
        return enqueue_bitpar(ctx, s, q, ev);
    default: {
        native_args na = {s, q->tile == 1};
        cl_event *e = cg_events_next(ev);
        CG_FAIL_IF(!e, CG_E_RUNTIME, "lcs: out of host memory");
        CG_TRY(clEnqueueNativeKernel(ctx->queue, run_reference, &na, sizeof na, 0, NULL, NULL, 0, NULL, e));
    }
    }
out:
    return st;
}
