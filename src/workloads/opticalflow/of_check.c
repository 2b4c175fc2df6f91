/* The opticalflow check: a device's flow and status against the double reference, point by point (every pixel
 * dense, the list's points sparse), with the tolerance docs/workloads/opticalflow.md derives. Where the
 * reference's G is well-conditioned enough to solve (its smallest eigenvalue above the rule's limit beyond
 * rounding), the status must agree: valid or invalid always, tracked or lost unless the end point lies within
 * the tolerance of the frame's edge; and everywhere a valid point's status must be lost exactly when its own
 * (device) flow ends off the frame. Where the reference settled (its last 3 steps below OF_CONVERGED), no
 * ancestor's rule was within rounding, no last-iteration sample lay off the frame (for image rungs: at no
 * coarser level either), the flow must be within tol = 2 (db_hand + [texture] db_tex) / lambda_min(G) + 2 eta
 * + 1e-4 px [+ texture OF_TEX_CELL], the shift of the fixed point b(d) = 0 that an error db in b causes
 * (|G^-1 db| <= |db| / lambda_min), twice for the linearisation, plus the distance from convergence. Invalid
 * points must have flow exactly 0. */
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
    size_t bad, first;
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

/* Output i (s->got, s->got_st), the point at pixel k (s->ref). */
static void check_px(of_state *s, bool texture, size_t i, size_t k, px_check *p, cg_check *c)
{
    const of_ref_px *r = &s->ref[k];
    double gx = s->got[2 * i], gy = s->got[2 * i + 1];
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
    if (r->loose || r->clamped || (texture && r->loose_tex) || r->eta > OF_CONVERGED) {
        s->skipped++;
        return;
    }
    double lmin = (double)r->lmin * s->window * s->window;
    double tol =
        2 * (r->db_hand + (texture ? r->db_tex : 0)) / lmin + 2 * r->eta + 1e-4 + (texture ? OF_TEX_CELL : 0);
    double err = hypot(gx - r->dx, gy - r->dy);
    s->compared++;
    if (tol > c->tolerance) c->tolerance = tol;
    if (err / tol > c->bound_ratio) c->bound_ratio = err / tol;
    if (err > c->max_abs_err) c->max_abs_err = err;
    if (err > tol) {
        bad(p, i, "flow (%.6g, %.6g), want (%.6g, %.6g)", gx, gy, r->dx, r->dy);
        return;
    }
    double edge = edge_distance((double)(k % s->w) + r->dx, (double)(k / s->w) + r->dy, s->w, s->h);
    if (gs != r->status && fabs(edge) > tol)
        bad(p, i, "status %g, want %g (its end %.3g px inside the frame)", gs, r->status, edge, 0);
}

void of_check(of_state *s, bool texture, cg_check *c)
{
    px_check p;
    memset(&p, 0, sizeof p);
    memset(c, 0, sizeof *c);
    c->first_index = -1;
    size_t np = of_npoints(s);
    c->checked = np;
    s->compared = s->skipped = 0;
    for (size_t i = 0; i < np; i++)
        check_px(s, texture, i, of_px(s, i), &p, c);
    c->mismatches = p.bad;
    c->ok = p.bad == 0;
    if (c->ok) return;
    size_t k = of_px(s, p.first);
    c->first_index = (long long)p.first;
    c->first_got = s->got[2 * p.first];
    c->first_want = s->ref[k].dx;
    char at[48] = "";
    if (s->np) snprintf(at, sizeof at, "point %zu ", p.first);
    int len = snprintf(c->detail, sizeof c->detail, "%zu of %zu %s wrong; first %s(x=%zu, y=%zu): ", p.bad,
                       np, s->np ? "points" : "pixels", at, k % s->w, k / s->w);
    for (size_t i = 0; len >= 0 && (size_t)len + 1 < sizeof c->detail && p.what[i]; i++, len++)
        c->detail[len] = p.what[i], c->detail[len + 1] = '\0';
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
        float *rf = malloc(2 * np * sizeof *rf);
        uint8_t *rs = malloc(np);
        for (size_t i = 0; rf && rs && i < np; i++) {
            const of_ref_px *r = &s->ref[of_px(s, i)];
            rf[2 * i] = r->dx;
            rf[2 * i + 1] = r->dy;
            rs[i] = r->status;
        }
        if (rf && rs) er = of_mean_epe(s, rf, rs, margin, &cnt_ref);
        free(rf);
        free(rs);
        snprintf(epe, sizeof epe,
                 "; mean end-point error against the known motion %.4f px over %zu tracked %s "
                 "(reference %.4f)",
                 e, cnt, unit, er);
    }
    CG_DEBUG(
        "opticalflow:%s: %zu of %zu %s valid, %zu flows compared with the reference, %zu not (unconverged "
        "or ambiguous)%s",
        rung, valid, np, unit, s->compared, s->skipped, epe);
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
    if (s->summary_head[0]) /* one line for the ladder; CLGAUGE_DEBUG=1 gives each rung's */
        CG_INFO("opticalflow: %s%s%s", s->summary_head, s->summary, s->summary_ref);
}
