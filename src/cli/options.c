/* The option table and its parser: "--name value" and "--name=value", each option valid for the commands its
 * row names; the same rows print each command's --help. */
#include "cli/options.h"
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "peak/peak.h"

#define C_DEV    (1u << CG_CMD_DEVICES)
#define C_LIST   (1u << CG_CMD_LIST)
#define C_RUN    (1u << CG_CMD_RUN)
#define C_PEAK   (1u << CG_CMD_PEAK)
#define C_REPORT (1u << CG_CMD_REPORT)
#define C_CMP    (1u << CG_CMD_COMPARE)

typedef enum { A_FLAG, A_STR, A_INT, A_U64, A_DBL } arg_kind;

typedef struct opt_row {
    const char *name;
    arg_kind kind;
    size_t offset;
    unsigned commands;
    const char *metavar, *help;
} opt_row;

#define O(f) offsetof(cg_opts, f)
static const opt_row rows[] = {
    {"device", A_STR, O(device), C_RUN | C_PEAK, "SEL",
     "device: P:D, gpu, cpu, or part of its name (default: $CLGAUGE_DEVICE, else the first GPU, else the "
     "first "
     "device)"},
    {"size", A_STR, O(size), C_RUN, "SIZE",
     "problem size: N (16M, 2^24) or WxH (4096x4096); default per device"},
    {"runs", A_INT, O(runs), C_RUN, "N", "timed runs per rung (default 10)"},
    {"warmup", A_INT, O(warmup), C_RUN, "N", "untimed warm-up runs per rung, verified too (default 2)"},
    {"seed", A_U64, O(seed), C_RUN | C_PEAK, "N", "seed of the random inputs (default 1)"},
    {"json", A_STR, O(json), C_RUN | C_PEAK, "FILE", "write the results as JSON (- for stdout)"},
    {"csv", A_STR, O(csv), C_RUN | C_PEAK, "FILE", "write the results as CSV (- for stdout)"},
    {"html", A_STR, O(html), C_RUN | C_REPORT, "FILE",
     "write a self-contained HTML report with gnuplot charts (- for stdout; needs gnuplot)"},
    {"threshold", A_DBL, O(threshold), C_CMP, "PCT",
     "a slowdown counts when it exceeds PCT percent (default 5) and 2x the runs' combined stddev"},
    {"input", A_STR, O(input), C_RUN, "FILE.png",
     "filter3x3, blur: filter this picture (grey or RGB, made grey)"},
    {"output", A_STR, O(output), C_RUN, "FILE.png", "filter3x3, blur: write the filtered picture"},
    {"sigma", A_DBL, O(sigma), C_RUN, "S",
     "blur: the Gaussian's sigma in pixels, 0.5 to 32 (default 5: 31 taps)"},
    {"pattern", A_STR, O(pattern), C_RUN, "P",
     "histogram: the input bytes, random (default), allequal (worst-case contention) or image"},
    {"filter", A_STR, O(filter), C_RUN, "LIST",
     "convolution: filter sizes, N (NxN) or WxH, comma-separated for a sweep, 1 to 32 each way (default 32)"},
    {"estimate", A_FLAG, O(estimate), C_RUN, NULL,
     "blur: also print the speed each algorithm's accesses and MADs predict, next to the measured speed"},
    {"no-cache", A_FLAG, O(no_cache), C_RUN | C_PEAK, NULL,
     "neither read nor write the program and roofline caches"},
    {"cache-dir", A_STR, O(cache_dir), C_RUN | C_PEAK, "DIR",
     "cache directory (default $CLGAUGE_CACHE_DIR, $XDG_CACHE_HOME/clgauge or ~/.cache/clgauge)"},
    {"kernel-dir", A_STR, O(kernel_dir), C_RUN, "DIR",
     "load the .cl files from DIR instead of the built-in copies"},
    {"mask-features", A_STR, O(mask), C_RUN | C_PEAK, "LIST",
     "treat the device as lacking these features: images,fp64,fp16,nvidia-ptx,image-r8,image-rf"},
    {"only", A_STR, O(only), C_PEAK, "LIST",
     "peak: run only these families or tests (bandwidth,fp32,...; see `clgauge peak --help`)"},
    {"quick", A_FLAG, O(quick), C_PEAK, NULL,
     "peak: read, copy and fp32 only, fewer variants (what run measures)"},
    {"max-time", A_DBL, O(max_time), C_PEAK, "S",
     "peak: seconds of timed runs per figure (default 1; one launch stays under 0.5 s: no watchdog)"},
    {"quiet", A_FLAG, O(quiet), C_RUN | C_DEV | C_LIST | C_PEAK, NULL,
     "no table, progress or notes: errors only"},
    {"json", A_FLAG, O(json_stdout), C_DEV, NULL, "print the devices as JSON"},
    {"help", A_FLAG, O(help), ~0u, NULL, "show this help"},
};
#undef O
static const size_t nrows = sizeof rows / sizeof rows[0];

