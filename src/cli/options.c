/* The option table and its parser: "--name value", "--name=value", the short forms "-x value" and "-xvalue"
 * where a row has one, and "--" ending the options; each option valid for the commands its row names; the
 * same rows print each command's --help, wrapped at 80 columns. The workloads' own options (their
 * descriptors' wopts) are merged in as rows of `run`, their values kept in cg_opts.wopts by name. */
#include "cli/options.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "core/workload.h"
#include "peak/peak.h"
#include "workloads/registry.h"

#define C_DEV    (1u << CG_CMD_DEVICES)
#define C_LIST   (1u << CG_CMD_LIST)
#define C_RUN1   (1u << CG_CMD_RUN)
#define C_TUNE   (1u << CG_CMD_TUNE)
#define C_RUN    (C_RUN1 | C_TUNE) /* tune takes run's options: it runs the same ladders */
#define C_PEAK   (1u << CG_CMD_PEAK)
#define C_REPORT (1u << CG_CMD_REPORT)
#define C_CMP    (1u << CG_CMD_COMPARE)

/* The run options shared by the workloads with a capability (the run command refuses them elsewhere). */
static bool takes_files(const cg_workload *w)
{
    return w->takes_images_io || w->takes_text_io;
}
static bool takes_output(const cg_workload *w)
{
    return w->save_output != NULL;
}
static bool takes_length(const cg_workload *w)
{
    return w->takes_length;
}
static bool takes_estimate(const cg_workload *w)
{
    return w->estimate != NULL;
}

