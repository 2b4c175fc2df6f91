/* The blur workload's shared definitions: the meaning of a rung's p[], the algorithms, the references and
 * their tolerances, and the state that blur.c (setup, checks), blur_launch.c (each rung's launches),
 * blur_ref.c (host arithmetic) and blur_est.c (the --estimate rows) share. */
#ifndef CG_BLUR_H
#define CG_BLUR_H
#include <stdbool.h>
#include <stdint.h>
#include "core/workload.h"

#define BLUR_DEFAULT_SIGMA 5.0
#define BLUR_MIN_SIGMA     0.5  /* Young-van Vliet's q(sigma) is defined from 0.5 */
#define BLUR_MAX_SIGMA     32.0 /* radius 96: the fused rung's tile still fits 48 KiB of local memory */
/* The recursive rungs must also be within BLUR_TOL_TRUTH x (largest input) of the sampled Gaussian they
 * approximate (docs/workloads/blur.md gives the measured errors). The float-against-double tolerances are
 * error bounds derived per rung in blur.c (convolutions), blur_bound.c (Young-van Vliet) and blur_bound_dr.c
 * (Deriche). */
#define BLUR_TOL_TRUTH 0.08
/* The Deriche rungs' (dH, dV, deriche, deriche-vt16): for inputs in [0, x] the filter's distance from the
 * sampled Gaussian (radius 3 sigma) is at most x times half of l1(h - g) per direction, 0.0026 at sigma 32
 * (0.0052 both ways, computed over the sigma range: docs/workloads/blur.md), plus the float recursion's own
 * error (measured 1.2e-3 at sigma 32). */
#define BLUR_TOL_TRUTH_DR 0.01
/* --check exact: pixels are integers 1..BLUR_EXACT_MAX (a --input picture's top four bits) and the weights
 * dyadic (blur_exact_weights), so that every convolution sum is exact in float. */
#define BLUR_EXACT_MAX 15
#define BLUR_INTERIOR  3 /* the setup log also gives the error beyond 3 radii of the borders */
/* The block rungs' block length (their P_BLK, built in as -DBLK): 32 was the fastest on PoCL of 16 to 128
 * (docs/workloads/blur.md) and keeps a work-item's block in 32 private floats on a GPU. */
#define BLUR_BLK 32

/* Local bytes of the tiled kernels for a WX x WY group (PY rows each) at radius r; the rung table gives them
 * for r = 15 (sigma 5) and prepare re-checks them for the radius of --sigma. */
#define LOCAL_SEP(wx, wy, r) ((size_t)((wy) + 2 * (r)) * ((wx) + 1) * sizeof(float))
#define LOCAL_FUSED(wx, wy, py, r)                                                                           \
    ((size_t)((wy) * (py) + 2 * (r)) * ((((wx) + 2 * (r)) | 1) + (wx) + 1) * sizeof(float))
/* fused-ring's: blk rows of the group's wx*cx columns + 2r, rounded up to whole cx-float vectors; its row
 * loop is unrolled BLUR_RING_U times (blk a multiple of it) */
#define BLUR_RING_U 8
#define LOCAL_RING(wx, cx, r, blk)                                                                           \
    ((size_t)(blk) * ((wx) + (2 * (r) + 2 * (cx)-1) / (cx)-1) * (cx) * sizeof(float))
/* rgH-tiles' and recursive-tiles' row passes: wx/32 tiles of 32 rows of blk pixels, each row padded by one */
#define LOCAL_TILES(wx, blk) ((size_t)(wx) * ((blk) + 1) * sizeof(float))
/* recursive-fixl's fix-up kernels (blur_blk.cl, FIXL): two stages of cb blocks x 3 slots x 32 lines */
#define LOCAL_FIXL(cb) (2 * (size_t)(cb)*3 * 32 * sizeof(float))
/* rgH-whole's and recursive-whole's row kernel (blur_blk.cl, WHOLE): a row of w pixels in blocks of blk, each
 * padded by one float, and the blocks' 6 carries */
#define LOCAL_WHOLE(w, blk) ((((size_t)(w) + (blk)-1) / (blk)) * ((blk) + 1 + 6) * sizeof(float))

/* cg_rung.p[]: algorithm, work-group shape, rows per work-item, the block rungs' block length (-DBLK).
 * fused-ring: P_WGY is its columns per work-item (-DCX; 0: by the radius), P_PY its strip's rows, P_BLK the
 * rows loaded into local memory at a time. The f16x3 rungs (A_MMA): P_WGX is its warps a group (-DLY),
 * P_PY the output rows a warp walks (a multiple of 16), P_BLK a register cap (-cl-nv-maxrregcount; 0: none).
 */
enum { P_ALGO, P_WGX, P_WGY, P_PY, P_BLK };
enum {
    A_CONV2D,
    A_SEP,
    A_SEP_LOCAL,
    A_RG_H,
    A_RG_V,
    A_RG,
    A_RG_VT,
    A_RG_HT,
    A_FUSED,
    A_RGB_V, /* the recursive filter cut into blocks (Nehab et al. 2011): columns only, rows only, both */
    A_RGB_H,
    A_RGB,
    A_DR_H, /* Deriche's recursive Gaussian (the guide's 4+4 taps): rows, columns, both, both as V+T+V+T */
    A_DR_V,
    A_DR,
    A_DR_VT16,
    A_RG_VT16, /* recursive-vt with the guide's 16x16 skewed transposes (transposeLS) */
    A_RING,    /* fused with the column sums in registers (fused-ring) */
    A_CPU,     /* a CPU's layout: a ring of row-filtered rows in private memory, 8 columns a work-item */
    A_MMA,     /* both passes as Toeplitz products on tensor cores, the f16x3 split (blur_mma.cl) */
    A_COUNT
};
/* Host references: the sampled Gaussian (both ways, rows only, columns only), the recursive one likewise,
 * and the separable convolution with the kernels' weights g (REF_CONV: the same array as REF_GAUSS unless
 * --check exact replaced the weights). */
