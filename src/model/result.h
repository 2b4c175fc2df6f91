/* The result model every report is written from, for `run` and `peak` alike: one metadata block plus one row
 * type (a rung of a run, or a figure of a peak run) with one status vocabulary. Which fields a document's
 * rows carry is the field table's (model/fields.h) business. It depends on nothing but the C library, so
 * report writers stay independent of OpenCL. */
#ifndef CG_RESULT_H
#define CG_RESULT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The report schema every JSON file (run, peak, devices) is written in; the loader also reads version 1. */
#define CG_SCHEMA_VERSION 2

/* Which document a report is: its rows carry the fields of cg_row_fields marked with its bit. */
typedef enum cg_report_kind {
    CG_KIND_RUN = 1u << 0,  /* `clgauge run`: one row per rung */
    CG_KIND_PEAK = 1u << 1, /* `clgauge peak`: one row per measured figure */
} cg_report_kind;

/* The status of every row, run and peak. For a peak figure, ok means measured (and checked where the test has
 * a check), wrong_result that the figure is not trusted, and cl_error covers a failed build too. */
typedef enum cg_rung_status {
    CG_RUNG_OK,           /* ran and matched the reference */
    CG_RUNG_WRONG,        /* "wrong_result": ran, did not match (FAILED row, exit 3) */
    CG_RUNG_UNSUPPORTED,  /* the device lacks what the rung needs: not run, not a failure */
    CG_RUNG_BUILD_FAILED, /* the compiler rejected the kernel (exit 4) */
    CG_RUNG_CL_ERROR,     /* an OpenCL call failed while running it (exit 4) */
    CG_RUNG_ZERO_COPY,    /* peak only: a transfer that moved no bytes (the buffer is host memory): no rate */
} cg_rung_status;
/* The statuses a run row may have (a run file with "zero_copy" is damaged). */
#define CG_RUNG_LAST_RUN CG_RUNG_CL_ERROR

/* "ok", "wrong_result", "unsupported", "build_failed", "cl_error", "zero_copy": the status words of every
 * JSON and CSV file; "unknown" for a value outside the enum. */
const char *cg_rung_status_name(cg_rung_status s);
/* True for the statuses that make the exit code a failure: wrong_result, build_failed, cl_error. */
bool cg_rung_status_failed(cg_rung_status s);
/* The status word as the text table and the HTML page show it: "OK", "FAILED" (wrong_result),
 * "unsupported", "BUILD-FAILED", "CL-ERROR", "zero-copy"; a failure in capitals. NULL for an unknown word.
 * docs/report-schema.md lists the pairs. */
const char *cg_status_label(const char *word);

/* Warnings about a row, each with the fix the user can apply (hyperfine's warnings.rs). */
typedef enum cg_warning {
    CG_WARN_HIGH_CV = 1u << 0,    /* coefficient of variation above 5% */
    CG_WARN_TOO_SHORT = 1u << 1,  /* median under 20 us: launch overhead and timer resolution dominate */
    CG_WARN_OUTLIERS = 1u << 2,   /* statistical outliers among the runs */
    CG_WARN_ABOVE_ROOF = 1u << 3, /* faster than the measured roofline: the data fits in a cache */
    CG_WARN_EMULATED = 1u << 4, /* ran on an emulation of a feature the device lacks (CLGAUGE_EMULATE_MMA) */
} cg_warning;
#define CG_WARN_COUNT 5
/* Short name ("high_cv") and the one-line message with its fix for one warning bit. */
const char *cg_warning_name(unsigned bit);
const char *cg_warning_fix(unsigned bit);

/* A row's raw per-run times, seconds, timed runs only, in run order (hyperfine's "times"): s is malloc'd,
 * owned by the row and freed by cg_report_fini; n == 0 (s NULL) when the rung did not run, or for a file
 * written before times were kept. */
typedef struct cg_times {
    double *s;
    size_t n;
} cg_times;

/* A rung's stages (`cg_events_stage`: "pyramid", "solve"), each with the median over the timed runs of its
 * commands' summed device time, seconds; n == 0 for a rung that marks none. */
#define CG_STAGES_MAX 8
typedef struct cg_stages {
    size_t n;
    char name[CG_STAGES_MAX][24];
    double median_s[CG_STAGES_MAX];
} cg_stages;