/* What a shell completes as the value (the rows with words or registry values name them in full). */
#define TEXT_ .complete = CG_COMPLETE_NONE
#define FILE_ .complete = CG_COMPLETE_FILE
#define DIR_  .complete = CG_COMPLETE_DIR
#define O(f)  offsetof(cg_opts, f)
static const cg_opt_row cg_opt_rows[] = {
    {"device", CG_ARG_STR, O(device), C_RUN | C_PEAK, "SEL",
     "device: P:D, gpu, cpu, or part of its name (default: $CLGAUGE_DEVICE, else the first GPU, else the "
     "first device)",
     'd', CG_COMPLETE_WORDS, "gpu cpu", .takes = NULL},
    {"size", CG_ARG_STR, O(size), C_RUN, "SIZE",
     "problem size: N (16M, 2^24) or WxH (4096x4096); default per device", 's', TEXT_},
    {"length", CG_ARG_STR, O(length), C_RUN, "N|NxM", "the two strings' lengths: another name of --size", 0,
     TEXT_, .takes = takes_length, .takers_noun = "workloads of strings"},
    {"runs", CG_ARG_INT, O(runs), C_RUN, "N", "timed runs per rung (default 10)", 'r', TEXT_},
    {"warmup", CG_ARG_INT, O(warmup), C_RUN, "N", "untimed warm-up runs per rung, verified too (default 2)",
     'w', TEXT_},
    {"seed", CG_ARG_U64, O(seed), C_RUN | C_PEAK, "N", "seed of the random inputs (default 1)", 0, TEXT_},
    {"json", CG_ARG_STR, O(json), C_RUN | C_PEAK, "FILE", "write the results as JSON (- for stdout)", 'j',
     FILE_},
    {"csv", CG_ARG_STR, O(csv), C_RUN | C_PEAK, "FILE", "write the results as CSV (- for stdout)", 0, FILE_},
    {"html", CG_ARG_STR, O(html), C_RUN | C_REPORT, "FILE",
     "write a self-contained HTML report with gnuplot charts (- for stdout; needs gnuplot)", 0, FILE_},
    {"threshold", CG_ARG_DBL, O(threshold), C_CMP, "PCT",
     "a slowdown counts when it exceeds PCT percent (default 2) and is significant (p < 0.01)", 0, TEXT_},
    {"input", CG_ARG_STR, O(input), C_RUN, "FILE.png",
     "the picture (opticalflow: two, A.png,B.png); colour made grey (lcs: two files of bytes, A,B)", 0, FILE_,
     .takes = takes_files, .takers_noun = "picture workloads and lcs"},
    {"output", CG_ARG_STR, O(output), C_RUN1, "FILE.png",
     "write the filtered picture (lcs: the --traceback subsequence's bytes; cloth: the final cloth drawn)", 0,
     FILE_, .takes = takes_output, .takers_noun = "picture workloads, lcs and cloth"},
    {"check", CG_ARG_STR, O(check), C_RUN, "MODE",
     "inputs to verify on: random (default: seeded data, error-bound tolerances) or exact (small-integer "
     "patterns whose float reference is exact, compared with zero tolerance)",
     0, CG_COMPLETE_WORDS, "random exact", .takes = NULL},
    {"estimate", CG_ARG_FLAG, O(estimate), C_RUN1, NULL,
     "also print the speed each algorithm's accesses and MADs predict, next to the measured speed", 0,
     .takes = takes_estimate, .takers_noun = "workloads with a speed estimate"},
    {"no-cache", CG_ARG_FLAG, O(no_cache), C_RUN | C_PEAK, NULL,
     "neither read nor write the program and roofline caches", 0, TEXT_},
    {"cache-dir", CG_ARG_STR, O(cache_dir), C_RUN | C_PEAK, "DIR",
     "cache directory (default $CLGAUGE_CACHE_DIR, $XDG_CACHE_HOME/clgauge or ~/.cache/clgauge)", 0, DIR_},
    {"kernel-dir", CG_ARG_STR, O(kernel_dir), C_RUN | C_PEAK, "DIR",
     "load the .cl files from DIR instead of the built-in copies", 0, DIR_},
    {"mask-features", CG_ARG_STR, O(mask), C_RUN | C_PEAK, "LIST",
     "treat the device as lacking these features (images, fp64, fp16, nvidia-ptx, image-r8, image-rf, "
     "int64-atomics, nvidia-mma)",
     0, CG_COMPLETE_FEATURES, .takes = NULL},
    {"no-tuned", CG_ARG_FLAG, O(no_tuned), C_RUN1, NULL,
     "ignore the tuning cache: run every rung with its own parameters, not `clgauge tune`'s winners", 0,
     TEXT_},
    {"strategy", CG_ARG_STR, O(strategy), C_TUNE, "HOW",
     "how to search each rung's parameters: exhaustive (default: every candidate), random (a seeded sample) "
     "or anneal (simulated annealing over neighbours); the seeds' rules and the rung's own values always run",
     0, CG_COMPLETE_WORDS, "exhaustive random anneal", .takes = NULL},
    {"space", CG_ARG_STR, O(space), C_TUNE, "SPEC",
     "search only these values of these parameters: 'wg=64,128;loads=4,8' (';' between parameters; the "
     "others keep the rung's whole list; `clgauge list` names them)",
     0, TEXT_},
    {"budget", CG_ARG_DBL, O(budget), C_TUNE, "S",
     "seconds of wall time per rung's search (default 120); the search stops at the first candidate past it",
     0, TEXT_},
    {"only", CG_ARG_STR, O(only), C_PEAK, "LIST",
     "peak: run only these families or tests (bandwidth,fp32,...; see `clgauge peak --help`)", 0,
     CG_COMPLETE_PEAK_TESTS, .takes = NULL},
    {"quick", CG_ARG_FLAG, O(quick), C_PEAK, NULL,
     "peak: read, copy and fp32 only, fewer variants (what run measures)", 0, TEXT_},
    {"max-time", CG_ARG_DBL, O(max_time), C_PEAK, "S",
     "peak: seconds of timed runs per figure (default 1; one launch stays under 0.5 s: no watchdog)", 0,
     TEXT_},
    {"timer", CG_ARG_STR, O(timer), C_PEAK, "HOW",
     "peak: events (default: profiling start->end of each run), host (seed 001's method: 2 warm-ups, host "
     "clock around 10 runs + clFinish, / 10) or both (a host-timer row beside each figure); honoured by "
     "bandwidth read/write/copy and the compute tests, the others use events",
     0, CG_COMPLETE_WORDS, "events host both", .takes = NULL},
    {"quiet", CG_ARG_FLAG, O(quiet), C_RUN | C_DEV | C_LIST | C_PEAK, NULL,
     "no table, progress or notes: errors only, and for run one summary line on stderr (run and peak write "
     "results only with --json/--csv/--html)",
     'q', TEXT_},
    {"json", CG_ARG_FLAG, O(json_stdout), C_DEV, NULL, "print the devices as JSON", 'j', TEXT_},
    {"json", CG_ARG_FLAG, O(json_stdout), C_LIST, NULL,
     "print the workloads, their rungs and options as JSON (docs/report-schema.md)", 'j', TEXT_},
    {"help", CG_ARG_FLAG, O(help), ~0u, NULL, "show this help", 'h', TEXT_},
};
#undef O
#undef TEXT_
#undef FILE_
#undef DIR_
static const size_t cg_opt_nrows = sizeof cg_opt_rows / sizeof cg_opt_rows[0];