static const struct {
    const char *name, *args, *summary;
} commands[] = {
    [CG_CMD_NONE] = {"", "", ""},
    [CG_CMD_DEVICES] = {"devices", "[--json]", "list every OpenCL platform and device with its properties"},
    [CG_CMD_LIST] = {"list", "", "list the workloads, their rungs and what each rung changes"},
    [CG_CMD_RUN] = {"run", "WORKLOAD[:RUNG][,...]|all [options]",
                    "run ladders: verify and time every rung, report rates and roofline %"},
    [CG_CMD_PEAK] =
        {"peak", "[--device SEL] [--only LIST] [--json FILE] [--csv FILE] [--quick]",
         "measure the device's ceilings: bandwidth, compute, transfers, latency, local, atomics, images"},
    [CG_CMD_REPORT] = {"report", "RUN.json... [--html FILE]",
                       "print the tables of saved runs, or write them as one HTML page with charts"},
    [CG_CMD_COMPARE] =
        {"compare", "OLD.json NEW.json [--threshold PCT]",
         "per-rung changes beyond noise (exit 3 on a regression), or two devices side by side"},
    [CG_CMD_HELP] = {"help", "[COMMAND]", "show help for a command"},
};

const char *cg_command_name(cg_command c)
{
    return commands[c].name;
}

static cg_command find_command(const char *s)
{
    for (int c = CG_CMD_DEVICES; c <= CG_CMD_HELP; c++)
        if (!strcmp(s, commands[c].name)) return (cg_command)c;
    return CG_CMD_NONE;
}

static const opt_row *find_row(const char *name, size_t len, cg_command c)
{
    for (size_t i = 0; i < nrows; i++)
        if (strlen(rows[i].name) == len && !strncmp(rows[i].name, name, len) &&
            (rows[i].commands & (1u << c)))
            return &rows[i];
    return NULL;
}

static cg_status set_value(const opt_row *r, const char *val, cg_opts *o)
{
    char *field = (char *)o + r->offset, *end;
    errno = 0;
    if (r->kind == A_STR) {
        if (!*val) {
            CG_ERROR("--%s needs a non-empty value", r->name);
            return CG_E_USAGE;
        }
        *(const char **)field = val;
    } else if (r->kind == A_INT) {
        long v = strtol(val, &end, 10);
        long lo = r->offset == offsetof(cg_opts, runs) ? 1 : 0;
        if (errno || *end || end == val || v < lo || v > 1000000) {
            CG_ERROR("--%s expects a whole number from %ld to 1000000, not '%s'", r->name, lo, val);
            return CG_E_USAGE;
        }
        *(int *)field = (int)v;
    } else if (r->kind == A_DBL) {
        double v = strtod(val, &end);
        if (errno || *end || end == val || !(v > 0 && v < 1e300)) {
            CG_ERROR("--%s expects a positive number, not '%s'", r->name, val);
            return CG_E_USAGE;
        }
        *(double *)field = v;
    } else {
        unsigned long long v = strtoull(val, &end, 10);
        if (errno || *end || end == val || val[0] == '-') {
            CG_ERROR("--%s expects a non-negative integer, not '%s'", r->name, val);
            return CG_E_USAGE;
        }
        *(uint64_t *)field = v;
    }
    return CG_OK;
}

static cg_status parse_option(int argc, char **argv, int *i, cg_opts *o)
{
    const char *a = argv[*i] + 2, *eq = strchr(a, '=');
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    const opt_row *r = find_row(a, len, o->command);
    if (!r) {
        CG_ERROR("unknown option '--%.*s' for '%s'; see `clgauge %s --help`", (int)len, a,
                 commands[o->command].name, commands[o->command].name);
        return CG_E_USAGE;
    }
    if (r->kind == A_FLAG) {
        if (eq) {
            CG_ERROR("--%s takes no value", r->name);
            return CG_E_USAGE;
        }
        *(bool *)((char *)o + r->offset) = true;
        return CG_OK;
    }
    if (!eq && *i + 1 >= argc) {
        CG_ERROR("--%s needs a value (%s)", r->name, r->metavar);
        return CG_E_USAGE;
    }
    return set_value(r, eq ? eq + 1 : argv[++*i], o);
}

