/* The cloth workload's shared definitions: the physical constants, the spring families and colours, the
 * schemes a rung runs, and the state that cloth.c (options, setup, checks), cloth_ref.c (the host references,
 * the same float operations as cloth.cl in the same order), cloth_launch.c (each rung's host loop of
 * launches) and cloth_draw.c (the --output picture) share. A cloth is W x H particles, particle (x, y) at
 * index y * W + x, each a float4: position in xyz, inverse mass in w (1, or 0 for the pinned top row);
 * --cloths N of them lie one after another. */
#ifndef CG_CLOTH_H
#define CG_CLOTH_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/workload.h"

#define CLOTH_DEFAULT_GRID  "128x128"
#define CLOTH_DEFAULT_ITERS 10
#define CLOTH_DEFAULT_STEPS 4
#define CLOTH_MAX_ITERS     1000
#define CLOTH_MAX_STEPS     1000
#define CLOTH_MAX_WORK      20000 /* --steps x --iterations per run: bounds the launches (and events) */
#define CLOTH_MAX_SIDE      1024  /* the CLI's bound on a --grid side (CG_FILTER_DIM_MAX) */
#define CLOTH_MAX_CLOTHS    4096
#define CLOTH_MAX_PARTICLES (1 << 27) /* all cloths together */
#define CLOTH_MAX_LAUNCHES  2000000   /* --steps x --iterations x --cloths: the per-cloth rung's launches */

/* Physics of one frame (cloth_ref.c and cloth.cl read them through the kernel arguments). */
#define CLOTH_DT       (1.0 / 60.0)
#define CLOTH_GRAVITY  (-9.8)
#define CLOTH_DAMPING  0.99
#define CLOTH_WIND_X   0.4 /* wind velocity direction times strength, per unit of dt^2 */
#define CLOTH_WIND_Z   2.0
#define CLOTH_JACOBI_W 1.5 /* Jacobi over-relaxation: a particle moves by w / (its springs) x the sum */

/* Spring families, in the coloured scheme's order: structural along x and y, shear down-right and down-left,
 * bend (two apart) along x and y. Each splits into 2 colours: 12 launches per iteration, the fewest
 * possible (an interior particle has 12 springs, so no two of its springs may share a colour). */
enum { F_STRUCT_X, F_STRUCT_Y, F_SHEAR_D, F_SHEAR_A, F_BEND_X, F_BEND_Y, F_COUNT };
#define CLOTH_COLOURS (2 * F_COUNT)
/* Particle colours of the per-particle (gather) schemes: (x + 2y) mod 5 differs across every spring; 5 is the
 * fewest, as (0,0), (1,0), (2,0), (1,1), (1,-1) are pairwise joined. */
#define CLOTH_VCOLOURS 5

/* What a rung computes; the host reference of each deterministic scheme replays its order. */
typedef enum cloth_scheme {
    S_COLOUR, /* one work-item per spring, one launch per spring colour (Gauss-Seidel by colours) */
    S_VERTEX, /* one work-item per particle gathering its 12 springs, one launch per particle colour */
    S_SINGLE, /* as S_VERTEX over every particle in one launch: neighbours race (non-deterministic) */
    S_JACOBI, /* as S_SINGLE, but reading the previous iterate and writing a second buffer */
    S_TILE,   /* tiles in local memory, S_VERTEX's colours inside each, halos from the previous iterate */
    S_COUNT
} cloth_scheme;

/* cg_rung.p[]; cloth_jonce (jacobi-once) takes P_WGY as the rows of its strip: its group is P_WGX x 1. */
enum { P_SCHEME, P_WGX, P_WGY, P_READBACK, P_PERCLOTH };
#define CLOTH_ONCE_KERNEL "cloth_jonce"

/* The Jacobi iterations per launch of a cloth_jtile rung: its build option -DJK=n (0 for every other rung).
 */
int cloth_rung_jk(const cg_rung *r);
/* The arithmetic a rung's kernels do, as the host replays it: CLOTH_A_FMA for -DFMA (the spring arithmetic in
 * fused multiply-adds), plus CLOTH_A_RSQ2 for -DRSQ2 (1/sqrt in two Newton steps, not three). */