/* ---- the merged table: the rows above, then the workloads' own options ----------------------------------
 */

#define TABLE_MAX (sizeof cg_opt_rows / sizeof cg_opt_rows[0] + CG_WOPTS_MAX)

static const cg_arg_kind wopt_arg[] = {
    [CG_WOPT_FLAG] = CG_ARG_FLAG,
    [CG_WOPT_NUMBER] = CG_ARG_DBL,
    [CG_WOPT_WORD] = CG_ARG_STR,
    [CG_WOPT_EXTENTS] = CG_ARG_STR,
};

static cg_opt_row wopt_row(const cg_wopt *d)
{
    return (cg_opt_row){.name = d->name,
                        .kind = wopt_arg[d->kind],
                        .commands = C_RUN,
                        .metavar = d->kind == CG_WOPT_FLAG ? NULL : d->metavar,
                        .help = d->help,
                        .complete = d->kind == CG_WOPT_WORD ? CG_COMPLETE_WORDS : CG_COMPLETE_NONE,
                        .words = d->words,
                        .wopt = d};
}

static size_t table_find(const cg_opt_row *t, size_t n, const char *name, unsigned commands)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i].name, name) && (t[i].commands & commands)) return i;
    return n;
}

/* Builds the table once; *overflow set when the workloads declare more names than it holds. */
static const cg_opt_row *table(size_t *n, bool *overflow)
{
    static cg_opt_row rows[TABLE_MAX];
    static size_t nrows;
    static bool built, over;
    if (!built) {
        memcpy(rows, cg_opt_rows, sizeof cg_opt_rows);
        nrows = cg_opt_nrows;
        for (size_t w = 0; w < cg_nworkloads; w++)
            for (size_t k = 0; k < cg_workloads[w]->n_wopts; k++) {
                const cg_wopt *d = &cg_workloads[w]->wopts[k];
                if (table_find(rows, nrows, d->name, C_RUN) < nrows) continue; /* declared before */
                if (nrows == TABLE_MAX)
                    over = true;
                else
                    rows[nrows++] = wopt_row(d);
            }
        built = true;
    }
    *n = nrows;
    if (overflow) *overflow = over;
    return rows;
}

const cg_opt_row *cg_opt_table(size_t *n)
{
    return table(n, NULL);
}

/* A second declaration of d's name by another workload must read as the first. */
static bool same_decl(const cg_wopt *a, const cg_wopt *b)
{
    return a->kind == b->kind && !strcmp(a->metavar ? a->metavar : "", b->metavar ? b->metavar : "") &&
           !strcmp(a->words ? a->words : "", b->words ? b->words : "");
}

cg_status cg_opt_table_check(void)
{
    size_t n;
    bool over;
    const cg_opt_row *t = table(&n, &over);
    if (over) {
        CG_ERROR("the workloads declare more than %d option names: raise CG_WOPTS_MAX in core/workload.h",
                 CG_WOPTS_MAX);
        return CG_E_RUNTIME;
    }
    for (size_t w = 0; w < cg_nworkloads; w++)
        for (size_t k = 0; k < cg_workloads[w]->n_wopts; k++) {
            const cg_wopt *d = &cg_workloads[w]->wopts[k];
            const cg_opt_row *r = &t[table_find(t, n, d->name, C_RUN)];
            if (!r->wopt || !same_decl(r->wopt, d)) {
                CG_ERROR("%s declares --%s unlike %s: rename it or declare it the same way",
                         cg_workloads[w]->name, d->name,
                         r->wopt ? "another workload" : "clgauge's own option");
                return CG_E_RUNTIME;
            }
        }
    return CG_OK;
}

