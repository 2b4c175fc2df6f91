/* The cloth's checks (cloth_verify): a deterministic rung's state must equal the host's replay of its own
 * scheme bit for bit (cloth_ref.c), every rung's must pass the physical checks (finite, pinned particles
 * unmoved, springs less stretched than before the last frame's relaxation, which is re-integrated here from
 * the inputs the run left), and the non-deterministic rung passes on those alone. The first verified run of a
 * rung also logs its convergence and keeps the state --output draws. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "core/clerr.h"
#include "core/log.h"
#include "workloads/cloth/cloth.h"

/* A device state buffer into dst (4 floats a particle, row-major): read as it is, or for a colour-major rung
 * through s->cm. */
static cg_status read_state(cg_ctx *ctx, cloth_state *s, cl_mem buf, bool cm, float *dst)
{
    cg_status st = CG_OK;
    size_t bytes = (cm ? s->slots : s->total) * 4 * sizeof(float);
    CG_TRY(clEnqueueReadBuffer(ctx->queue, buf, CL_TRUE, 0, bytes, cm ? s->cm : dst, 0, NULL, NULL));
    if (cm) cloth_cm_convert(s, dst, s->cm, false);
out:
    return st;
}

/* The physical checks: finite, pinned particles where they started, and the residual after relaxation below
 * the one the rung's own state had before the last frame's relaxation (pre): the rms lower, the max at most
 * 1% higher. */
static bool physical(const cloth_state *s, const cloth_resid *pre, const cloth_resid *got, cg_check *c)
{
    for (size_t i = 0; i < s->total; i++) {
        const float *g = s->got + 4 * i, *z = s->init + 4 * i;
        bool bad = !isfinite(g[0]) || !isfinite(g[1]) || !isfinite(g[2]) || g[3] != z[3];
        bool moved = z[3] == 0.0f && (g[0] != z[0] || g[1] != z[1] || g[2] != z[2]);
        if (bad || moved) {
            unsigned k = (unsigned)(i % s->n), w = (unsigned)s->prm.w;
            snprintf(c->detail, sizeof c->detail, "particle (%u, %u) of cloth %u %s: (%g, %g, %g, w %g)",
                     k % w, k / w, (unsigned)(i / s->n), bad ? "not finite or lost its mass" : "pinned moved",
                     g[0], g[1], g[2], g[3]);
            return false;
        }
    }
    /* rms must fall; the largest stretch only must not grow by more than 1%: relaxing a spring stretches its
     * neighbours, and once a long run hangs still the worst spring can stay where it is (64x64, 600 frames:
     * rms 0.399 -> 0.395, max 1.45 both), so a strict fall of the max is no invariant of a correct solver. */
    if (!(got->rms < pre->rms && got->max <= pre->max * 1.01)) {
        snprintf(
            c->detail, sizeof c->detail,
            "springs not relaxed: stretch rms %.3g max %.3g, before the last relaxation rms %.3g max %.3g",
            got->rms, got->max, pre->rms, pre->max);
        return false;
    }
    return true;
}

/* The residual of the device's state before the last frame's relaxation: the last frame integrated the
 * relaxed states of the two frames before it (init for frames before the first), which the run left in the
 * buffers cloth_rung_pre names; integrated again here as cloth_integrate does. */
static cg_status device_pre(cg_ctx *ctx, cloth_state *s, const void *rs, cloth_resid *pre)
{
    cloth_params p = s->prm;
    cloth_set_arith(&p, cloth_rung_arith_of(rs));
    bool cm = cloth_rung_cm_of(rs);
    cg_status st = CG_OK;
    size_t m = 4 * s->total;
    float *cur = s->scratch, *prev = cur + m, *ncur = prev + m, *nprev = ncur + m;
    cl_mem in[2];
    cloth_rung_pre(rs, in);
    if ((st = read_state(ctx, s, in[0], cm, cur)) != CG_OK ||
        (st = read_state(ctx, s, in[1], cm, prev)) != CG_OK)
        goto out;
    for (size_t c = 0, k = 4 * s->n; c < (size_t)s->cloths; c++)
        cloth_integrate_host(&p, cur + c * k, prev + c * k, ncur + c * k, nprev + c * k);
    *pre = cloth_residual(&s->prm, ncur, s->cloths);
out:
    return st;
}

