/* The opticalflow check: a device's flow of every level against the double reference's solve of that level
 * started from the device's own guess (twice its coarser flow; 0 at the coarsest level), point by point
 * (every pixel dense, the list's points sparse), with the tolerance docs/workloads/opticalflow.md derives. So
 * each level's solve is verified given its input, and a device that settles in another basin of the iteration
 * than the reference (an allowed difference at a coarser level moving the next guess) still passes, while a
 * wrong solve at any level fails there. At every level, where the reference settled (its last 3 steps below
 * OF_CONVERGED), G's rule is not within rounding and no last-iteration sample lay off the level, the flow
 * must be within tol = 2 (db_hand + [texture] db_tex + jq gsum) / lambda_min(G) + 2 eta + 1e-4 px [+ texture
 * OF_TEX_CELL] of the reference's (in that level's pixels): the shift of the fixed point b(d) = 0 that an
 * error db in b causes (|G^-1 db| <= |db| / lambda_min), twice for the linearisation, plus the distance from
 * convergence, or else be itself a fixed point of the reference's iteration (one reference step from it
 * within that bound without eta: another root of b(d) = 0, reached by another path within the level); where
 * the reference's point is invalid (not within rounding) the flow must be exactly what the kernels store: the
 * guess at coarser levels, 0 at the finest. At the finest level the status is checked too: valid or invalid
 * must agree unless within rounding, tracked or lost unless the end point lies within the tolerance of the
 * frame's edge, and a valid point's status must be lost exactly when its own (device) flow ends off the
 * frame. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "workloads/opticalflow/opticalflow.h"

#define OF_CONVERGED 0.02 /* px: the reference's last steps; beyond it the flow is not compared */
/* px: a texture sample's position is resolved to 1/256 of a texel each way, so b(d) is constant across such
 * cells and the device's fixed point is only defined to within one (its diagonal), twice for safety. */
#define OF_TEX_CELL (2 * 1.4142135623730951 / 256)

typedef struct px_check {
    size_t bad, first; /* first: the index in the flow buffer (all levels) */
    int level;
    size_t px, py; /* its pixel at that level */
    char what[120];
} px_check;

static void bad(px_check *p, size_t i, const char *fmt, double a, double b, double cx, double cy)
{
    if (p->bad++ == 0) {
        p->first = i;
        snprintf(p->what, sizeof p->what, fmt, a, b, cx, cy);
    }
}

/* Distance of the end point (ex, ey) from the edge of a w x h frame, negative outside. */
static double edge_distance(double ex, double ey, size_t w, size_t h)
{
    double d = fmin(fmin(ex, (double)(w - 1) - ex), fmin(ey, (double)(h - 1) - ey));
    return d;
}

/* Tolerance of a flow against r's answer: 2 (db_hand + [texture] db_tex + jq gsum) / lambda_min + 2 eta +
 * 1e-4 px [+ texture OF_TEX_CELL]; jq (grey levels) bounds the error of J's stored values (0 but for unorm16:
 * OF_U16_QUANTUM, opticalflow.h), so every sample is off by at most jq and b by at most jq gsum. */
static double tolerance(const of_state *s, bool texture, double jq, const of_ref_px *r)
{
    double lmin = (double)r->lmin * s->window * s->window;
    return 2 * (r->db_hand + (texture ? r->db_tex : 0) + jq * r->gsum) / lmin + 2 * r->eta + 1e-4 +
           (texture ? OF_TEX_CELL : 0);
}

/* The flow (gx, gy) of pixel (x, y) of level L against r's within the tolerance, where the reference settled
 * and was not clamped; false when it is not compared. Beyond the tolerance it still passes where it is a
 * fixed point of the reference's iteration itself (another root of b(d) = 0, reached by another path within
 * the level): one reference step from it no longer than the tolerance there (without eta; s->fixed counts
 * them, and their error is that step); for early-exit (eps > 0) also where that step is at most eps longer
 * (s->stopped: the kernel stopped there because its own step, within that bound of the reference's, was below
 * eps). *tol gets the tolerance, *alt whether it passed as such another point. */