bool cg_opt_is_workload_specific(const cg_opt_row *r)
{
    return r->takes || r->wopt;
}

bool cg_opt_takes(const cg_opt_row *r, const cg_workload *w)
{
    if (r->wopt) return cg_workload_option(w, r->name) != NULL;
    return r->takes && r->takes(w);
}

void cg_opt_help_text(const cg_opt_row *r, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t w = 0; w < cg_nworkloads && cg_opt_is_workload_specific(r); w++)
        if (cg_opt_takes(r, cg_workloads[w]) && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", cg_workloads[w]->name);
    if (used < len) snprintf(buf + used, len - used, "%s%s", used ? ": " : "", r->help);
}

static const struct {
    const char *name, *args, *summary;
} commands[] = {
    [CG_CMD_NONE] = {"", "", ""},
    [CG_CMD_DEVICES] = {"devices", "[--json]", "list every OpenCL platform and device with its properties"},
    [CG_CMD_LIST] = {"list", "[--json]", "list the workloads, their rungs and what each rung changes"},
    [CG_CMD_RUN] = {"run", "WORKLOAD[:RUNG][,...]|all [options]",
                    "run ladders: verify and time every rung, report rates and roofline %"},
    [CG_CMD_PEAK] =
        {"peak", "[-d SEL] [--only LIST] [-j FILE] [--quick] [--timer HOW]",
         "measure the device's ceilings: bandwidth, compute, transfers, latency, local, atomics, images"},
    [CG_CMD_REPORT] = {"report", "RUN.json... [--html FILE]",
                       "print the tables of saved runs, or write them as one HTML page with charts"},
    [CG_CMD_COMPARE] =
        {"compare", "OLD.json NEW.json [--threshold PCT]",
         "per-rung changes beyond noise (exit 3 on a regression), or two devices side by side"},
    [CG_CMD_TUNE] = {"tune", "WORKLOAD[:RUNG][,...] [--strategy HOW] [--budget S] [...]",
                     "search the rungs' tunable parameters (work-group, tile, copies...), test the seeds' "
                     "work-group rules, keep the winners for run"},
    [CG_CMD_HELP] = {"help", "[COMMAND]", "show help for a command"},
    [CG_CMD_COMPLETIONS] = {"completions", "bash|zsh",
                            "print a completion script for bash or zsh, generated from the option table"},
};

const char *cg_command_name(cg_command c)
{
    return commands[c].name;
}

const char *cg_command_summary(cg_command c)
{
    return commands[c].summary;
}

static cg_command find_command(const char *s)
{
    for (int c = CG_CMD_DEVICES; c < CG_CMD_COUNT; c++)
        if (!strcmp(s, commands[c].name)) return (cg_command)c;
    return CG_CMD_NONE;
}

static const cg_opt_row *find_row(const char *name, size_t len, cg_command c)
{
    size_t n;
    const cg_opt_row *t = cg_opt_table(&n);
    for (const cg_opt_row *r = t; r < t + n; r++)
        if (strlen(r->name) == len && !strncmp(r->name, name, len) && (r->commands & (1u << c))) return r;
    return NULL;
}

static const cg_opt_row *find_short(char c, cg_command cmd)
{
    for (const cg_opt_row *r = cg_opt_rows; r < cg_opt_rows + cg_opt_nrows; r++) /* workloads' have none */
        if (r->short_name == c && (r->commands & (1u << cmd))) return r;
    return NULL;
}

/* A number must start with a digit (a '.' too for a real): strtol and friends would skip blanks and take a
 * sign, so that " -1" became 2^64-1 as a seed. */
/* A number the way a person writes one: it starts with a digit (or '.' for a real), and a real is decimal
 * (strtod would also take hex "0x5", "inf" and "nan"). */
