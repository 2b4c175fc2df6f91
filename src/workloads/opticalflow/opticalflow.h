/* The opticalflow workload's shared definitions: the algorithm's parameters, the pyramid's geometry, the
 * meaning of a rung's p[] and the state that opticalflow.c (options, frames, setup, read-back), of_check.c
 * (the check and the logged end-point error), of_launch.c (each rung's kernels and launches), of_ref.c (the
 * CPU reference in double), of_synth.c (the synthetic pair with its known motion) and of_points.c (the sparse
 * point list) share. The algorithm (docs/workloads/opticalflow.md) is pyramidal Lucas-Kanade, dense by
 * default (every pixel of every level is a point) or sparse (--points N, --grid-step STEP): then only the
 * points, each at pixel (x >> L, y >> L) of level L, are solved. */
#ifndef CG_OPTICALFLOW_H
#define CG_OPTICALFLOW_H
#include <stdbool.h>
#include <stdint.h>
#include "core/workload.h"

#define OF_MAX_LEVELS 8
#define OF_MAX_WINDOW 63
#define OF_MAX_ITERS  100
/* A level's point is solved only where the smallest eigenvalue of its window's G, divided by the window's
 * pixels, is at least this (grey levels^2 per pixel^2 for 0..255 frames); elsewhere it is invalid: at the
 * finest level its flow is 0 and its status OF_INVALID, at coarser levels it keeps the guess. */
#define OF_MIN_EIG 1.0
/* Status of a finest-level point (the uchar status buffer). */
enum { OF_INVALID = 0, OF_TRACKED = 1, OF_LOST = 2 };

/* cg_rung.p[]: how the rung computes (PLAN_*), its 2D work-group shape. */
enum { P_PLAN, P_WGX, P_WGY };
/* PLAN_NAIVE: derivatives and G inside the solve; PLAN_PRE: Scharr derivatives (float2) and G (a window sum)
 * precomputed per level; PLAN_IMG: as PRE, the second frame's levels copied into images read through a
 * linear sampler; PLAN_BEST: as IMG, the level and its derivatives packed in one float4 and G by a separable
 * box sum (two passes); PLAN_U16: as BEST, the second frame's levels in CL_R CL_UNORM_INT16 images (written
 * by a kernel as level / 255, read back times 255) instead of CL_FLOAT ones; PLAN_EXIT: as U16, a point stops
 * at its first step shorter than --epsilon px, which it does not take; PLAN_HALF: as BEST, the second frame's
 * levels in CL_R CL_HALF_FLOAT images (written by a kernel, no scaling). */
enum { PLAN_NAIVE, PLAN_PRE, PLAN_LOCAL, PLAN_IMG, PLAN_BEST, PLAN_U16, PLAN_EXIT, PLAN_HALF };
/* early-exit's default stop, px: OpenCV's calcOpticalFlowPyrLK default (TermCriteria COUNT + EPS, 0.01). */
#define OF_EPSILON 0.01
/* The most a unorm16 J level's value, as the solve reads it back (x 255), can be off the float level's, in
 * grey levels: one quantum 255 / 65535. The write's float-to-unorm16 conversion is within 0.6 quantum (OpenCL
 * C spec, "Converting floating-point values to normalized integer channel data types"; 0.5 where it rounds to
 * nearest), the / 255, the read's unorm-to-float conversion and the x 255 a few float roundings of at most
 * 255 each (about 1e-4 quantum), the texture weights' 1/256 applied to differences of stored values off by at
 * most 2 x 0.6 quanta 0.005 quantum: 0.61 quantum in all, rounded up to 1. Level 0 (integers 0..255) is
 * exact: 255 v / 255 x 65535 = 257 v. The filtered sample blends its four stored values with weights that sum
 * to 1, so it is off by at most this too, and b by at most it times sum |grad I| over the window (gsum). */
#define OF_U16_QUANTUM (255.0 / 65535.0)
/* The same bound for a CL_HALF_FLOAT J level, grey levels: one half-precision ulp at 128..256 (2^-3). The
 * write's float-to-half conversion rounds to nearest (OpenCL C spec, "Conversion rules for half precision
 * floating-point": within half an ulp, 2^-4 below 256), and a texture unit that rounds its filtered result to
 * half again adds at most as much: 2^-3 in all. Level 0 (integers 0..255) is exact in half. */
#define OF_HALF_QUANTUM 0.125
/* PLAN_LOCAL: as PRE, one work-group per tile, the tile and its window's halo of the level and its
 * derivatives (a float4 a pixel) in local memory. Its local bytes for a tx x ty group and window radius r: */
#define OF_LOCAL_BYTES(tx, ty, r) ((size_t)((tx) + 2 * (r)) * ((ty) + 2 * (r)) * 4 * sizeof(float))

/* The reference's answer at one point of a level, solved from a given guess, with what the check needs to
 * bound the device's error there (of_ref.c). Flows in that level's pixels. */
