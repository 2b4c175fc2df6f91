/* `clgauge peak`: the device's measured ceilings. One table of tests (name, family, function); each test
 * appends its figures as rows of a cg_report of kind CG_KIND_PEAK (model/result.h: the family is a row's
 * workload, the test its rung). The pure rate arithmetic and the guards (zero-copy,
 * watchdog, time budget) are exposed for the unit tests. */
#ifndef CG_PEAK_H
#define CG_PEAK_H
#include <stdbool.h>
#include <stdint.h>
#include "core/context.h"
#include "model/result.h"

/* One launch is kept under this many seconds whatever --max-time says: display watchdogs fire at ~2 s. */
#define CG_PEAK_WATCHDOG_S 0.5
/* A host<->device transfer faster than this moved no bytes: the buffer is the host memory (zero-copy). No
 * host link or host memcpy comes near 1 TB/s. */
#define CG_PEAK_ZERO_COPY_BPS 1e12

/* Called after each selected test with its rows rep->rows[first .. rep->n-1], its index among the selected
 * tests (1-based), their count and the seconds spent so far: the CLI streams rows and shows progress. */
typedef void (*cg_peak_progress_fn)(const cg_report *rep, size_t first, size_t i, size_t n, double elapsed_s,
                                    void *user);

/* How the kernel tests that honour --timer time a launch (the others always use events). */
typedef enum cg_peak_timer {
    CG_PEAK_TIMER_EVENTS, /* profiling START -> END of each launch, best of the runs (the default) */
    CG_PEAK_TIMER_HOST,   /* seed 001's Listing 14-1: 2 warm-ups, then host clock around 10 launches +
                           * clFinish, / 10 */
    CG_PEAK_TIMER_BOTH    /* events as the figure, plus a "host-timer" row and the ratio */
} cg_peak_timer;
/* "events", "host", "both" into *t; false for another word. */
bool cg_peak_timer_parse(const char *s, cg_peak_timer *t);

typedef struct cg_peak_opts {
    bool quick;      /* fewer variants and sizes: what `run` measures when no cache exists */
    double max_time; /* seconds of timed runs per figure (one launch also stays under CG_PEAK_WATCHDOG_S) */
    uint64_t seed;   /* seed of the random input data */
    cg_peak_progress_fn progress; /* NULL: silent */
    void *user;                   /* handed to progress */
    cg_peak_timer timer;          /* --timer (events when zero-initialised) */
} cg_peak_opts;

/* What a test function gets: the device, the options, and the report its rows go to. */
typedef struct cg_peak_env {
    cg_ctx *ctx;
    const cg_peak_opts *o;
    cg_report *rep;
    const char *family, *test; /* of the running test, copied into each row */
    cl_program util;           /* bandwidth.cl with default options (the random fill), built on first use */
    bool host_ok;              /* the running test honours --timer (set by the test, cleared per test) */
    double host_best;          /* --timer both: shortest host-timed launch since the last cg_peak_timer_row */
} cg_peak_env;

typedef cg_status (*cg_peak_fn)(cg_peak_env *e);

typedef struct cg_peak_test {
    const char *name;    /* "read": selectable by --only, as is its family */
    const char *family;  /* "bandwidth" */
    const char *summary; /* one line for --help and docs */
    cg_peak_fn run;
    bool quick; /* part of `peak --quick` (the roofline's three figures) */
} cg_peak_test;

extern const cg_peak_test cg_peak_tests[];
extern const size_t cg_peak_ntests;
/* The most tests the table may hold: a selection is a bool sel[CG_PEAK_MAX_TESTS]. peak.c refuses to compile
 * past it: raise it here. */
#define CG_PEAK_MAX_TESTS 64

/* Parses --only ("bandwidth,fp32": families or test names; NULL: every test, or the quick ones when quick)
 * into sel[cg_peak_ntests]. An unknown name: one logged line naming the valid names, CG_E_USAGE. */
cg_status cg_peak_select(const char *only, bool quick, bool *sel);

/* Runs the selected tests on ctx's device, appending rows to rep (a report of kind CG_KIND_PEAK). A test that
 * fails leaves a cl_error row and the others go on; returns CG_E_RUNTIME when a row failed (cl_error),
 * CG_E_VERIFY when a result was wrong, CG_OK otherwise. */
cg_status cg_peak_run(cg_ctx *ctx, const cg_peak_opts *o, const bool *sel, cg_report *rep);

/* The roofline's ceilings from a peak report: best ok "copy" and "read" GB/s and best ok "fp32" GFLOP/s
 * (0 where the report has none). */