static bool number_start(const cg_opt_row *r, const char *val)
{
    if (r->kind == CG_ARG_DBL && strpbrk(val, "xXnNiI")) return false;
    return isdigit((unsigned char)val[0]) || (r->kind == CG_ARG_DBL && val[0] == '.');
}

/* A workload's own option's entry in o->wopts (cg_opt_table_check keeps the names within its capacity). */
static cg_wopt_value *wopt_entry(const cg_opt_row *r, cg_opts *o)
{
    cg_wopt_value *v = cg_wopts_set(&o->wopts, r->name);
    if (!v)
        CG_ERROR("more than %d workload options given: raise CG_WOPTS_MAX in core/workload.h", CG_WOPTS_MAX);
    return v;
}

static cg_status set_flag(const cg_opt_row *r, cg_opts *o)
{
    cg_wopt_value *v = r->wopt ? wopt_entry(r, o) : NULL;
    if (r->wopt && !v) return CG_E_USAGE;
    if (v)
        v->text = "";
    else
        *(bool *)((char *)o + r->offset) = true;
    return CG_OK;
}

/* A string or real: into its cg_opts field, or into o->wopts for a workload's own option. */
static cg_status set_text(const cg_opt_row *r, const char *val, double num, cg_opts *o)
{
    cg_wopt_value *v = r->wopt ? wopt_entry(r, o) : NULL;
    if (r->wopt && !v) return CG_E_USAGE;
    if (v) {
        v->text = val;
        v->num = num;
    } else if (r->kind == CG_ARG_STR)
        *(const char **)((char *)o + r->offset) = val;
    else
        *(double *)((char *)o + r->offset) = num;
    return CG_OK;
}

static cg_status set_value(const cg_opt_row *r, const char *val, cg_opts *o)
{
    char *field = (char *)o + r->offset, *end;
    errno = 0;
    bool digit = number_start(r, val);
    if (r->kind == CG_ARG_STR) {
        if (!*val) {
            CG_ERROR("--%s needs a non-empty value", r->name);
            return CG_E_USAGE;
        }
        return set_text(r, val, 0, o);
    } else if (r->kind == CG_ARG_INT) {
        long v = strtol(val, &end, 10);
        long lo = r->offset == offsetof(cg_opts, runs) ? 1 : 0;
        if (!digit || errno || *end || end == val || v < lo || v > 1000000) {
            CG_ERROR("--%s expects a whole number from %ld to 1000000, not '%s'", r->name, lo, val);
            return CG_E_USAGE;
        }
        *(int *)field = (int)v;
    } else if (r->kind == CG_ARG_DBL) {
        double v = strtod(val, &end);
        if (!digit || errno || *end || end == val || !(v > 0 && v < 1e300)) {
            CG_ERROR("--%s expects a positive number, not '%s'", r->name, val);
            return CG_E_USAGE;
        }
        return set_text(r, val, v, o);
    } else {
        unsigned long long v = strtoull(val, &end, 10);
        if (!digit || errno || *end || end == val) {
            CG_ERROR("--%s expects a non-negative integer, not '%s'", r->name, val);
            return CG_E_USAGE;
        }
        *(uint64_t *)field = v;
    }
    return CG_OK;
}

/* The rows already given in this parse: an option given twice is refused rather than one copy silently
 * winning (`--json a --json b` would otherwise write b only). */
static const cg_opt_row *given[64];
static size_t n_given;

static cg_status once(const cg_opt_row *r)
{
    for (size_t k = 0; k < n_given; k++)
        if (given[k] == r || !strcmp(given[k]->name, r->name)) { /* -j and --json may be two rows */
            CG_ERROR("--%s is given twice: give it once", r->name);
            return CG_E_USAGE;
        }
    if (n_given < sizeof given / sizeof given[0]) given[n_given++] = r;
    return CG_OK;
}