static bool compare_flow(of_state *s, bool texture, double jq, double eps, const of_ref_px *r, int L,
                         size_t x, size_t y, double gx, double gy, size_t i, px_check *p, cg_check *c,
                         double *tol, bool *alt)
{
    *alt = false;
    if (r->clamped || r->eta > OF_CONVERGED) return false;
    *tol = tolerance(s, texture, jq, r);
    double err = hypot(gx - r->dx, gy - r->dy);
    if (err > *tol) {
        of_ref_px f;
        of_ref_step(s, L, x, y, gx, gy, &f);
        double step = f.eta, ftol = tolerance(s, texture, jq, &f) - 2 * f.eta;
        /* early-exit: a point it stopped at, where its step was below eps: the reference's step from there is
         * within the step's error bound (ftol) of it, samples off the level or not (both clamp alike) */
        bool fixed = !f.clamped && step <= ftol, stop = eps > 0 && step <= ftol + eps;
        if (f.status != OF_INVALID && (fixed || stop)) {
            if (fixed)
                s->fixed++;
            else
                s->stopped++;
            err = step;
            *tol = ftol + eps;
            *alt = true;
        }
    }
    if (*tol > c->tolerance) c->tolerance = *tol;
    if (err / *tol > c->bound_ratio) c->bound_ratio = err / *tol;
    if (err > c->max_abs_err) c->max_abs_err = err;
    if (err > *tol) bad(p, i, "flow (%.6g, %.6g), want (%.6g, %.6g)", gx, gy, r->dx, r->dy);
    return true;
}

/* A coarser level's point i (flow buffer index b): finite, the guess where invalid, else compared. */
static void check_coarse(of_state *s, bool texture, double jq, double eps, int L, const float *got, size_t i,
                         size_t b, const of_ref_px *r, px_check *p, cg_check *c)
{
    size_t x = s->np ? (size_t)s->pts[2 * i] >> L : i % s->lw[L],
           y = s->np ? (size_t)s->pts[2 * i + 1] >> L : i / s->lw[L];
    double gx = got[2 * i], gy = got[2 * i + 1], tol;
    if (!isfinite(gx) || !isfinite(gy)) {
        bad(p, b, "flow (%g, %g)", gx, gy, 0, 0);
        return;
    }
    if (r->ambiguous) return;
    if (r->status == OF_INVALID) {
        if (gx != r->dx || gy != r->dy)
            bad(p, b, "invalid point with flow (%g, %g), want its guess (%g, %g)", gx, gy, r->dx, r->dy);
        return;
    }
    bool alt;
    compare_flow(s, texture, jq, eps, r, L, x, y, gx, gy, b, p, c, &tol, &alt);
}

/* Output i (s->got, s->got_st) of level 0, the point at pixel k. */
static void check_px(of_state *s, bool texture, double jq, double eps, size_t i, size_t k, px_check *p,
                     cg_check *c)
{
    const of_ref_px *r = &s->lref[i];
    double gx = s->got[2 * i], gy = s->got[2 * i + 1], tol;
    uint8_t gs = s->got_st[i];
    bool gv = gs != OF_INVALID, rv = r->status != OF_INVALID;
    if (gs > OF_LOST || !isfinite(gx) || !isfinite(gy)) {
        bad(p, i, "status %g, flow (%g, %g) %g", gs, gx, gy, 0);
        return;
    }
    if (gv != rv) {
        if (!r->ambiguous) bad(p, i, "status %g, want %g", gs, r->status, 0, 0);
        return;
    }
    float ex = (float)(k % s->w) + (float)gx,
          ey = (float)(k / s->w) + (float)gy; /* the kernels' float sums */
    bool off = ex < 0.0f || ex > (float)(s->w - 1) || ey < 0.0f || ey > (float)(s->h - 1);
    if (gv && (gs == OF_LOST) != off) {
        bad(p, i, "status %g, but its own flow (%g, %g) ends %.3g px inside the frame (< 0: outside)", gs, gx,
            gy, edge_distance(ex, ey, s->w, s->h));
        return;
    }
    if (!rv) {
        if (gx != 0 || gy != 0) bad(p, i, "invalid point with flow (%g, %g), want (0, 0)", gx, gy, 0, 0);
        return;
    }
    size_t before = p->bad;
    bool alt;
    if (!compare_flow(s, texture, jq, eps, r, 0, k % s->w, k / s->w, gx, gy, i, p, c, &tol, &alt)) {
        s->skipped++;
        return;
    }
    s->compared++;
    if (p->bad != before || alt) return; /* alt: another point than the reference's; its own status held */
    double edge = edge_distance((double)(k % s->w) + r->dx, (double)(k / s->w) + r->dy, s->w, s->h);
    if (gs != r->status && fabs(edge) > tol)
        bad(p, i, "status %g, want %g (its end %.3g px inside the frame)", gs, r->status, edge, 0);
}

