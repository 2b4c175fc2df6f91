/* The launches of each opticalflow rung, as data: a plan says which stages the rung runs (the second frame's
 * levels copied into images or not, the derivative kernel, how G is summed, the solve kernel); prepare turns
 * it into a list of steps, one kernel (or image copy) per stage and level with its arguments set, and enqueue
 * replays the list, every command's event recorded, so that a run is timed as a whole. Sparse (s->np), the
 * solve steps are 1D over the point list and take it, its length and the level as three more arguments. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "core/log.h"
#include "workloads/opticalflow/opticalflow.h"

typedef enum { GRAD_NONE, GRAD_F2, GRAD_F4 } grad_kind;
typedef enum { TENS_NONE, TENS_WINDOW, TENS_BOX } tens_kind;

typedef enum { IMG_NONE, IMG_FLOAT, IMG_U16, IMG_HALF } img_kind;

typedef struct plan {
    img_kind images;
    grad_kind grad;
    tens_kind tens;
} plan;

static const plan plans[] = {
    [PLAN_NAIVE] = {IMG_NONE, GRAD_NONE, TENS_NONE}, [PLAN_PRE] = {IMG_NONE, GRAD_F2, TENS_WINDOW},
    [PLAN_LOCAL] = {IMG_NONE, GRAD_F2, TENS_WINDOW}, [PLAN_IMG] = {IMG_FLOAT, GRAD_F2, TENS_WINDOW},
    [PLAN_BEST] = {IMG_FLOAT, GRAD_F4, TENS_BOX},    [PLAN_U16] = {IMG_U16, GRAD_F4, TENS_BOX},
    [PLAN_EXIT] = {IMG_U16, GRAD_F4, TENS_BOX},      [PLAN_HALF] = {IMG_HALF, GRAD_F4, TENS_BOX},
};

#define MAX_STEPS (1 + 6 * OF_MAX_LEVELS)

typedef struct step {
    cl_kernel k;       /* NULL: copy level `level` of the second frame into its image */
    const char *stage; /* the JSON's stages_s: "pyramid", "images", "gradients+G", "solve" */
    int level;
    cl_uint dims;
    size_t global[2], local[2];
    bool auto_local; /* local size NULL (wgx=0,wgy=0): the runtime picks */
} step;

typedef struct of_rung {
    const cg_rung *r;
    img_kind images;
    cl_mem *img; /* the images the rung reads (s->jimg), or NULL */
    size_t n;
    step st[MAX_STEPS];
    const char *stage; /* the stage the steps being added belong to */
} of_rung;

const char *of_rung_name(const void *rs)
{
    return ((const of_rung *)rs)->r->name;
}

bool of_rung_uses_images(const void *rs)
{
    return ((const of_rung *)rs)->images != IMG_NONE;
}

double of_rung_jquant(const void *rs)
{
    img_kind k = ((const of_rung *)rs)->images;
    return k == IMG_U16 ? OF_U16_QUANTUM : k == IMG_HALF ? OF_HALF_QUANTUM : 0;
}

double of_rung_eps(const of_state *s, const void *rs)
{
    return ((const of_rung *)rs)->r->p[P_PLAN] == PLAN_EXIT ? s->eps : 0;
}

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

void of_release(void *rs)
{
    of_rung *q = rs;
    if (!q) return;
    for (size_t i = 0; i < q->n; i++)
        if (q->st[i].k) clReleaseKernel(q->st[i].k);
    free(q);
}

/* The rung's next step, in the stage its steps are being added to. */
static step *next_step(of_rung *q)
{
    step *p = &q->st[q->n++];
    p->stage = q->stage;
    return p;
}

/* A new 2D step over level L's pixels (the rung's work-group, clamped to the device; wgx=0,wgy=0: NULL). */
static step *add2d(of_rung *q, const of_state *s, int L)
{
    step *p = next_step(q);
    size_t wx = (size_t)q->r->p[P_WGX], wy = (size_t)q->r->p[P_WGY];
    p->auto_local = wx == 0 || wy == 0; /* both 0: of_unsupported refuses one alone */
    if (p->auto_local) wx = wy = 1;     /* global = the level's size */
    while (wx * wy > s->max_wg && wy > 1)
        wy /= 2;
    while (wx * wy > s->max_wg && wx > 1)
        wx /= 2;
    p->level = L;
    p->dims = 2;
    p->local[0] = wx;
    p->local[1] = wy;
    p->global[0] = round_up(s->lw[L], wx);
    p->global[1] = round_up(s->lh[L], wy);
    return p;
}