enum {
    REF_GAUSS,
    REF_GAUSS_H,
    REF_GAUSS_V,
    REF_RG,
    REF_RG_H,
    REF_RG_V,
    REF_CONV,
    REF_DR,
    REF_DR_H,
    REF_DR_V,
    REF_COUNT
};

typedef struct blur_state {
    size_t w, h, n;
    double sigma;
    int r;           /* radius: 2r+1 taps */
    bool exact;      /* --check exact: integer pixels, dyadic weights g (docs/workloads/blur.md) */
    bool cpu;        /* the device is a CPU (fused-ring's columns per work-item: blur_ring_cx) */
    bool nv_options; /* the device takes NVIDIA's build options (cl_nv_compiler_options): f16x3's regs */
    double range;    /* the largest input value: 1 (pixel / 255), or BLUR_EXACT_MAX when exact */
    float *g, *g2;   /* the kernels' 1D weights (2r+1), 2D weights (2r+1)^2 = g[j] * g[i] */
    float *gt;       /* the sampled Gaussian's weights, the truth the recursive rungs are held to */
    float c[4];      /* Young-van Vliet B, b1/b0, b2/b0, b3/b0 */
    float m[9];      /* the anti-causal pass's start at the far border (blur_yvv_boundary) */
    double bound_rows, bound_cols, bound_both; /* the recursive rungs' error bounds (blur_bound.c) */
    float dk[16]; /* Deriche's coefficients (blur_deriche_coeffs): n0..n3, m1..m4, d1..d4, the two starts */
    double dbound_rows, dbound_cols, dbound_both; /* the Deriche rungs' error bounds (blur_bound_dr.c) */
    int bound_blk; /* the block length the next three are for (0: none yet; blur_verify computes them) */
    double bound_rows_blk, bound_cols_blk, bound_both_blk; /* the block rungs' (blur_bound_blk.c) */
    uint8_t *in8;                                          /* the picture as bytes (PNG or seeded) */
    float *in, *got;
    float *ref[REF_COUNT]; /* NULL until a check needs it (blur_need_refs) */
    unsigned refs_built;   /* the groups of ref[] built, a bit each (blur_ref.c) */
    uint8_t *saved;        /* the last verified output as grey, for --output */
    bool have_saved;
    cl_mem in_buf, out_buf, tmp_buf, tmp2_buf, g_buf, g2_buf;
    cl_mem carry_buf; /* the block rungs' carries: 6 floats per line and block (blur_blk.cl) */
    /* recursive-colc's column carries (6 floats per column and 32-row block), made by the rows' pass 3 while
     * the rows' carries are still in use: created by the first such rung's prepare */
    cl_mem carry2_buf;
} blur_state;

/* blur_ref.c: builds the references ref and truth (-1: none) of s->ref[] from s->in unless built, each group
 * of them once (the recursive filters' also logged against the sampled Gaussian); CG_E_RUNTIME, logged, when
 * host memory runs out. */
cg_status blur_need_refs(blur_state *s, int ref, int truth);
/* Largest |a - b| over the w x h pixels at least margin from every border. */
double blur_max_diff(const float *a, const float *b, size_t w, size_t h, size_t margin);
/* blur_launch.c: the rung's kernels and launches. */
/* The local memory per work-group rung r needs at the state's radius (cg_workload.local_need). */
size_t blur_local_need(const void *state, const cg_rung *r);
cg_status blur_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs);
cg_status blur_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev);
void blur_release(void *rs);
int blur_rung_algo(const void *rs);
/* fused-ring's columns per work-item (its -DCX) for rung r on s's device at s's radius: P_WGY, or if 0, up
 * to radius 24 4 on a CPU (PoCL's search at sigma 5: 4 beat 2 by 1.57x, one vector of a CPU's SIMD lanes) and
 * 2 elsewhere (two columns' 2R register sums leave room for more than one group of 32 per SM quarter: the
 * H100's search at sigma 5 preferred 2 to 4 by 1.22x; docs/workloads/blur.md), beyond it 1; past radius 64
 * the sums spill to private memory. Its rows loaded at a time (-DBLK): P_BLK, or if 0, 32, and 8 where the
 * sums spill (the local rows then leave more of the L1 to the spilled sums). */
int blur_ring_cx(const blur_state *s, const cg_rung *r);
int blur_ring_blk(const blur_state *s, const cg_rung *r);
/* f16x3-sep's largest radius: each of its 1 + 2 ceil(R / 16) chunks of 16 taps holds 16 registers a lane
 * (the taps' A fragments and the ring's B fragments), which spill past 7 chunks. */
#define BLUR_MMA_MAX_R 48
/* fused-ring's strip rows: p[P_PY], or for 0 by device: 512 on a CPU (PoCL's search: 1.19x over 128 with
 * 4 columns a work-item, fewer halo rows for threads that each walk whole strips), 128 elsewhere. */
int blur_ring_py(const blur_state *s, const cg_rung *r);
/* The block length of a block rung (P_BLK), 0 for the others. */
int blur_rung_blk(const void *rs);
/* blur_check.c: the recursive rungs' bounds for rows, columns and both ways (blur_bound*.c), set at setup
 * and logged; the check of a rung's output (cg_workload.verify). */
void blur_recursive_bounds(blur_state *s);
cg_status blur_verify(cg_ctx *ctx, void *state, void *rs, cg_check *c);
/* blur_est.c: the rows of `clgauge run blur --estimate`. */
size_t blur_estimate(const cg_run_opts *o, cg_estimate *rows, size_t max);

#endif
