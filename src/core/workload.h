/* A workload is one struct and its rungs are rows (../shared/STYLE.md, "A ladder is data"). The runner loops
 * over the rows: it checks requirements, builds, warms up, times, poisons, verifies and fills result rows;
 * the workload only supplies inputs, the CPU reference, the enqueue of a rung's commands and the comparison.
 */
#ifndef CG_WORKLOAD_H
#define CG_WORKLOAD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/buffers.h"
#include "core/check.h"
#include "core/context.h"
#include "core/events.h"
#include "core/size.h"

/* Rung parameters are data so that they can later be swept per device: their meaning is the workload's. */
#define CG_RUNG_NPARAMS 5

typedef struct cg_rung {
    const char *name;    /* "naive": selectable as workload:name */
    const char *why;     /* one line shown in every report: what this rung changes and why it should help */
    const char *kernel;  /* the main kernel's name in the workload's .cl file */
    const char *options; /* extra build options, or NULL */
    unsigned needs;      /* cg_feature bits; a device without them reports the rung unsupported */
    size_t local_bytes;  /* local memory per work-group the rung needs (0: none) */
    int p[CG_RUNG_NPARAMS];
} cg_rung;

/* Which measured ceiling bounds a rung's bandwidth in the roofline. */
typedef enum cg_ceiling { CG_CEIL_COPY, CG_CEIL_READ } cg_ceiling;

/* The work of a rung, the same definition for every rung of a ladder that processes the same data type. */
typedef struct cg_model {
    double bytes;           /* the fewest bytes the algorithm must move: each input read once, each output
                               written once */
    double flops;           /* useful arithmetic operations (a MAD counts 2) */
    double items;           /* elements or pixels produced or consumed, for the per-item rate */
    const char *item_unit;  /* "elem", "px" */
    const char *bytes_note; /* which bytes the bandwidth counts: "R: 4 B/elem read once" */
    cg_ceiling ceiling;
} cg_model;

/* Options of `clgauge run` a workload reads. */
typedef struct cg_run_opts {
    cg_size size; /* dims 0: the workload picks a default for the device */
    uint64_t seed;
    int runs, warmup;
    const char *input;      /* --input FILE.png or NULL */
    const char *output;     /* --output FILE.png or NULL */
    double sigma;           /* --sigma (blur), 0 when not given: the workload's default */
    bool estimate;          /* --estimate: print the workloads' speed estimates */
    const char *pattern;    /* --pattern (histogram) or NULL: the workload's default */
    int filter_w, filter_h; /* one --filter size (convolution), 0 when not given: the workload's default */
    const char *variant;    /* the run's parameter label copied into every row ("32x32"), or NULL */
    bool check_exact;       /* --check exact: inputs from an exact pattern (small integers, dyadic weights)
                               whose float reference is exact, compared with zero tolerance */
} cg_run_opts;

/* One row of a workload's speed estimate (`clgauge run --estimate`, the Apple guide's method): an algorithm's
 * global memory accesses and MADs per item as its simplest kernel issues them. The CLI predicts its rate as
 * min(copy bandwidth / (4 B x accesses), MAD rate / MADs) and prints it next to the fastest measured rung
 * among `rungs`. */
typedef struct cg_estimate {
    const char *algorithm; /* "separable convolution" */
    double accesses;       /* 4-byte global reads + writes per item */
    double mads;           /* multiply-adds per item */
    const char *rungs;     /* the rungs that implement it, comma-separated ("sep,sep-local"); "" for none */
} cg_estimate;