/* Sets the kernel's arguments from a list of (size, pointer) pairs. */
#define ARGS(k, ...)                                                                                         \
    do {                                                                                                     \
        struct {                                                                                             \
            size_t sz;                                                                                       \
            const void *p;                                                                                   \
        } a_[] = {__VA_ARGS__};                                                                              \
        for (cl_uint i_ = 0; i_ < sizeof a_ / sizeof a_[0]; i_++)                                            \
            CG_TRY(clSetKernelArg(k, i_, a_[i_].sz, a_[i_].p));                                              \
    } while (0)
#define M(x)                                                                                                 \
    {                                                                                                        \
        sizeof(cl_mem), &(x)                                                                                 \
    }
#define I(x)                                                                                                 \
    {                                                                                                        \
        sizeof(cl_int), &(x)                                                                                 \
    }

/* The pyramid: level 0 of both frames as floats, then each level from the one below. */
static cg_status pyramid_steps(of_rung *q, const of_state *s, cl_program prog)
{
    cg_status st = CG_OK;
    q->stage = "pyramid";
    step *p = next_step(q);
    cl_int n = (cl_int)s->n;
    p->dims = 1;
    p->global[0] = round_up(s->n, 256);
    p->local[0] = s->max_wg < 256 ? s->max_wg : 256;
    p->global[0] = round_up(s->n, p->local[0]);
    CG_TRY_OBJ(p->k, clCreateKernel(prog, "of_level0", CG_ERRP));
    ARGS(p->k, M(s->in8[0]), M(s->in8[1]), M(s->pyr[0]), M(s->pyr[1]), I(n));
    for (int L = 1; L < s->levels; L++) {
        cl_int so = (cl_int)s->off[L - 1], sw = (cl_int)s->lw[L - 1], sh = (cl_int)s->lh[L - 1];
        cl_int dof = (cl_int)s->off[L], dw = (cl_int)s->lw[L], dh = (cl_int)s->lh[L];
        p = add2d(q, s, L);
        CG_TRY_OBJ(p->k, clCreateKernel(prog, "of_down", CG_ERRP));
        ARGS(p->k, M(s->pyr[0]), M(s->pyr[1]), I(so), I(sw), I(sh), I(dof), I(dw), I(dh));
    }
out:
    return st;
}

/* The second frame's levels copied into the rung's images (enqueue sees a step without a kernel). */
static void image_steps(of_rung *q, const of_state *s)
{
    q->stage = "images";
    for (int L = 0; L < s->levels && q->img; L++)
        next_step(q)->level = L;
}

/* unorm16, half: the second frame's levels written into the rung's images by a kernel (a copy moves bytes).
 */
static cg_status convert_steps(of_rung *q, const of_state *s, cl_program prog, const char *kernel)
{
    cg_status st = CG_OK;
    q->stage = "images";
    for (int L = 0; L < s->levels; L++) {
        cl_int off = (cl_int)s->off[L], w = (cl_int)s->lw[L], h = (cl_int)s->lh[L];
        step *p = add2d(q, s, L);
        CG_TRY_OBJ(p->k, clCreateKernel(prog, kernel, CG_ERRP));
        ARGS(p->k, M(s->pyr[1]), M(q->img[L]), I(off), I(w), I(h));
    }
out:
    return st;
}

/* Per level: the derivatives, then G (window by window, or rows then columns). */
static cg_status tensor_steps(of_rung *q, const of_state *s, const plan *pl, cl_program prog)
{
    cg_status st = CG_OK;
    q->stage = "gradients+G";
    for (int L = 0; L < s->levels && pl->grad != GRAD_NONE; L++) {
        cl_int off = (cl_int)s->off[L], w = (cl_int)s->lw[L], h = (cl_int)s->lh[L];
        step *p = add2d(q, s, L);
        CG_TRY_OBJ(p->k, clCreateKernel(prog, pl->grad == GRAD_F4 ? "of_grad4" : "of_grad", CG_ERRP));
        ARGS(p->k, M(s->pyr[0]), M(s->grad), I(off), I(w), I(h));
        p = add2d(q, s, L);
        if (pl->tens == TENS_WINDOW) {
            CG_TRY_OBJ(p->k, clCreateKernel(prog, "of_tensor", CG_ERRP));
            ARGS(p->k, M(s->grad), M(s->tens), I(off), I(w), I(h));
            continue;
        }
        CG_TRY_OBJ(p->k, clCreateKernel(prog, "of_box_rows", CG_ERRP));
        ARGS(p->k, M(s->grad), M(s->tmp), I(off), I(w), I(h));
        p = add2d(q, s, L);
        CG_TRY_OBJ(p->k, clCreateKernel(prog, "of_box_cols", CG_ERRP));
        ARGS(p->k, M(s->tmp), M(s->tens), I(off), I(w), I(h));
    }
out:
    return st;
}