typedef struct of_ref_px {
    float dx, dy;   /* the flow; invalid points: 0 at the finest level, the guess at coarser ones */
    uint8_t status; /* OF_* (lost: relative to the level's frame) */
    bool
        ambiguous; /* valid or invalid may honestly differ: the min eigenvalue within rounding of the limit */
    bool clamped;  /* a last-iteration sample lies off the level: J is flat there, the flow is not compared */
    float lmin;    /* smallest eigenvalue of G / window pixels */
    float eta;     /* the longest of the last 3 steps: the distance from convergence */
    float db_hand; /* bound on |delta b| from a float bilinear sample and float sums */
    float db_tex;  /* more of it from 8-bit-fraction texture weights (CLK_FILTER_LINEAR on NVIDIA) */
    float gsum;    /* sum |Ix| + |Iy| over the window: |delta b| per grey level of error in every J sample */
    uint8_t exit_iters; /* the steps computed under early-exit's rule (s->eps; the last one not taken) */
} of_ref_px;

typedef struct of_state {
    size_t w, h, n;
    /* Sparse mode: np points (0: dense), pts their pixels (x, y), 2 ints a point (the device's int2 list);
     * grid the --grid-step (0: --points or dense). The outputs (got, got_st, the flow and status buffers'
     * level 0) are then one a point, in the list's order; dense, one a pixel. */
    size_t np;
    int grid;
    int32_t *pts;
    int levels, window, iters;
    double eps;        /* --epsilon: early-exit's stop, px */
    double exit_iters; /* the reference's own solve: steps computed under early-exit's rule, all levels */
    size_t lw[OF_MAX_LEVELS], lh[OF_MAX_LEVELS], off[OF_MAX_LEVELS]; /* each level's size and offset */
    size_t total;                                                    /* pixels of all levels */
    uint8_t *frame[2];
    bool synthetic;      /* the default pair: truth[] holds the known motion */
    float *truth;        /* 2 floats per pixel, or NULL */
    struct of_level *lv; /* of_ref.c: the reference's pyramid, derivatives and G, kept for of_ref_level */
    of_ref_px *lref;     /* of_ref_level's answers at one level: one a point of level 0 (the most) */
    float *ref_flow;     /* the reference's own flow (every level from its own guess), 2 a point */
    uint8_t *ref_st;     /* and its status, one a point */
    /* The flow read back, every level as the flow buffer holds it (dense: level L at off[L], a float2 a
     * pixel; sparse: at L np, a float2 a point): level 0 first, so got[2 i] is point i's final flow. */
    float *got;
    uint8_t *got_st; /* one a point */
    /* The last check's input and verdict: a flow read back bit for bit the same is not checked again. */
    float *last_got;
    uint8_t *last_st;
    bool have_last, last_texture;
    double last_jq, last_eps;
    cg_check last_check;
    size_t last_compared, last_skipped, last_fixed, last_stopped;
    uint8_t *saved;     /* the last verified flow as a colour wheel, RGB, for --output (opticalflow.c); NULL
                           without --output: nothing is drawn */
    double saved_scale; /* its full colour: the 95th percentile of the tracked flows' lengths, px */
    bool have_saved;
    size_t compared, skipped; /* the last check, level 0: flows compared, valid flows not compared */
    size_t fixed;             /* and at every level: flows beyond the tolerance passed as fixed points */
    size_t stopped;           /* early-exit, every level: passed as points where the step is below eps */
    const char *reported;     /* the rung of_report last logged */
    bool exit_reported;       /* an early-exit rung passed its check */
    size_t max_wg;
    /* pyr[0] the first frame's levels, [1] the second; sparse: flow np float2 a level, status np, pts_buf */
    cl_mem in8[2], pyr[2], grad, tens, tmp, flow, status, pts_buf;
    cl_mem jimg[OF_MAX_LEVELS];   /* the second frame's levels as CL_R float images, NULL without images */
    cl_mem jimg16[OF_MAX_LEVELS]; /* and as CL_R CL_UNORM_INT16 images (unorm16), NULL where unsupported */
    char u16_why[160];            /* unorm16's unsupported reason when jimg16 is NULL */
    cl_mem jimgh[OF_MAX_LEVELS];  /* and as CL_R CL_HALF_FLOAT images (half), NULL where unsupported */
    char half_why[160];           /* half's unsupported reason when jimgh is NULL */
    struct of_half_probe *probe;  /* whether those images read back right here (opticalflow.c), once */
    const cg_ctx *ctx;            /* the run's context, for that probe */
    char summary[512];            /* of_report: "buffers 0.0619, ..." each verified rung's end-point error */
    char summary_head[160];       /* the valid/compared counts of the first rung reported */
    char summary_ref[40];         /* " (reference 0.0619)": the reference's own end-point error */
} of_state;

/* The points solved: np when sparse, else every pixel. */
static inline size_t of_npoints(const of_state *s)
{
    return s->np ? s->np : s->n;
}