enum { CLOTH_A_FMA = 1, CLOTH_A_RSQ2 = 2, CLOTH_ARITHS = 4 };
int cloth_rung_arith(const cg_rung *r);
/* Whether a rung's build options hold -DCM: its states stored colour-major (cloth.cl's IDX). */
bool cloth_rung_cm(const cg_rung *r);
/* Whether they hold -DNOPREV: its integration writes the next state only (cloth_enqueue). */
bool cloth_rung_noprev(const cg_rung *r);
/* cloth_jacobi's particles a work-item: its build option -DPR=n (1 without). */
int cloth_rung_pr(const cg_rung *r);
/* Slots of one cloth in a colour-major buffer: 5 colours x H rows x ceil(W / 5) (at least W x H). */
size_t cloth_cm_slots(int w, int h);

/* Constants of a run, as the kernels get them. */
typedef struct cloth_params {
    int w, h;
    float rest[3], stiff[3]; /* structural, shear, bend */
    float grav;              /* gravity * dt^2 (y) */
    float damp;
    float wind[3];    /* wind * dt^2 */
    float jscale[16]; /* Jacobi: CLOTH_JACOBI_W / n for a particle with n springs (0 for n = 0) */
    bool fma;         /* the host's replays only: a -DFMA rung's fused multiply-adds (cloth_rung_arith) */
    int newton;       /* the host's replays only: cloth_rsqrt's Newton steps, 3 (2 for -DRSQ2) */
} cloth_params;

/* The residual of a state: over every spring, the relative stretch |len - rest| / rest. */
typedef struct cloth_resid {
    double rms, max;
} cloth_resid;

/* A host reference run of one scheme: the final state, the residual of each iteration of the last frame
 * (before[0] after the integration, then after each iteration). */
typedef struct cloth_ref {
    float *pos;        /* 4 floats per particle */
    cloth_resid *last; /* iters + 1 entries */
} cloth_ref;

typedef struct cloth_state {
    cloth_params prm;
    size_t n;     /* particles of one cloth */
    size_t total; /* particles of all cloths: n x cloths */
    size_t slots; /* float4 slots of every state buffer: the colour-major layout's (cloth_cm_slots x cloths,
                     at least total) */
    int cloths;   /* --cloths */
    size_t nsprings; /* springs of every family, of all cloths */
    int iters, steps;
    size_t max_wg;
    int tile[2];    /* S_TILE's tile (its work-group), set by prepare */
    float *init;    /* the initial state, 4 floats per particle */
    float *got;     /* read back */
    float *scratch; /* 4 states of all cloths: the device's last two relaxed states, re-integrated */
    float *cm;      /* a colour-major state as read from the device (4 x slots floats) */
    cloth_ref ref[CLOTH_ARITHS][S_COUNT]; /* [arith][scheme], computed on first use (pos NULL until then) */
    cl_mem init_buf;             /* the initial state (input; frame 0 reads it as both cur and prev) */
    cl_mem init_cm;              /* the same, colour-major (the -DCM rungs' input) */
    cl_mem cur[2], prev[2], tmp; /* frame ping-pong and the Jacobi iterate (all written) */
    cl_mem jscale_buf;
    char
        summary[512]; /* "colour 1.00, merged 0.84, ...": each verified rung's stretch / the coloured one's */
    int runs;         /* --runs: the most runs of the timed CPU reference */
    float *shot;      /* --output: the first cloth's state after the last verified run (NULL: no --output) */
    bool shot_taken, shot_det; /* shot holds a state; of a deterministic rung */
    const char *shot_rung;     /* the rung that left it */
} cloth_state;

/* cloth_ref.c */
/* 1/sqrt(x) for x > 0 from + and * only, as cloth.cl's rsq: a bit-level guess and `steps` Newton steps
 * (each with one fused multiply-add when fma, as with -DFMA). */
