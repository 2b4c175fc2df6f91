/* Command-line options: one table of options (name, argument, which commands take it, help line, what a shell
 * completes as its value, which workloads take it), merged with the run options each workload declares in its
 * own descriptor (cg_workload.wopts), drives the parser, every command's --help, `list` and `list --json`,
 * the generated shell completions and `run`'s check that a selected workload takes each option given. */
#ifndef CG_CLI_OPTIONS_H
#define CG_CLI_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/status.h"
#include "core/workload.h"

typedef enum cg_command {
    CG_CMD_NONE,
    CG_CMD_DEVICES,
    CG_CMD_LIST,
    CG_CMD_RUN,
    CG_CMD_PEAK,
    CG_CMD_REPORT,
    CG_CMD_COMPARE,
    CG_CMD_TUNE,
    CG_CMD_HELP,
    CG_CMD_COMPLETIONS, /* hidden (not in the overview): prints a bash or zsh completion script */
    CG_CMD_COUNT
} cg_command;

#define CG_MAX_FILES 16 /* report, compare: run files on one command line */

typedef enum cg_arg_kind { CG_ARG_FLAG, CG_ARG_STR, CG_ARG_INT, CG_ARG_U64, CG_ARG_DBL } cg_arg_kind;

/* What a shell completes as an option's value. */
typedef enum cg_complete {
    CG_COMPLETE_NONE,      /* free text (a number, a size) */
    CG_COMPLETE_FILE,      /* a file name */
    CG_COMPLETE_DIR,       /* a directory */
    CG_COMPLETE_WORDS,     /* the row's words (space- or '|'-separated) */
    CG_COMPLETE_FEATURES,  /* the --mask-features names */
    CG_COMPLETE_PEAK_TESTS /* the peak families and test names */
} cg_complete;

/* One option: the parser, the help, `list --json` and the completions all read these rows (cg_opt_table). */
typedef struct cg_opt_row {
    const char *name; /* "device": --device */
    cg_arg_kind kind;
    size_t offset;              /* of its field in cg_opts (not for a workload's own option: wopt) */
    unsigned commands;          /* bit (1u << cg_command) for each command that takes it */
    const char *metavar, *help; /* metavar NULL for a flag */
    char short_name;            /* '\0': none; else "-x" is this option (getopt_long's convention) */
    cg_complete complete;
    const char *words; /* CG_COMPLETE_WORDS: the values, space-separated */
    /* a run option shared by the workloads with a capability (--input: takes_images_io): true for those;
     * NULL: every workload takes it, or it is a workload's own (wopt) */
    bool (*takes)(const cg_workload *w);
    const char *takers_noun; /* with takes: what its takers are called ("picture workloads") */
    const cg_wopt *wopt; /* a workload's own option (as the first workload declaring it has it), else NULL */
} cg_opt_row;

/* Every option: the CLI's own rows, then one row per distinct name among the workloads' own options
 * (registry order), of command run, with no short form. *n gets the count. */
const cg_opt_row *cg_opt_table(size_t *n);
/* CG_OK when the workloads' own options fit the table (at most CG_WOPTS_MAX names, none clashing with a run
 * option of the CLI's, one kind, metavar and words per name); else one logged line, CG_E_RUNTIME. */
cg_status cg_opt_table_check(void);
/* True when r is an option only some workloads take (a capability or a workload's own). */
bool cg_opt_is_workload_specific(const cg_opt_row *r);
/* True when w takes r (false for an option every workload takes: see cg_opt_is_workload_specific). */
bool cg_opt_takes(const cg_opt_row *r, const cg_workload *w);
/* r's help line; for a workload-specific option prefixed with the workloads that take it ("blur: ..."). */
void cg_opt_help_text(const cg_opt_row *r, char *buf, size_t len);

typedef struct cg_opts {
    cg_command command;
    const char *targets; /* run: "all" or "workload[:rung][,...]"; help: a command; completions: a shell */
    const char *device;  /* --device, else $CLGAUGE_DEVICE */
    const char *size, *length; /* --length: --size under the name lcs's issue gives it */
    int runs, warmup;
    uint64_t seed;
    const char *json, *csv;
    bool json_stdout; /* devices --json, list --json */
    bool no_cache, quiet, help, version;
    const char *kernel_dir, *cache_dir, *input, *output, *mask;
    bool estimate;                   /* run --estimate (workloads with a speed estimate) */
    const char *check;               /* run --check: "random" or "exact"; NULL: not given (random) */
    cg_wopts wopts;                  /* run: the workloads' own options given (--sigma, --filter...) */
    const char *only;                /* peak --only */
    bool quick;                      /* peak --quick */
    double max_time;                 /* peak --max-time (seconds per figure) */
    const char *timer;               /* peak --timer: "events", "host" or "both"; NULL: not given (events) */
    const char *html;                /* run, report --html */
    const char *strategy;            /* tune --strategy: exhaustive, random, anneal; NULL: not given */
    const char *space;               /* tune --space: "wg=64,128;loads=4" narrows the rungs' spaces */
    double budget;                   /* tune --budget, seconds of wall time per rung (0: not given: 120) */
    bool no_tuned;                   /* run --no-tuned: ignore the tuning cache */
    double threshold;                /* compare --threshold, percent (default 5) */
    const char *files[CG_MAX_FILES]; /* report, compare: the run files (JSON) */
    int nfiles;
} cg_opts;

/* Parses argv into o (defaults first). On a usage error logs one line and returns CG_E_USAGE. */
cg_status cg_opts_parse(int argc, char **argv, cg_opts *o);
/* Writes the help of a command (CG_CMD_NONE: the overview) to f. */
void cg_opts_help(cg_command c, void *f);
/* A command's name ("run") and its one-line summary. */
const char *cg_command_name(cg_command c);
const char *cg_command_summary(cg_command c);

#endif