/* The facts of the kernel a rung's row describes (core/kfacts.h fills them; docs/tune.md, "Kernel facts and
 * occupancy"): the kernel that took the most device time in one untimed run of the rung, its work-group as
 * launched, what clGetKernelWorkGroupInfo says of it, its registers per work-item where the driver tells
 * (NVIDIA's ptxas log) and the estimated occupancy of one compute unit (core/occupancy.h). Zero, "" (and
 * occupancy NaN) where not known: a rung that did not run, a file written before these fields. */
typedef struct cg_kfacts {
    char kernel[64];                               /* the kernel's name ("reduce_local") */
    unsigned kernels;                              /* distinct kernels the rung launched */
    char wg_local[24];                             /* local size as launched: "256", "16x16", "auto" (NULL) */
    size_t wg_size;                                /* work-items of one launched group; 0 for "auto" */
    size_t wg_max, wg_multiple;                    /* CL_KERNEL_WORK_GROUP_SIZE, ..._PREFERRED_..._MULTIPLE */
    unsigned long long local_bytes, private_bytes; /* CL_KERNEL_LOCAL_MEM_SIZE, CL_KERNEL_PRIVATE_MEM_SIZE */
    unsigned registers;                            /* per work-item (NVIDIA ptxas); 0: not known */
    unsigned occ_groups;                           /* resident work-groups per compute unit; 0: not known */
    unsigned occ_warps;                            /* resident warps (SIMD groups) per compute unit; 0: n/a */
    double occupancy;                              /* occ_warps / the most a compute unit holds; NaN: n/a */
    char occ_limit[12]; /* what bounds occ_groups: "local", "registers", "threads", "groups" */
    char occ_model[16]; /* the per-CU limits used: "sm_90" (NVIDIA table), "generic", "cpu" */
} cg_kfacts;

/* One row of a report. A peak row is a figure: its family ("bandwidth") is the workload, its test ("read")
 * the rung, its variant ("float4") the variant, its figure value/unit/amount, what it counts bytes_note; the
 * timing fields it carries are t_min (the best launch) and runs. Fields a kind does not carry stay zero. */
typedef struct cg_result {
    char workload[32], rung[32]; /* peak: family and test */
    char variant[48]; /* the run's parameter label ("32x32": one size of a --filter sweep), "" for none: rows
                         of one workload with different variants are separate groups in every report; peak:
                         "float4", "pinned write 64 MiB" */
    char why[160];
    char size_desc[64];
    /* run: the tunable parameters the rung ran with ("wg=128,copies=4") when they are not the rung's own (a
     * winner from the tuning cache), else ""; tune: each candidate's, the rung's own included */
    char params[96];
    /* where params came from: run "tuned" (the tuning cache); tune a comma-separated list of "default" (the
     * rung's own values), "rule:NAME" (a seed rule's pick, core/tune.h), "search" (the strategy's), "best"
     * (the fastest); "" otherwise */
    char params_from[96];
    cg_rung_status status;
    char reason[256]; /* why it is not ok: the check's detail, the missing feature, the failing call */
    /* timing, seconds, over the timed runs (warm-up dropped) */
    size_t runs;
    double t_min, t_median, t_mean, t_stddev, t_cv, t_max;
    size_t outliers;
    /* work model and rates from the median time */
    double bytes, flops, items;
    char item_unit[8];
    char bytes_note[160]; /* which bytes the bandwidth counts; peak ("counts"): what the figure counts */
    char ceiling[8];      /* "copy" or "read": which bandwidth ceiling the roofline uses */
    bool tensor;          /* cg_model.tensor (not in the reports: the rung's why-line says it) */
    double gbps, gflops, items_per_s;
    double roofline_pct; /* 100 * max(bytes/bw_ceiling, flops/flop_ceiling) / median time */
    double speedup;      /* first rung's median / this rung's median (0 when either did not run) */
    /* the speedup's bootstrap interval (core/resample.h): 1 and 1 for the first rung, 0 when not known */
    double speedup_lo, speedup_hi;
    /* check */
    bool check_ok;
    double max_abs_err, max_rel_err, tolerance;
    double bound_ratio;       /* worst |got - want| / its error bound: <= 1 passes; 0 for an exact check */
    long long first_mismatch; /* -1 when none */
    size_t mismatches;
    /* build */
    double build_s; /* seconds to get the program: a build from source or a cache load */
    bool cache_hit;
    unsigned warnings; /* cg_warning bits */
    cg_times times;    /* the timed runs' seconds: times.n == runs when kept */
    cg_stages stages;  /* per-stage medians of the rung's marked stages */
    cg_kfacts facts;   /* run: the rung's main kernel and its estimated occupancy */
    /* peak: the figure in unit ("GB/s", "GFLOP/s", "GIOP/s", "us"; 0 when not ok) and the bytes or operations
     * it counts per launch (0 for latencies) */
    double value;
    char unit[12];
    double amount;
} cg_result;