/* Level L's flow in s->got: its first float2's index in the flow buffer. */
static size_t level_base(const of_state *s, int L)
{
    return s->np ? (size_t)L * s->np : s->off[L];
}

/* Level L: the reference's solve from the device's guess, then every point of the level. */
static void check_level(of_state *s, bool texture, double jq, double eps, int L, px_check *p, cg_check *c)
{
    size_t np = of_level_points(s, L), base = level_base(s, L), before = p->bad;
    const float *coarse = L + 1 < s->levels ? s->got + 2 * level_base(s, L + 1) : NULL;
    of_ref_level(s, L, coarse, s->lref);
    for (size_t i = 0; i < np; i++) {
        if (L == 0)
            check_px(s, texture, jq, eps, i, of_px(s, i), p, c);
        else
            check_coarse(s, texture, jq, eps, L, s->got + 2 * base, i, base + i, &s->lref[i], p, c);
    }
    c->checked += np;
    if (before == 0 && p->bad > 0) {
        size_t i = p->first - base, k = s->np ? of_px(s, i) : i;
        p->level = L;
        p->px = s->np ? (k % s->w) >> L : i % s->lw[L];
        p->py = s->np ? (k / s->w) >> L : i / s->lw[L];
        c->first_got = s->got[2 * p->first];
        c->first_want = s->lref[i].dx;
    }
}

static void remember(of_state *s, bool texture, double jq, double eps, const cg_check *c)
{
    size_t nf = 2 * (s->np ? s->np * (size_t)s->levels : s->total), np = of_npoints(s);
    if (!s->last_got) s->last_got = malloc(nf * sizeof *s->last_got);
    if (!s->last_st) s->last_st = malloc(np);
    s->have_last = s->last_got && s->last_st;
    if (!s->have_last) return;
    memcpy(s->last_got, s->got, nf * sizeof *s->got);
    memcpy(s->last_st, s->got_st, np);
    s->last_texture = texture;
    s->last_jq = jq;
    s->last_eps = eps;
    s->last_check = *c;
    s->last_compared = s->compared;
    s->last_skipped = s->skipped;
    s->last_fixed = s->fixed;
    s->last_stopped = s->stopped;
}

/* The same flow and status as the last check's, bit for bit (a deterministic rung's runs): its verdict. */
static bool recall(of_state *s, bool texture, double jq, double eps, cg_check *c)
{
    size_t nf = 2 * (s->np ? s->np * (size_t)s->levels : s->total);
    if (!s->have_last || s->last_texture != texture || s->last_jq != jq || s->last_eps != eps ||
        memcmp(s->last_got, s->got, nf * sizeof *s->got) || memcmp(s->last_st, s->got_st, of_npoints(s)))
        return false;
    *c = s->last_check;
    s->compared = s->last_compared;
    s->skipped = s->last_skipped;
    s->fixed = s->last_fixed;
    s->stopped = s->last_stopped;
    return true;
}

