/* Command-line options: one table of options (name, argument, which commands take it, help line) drives the
 * parser and every command's --help. */
#ifndef CG_CLI_OPTIONS_H
#define CG_CLI_OPTIONS_H
#include <stdbool.h>
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
    CG_CMD_HELP
} cg_command;

typedef struct cg_opts {
    cg_command command;
    const char *targets; /* run: "all" or "workload[:rung][,...]" */
    const char *device;  /* --device, else $CLGAUGE_DEVICE */
    const char *size;
    int runs, warmup;
    uint64_t seed;
    const char *json, *csv;
    bool json_stdout; /* devices --json */
    bool no_cache, quiet, help, version;
    const char *kernel_dir, *cache_dir, *input, *output, *mask;
    double sigma;          /* run --sigma (blur); 0: not given */
    bool estimate;         /* run --estimate */
    const char *pattern;   /* run --pattern (histogram); NULL: not given */
    const char *filter;    /* run --filter (convolution): sizes, "32" or "3,5x3"; NULL: not given */
    const char *only;      /* peak --only */
    bool quick;            /* peak --quick */
    double max_time;       /* peak --max-time (seconds per figure) */
    const char *html;      /* run, report --html */
    double threshold;      /* compare --threshold, percent (default 5) */
    const char *files[16]; /* report, compare: the run files (JSON) */
    int nfiles;
} cg_opts;

/* Parses argv into o (defaults first). On a usage error logs one line and returns CG_E_USAGE. */
cg_status cg_opts_parse(int argc, char **argv, cg_opts *o);
/* Writes the help of a command (CG_CMD_NONE: the overview) to f. */
void cg_opts_help(cg_command c, void *f);
const char *cg_command_name(cg_command c);

#endif