/* A new 1D step over the sparse points (the rung's work-group size, clamped to the device). */
static step *add_points(of_rung *q, const of_state *s, int L)
{
    step *p = next_step(q);
    size_t wg = cg_rung_pow2_wg(q->r->p[P_WGX] * q->r->p[P_WGY], 256, s->max_wg);
    p->level = L;
    p->dims = 1;
    p->local[0] = wg;
    p->global[0] = round_up(s->np, wg);
    return p;
}

/* Per level, coarsest first: the solve, reading the coarser level's flow as its guess; sparse, over the
 * points (their list, count and the level follow the dense arguments). */
static cg_status solve_steps(of_rung *q, const of_state *s, const plan *pl, cl_program prog)
{
    cg_status st = CG_OK;
    q->stage = "solve";
    for (int L = s->levels - 1; L >= 0; L--) {
        cl_int off = (cl_int)s->off[L], w = (cl_int)s->lw[L], h = (cl_int)s->lh[L], fine = L == 0;
        cl_int coff = L + 1 < s->levels ? (cl_int)s->off[L + 1] : -1;
        cl_int cw = L + 1 < s->levels ? (cl_int)s->lw[L + 1] : 1,
               ch = L + 1 < s->levels ? (cl_int)s->lh[L + 1] : 1;
        cl_int np = (cl_int)s->np, lvl = L;
        step *p = s->np ? add_points(q, s, L) : add2d(q, s, L);
        CG_TRY_OBJ(p->k, clCreateKernel(prog, q->r->kernel, CG_ERRP));
        cl_uint a = 0;
        if (pl->grad == GRAD_F4) {
            CG_TRY(clSetKernelArg(p->k, a++, sizeof(cl_mem), &s->grad));
        } else {
            CG_TRY(clSetKernelArg(p->k, a++, sizeof(cl_mem), &s->pyr[0]));
        }
        CG_TRY(clSetKernelArg(p->k, a++, sizeof(cl_mem), q->img ? &q->img[L] : &s->pyr[1]));
        if (pl->grad == GRAD_F2) {
            CG_TRY(clSetKernelArg(p->k, a++, sizeof(cl_mem), &s->grad));
        }
        if (pl->tens != TENS_NONE) {
            CG_TRY(clSetKernelArg(p->k, a++, sizeof(cl_mem), &s->tens));
        }
        cl_int tail[] = {off, w, h, coff, cw, ch, fine};
        CG_TRY(clSetKernelArg(p->k, a++, sizeof(cl_mem), &s->flow));
        CG_TRY(clSetKernelArg(p->k, a++, sizeof(cl_mem), &s->status));
        for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++)
            CG_TRY(clSetKernelArg(p->k, a++, sizeof(cl_int), &tail[i]));
        if (!s->np) continue;
        CG_TRY(clSetKernelArg(p->k, a++, sizeof(cl_mem), &s->pts_buf));
        CG_TRY(clSetKernelArg(p->k, a++, sizeof(cl_int), &np));
        CG_TRY(clSetKernelArg(p->k, a++, sizeof(cl_int), &lvl));
    }
out:
    return st;
}