static void defaults(cg_opts *o)
{
    memset(o, 0, sizeof *o);
    o->runs = 10;
    o->max_time = 1.0;
    o->warmup = 2;
    o->seed = 1;
    o->threshold = 5;
    o->device = getenv("CLGAUGE_DEVICE");
}

static cg_status parse_command(const char *s, cg_opts *o)
{
    if (!strcmp(s, "--version") || !strcmp(s, "-V")) {
        o->version = true;
        return CG_OK;
    }
    if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
        o->help = true;
        return CG_OK;
    }
    o->command = find_command(s);
    if (o->command == CG_CMD_NONE) {
        CG_ERROR("unknown command '%s'; commands: devices, list, run, peak, report, compare, help (see "
                 "`clgauge --help`)",
                 s);
        return CG_E_USAGE;
    }
    return CG_OK;
}

cg_status cg_opts_parse(int argc, char **argv, cg_opts *o)
{
    defaults(o);
    if (argc < 2) {
        o->help = true;
        return CG_OK;
    }
    cg_status st = parse_command(argv[1], o);
    for (int i = 2; st == CG_OK && i < argc; i++) {
        if (!strcmp(argv[i], "-h"))
            o->help = true;
        else if (!strncmp(argv[i], "--", 2) && argv[i][2])
            st = parse_option(argc, argv, &i, o);
        else if ((o->command == CG_CMD_RUN || o->command == CG_CMD_HELP) && !o->targets)
            o->targets = argv[i];
        else if ((o->command == CG_CMD_REPORT || o->command == CG_CMD_COMPARE) && o->nfiles < 16)
            o->files[o->nfiles++] = argv[i];
        else {
            CG_ERROR("unexpected argument '%s'; see `clgauge %s --help`", argv[i], commands[o->command].name);
            st = CG_E_USAGE;
        }
    }
    if (st == CG_OK && o->command == CG_CMD_RUN && !o->targets && !o->help) {
        CG_ERROR(
            "run needs workloads: `clgauge run all`, or names from `clgauge list` (e.g. reduction:naive)");
        st = CG_E_USAGE;
    }
    if (st == CG_OK && !o->help &&
        ((o->command == CG_CMD_REPORT && o->nfiles < 1) ||
         (o->command == CG_CMD_COMPARE && o->nfiles != 2))) {
        CG_ERROR("%s", o->command == CG_CMD_REPORT
                           ? "report needs run files: `clgauge report RUN.json... [--html FILE]`"
                           : "compare needs two run files: `clgauge compare OLD.json NEW.json`");
        st = CG_E_USAGE;
    }
    return st;
}

void cg_opts_help(cg_command c, void *fp)
{
    FILE *f = fp;
    if (c == CG_CMD_NONE || c == CG_CMD_HELP) {
        fprintf(f, "clgauge: an OpenCL performance lab. How fast can this device go, and which optimization "
                   "pays on it?\n\nUsage: clgauge COMMAND [options]\n\nCommands:\n");
        for (int k = CG_CMD_DEVICES; k <= CG_CMD_HELP; k++)
            fprintf(f, "  %-8s %s\n", commands[k].name, commands[k].summary);
        fprintf(f,
                "\nclgauge COMMAND --help shows a command's options; clgauge --version its version.\n"
                "Exit codes: 0 ok, 1 usage, 2 no platform/device, 3 a verification failed, 4 OpenCL/runtime "
                "error, 5 file I/O.\nEnvironment: CLGAUGE_DEVICE (default --device), CLGAUGE_CACHE_DIR.\n");
        return;
    }
    fprintf(f, "Usage: clgauge %s %s\n%s\n\nOptions:\n", commands[c].name, commands[c].args,
            commands[c].summary);
    for (size_t i = 0; i < nrows; i++) {
        if (!(rows[i].commands & (1u << c))) continue;
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", rows[i].name, rows[i].metavar ? " " : "",
                 rows[i].metavar ? rows[i].metavar : "");
        fprintf(f, "  %-24s %s\n", left, rows[i].help);
    }
    if (c == CG_CMD_PEAK) {
        fprintf(f, "\nTests (--only takes families or test names):\n");
        for (size_t i = 0; i < cg_peak_ntests; i++)
            fprintf(f, "  %-10s %-14s %s\n", cg_peak_tests[i].family, cg_peak_tests[i].name,
                    cg_peak_tests[i].summary);
    }
}