static cg_status parse_option(int argc, char **argv, int *i, cg_opts *o)
{
    const char *a = argv[*i] + 2, *eq = strchr(a, '=');
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    const cg_opt_row *r = find_row(a, len, o->command);
    if (!r) {
        CG_ERROR("unknown option '--%.*s' for '%s'; see `clgauge %s --help`", (int)len, a,
                 commands[o->command].name, commands[o->command].name);
        return CG_E_USAGE;
    }
    if (once(r) != CG_OK) return CG_E_USAGE;
    if (r->kind == CG_ARG_FLAG) {
        if (eq) {
            CG_ERROR("--%s takes no value", r->name);
            return CG_E_USAGE;
        }
        return set_flag(r, o);
    }
    if (!eq && *i + 1 >= argc) {
        CG_ERROR("--%s needs a value (%s)", r->name, r->metavar);
        return CG_E_USAGE;
    }
    return set_value(r, eq ? eq + 1 : argv[++*i], o);
}

/* "-x", "-x value" or "-xvalue" for a row with a short name (no bundling of flags). */
static cg_status parse_short(int argc, char **argv, int *i, cg_opts *o)
{
    const char *a = argv[*i];
    const cg_opt_row *r = find_short(a[1], o->command);
    if (!r) {
        CG_ERROR(
            "unknown option '-%c' for '%s'; see `clgauge %s --help` (a file or workload starting with '-' "
            "goes after --)",
            a[1], commands[o->command].name, commands[o->command].name);
        return CG_E_USAGE;
    }
    if (once(r) != CG_OK) return CG_E_USAGE;
    if (r->kind == CG_ARG_FLAG) {
        if (a[2]) {
            CG_ERROR("-%c (--%s) takes no value, not '%s'", a[1], r->name, a + 2);
            return CG_E_USAGE;
        }
        return set_flag(r, o);
    }
    if (!a[2] && *i + 1 >= argc) {
        CG_ERROR("-%c (--%s) needs a value (%s)", a[1], r->name, r->metavar);
        return CG_E_USAGE;
    }
    return set_value(r, a[2] ? a + 2 : argv[++*i], o);
}

/* A word that is not an option: the run's targets, a report file, or an error. */
static cg_status take_positional(const char *a, cg_opts *o)
{
    cg_command c = o->command;
    if ((c == CG_CMD_RUN || c == CG_CMD_TUNE || c == CG_CMD_HELP || c == CG_CMD_COMPLETIONS) && !o->targets)
        o->targets = a;
    else if ((c == CG_CMD_REPORT || c == CG_CMD_COMPARE) && o->nfiles < CG_MAX_FILES)
        o->files[o->nfiles++] = a;
    else if (c == CG_CMD_REPORT) {
        CG_ERROR("report takes at most %d run files, not more: report them in groups of %d", CG_MAX_FILES,
                 CG_MAX_FILES);
        return CG_E_USAGE;
    } else {
        CG_ERROR("unexpected argument '%s'; see `clgauge %s --help`", a, commands[o->command].name);
        return CG_E_USAGE;
    }
    return CG_OK;
}

static void defaults(cg_opts *o)
{
    memset(o, 0, sizeof *o);
    o->runs = 10;
    o->max_time = 1.0;
    o->warmup = 2;
    o->seed = 1;
    o->threshold = 2;
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
        CG_ERROR("unknown command '%s'; commands: devices, list, run, peak, report, compare, tune, help (see "
                 "`clgauge --help`)",
                 s);
        return CG_E_USAGE;
    }
    return CG_OK;
}

