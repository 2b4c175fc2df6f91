/* Tunable rung parameters, the search over them and the seeds' work-group rules (`clgauge tune`, issue 20;
 * docs/tune.md). A workload declares, as data in its descriptor, which cg_rung.p[] entries of which rungs may
 * be searched and over which values (cg_tspace); a candidate is a copy of the rung row with those p[] entries
 * replaced, run by the same runner as any rung (built, verified against the reference, timed). Invalid
 * candidates are skipped with the reason: a work-group over the device's limit here, local memory or a
 * workload's own constraint through the runner's unsupported checks, a failed build or enqueue there. */
#ifndef CG_TUNE_H
#define CG_TUNE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/rng.h"

#define CG_TUNE_MAXP 4  /* parameters per space */
#define CG_TUNE_MAXV 12 /* values per parameter */

/* What a parameter means to the seeds' rules (a rule sets the work-group roles and leaves the others at the
 * rung's own value). */
typedef enum cg_tune_role {
    CG_TR_OTHER,         /* tile, items per work-item, copies, unroll: no seed rule speaks of it */
    CG_TR_WG_X,          /* the work-group size (1D) or its x side; 0 among the values: local size NULL */
    CG_TR_WG_Y,          /* the work-group's y side */
    CG_TR_GROUPS_PER_CU, /* a grid of k x compute-units work-groups (persistent-style rungs) */
} cg_tune_role;

typedef struct cg_tparam {
    const char *name; /* "wg", "copies": shown as wg=128 and accepted by the tuning cache */
    int index;        /* the cg_rung.p[] entry it sets */
    cg_tune_role role;
    int n; /* values in v */
    int v[CG_TUNE_MAXV];
} cg_tparam;

/* The search space of some rungs of a workload (cg_workload.tune). */
typedef struct cg_tspace {
    const char *rungs; /* the rungs it applies to, comma-separated ("local,local-copies") */
    int n;             /* parameters in p */
    cg_tparam p[CG_TUNE_MAXP];
} cg_tspace;

/* The space of rung `rung` among n spaces, or NULL when it has none. */
const cg_tspace *cg_tune_space_of(const cg_tspace *spaces, size_t n, const char *rung);
/* The number of candidates of a space (the product of its parameters' value counts). */
size_t cg_tune_space_size(const cg_tspace *s);
/* Candidate i (0 <= i < size) as values, one per parameter, in the space's order (the last one fastest). */
void cg_tune_candidate(const cg_tspace *s, size_t i, int *vals);
/* The index of candidate vals in the space (cg_tune_candidate's inverse), or (size_t)-1 when a value is not
 * among its parameter's values. */
size_t cg_tune_index(const cg_tspace *s, const int *vals);
/* "wg=128,copies=4" for vals; "" for no parameters. */
void cg_tune_format(const cg_tspace *s, const int *vals, char *buf, size_t len);
/* Parses "wg=128,copies=4" (every name of the space, each once, any order; the values need not be among the
 * space's, so that a rule's literal pick can be stored) into vals: false when a name is unknown, missing or
 * repeated or a value is not an integer. */
bool cg_tune_parse(const cg_tspace *s, const char *text, int *vals);
/* Narrows s to the values text gives ("wg=64,128;loads=4": ';' between parameters, ',' between values; the
 * parameters not named keep theirs): false with the reason in err when a name is not the space's, repeated,
 * or a value list is empty, not integers or longer than CG_TUNE_MAXV. */
bool cg_tune_restrict(cg_tspace *s, const char *text, char *err, size_t len);
/* The rung's own values for the space (its p[] entries). */
void cg_tune_defaults(const cg_tspace *s, const int *rung_p, int *vals);
/* Writes vals into a copy of the rung's parameters p (CG_RUNG_NPARAMS entries). */
void cg_tune_apply(const cg_tspace *s, const int *vals, int *p);

/* Device facts the rules read. */
typedef struct cg_tune_dev {
    unsigned cus;  /* compute units */
    size_t max_wg; /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    unsigned simd; /* warp / wavefront width where known (NVIDIA's warp size), else 0 */
} cg_tune_dev;

/* One of the seeds' work-group rules, applied literally. */
typedef struct cg_tune_rule {
    const char *name; /* "null", "amd-wavefronts", "nvidia-warps", "report-32x4", "mapping-4wave" */
    const char *seed; /* the seed file it comes from */
    const char *says; /* one line: what it prescribes */
} cg_tune_rule;
#define CG_TUNE_NRULES 5
const cg_tune_rule *cg_tune_rules(void);
/* The candidate rule k picks for the space, starting from the rung's values: false when the rule says
 * nothing about this space (no work-group parameter, or NULL for a space whose x values exclude 0). */
bool cg_tune_rule_pick(size_t k, const cg_tspace *s, const cg_tune_dev *d, const int *dflt, int *vals);

/* True when the candidate's work-group (the product of its WG_X and WG_Y values; NULL excluded) exceeds the
 * device's limit; the reason then goes to why. */
bool cg_tune_over_limit(const cg_tspace *s, const int *vals, const cg_tune_dev *d, char *why, size_t len);

/* The search strategies: every candidate; a random sample; simulated annealing over neighbours (one parameter
 * moved one step). Each stops at the budget (seconds of wall time, checked between candidates). */
typedef enum cg_tune_strategy { CG_TS_EXHAUSTIVE, CG_TS_RANDOM, CG_TS_ANNEAL } cg_tune_strategy;
/* "exhaustive", "random", "anneal" -> the strategy; false for any other word. */
bool cg_tune_strategy_parse(const char *word, cg_tune_strategy *s);

/* The order in which a strategy visits candidate indices: fills order[0..*n) (at most cap, each index once),
 * for exhaustive and random (anneal chooses as it goes: cg_tune_anneal_next). seed makes random repeatable.
 */
void cg_tune_order(cg_tune_strategy st, size_t size, uint64_t seed, size_t *order, size_t cap, size_t *n);
/* Annealing: given the current candidate (index), the space and a random state, the neighbour to try next
 * (one parameter one step up or down); and whether to move to it, from both times and a temperature that
 * falls with the fraction of the budget used (0..1). */
size_t cg_tune_anneal_next(const cg_tspace *s, size_t cur, cg_rng *rng);
bool cg_tune_anneal_accept(double t_cur, double t_new, double used, cg_rng *rng);

#endif