/* The device block of every report (run, peak) and of `devices --json`: one field table (cg_device_fields in
 * model/fields.h) gives its keys, labels and kinds to every writer and to the reader. */
typedef struct cg_report_device {
    char platform[128], platform_version[128], name[256], vendor[128], version[128], driver[128], type[16];
    char c_version[128];
    char local_mem_type[8],
        global_cache_type[12]; /* "local"/"global"/"none"; "none"/"read-only"/"read-write" */
    unsigned compute_units, clock_mhz, global_cacheline;
    unsigned long long wg_multiple; /* preferred work-group size multiple; 0: unknown */
    unsigned long long global_mem, global_cache, local_mem, const_mem, max_alloc, max_wg;
    bool images, fp64, nvidia_ptx;
    bool fp16, fp16_known; /* fp16 is written as null while not known (`run` does not probe it) */
} cg_report_device;

/* A report of either kind: the metadata block (tool, time, command line, device, the kind's options) and the
 * growable array of rows. */
/* One row of a workload's speed estimate (`run --estimate`, the Apple guide's method): an algorithm's cost
 * per item as its simplest kernel issues it, the rate that cost predicts from the measured ceilings, the
 * seed's own estimate where it gives one, and the fastest measured rung implementing it. */
typedef struct cg_est_row {
    char workload[32], algorithm[64];
    double accesses, flops; /* 4-byte global accesses and FLOPs (a MAD is 2) per item */
    double predicted;       /* items/s: min(copy / (4 B x accesses), MAD rate / FLOPs) */
    double seed;            /* the seed's own estimate, items/s; 0: it gives none */
    char rungs[64];         /* the rungs implementing it, comma-separated; "" none */
    char rung[32];          /* the fastest of them that ran OK; "" none */
    double measured;        /* its items/s; 0: none */
} cg_est_row;

typedef struct cg_report {
    cg_report_kind kind;
    char tool_version[32], git_commit[48], time_utc[32];
    char command_line[1024];
    cg_report_device device;
    /* run options */
    uint64_t seed;
    int runs, warmup;
    char size_arg[64]; /* --size as given, "" for the defaults */
    bool no_cache;
    /* roofline ceilings */
    double copy_gbps, read_gbps, mad_gflops;
    char roofline_source[16]; /* "measured" or "cache" */
    /* peak options */
    bool quick;
    double max_time; /* --max-time, seconds per figure */
    cg_result *rows;
    size_t n, cap;
    cg_est_row *est; /* run --estimate's rows (malloc'd), n_est of them */
    size_t n_est;
} cg_report;

/* The longest group label cg_result_group writes, NUL included. */
#define CG_GROUP_LEN 96
/* Writes the row's group label to buf: "convolution[32x32]" when it has a variant, else the workload name
 * ("reduction"). Every report shows, charts and compares the rows group by group. */
void cg_result_group(const cg_result *r, char *buf, size_t len);
/* True when a and b belong to the same group: the same workload and the same variant. */
bool cg_result_same_group(const cg_result *a, const cg_result *b);

/* An empty report of kind k: CG_KIND_RUN for cg_report_init. */
void cg_report_init(cg_report *r);
void cg_report_init_kind(cg_report *r, cg_report_kind k);
void cg_report_fini(cg_report *r);
/* Appends a zeroed row and returns it (NULL when out of memory). */
cg_result *cg_report_add(cg_report *r);

#endif
