/* Command-line options: one table of options (name, argument, which commands take it, help line, what a shell
 * completes as its value, which workloads take it) drives the parser, every command's --help, `list --json`
 * and the generated shell completions. */
#ifndef CG_CLI_OPTIONS_H
#define CG_CLI_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/status.h"

typedef enum cg_command {
    CG_CMD_NONE,
    CG_CMD_DEVICES,
    CG_CMD_LIST,
    CG_CMD_RUN,
    CG_CMD_PEAK,
    CG_CMD_REPORT,
    CG_CMD_COMPARE,
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
    CG_COMPLETE_WORDS,     /* the row's words */
    CG_COMPLETE_PATTERNS,  /* every workload's --pattern values */
    CG_COMPLETE_FEATURES,  /* the --mask-features names */
    CG_COMPLETE_PEAK_TESTS /* the peak families and test names */
} cg_complete;

struct cg_workload;

/* One option: the parser, the help, `list --json` and the completions all read these rows. */
typedef struct cg_opt_row {
    const char *name; /* "device": --device */
    cg_arg_kind kind;
    size_t offset;              /* of its field in cg_opts */
    unsigned commands;          /* bit (1u << cg_command) for each command that takes it */
    const char *metavar, *help; /* metavar NULL for a flag */
    char short_name;            /* '\0': none; else "-x" is this option (getopt_long's convention) */
    cg_complete complete;
    const char *words; /* CG_COMPLETE_WORDS: the values, space-separated */
    /* run options that only some workloads take (--sigma): true for those; NULL: not workload-specific */
    bool (*takes)(const struct cg_workload *w);
} cg_opt_row;

extern const cg_opt_row cg_opt_rows[];
extern const size_t cg_opt_nrows;

typedef struct cg_opts {
    cg_command command;
    const char *targets; /* run: "all" or "workload[:rung][,...]"; help: a command; completions: a shell */
    const char *device;  /* --device, else $CLGAUGE_DEVICE */
    const char *size;
    int runs, warmup;
    uint64_t seed;
    const char *json, *csv;
    bool json_stdout; /* devices --json, list --json */
    bool no_cache, quiet, help, version;
    const char *kernel_dir, *cache_dir, *input, *output, *mask;
    double sigma;                    /* run --sigma (blur); 0: not given */
    bool estimate;                   /* run --estimate */
    const char *pattern;             /* run --pattern (histogram); NULL: not given */
    const char *check;               /* run --check: "random" or "exact"; NULL: not given (random) */
    const char *filter;              /* run --filter (convolution): sizes, "32" or "3,5x3"; NULL: not given */
    const char *only;                /* peak --only */
    bool quick;                      /* peak --quick */
    double max_time;                 /* peak --max-time (seconds per figure) */
    const char *html;                /* run, report --html */
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