static void log_convergence(cloth_state *s, const void *rs, const cloth_resid *pre, const cloth_resid *got)
{
    const cloth_ref *r = &s->ref[cloth_rung_arith_of(rs)][cloth_rung_scheme(rs)];
    char it[400];
    int len = 0;
    for (int k = 0; k <= s->iters && len >= 0 && (size_t)len < sizeof it - 12; k++)
        len += snprintf(it + len, sizeof it - (size_t)len, " %.4g", r->last[k].rms);
    CG_DEBUG("cloth:%s: host reference's stretch rms before and after each iteration of the last frame:%s",
             cloth_rung_name(rs), it);
    const cloth_resid *col = &s->ref[0][S_COLOUR].last[s->iters];
    CG_DEBUG(
        "cloth:%s: spring stretch after %d iterations of the last frame: rms %.3g, max %.3g (before: rms "
        "%.3g; spring-coloured Gauss-Seidel: rms %.3g, this / coloured = %.2f)",
        cloth_rung_name(rs), s->iters, got->rms, got->max, pre->rms, col->rms,
        col->rms > 0 ? got->rms / col->rms : 0.0);
    size_t used = strlen(s->summary);
    snprintf(s->summary + used, sizeof s->summary - used, "%s%s %.2f", used ? ", " : "", cloth_rung_name(rs),
             col->rms > 0 ? got->rms / col->rms : 0.0);
}

static void exact_detail(const cloth_state *s, cg_check *c)
{
    unsigned i = (unsigned)((size_t)c->first_index / 4 % s->n), w = (unsigned)s->prm.w;
    unsigned cloth = (unsigned)((size_t)c->first_index / 4 / s->n);
    const char *comp = "x\0y\0z\0w" + 2 * (c->first_index % 4);
    snprintf(c->detail, sizeof c->detail,
             "%u of %u values differ from the host's replay of the scheme; first: particle (%u, %u) of cloth "
             "%u, %s %.9g, want %.9g",
             (unsigned)c->mismatches, (unsigned)c->checked, i % w, i / w, cloth, comp, c->first_got,
             c->first_want);
}

cg_status cloth_verify(cg_ctx *ctx, void *state, void *rs, cg_check *c)
{
    cg_status st = CG_OK;
    cloth_state *s = state;
    cloth_scheme sc = cloth_rung_scheme(rs);
    int arith = cloth_rung_arith_of(rs);
    bool cm = cloth_rung_cm_of(rs);
    if ((st = read_state(ctx, s, cloth_result_buf(rs), cm, s->got)) != CG_OK) goto out;
    cloth_scheme need[2] = {S_COLOUR, sc}; /* the coloured scheme (the stretch lines' base) and the rung's */
    int narith[2] = {0, arith};
    for (int k = 0; k < 2; k++) {
        cloth_ref *r = &s->ref[narith[k]][need[k]];
        if (!r->pos && cloth_ref_run(s, need[k], narith[k], r) != CG_OK) {
            CG_ERROR("cloth: out of host memory for the reference");
            return CG_E_RUNTIME;
        }
    }
    const cloth_ref *ref = &s->ref[arith][sc];
    if (sc == S_SINGLE) {
        memset(c, 0, sizeof *c);
        c->first_index = -1;
        c->checked = s->total;
        c->ok = true;
    } else {
        cg_check_bound(c, s->got, ref->pos, NULL, 4 * s->total, 0.0, 0.0);
        if (!c->ok) exact_detail(s, c);
    }
    cloth_resid got = cloth_residual(&s->prm, s->got, s->cloths), pre;
    if ((st = device_pre(ctx, s, rs, &pre)) != CG_OK) goto out;
    if (c->ok && !physical(s, &pre, &got, c)) {
        c->ok = false;
        c->mismatches = c->mismatches ? c->mismatches : 1;
    }
    if (c->ok && cloth_rung_first_verify(rs)) log_convergence(s, rs, &pre, &got);
    if (c->ok && s->shot && (sc != S_SINGLE || !s->shot_det)) { /* --output: a deterministic rung's first */
        memcpy(s->shot, s->got, s->n * 4 * sizeof(float));
        s->shot_taken = true;
        s->shot_det = sc != S_SINGLE;
        s->shot_rung = cloth_rung_name(rs);
    }
out:
    return st;
}