typedef struct cg_workload {
    const char *name;
    const char *summary;   /* one line for `clgauge list` */
    const char *size_help; /* what --size means here: "N floats (2^24, 16M, 16777216)" */
    const char *cl_file;   /* "reduction.cl" */
    bool takes_images_io;  /* accepts --input/--output PNG */
    const char *patterns;  /* the --pattern values it accepts, "random|allequal|image"; NULL: none */
    const char *filters;   /* takes --filter: its default list ("32"); NULL: takes none. The CLI runs the
                              ladder once per filter size, labelling the rows with a variant ("5x5") */
    int filter_max;        /* the largest --filter side it takes: the CLI refuses a list beyond it up front */
    const cg_rung *rungs;
    size_t n_rungs;

    /* Picks the size (checking it against the device: CG_E_USAGE with the limit named), makes seeded inputs,
     * device buffers/images and the CPU reference, once per workload. *size_desc gets "2^24 floats". */
    cg_status (*setup)(cg_ctx *ctx, const cg_run_opts *o, void **state, char *size_desc, size_t len);
    void (*teardown)(void *state);
    /* The rung's work model (bytes, FLOPs, items). */
    void (*model)(const void *state, const cg_rung *r, cg_model *m);
    /* Optional: writes the rung's build options derived from its parameters ("-DWG=256"). */
    void (*options)(const void *state, const cg_rung *r, char *buf, size_t len);
    /* Creates the rung's kernels from the built program and sets their arguments; *rs is rung state. */
    cg_status (*prepare)(cg_ctx *ctx, void *state, const cg_rung *r, cl_program prog, void **rs);
    /* Optional (NULL: none): fills the rung's outputs with a poison value of its own (blocking; not timed).
     * The runner already poisons every CG_BUF_WRITTEN buffer (core/buffers.h) before every run. */
    cg_status (*poison)(cg_ctx *ctx, void *state, void *rs);
    /* Enqueues one run's commands, recording every command's event in ev. Must not block. */
    cg_status (*enqueue)(cg_ctx *ctx, void *state, void *rs, cg_events *ev);
    /* Reads the outputs back and compares them with the reference. CG_OK even when the check fails (c->ok
     * says); an error status only when reading back failed. */
    cg_status (*verify)(cg_ctx *ctx, void *state, void *rs, cg_check *c);
    void (*release)(void *rs);
    /* Optional: writes --output from the last verified rung's output. */
    cg_status (*save_output)(cg_ctx *ctx, void *state, const char *path);
    /* Optional: fills at most max rows of the speed estimate for these options; returns how many. */
    size_t (*estimate)(const cg_run_opts *o, cg_estimate *rows, size_t max);
    /* Optional: checks o (size, --filter, --sigma, --pattern, the --input picture's header) against the
     * device's limits, as setup would, before the CLI starts any device work; so that a usage error stops
     * the run before anything is measured or written. CG_E_USAGE (CG_E_IO for an unreadable --input) with
     * one logged line; creates nothing on the device. */
    cg_status (*validate)(const cg_ctx *ctx, const cg_run_opts *o);
    bool takes_sigma; /* accepts --sigma (the CLI refuses it where no selected workload does) */
} cg_workload;

/* A rung's work-group size: `want` (or `dflt` when want <= 0) clamped to the device's max_wg and rounded down
 * to a power of two. */
size_t cg_rung_pow2_wg(int want, size_t dflt, size_t max_wg);

/* Fills the first `bytes` of `mem` with a repeated poison pattern and waits (untimed, before every run), so
 * that an output element a rung fails to write cannot pass the check. CG_E_RUNTIME when the fill fails. */
cg_status cg_poison_buffer(cg_ctx *ctx, cl_mem mem, const void *pattern, size_t pattern_size, size_t bytes);

/* Enqueues kernel k over a dims-dimensional range (local NULL: the runtime picks the work-group) and records
 * its event in ev, for the runner's timing. CG_E_RUNTIME when the event list cannot grow or the enqueue
 * fails; never blocks. */
cg_status cg_enqueue_kernel(cg_ctx *ctx, cg_events *ev, cl_kernel k, cl_uint dims, const size_t *global,
                            const size_t *local);

/* Looks a rung up by name; NULL when the workload has none such. */
const cg_rung *cg_workload_rung(const cg_workload *w, const char *name);

#endif