cg_status of_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rsp)
{
    (void)ctx;
    cg_status st = CG_OK;
    of_state *s = state;
    const plan *pl = &plans[r->p[P_PLAN]];
    of_rung *q = calloc(1, sizeof *q);
    CG_FAIL_IF(!q, CG_E_RUNTIME, "opticalflow: out of host memory");
    q->r = r;
    q->images = pl->images;
    q->img = pl->images == IMG_FLOAT  ? s->jimg
             : pl->images == IMG_U16  ? s->jimg16
             : pl->images == IMG_HALF ? s->jimgh
                                      : NULL;
    CG_FAIL_IF(q->img && !q->img[0], CG_E_RUNTIME,
               "opticalflow: rung %s needs CL_R images this device cannot make", r->name);
    if ((st = pyramid_steps(q, s, prog)) != CG_OK) goto out;
    if (q->images == IMG_U16 || q->images == IMG_HALF)
        st = convert_steps(q, s, prog, q->images == IMG_U16 ? "of_to_u16" : "of_to_half");
    else
        image_steps(q, s);
    if (st != CG_OK) goto out;
    if ((st = tensor_steps(q, s, pl, prog)) != CG_OK) goto out;
    st = solve_steps(q, s, pl, prog);
out:
    if (st != CG_OK) {
        of_release(q);
        q = NULL;
    }
    *rsp = q;
    return st;
}

cg_status of_enqueue(cg_ctx *ctx, void *state, void *rsp, cg_events *ev)
{
    cg_status st = CG_OK;
    const of_state *s = state;
    of_rung *q = rsp;
    for (size_t i = 0; i < q->n; i++) {
        const step *p = &q->st[i];
        cg_events_stage(ev, p->stage);
        if (p->k) {
            if ((st = cg_enqueue_kernel(ctx, ev, p->k, p->dims, p->global,
                                        p->auto_local ? NULL : p->local)) != CG_OK)
                break;
            continue;
        }
        cl_event *e = cg_events_next(ev);
        CG_FAIL_IF(!e, CG_E_RUNTIME, "opticalflow: out of host memory for events");
        size_t origin[3] = {0, 0, 0}, region[3] = {s->lw[p->level], s->lh[p->level], 1};
        CG_TRY(clEnqueueCopyBufferToImage(ctx->queue, s->pyr[1], s->jimg[p->level],
                                          s->off[p->level] * sizeof(float), origin, region, 0, NULL, e));
    }
out:
    return st;
}

cg_status of_poison(cg_ctx *ctx, void *state, void *rsp)
{
    cg_status st = CG_OK;
    const of_state *s = state;
    const of_rung *q = rsp;
    cl_float4 nan4 = {{NAN, NAN, NAN, NAN}};
    if (q->images == IMG_U16) nan4 = (cl_float4){{1, 1, 1, 1}}; /* unorm holds no NaN: flat white (255) */
    for (int L = 0; L < s->levels && q->img; L++) {
        size_t origin[3] = {0, 0, 0}, region[3] = {s->lw[L], s->lh[L], 1};
        CG_TRY(clEnqueueFillImage(ctx->queue, q->img[L], &nan4, origin, region, 0, NULL, NULL));
    }
    CG_TRY(clFinish(ctx->queue));
out:
    return st;
}

/* Both the read-only and the write-only lists: of_to_u16 or of_to_half writes the images, the solve reads
 * them; img NULL and why set where either lacks CL_R of the type. */
static cg_status make_rw_images(cg_ctx *ctx, of_state *s, cl_channel_type type, const char *name, cl_mem *img,
                                char *why, size_t len)
{
    cl_mem_flags use[2] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
    cl_image_format list[512];
    for (int u = 0; u < 2; u++) {
        cl_uint n = 0;
        bool found = false;
        if (clGetSupportedImageFormats(ctx->context, use[u], CL_MEM_OBJECT_IMAGE2D, 512, list, &n) !=
            CL_SUCCESS)
            n = 0;
        for (cl_uint i = 0; i < n && i < 512; i++)
            found |= list[i].image_channel_order == CL_R && list[i].image_channel_data_type == type;
        if (!found) {
            snprintf(why, len, "the device does not %s CL_R %s 2D images", u ? "write" : "read", name);
            return CG_OK;
        }
    }
    return of_make_images(ctx, s, type, img);
}

cg_status of_make_u16_images(cg_ctx *ctx, of_state *s)
{
    return make_rw_images(ctx, s, CL_UNORM_INT16, "CL_UNORM_INT16", s->jimg16, s->u16_why, sizeof s->u16_why);
}

cg_status of_make_half_images(cg_ctx *ctx, of_state *s)
{
    return make_rw_images(ctx, s, CL_HALF_FLOAT, "CL_HALF_FLOAT", s->jimgh, s->half_why, sizeof s->half_why);
}