void of_check(of_state *s, bool texture, double jq, double eps, cg_check *c)
{
    if (recall(s, texture, jq, eps, c)) return;
    px_check p;
    memset(&p, 0, sizeof p);
    memset(c, 0, sizeof *c);
    c->first_index = -1;
    s->compared = s->skipped = s->fixed = s->stopped = 0;
    for (int L = s->levels - 1; L >= 0; L--)
        check_level(s, texture, jq, eps, L, &p, c);
    c->mismatches = p.bad;
    c->ok = p.bad == 0;
    if (!c->ok) {
        c->first_index = (long long)p.first;
        char at[48] = "";
        if (s->np) snprintf(at, sizeof at, "point %zu ", p.first - level_base(s, p.level));
        int len = snprintf(c->detail, sizeof c->detail,
                           "%zu of %zu %s (%d levels) wrong; first level %d %s(x=%zu, y=%zu): ", p.bad,
                           c->checked, s->np ? "points" : "pixels", s->levels, p.level, at, p.px, p.py);
        for (size_t i = 0; len >= 0 && (size_t)len + 1 < sizeof c->detail && p.what[i]; i++, len++)
            c->detail[len] = p.what[i], c->detail[len + 1] = '\0';
    }
    remember(s, texture, jq, eps, c);
}

void of_report(of_state *s, const char *rung)
{
    if (s->reported == rung) return;
    s->reported = rung;
    size_t valid = 0, np = of_npoints(s);
    const char *unit = s->np ? "points" : "px";
    for (size_t i = 0; i < np; i++)
        valid += s->got_st[i] != OF_INVALID;
    char epe[160] = "";
    double e = -1, er = -1;
    if (s->truth) {
        size_t cnt, cnt_ref, margin = (size_t)s->window + 8;
        e = of_mean_epe(s, s->got, s->got_st, margin, &cnt);
        er = of_mean_epe(s, s->ref_flow, s->ref_st, margin, &cnt_ref);
        snprintf(epe, sizeof epe,
                 "; mean end-point error against the known motion %.4f px over %zu tracked %s "
                 "(reference %.4f)",
                 e, cnt, unit, er);
    }
    char fixed[192] = "";
    if (s->fixed) /* any level: beyond the reference's tolerance, but a fixed point of its iteration */
        snprintf(fixed, sizeof fixed, ", %zu passed as fixed points of another basin", s->fixed);
    if (s->stopped) /* early-exit: beyond it, but where the reference's step is below --epsilon */
        snprintf(fixed + strlen(fixed), sizeof fixed - strlen(fixed),
                 ", %zu as stopped early (the step from there below --epsilon)", s->stopped);
    CG_DEBUG(
        "opticalflow:%s: %zu of %zu %s valid, %zu flows compared with the reference, %zu not (unconverged "
        "or ambiguous)%s%s",
        rung, valid, np, unit, s->compared, s->skipped, fixed, epe);
    if (!s->summary_head[0])
        snprintf(
            s->summary_head, sizeof s->summary_head,
            "%zu of %zu %s valid, %zu flows compared with the reference (%zu unconverged or ambiguous)%s",
            valid, np, unit, s->compared, s->skipped,
            s->truth ? "; mean end-point error against the known motion, px:" : "");
    size_t len = strlen(s->summary);
    if (s->truth) snprintf(s->summary + len, sizeof s->summary - len, "%s %s %.4f", len ? "," : "", rung, e);
    if (s->truth) snprintf(s->summary_ref, sizeof s->summary_ref, " (reference %.4f)", er);
}

void of_report_summary(const of_state *s)
{
    char ex[128] = ""; /* early-exit verified: how many steps its rule takes, as the reference's own solve */
    double pts = (double)(s->np ? s->np * (size_t)s->levels : s->total);
    if (s->exit_reported && pts > 0)
        snprintf(ex, sizeof ex,
                 "; early-exit's rule: %.2f steps a point in the reference's own solve (of %d)",
                 s->exit_iters / pts, s->iters);
    if (s->summary_head[0]) /* one line for the ladder; CLGAUGE_DEBUG=1 gives each rung's */
        CG_INFO("opticalflow: %s%s%s%s", s->summary_head, s->summary, s->summary_ref, ex);
}
