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
#include "core/tune.h"

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
    bool tensor; /* the arithmetic runs on units beyond the fp32 MAD ceiling (tensor cores): the roofline %
                    stays against that ceiling and may pass 100 where it binds, without the above-roofline
                    warning (which is for a bandwidth figure from a cache) */
} cg_model;

/* A run option a workload declares in its own descriptor (cg_workload.wopts): the CLI merges these rows into
 * parsing, `run --help`, `list` (text and --json), the shell completions and the check that a given option
 * has a selected workload that takes it, so that adding one touches only the workload's folder. Several
 * workloads may declare one name; they must then agree on kind, metavar and words (tests/unit check it). */
typedef enum cg_wopt_kind {
    CG_WOPT_FLAG,    /* no value: given or not */
    CG_WOPT_NUMBER,  /* a positive real ("2.5"); the workload checks its own range in validate */
    CG_WOPT_WORD,    /* one of `words`: the CLI refuses any other value, naming them */
    CG_WOPT_EXTENTS, /* N (NxN) or WxH, each side 1 to `max`; a comma-separated list is a sweep: the CLI runs
                        the ladder once per item, each run's rows labelled "WxH" (their variant) */
} cg_wopt_kind;

typedef struct cg_wopt {
    const char *name;    /* "sigma": --sigma */
    const char *metavar; /* "S" in the help; NULL for a flag */
    const char *help;    /* one line without the workload's name: the CLI prefixes the workloads taking it */
    cg_wopt_kind kind;
    const char
        *words; /* CG_WOPT_WORD: the values, '|'-separated ("random|allequal"); the shells complete them */
    const char *dflt; /* the value used when not given, as text ("random", "32"; for EXTENTS a list the CLI
                         sweeps), or NULL; shown by `list --json` */
    int max;          /* CG_WOPT_EXTENTS: the largest side */
} cg_wopt;

/* One workload option's value as the workload reads it. For an EXTENTS sweep, one item of it. */
typedef struct cg_wopt_value {
    const char *name; /* the option's name ("sigma") */
    const char *text; /* as given ("2.5", "random"; for EXTENTS "5x3", one item) */
    double num;       /* CG_WOPT_NUMBER: the value */
    int w, h;         /* CG_WOPT_EXTENTS: the item's sides */
} cg_wopt_value;

/* The workload options given on a command line, each name at most once (the last given wins). */
#define CG_WOPTS_MAX 32
typedef struct cg_wopts {
    size_t n;
    cg_wopt_value v[CG_WOPTS_MAX];
} cg_wopts;

/* The value of option `name`, or NULL when it was not given (or s is NULL). */
const cg_wopt_value *cg_wopts_find(const cg_wopts *s, const char *name);
/* The entry for `name`, cleared and with its name set when new; NULL when s already holds CG_WOPTS_MAX other
 * names (the CLI's merged table holds at most that many distinct names, so that a parse cannot reach it). */
cg_wopt_value *cg_wopts_set(cg_wopts *s, const char *name);
/* NUMBER: its value when given, else dflt. */
double cg_wopts_number(const cg_wopts *s, const char *name, double dflt);

/* Options of `clgauge run` a workload reads. */
typedef struct cg_run_opts {
    cg_size size; /* dims 0: the workload picks a default for the device */
    uint64_t seed;
    int runs, warmup;
    const char *input;  /* --input FILE.png (takes_images_io) or A,B (takes_text_io), or NULL */
    const char *output; /* --output FILE.png (takes_images_io) or a text file (takes_text_io), or NULL */
    const cg_wopts
        *wopts;          /* the workload options given (cg_workload.wopts), one item of a sweep; NULL: none */
    const char *variant; /* the run's parameter label copied into every row ("32x32"), or NULL */
    bool no_tuned;       /* --no-tuned: every rung with its own parameters, not the tuning cache's winners */
    bool check_exact;    /* --check exact: inputs from an exact pattern (small integers, dyadic weights)
                            whose float reference is exact, compared with zero tolerance */
} cg_run_opts;

/* How a workload reads and checks --size (cg_size_pick): its default per device type, the form it takes and
 * its limits, as data, so that every ladder refuses a size in the same words. */