float cloth_rsqrt(float x, bool fma, int steps);
/* p's replay of the arithmetic `arith` (cloth_rung_arith): its fma and Newton steps. */
void cloth_set_arith(cloth_params *p, int arith);
/* Colour c's springs (family c / 2): how many, and the anchors' layout (cloth_colour_spring). */
size_t cloth_colour_count(const cloth_params *p, int c, size_t *na);
/* Spring t of colour c: its endpoints a, b (particle indices); na from cloth_colour_count. */
void cloth_colour_spring(const cloth_params *p, int c, size_t na, size_t t, size_t *a, size_t *b);
/* The CPU-order reference, timed: s->steps frames of every cloth from s->init, each integrated as the kernels
 * do, then s->iters iterations of Gauss-Seidel in spring order (each particle's springs to the right and
 * below, row by row, in place: the single-threaded CPU solver of the talk), on the calling thread. The
 * final state goes to pos (4 floats a particle, all cloths); *seconds gets the wall time of the frames alone
 * (no allocation, no copy). CG_E_RUNTIME when out of memory. */
cg_status cloth_cpu_order_run(const cloth_state *s, float *pos, double *seconds);
/* Fills r (allocating its arrays) with scheme sc's run, in arithmetic `arith` (cloth_rung_arith), of s->steps
 * frames of every cloth from s->init; CG_E_RUNTIME when out of memory. S_SINGLE is replayed as an in-place
 * gather in particle order. */
cg_status cloth_ref_run(const cloth_state *s, cloth_scheme sc, int arith, cloth_ref *r);
void cloth_ref_free(cloth_ref *r);
/* One frame's integration of one cloth on the host (cloth.cl's cloth_integrate): (cur, prev) -> (ncur,
 * nprev). */
void cloth_integrate_host(const cloth_params *p, const float *cur, const float *prev, float *ncur,
                          float *nprev);
/* The residual of state pos: `cloths` cloths one after another. */
cloth_resid cloth_residual(const cloth_params *p, const float *pos, int cloths);
/* Springs of every family in a w x h grid. */
size_t cloth_spring_total(int w, int h);

/* cloth.c: every cloth's state from the row-major layout (row) into the colour-major one (cm) with to_cm,
 * else back; cm's empty slots are left as they are. */
void cloth_cm_convert(const cloth_state *s, float *row, float *cm, bool to_cm);

/* cloth_check.c: the checks of rung rs's last run (cg_workload.verify). */
cg_status cloth_verify(cg_ctx *ctx, void *state, void *rs, cg_check *c);

/* cloth_draw.c */
#define CLOTH_PICTURE_W 800 /* --output's size */
#define CLOTH_PICTURE_H 600
/* Draws one cloth of w x h particles (pos: 4 floats each) into pix, pw x ph bytes of grey: a fixed oblique
 * orthographic view, quads in painter's order, Lambert-shaded, checkered, fitted with a margin on a dark
 * background. CG_E_RUNTIME when out of memory. */
cg_status cloth_draw(const float *pos, int w, int h, uint8_t *pix, int pw, int ph);

/* cloth_launch.c */
/* The rung's work-group shape: its p[] clamped to the device (halving the larger side); for cloth_jonce
 * (P_WGX, 1), its strip's rows in *rows (else 0; rows may be NULL). */
void cloth_rung_wg(const cloth_state *s, const cg_rung *r, size_t wg[2], int *rows);
/* Local memory of a cloth_jonce group of tx work-items: 5 rows of tx + 1 positions, 6 factors a column. */
size_t cloth_once_local(size_t tx);
cg_status cloth_prepare(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs);
cg_status cloth_enqueue(cg_ctx *ctx, void *state, void *rs, cg_events *ev);
void cloth_release(void *rs);
/* The buffer that holds the final state after the last run of rung rs, and the rung's scheme. */
cl_mem cloth_result_buf(const void *rs);
cloth_scheme cloth_rung_scheme(const void *rs);
/* The last frame's integration inputs (current, previous state) as the last run of rs left them. */
void cloth_rung_pre(const void *rs, cl_mem pre[2]);
int cloth_rung_arith_of(const void *rs); /* cloth_rung_arith of the rung rs was prepared from */
bool cloth_rung_cm_of(const void *rs);   /* cloth_rung_cm of it */
const char *cloth_rung_name(const void *rs);
/* True (once per rung) when verify should log the rung's convergence. */
bool cloth_rung_first_verify(void *rs);

#endif
