/* The opticalflow sparse point list: --points N (N distinct pixels at seeded random positions, listed in a
 * seeded random order, as a feature detector's list comes in no spatial order) and --grid-step STEP (a point
 * every STEP pixels each way from (STEP/2, STEP/2), row by row), their checks against the frame, and the list
 * itself (x, y as two ints a point: the device's int2). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/log.h"
#include "core/rng.h"
#include "workloads/opticalflow/opticalflow.h"

/* The points' generator is the run's seed, on a stream of its own (not the synthetic texture's). */
#define OF_POINTS_STREAM 0x706f696e7473ull

/* Uniform in [0, n). */
static size_t below(cg_rng *r, size_t n)
{
    return (size_t)((double)(cg_rng_next(r) >> 11) * 0x1p-53 * (double)n);
}

/* Whole number option `name` from 1 to hi into *v (0 when not given); above hi refused as "--name V is " big,
 * a fraction with the example eg. */
static cg_status count_opt(const cg_run_opts *o, const char *name, const char *eg, double hi, const char *big,
                           double *v)
{
    const cg_wopt_value *g = cg_wopts_find(o->wopts, name);
    *v = 0;
    if (!g) return CG_OK;
    if (g->num < 1 || g->num != floor(g->num)) {
        CG_ERROR("opticalflow: --%s %s is not a whole number of at least 1: use e.g. --%s %s", name, g->text,
                 name, eg);
        return CG_E_USAGE;
    }
    if (g->num > hi) {
        CG_ERROR("opticalflow: --%s %s is %s", name, g->text, big);
        return CG_E_USAGE;
    }
    *v = g->num;
    return CG_OK;
}

cg_status of_points_pick(const cg_run_opts *o, of_state *s)
{
    double pts = 0, step = 0;
    cg_status st;
    char fix[160];
    size_t side = s->w < s->h ? s->w : s->h;
    s->np = 0;
    s->grid = 0;
    if (cg_wopts_find(o->wopts, "points") && cg_wopts_find(o->wopts, "grid-step")) {
        CG_ERROR("opticalflow: --points and --grid-step both given: keep one (random points or a grid)");
        return CG_E_USAGE;
    }
    snprintf(fix, sizeof fix, "more points than the %zux%zu frame's %zu pixels: give at most %zu", s->w, s->h,
             s->n, s->n);
    if ((st = count_opt(o, "points", "1000", (double)s->n, fix, &pts)) != CG_OK) return st;
    snprintf(fix, sizeof fix, "larger than the %zux%zu frame: use a step from 1 to %zu", s->w, s->h, side);
    if ((st = count_opt(o, "grid-step", "8", (double)side, fix, &step)) != CG_OK) return st;
    if (step > 0) {
        size_t g = (size_t)step;
        s->grid = (int)g;
        s->np = ((s->w - g / 2 + g - 1) / g) * ((s->h - g / 2 + g - 1) / g);
    }
    if (pts > 0) s->np = (size_t)pts;
    return CG_OK;
}

cg_status of_points_make(of_state *s, uint64_t seed)
{
    if (!s->np) return CG_OK;
    s->pts = malloc(2 * s->np * sizeof *s->pts);
    if (!s->pts) {
        CG_ERROR("opticalflow: out of host memory for %zu points: give fewer --points", s->np);
        return CG_E_RUNTIME;
    }
    size_t i = 0, g = (size_t)s->grid;
    if (g) {
        for (size_t y = g / 2; y < s->h; y += g)
            for (size_t x = g / 2; x < s->w; x += g, i++) {
                s->pts[2 * i] = (int32_t)x;
                s->pts[2 * i + 1] = (int32_t)y;
            }
        return CG_OK;
    }
    cg_rng r;
    cg_rng_init(&r, seed ^ OF_POINTS_STREAM);
    /* Selection sampling (Knuth's algorithm S): each pixel taken with probability (still wanted) / (still
     * left), so exactly np distinct pixels in raster order; then a Fisher-Yates shuffle of the list. */
    for (size_t k = 0; k < s->n && i < s->np; k++)
        if (below(&r, s->n - k) < s->np - i) {
            s->pts[2 * i] = (int32_t)(k % s->w);
            s->pts[2 * i + 1] = (int32_t)(k / s->w);
            i++;
        }
    for (size_t k = s->np - 1; k > 0; k--) {
        size_t j = below(&r, k + 1);
        int32_t x = s->pts[2 * k], y = s->pts[2 * k + 1];
        s->pts[2 * k] = s->pts[2 * j];
        s->pts[2 * k + 1] = s->pts[2 * j + 1];
        s->pts[2 * j] = x;
        s->pts[2 * j + 1] = y;
    }
    return CG_OK;
}