typedef struct cg_size_rule {
    const char *workload;          /* the name that opens every refusal ("blur") */
    const char *unit;              /* what one element is called: "floats", "bytes", "pixels", "elements" */
    int dims;                      /* 1: a count (WxH refused); 2: WxH, N meaning NxN */
    uint64_t dflt_gpu, dflt_other; /* the default count (dims 1) or side (dims 2) on GPUs, on other devices */
    uint64_t dflt_floor;           /* the default halves (each side for dims 2) while it does not fit, down to
                                      this: into one allocation, and `buffers` of it into half the memory */
    double elem_bytes;             /* bytes of one element in one buffer */
    double buffers;                /* buffers of w x h elements that must fit in global memory together */
    uint64_t max_count;            /* the most elements (INT_MAX: the kernels index with int) */
    uint64_t max_side;             /* dims 2: the most each way (0: max_count) */
    bool image2d;                  /* also within the device's largest 2D image when the context has images */
    bool picture;                  /* --input FILE.png sets the size; --size with it is refused */
} cg_size_rule;

/* Picks w x h (h = 1 for dims 1): with rule->picture and o->input the picture's size (header only), else
 * o->size, else the rule's default for the device type, halved until it fits; then cg_size_check. CG_E_USAGE
 * with one logged line naming the limit and the fix; CG_E_IO when --input cannot be read. */
cg_status cg_size_pick(const cg_ctx *ctx, const cg_size_rule *rule, const cg_run_opts *o, size_t *w,
                       size_t *h);
/* Checks w x h against the rule's limits and the device's (largest allocation, global memory, largest 2D
 * image): CG_OK, or CG_E_USAGE with one logged line (CG_E_RUNTIME when the image limits cannot be read). */
cg_status cg_size_check(const cg_ctx *ctx, const cg_size_rule *rule, size_t w, size_t h);

/* One row of a workload's speed estimate (`clgauge run --estimate`, the Apple guide's method): an algorithm's
 * global memory accesses and MADs per item as its simplest kernel issues them. The CLI predicts its rate as
 * min(copy bandwidth / (4 B x accesses), MAD rate / MADs) and prints it next to the fastest measured rung
 * among `rungs`. */
typedef struct cg_estimate {
    const char *algorithm; /* "separable convolution" */
    double accesses;       /* 4-byte global reads + writes per item */
    double mads;           /* multiply-adds per item */
    const char *rungs;     /* the rungs that implement it, comma-separated ("sep,sep-local"); "" for none */
    double seed_mpps;      /* the seed's own estimate in M items/s where its table has the row, else 0 */
} cg_estimate;

typedef struct cg_workload {
    const char *name;
    const char *summary;   /* one line for `clgauge list` */
    const char *size_help; /* what --size means here: "N floats (2^24, 16M, 16777216)" */
    const char *cl_file;   /* "reduction.cl": the kernels of every rung, unless rung_cl_file names another */
    /* Optional (NULL: every rung builds cl_file): the .cl file rung r builds, NULL for cl_file. Its files are
     * also listed in more_cl_files (NULL-terminated), which --kernel-dir must hold as well. */
    const char *(*rung_cl_file)(const cg_rung *r);
    const char *const *more_cl_files;
    bool takes_images_io; /* a capability: accepts the shared --input/--output PNG options */
    bool takes_text_io;   /* a capability: --input A,B (two files of bytes) and --output (a text result) */
    bool takes_length; /* a capability: --length N|NxM, another name of --size (lcs: the strings' lengths) */
    const cg_wopt *wopts; /* the run options of its own (NULL: none); at most one of kind CG_WOPT_EXTENTS */
    size_t n_wopts;
    const cg_rung *rungs;
    size_t n_rungs;
    /* The tunable parameters of some rungs (core/tune.h; `clgauge tune`), or NULL: none. A candidate is a
     * copy of the rung's row with the space's p[] entries replaced and local_bytes 0, so that the local
     * memory it needs must come from local_need (below) where it depends on those entries. */
    const cg_tspace *tune;
    size_t n_tune;

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
    /* Optional: called once the ladder's rows are complete (speedups too), before teardown, with this run's
     * rows of the workload: for a line of its own on the ladder (cloth: its timed CPU reference against the
     * fastest rung). Logs only; the rows are not changed. */
    void (*summarize)(void *state, const cg_result *rows, size_t n);
    /* Optional: writes --output from the last verified rung's output. */
    cg_status (*save_output)(cg_ctx *ctx, void *state, const char *path);
    /* Optional: fills at most max rows of the speed estimate for these options; returns how many. */
    size_t (*estimate)(const cg_run_opts *o, cg_estimate *rows, size_t max);
    /* Optional: checks o (size, its own options' values and ranges, the --input picture's header) against
     * the device's limits, as setup would, before the CLI starts any device work; so that a usage error
     * stops the run before anything is measured or written. CG_E_USAGE (CG_E_IO for an unreadable --input)
     * with one logged line; creates nothing on the device. Called once per item of a sweep. */
    cg_status (*validate)(const cg_ctx *ctx, const cg_run_opts *o);
    /* Optional: the local memory per work-group the rung needs with this run's options (blur's tiles grow
     * with sigma), when larger than its fixed local_bytes. A rung needing more than the device has is
     * reported unsupported with both figures, and the rest of the ladder runs. */
    size_t (*local_need)(const void *state, const cg_rung *r);
    /* Optional: true when rung r cannot run with this state for a size-dependent reason its row cannot state
     * (lcs's row-major matrix above one allocation), the reason written to why: reported unsupported. */
    bool (*unsupported)(const void *state, const cg_rung *r, char *why, size_t len);
} cg_workload;