cg_status cg_opts_parse(int argc, char **argv, cg_opts *o)
{
    defaults(o);
    n_given = 0;
    if (cg_opt_table_check() != CG_OK) return CG_E_RUNTIME;
    if (argc < 2) {
        o->help = true;
        return CG_OK;
    }
    cg_status st = parse_command(argv[1], o);
    bool options_end = false; /* after "--" every word is an argument */
    for (int i = 2; st == CG_OK && i < argc; i++) {
        const char *a = argv[i];
        if (options_end || a[0] != '-' || !a[1])
            st = take_positional(a, o);
        else if (!strcmp(a, "--"))
            options_end = true;
        else if (!strcmp(a, "-h"))
            o->help = true;
        else if (a[1] == '-')
            st = parse_option(argc, argv, &i, o);
        else
            st = parse_short(argc, argv, &i, o);
    }
    if (st == CG_OK && o->command == CG_CMD_RUN && !o->targets && !o->help) {
        CG_ERROR(
            "run needs workloads: `clgauge run all`, or names from `clgauge list` (e.g. reduction:naive)");
        st = CG_E_USAGE;
    }
    if (st == CG_OK && o->command == CG_CMD_TUNE && !o->targets && !o->help) {
        CG_ERROR("tune needs a workload or rungs: `clgauge tune reduction`, `clgauge tune histogram:local` "
                 "(`clgauge list` marks the rungs with tunable parameters)");
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

#define HELP_WIDTH 80
#define HELP_LEFT  24 /* the option column; the help text starts one column after it */

/* Prints text word by word from column col, wrapped at HELP_WIDTH with continuation lines indented by
 * indent columns, and ends the line. */
static void help_wrap(FILE *f, int indent, int col, const char *text)
{
    int start = col;
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (!n) break;
        if (col > start && col + 1 + (int)n > HELP_WIDTH) {
            fprintf(f, "\n%*s", indent, "");
            col = start = indent;
        }
        fprintf(f, "%s%.*s", col > start ? " " : "", (int)n, p);
        col += (col > start ? 1 : 0) + (int)n;
        p += n;
    }
    fputc('\n', f);
}

/* Prints "  LEFT text" with LEFT padded to lw columns and the text wrapped under itself. A left column wider
 * than lw gets a line of its own. */
static void help_line(FILE *f, const char *left, int lw, const char *text)
{
    if ((int)strlen(left) > lw)
        fprintf(f, "  %s\n%*s", left, lw + 3, "");
    else
        fprintf(f, "  %-*s ", lw, left);
    help_wrap(f, lw + 3, lw + 3, text);
}

void cg_opts_help(cg_command c, void *fp)
{
    FILE *f = fp;
    if (c == CG_CMD_NONE || c == CG_CMD_HELP) {
        fprintf(f, "clgauge: an OpenCL performance lab.\nHow fast can this device go, and which optimization "
                   "pays on it?\n\nUsage: clgauge COMMAND [options]\n\nCommands:\n");
        for (int k = CG_CMD_DEVICES; k <= CG_CMD_HELP; k++)
            help_line(f, commands[k].name, 8, commands[k].summary);
        fprintf(f, "\nclgauge COMMAND --help shows a command's options; clgauge --version its version.\n"
                   "Exit codes: 0 ok, 1 usage, 2 no platform/device, 3 a verification failed,\n"
                   "4 OpenCL/runtime error, 5 file I/O.\n"
                   "Environment: CLGAUGE_DEVICE (default --device), CLGAUGE_CACHE_DIR.\n");
        return;
    }
    fprintf(f, "Usage: clgauge %s %s\n", commands[c].name, commands[c].args);
    help_wrap(f, 0, 0, commands[c].summary);
    fprintf(f, "\nOptions:\n");
    size_t n;
    const cg_opt_row *t = cg_opt_table(&n);
    for (const cg_opt_row *r = t; r < t + n; r++) {
        if (!(r->commands & (1u << c))) continue;
        char left[64], sh[8] = "    ", text[512];
        if (r->short_name) snprintf(sh, sizeof sh, "-%c, ", r->short_name);
        snprintf(left, sizeof left, "%s--%s%s%s", sh, r->name, r->metavar ? " " : "",
                 r->metavar ? r->metavar : "");
        cg_opt_help_text(r, text, sizeof text);
        help_line(f, left, HELP_LEFT, text);
    }
    if (c == CG_CMD_RUN || c == CG_CMD_TUNE || c == CG_CMD_REPORT || c == CG_CMD_COMPARE)
        help_line(f, "--", HELP_LEFT, "end of the options: every later word is a workload or a file");
    if (c == CG_CMD_PEAK) {
        fprintf(f, "\nTests (--only takes families or test names):\n");
        for (size_t i = 0; i < cg_peak_ntests; i++) {
            char left[32];
            snprintf(left, sizeof left, "%-10s %s", cg_peak_tests[i].family, cg_peak_tests[i].name);
            help_line(f, left, 25, cg_peak_tests[i].summary);
        }
    }
}