/* The pixel (y w + x of level 0) of point i. */
static inline size_t of_px(const of_state *s, size_t i)
{
    return s->np ? (size_t)s->pts[2 * i + 1] * s->w + (size_t)s->pts[2 * i] : i;
}

/* of_points.c: reads --points and --grid-step for a w x h frame (s->w, s->h set): s->np and s->grid (both 0
 * when neither is given: dense). CG_E_USAGE with one logged line for 0, a fraction, more points than pixels,
 * a step larger than the frame, or both options given. */
cg_status of_points_pick(const cg_run_opts *o, of_state *s);
/* Fills s->pts (allocated here): the grid's points row by row from (STEP/2, STEP/2), or np distinct pixels
 * chosen with a generator seeded from seed, in a seeded random order. CG_E_RUNTIME when out of memory. */
cg_status of_points_make(of_state *s, uint64_t seed);

/* of_launch.c */
cg_status of_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs);
cg_status of_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev);
void of_release(void *rs);
const char *of_rung_name(const void *rs);
bool of_rung_uses_images(const void *rs);
/* The bound on the error of the rung's stored J values in grey levels: OF_U16_QUANTUM for unorm16, else 0. */
double of_rung_jquant(const void *rs);
/* early-exit's stop in px (s->eps), 0 for every rung that always takes --iterations steps. */
double of_rung_eps(const of_state *s, const void *rs);
/* Creates s->jimg16 where the device reads and writes CL_R CL_UNORM_INT16 2D images, else sets s->u16_why;
 * and s->jimgh, CL_R CL_HALF_FLOAT, else s->half_why. */
/* One CL_R image per pyramid level of the given channel type (opticalflow.c). */
cg_status of_make_images(cg_ctx *ctx, of_state *s, cl_channel_type type, cl_mem *img);
cg_status of_make_u16_images(cg_ctx *ctx, of_state *s);
cg_status of_make_half_images(cg_ctx *ctx, of_state *s);
/* Untimed, before every run: fills the second frame's images of an image rung with NaN (the runner poisons
 * buffers only), so that a rung that skips the copy into them fails. */
cg_status of_poison(cg_ctx *ctx, void *state, void *rs);

/* of_check.c: compares s->got and s->got_st with the reference (the rule and its tolerance are derived in
 * docs/workloads/opticalflow.md); texture: the second frame was read through a texture unit's bilinear
 * filter, whose weights may have only 8 fractional bits; jq: the bound on its stored values' error, grey
 * levels (of_rung_jquant); eps: early-exit's stop (of_rung_eps), 0 for the others. */
void of_check(of_state *s, bool texture, double jq, double eps, cg_check *c);
/* Logs once per rung (INFO) how many flows were compared, and on the synthetic pair the mean end-point error
 * of the verified flow against the known motion next to the reference's. */
void of_report(of_state *s, const char *rung);
/* One line for the ladder (called at teardown): the counts and each reported rung's end-point error. */
void of_report_summary(const of_state *s);

/* of_ref.c: the reference's pyramid, derivatives and G of both frames (kept in s->lv until of_ref_free), and
 * its own flow and status (s->ref_flow, s->ref_st: every level from its own coarser flow; s->lref must hold
 * one of_ref_px a point of level 0); CG_E_RUNTIME with a logged line when out of host memory. */
cg_status of_reference(of_state *s);
/* Points of level L: np sparse, its pixels dense. */
size_t of_level_points(const of_state *s, int L);
/* Solves level L (after of_reference) from the guess twice `coarse`, the flow of level L + 1 (dense: a float2
 * a pixel of level L + 1, pixel (x/2, y/2) clamped is (x, y)'s guess; sparse: a float2 a point, its own),
 * 0 where coarse is NULL (the coarsest level); out gets one answer a point of the level (dense: a pixel,
 * row by row). The kernels' algorithm in double on up to 16 threads. */
void of_ref_level(const of_state *s, int L, const float *coarse, of_ref_px *out);
/* One reference step at pixel (x, y) of level L from the flow (dx, dy): out gets the flow after it and the
 * error terms at its samples (its step's length is out->eta): whether (dx, dy) is a fixed point. */
void of_ref_step(const of_state *s, int L, size_t x, size_t y, double dx, double dy, of_ref_px *out);
void of_ref_free(of_state *s);

/* of_synth.c: the seeded synthetic pair (frame[0], frame[1]) and its known motion truth[] (2 floats a pixel):
 * a smoothed random texture, the second frame the first warped bilinearly by a smooth sub-pixel flow. */
cg_status of_synthesize(of_state *s, uint64_t seed);
/* Mean end-point error of the flow against truth over the tracked points (flow and status one a point, as
 * got) at least margin from every border; *count gets how many. */
double of_mean_epe(const of_state *s, const float *flow, const uint8_t *status, size_t margin, size_t *count);

#endif