void cg_peak_ceilings(const cg_report *rep, double *copy_gbps, double *read_gbps, double *mad_gflops);

/* ---- pure helpers (unit-tested) */

/* amount / seconds / 1e9 (GB/s from bytes, GFLOP/s from FLOPs); 0 when seconds is not positive and finite. */
double cg_peak_rate_g(double amount, double seconds);
/* True when moving `bytes` took less time than CG_PEAK_ZERO_COPY_BPS allows (including a zero time). */
bool cg_peak_is_zero_copy(double bytes, double seconds);
/* The work per launch that makes one launch last about `target` seconds, from a probe of `work` units that
 * took `t` seconds; never more than the watchdog allows (CG_PEAK_WATCHDOG_S), never under 1. */
uint64_t cg_peak_fit_work(uint64_t work, double t, double target);
/* How many timed runs fit in max_time when one takes t seconds: between lo and hi. */
int cg_peak_runs_within(double t, double max_time, int lo, int hi);
/* The p-quantile (0..1) of sorted x[0..n-1] by linear interpolation; 0 for n == 0. */
double cg_peak_quantile(const double *sorted, size_t n, double p);

/* ---- shared by the test files */

/* Appends a row for the running test; NULL when out of memory. */
cg_result *cg_peak_add(cg_peak_env *e, const char *variant, const char *unit);
/* Sets a row's figure: value = amount / best seconds (scaled to giga), and the note. */
void cg_peak_set_rate(cg_result *row, double amount, double seconds, int runs, const char *note);
/* Marks a row not ok with a reason (printf-style). */
void cg_peak_set_status(cg_result *row, cg_rung_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The element type of a kernel's per-work-item output, for cg_peak_check_items. */
typedef enum cg_peak_elem { CG_PEAK_F32, CG_PEAK_F64, CG_PEAK_U32 } cg_peak_elem;
/* The host's value of work-item id's output: a replay of the kernel's arithmetic with the test's arg. */
typedef double (*cg_peak_replay_fn)(size_t id, const void *arg);
/* Reads out[id] (of type t) for each of the n ids and compares it with replay(id, arg) within tol relative;
 * the first mismatch marks the row wrong_result naming the work-item ("got .., want .. (host replay)").
 * CG_E_RUNTIME when a read fails. */
cg_status cg_peak_check_items(cg_peak_env *e, cl_mem out, cg_peak_elem t, const size_t *ids, size_t n,
                              double tol, cg_peak_replay_fn replay, const void *arg, cg_result *row);
/* A launch time of one kernel: one untimed warm-up, then timed runs until max_time is used up (at least 2,
 * at most 10; 3 with --quick). *best is the shortest run in seconds. local 0: the runtime picks. */
cg_status cg_peak_time_kernel(cg_peak_env *e, cl_kernel k, size_t gsz, size_t lsz, double *best, int *runs);
/* --timer for a test that honours it (e->host_ok): with host, notes in row that its figure is host-timed;
 * with both, appends a "<variant> host-timer" row of the host figure (e->host_best, same amount) whose note
 * gives the events/host ratio. Resets e->host_best. NULL row or events: nothing. */
void cg_peak_timer_row(cg_peak_env *e, cg_result *row);
/* One timed launch (waits for it): seconds from the profiling counters. */
cg_status cg_peak_launch(cg_peak_env *e, cl_kernel k, size_t gsz, size_t lsz, double *seconds);
/* Seconds one launch of a fitted-work test should take: max_time / 10, at most 50 ms (10 ms with --quick). */
double cg_peak_target(const cg_peak_env *e);
/* For kernels with an iteration-count argument (index iters_arg): two probe launches fit *iters to
 * cg_peak_target (never past the watchdog), then cg_peak_time_kernel times it. */
cg_status cg_peak_fit_time(cg_peak_env *e, cl_kernel k, cl_uint iters_arg, size_t gsz, size_t lsz,
                           cl_uint *iters, double *best, int *runs);
/* The work-group size for a 1D launch of gsz items: 256 on a GPU when it divides gsz, else 0 (runtime). */
size_t cg_peak_local(const cg_peak_env *e, size_t gsz);
/* Builds a peak .cl file with options into *p. */
cg_status cg_peak_build(cg_peak_env *e, const char *file, const char *options, cl_program *p);
/* Fills n 32-bit words of buf with random floats in [1, 2) made on the device from the seed. */
cg_status cg_peak_fill_random(cg_peak_env *e, cl_mem buf, size_t words);

#endif