/* The option `name` that w declares, or NULL. */
const cg_wopt *cg_workload_option(const cg_workload *w, const char *name);
/* w's sweepable option (the first of kind CG_WOPT_EXTENTS), or NULL. */
const cg_wopt *cg_workload_sweep(const cg_workload *w);

/* A rung's work-group size: `want` (or `dflt` when want <= 0) clamped to the device's max_wg and rounded down
 * to a power of two. */
size_t cg_rung_pow2_wg(int want, size_t dflt, size_t max_wg);
/* The .cl file rung r of w builds: w->rung_cl_file's answer, else w->cl_file. */
const char *cg_rung_cl_file(const cg_workload *w, const cg_rung *r);
/* Whether the rung's build options hold `opt` (e.g. "-DFMA"). */
bool cg_rung_has_option(const cg_rung *r, const char *opt);
/* The number after `opt` in the rung's build options (e.g. 4 for "-DJK=" in "-DJK=4"), or 0 without it. */
int cg_rung_option_int(const cg_rung *r, const char *opt);

/* Fills the first `bytes` of `mem` with a repeated poison pattern and waits (untimed, before every run), so
 * that an output element a rung fails to write cannot pass the check. CG_E_RUNTIME when the fill fails. */
cg_status cg_poison_buffer(cg_ctx *ctx, cl_mem mem, const void *pattern, size_t pattern_size, size_t bytes);

/* Enqueues kernel k over a dims-dimensional range (local NULL: the runtime picks the work-group) and records
 * its event in ev, for the runner's timing, and the launch in ev->launches when set (core/kfacts.h: the
 * row's kernel facts; a launch made without this function has none). CG_E_RUNTIME when the event list cannot
 * grow or the enqueue fails; never blocks. */
cg_status cg_enqueue_kernel(cg_ctx *ctx, cg_events *ev, cl_kernel k, cl_uint dims, const size_t *global,
                            const size_t *local);
/* cg_enqueue_kernel with a global work offset (NULL: none), for a rung that launches over parts of a range.
 */
cg_status cg_enqueue_kernel_at(cg_ctx *ctx, cg_events *ev, cl_kernel k, cl_uint dims, const size_t *offset,
                               const size_t *global, const size_t *local);
/* cg_enqueue_kernel of `groups` one-dimensional work-groups of wg work-items. */
cg_status cg_enqueue_groups(cg_ctx *ctx, cg_events *ev, cl_kernel k, size_t groups, size_t wg);

/* Calls fn on each of the n rungs and on every candidate of its tuning space among spaces (core/tune.h): a
 * copy of the row with the candidate's values, so that set-up can size its buffers for the most any of them
 * needs. */
void cg_rungs_each_candidate(const cg_rung *rungs, size_t n, const cg_tspace *spaces, size_t n_spaces,
                             void (*fn)(const cg_rung *r, void *user), void *user);

/* Looks a rung up by name; NULL when the workload has none such. */
const cg_rung *cg_workload_rung(const cg_workload *w, const char *name);

#endif
