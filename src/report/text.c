/* The terminal report of a run or a peak: one table printer driven by an array of column descriptors per kind
 * (header, cell formatter, alignment), widths measured from the content. A run's table leaves its why column
 * out on a terminal too narrow for it; a row with a warning is marked "!" after its status, with a legend;
 * under it the reason of every row that is not ok and a footer naming the device, the roofline ceilings and
 * what the bandwidth counts. Rows that did not run show "-" in every timing and rate column. A row of a
 * --filter sweep is named by its group and rung, "convolution[32x32]:best". A peak's table has a blank line
 * between families; a figure that was not measured shows its status label and its reason. The warnings
 * themselves, one line per kind with its fix, are cg_report_warnings' (stderr). */
#include "report/report.h"
#include "model/rowsort.h"
#include "report/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define CELL                                                                                                 \
    264 /* fits the longest cell: a reason (256), why (160) or workload[variant]:rung (CG_GROUP_LEN + 33) */
#define GAP "  "

typedef void (*cell_fn)(const cg_result *row, char *buf, size_t n);
typedef struct column {
    const char *header;
    cell_fn cell;
    bool right; /* right-aligned (numbers) */
} column;

static bool did_run(const cg_result *row)
{
    return (row->status == CG_RUNG_OK || row->status == CG_RUNG_WRONG) && row->runs > 0;
}

/* A positive rate of a row that ran, or "-". */
static bool rate_ok(const cg_result *row, double v, char *buf, size_t n)
{
    if (did_run(row) && isfinite(v) && v > 0) return true;
    snprintf(buf, n, "-");
    return false;
}

/* "reduction:best", or "convolution[32x32]:best" for a row of a --filter sweep. */
static void cell_name(const cg_result *row, char *buf, size_t n)
{
    char group[CG_GROUP_LEN];
    cg_result_group(row, group, sizeof group);
    /* "*": the rung ran with the tuning cache's parameters (the footer names them); a tune candidate shows
     * its parameters */
    if (row->params_from[0] && strcmp(row->params_from, "tuned"))
        snprintf(buf, n, "%s:%s %s", group, row->rung, row->params);
    else
        snprintf(buf, n, "%s:%s%s", group, row->rung, !strcmp(row->params_from, "tuned") ? "*" : "");
}

/* The status label (cg_status_label), "!" after it when the row has a warning. */
static void cell_status(const cg_result *row, char *buf, size_t n)
{
    const char *label = cg_status_label(cg_rung_status_name(row->status));
    snprintf(buf, n, "%s%s", label ? label : "?", row->warnings ? "!" : "");
}

static void cell_median(const cg_result *row, char *buf, size_t n)
{
    if (rate_ok(row, row->t_median, buf, n)) cg_fmt_time(buf, n, row->t_median);
}

static void cell_cv(const cg_result *row, char *buf, size_t n)
{
    if (!did_run(row) || !isfinite(row->t_cv))
        snprintf(buf, n, "-");
    else {
        snprintf(buf, n, "+-");
        cg_fmt_fixed(buf + 2, n - 2, 100 * row->t_cv, 1);
    }
}

static void cell_gbps(const cg_result *row, char *buf, size_t n)
{
    if (rate_ok(row, row->gbps, buf, n)) cg_fmt3(buf, n, row->gbps);
}

static void cell_gflops(const cg_result *row, char *buf, size_t n)
{
    if (rate_ok(row, row->gflops, buf, n)) cg_fmt3(buf, n, row->gflops);
}

static void cell_items(const cg_result *row, char *buf, size_t n)
{
    if (rate_ok(row, row->items_per_s, buf, n))
        cg_fmt_rate(buf, n, row->items_per_s, row->item_unit[0] ? row->item_unit : "item");
}

static void cell_roofline(const cg_result *row, char *buf, size_t n)
{
    if (rate_ok(row, row->roofline_pct, buf, n)) cg_fmt_fixed(buf, n, row->roofline_pct, 1);
}

static void cell_speedup(const cg_result *row, char *buf, size_t n)
{
    if (!rate_ok(row, row->speedup, buf, n)) return;
    buf[0] = 'x';
    cg_fmt3(buf + 1, n - 1, row->speedup);
}

/* Whether the row has an occupancy estimate worth a column: one from a GPU model (on a CPU every estimate is
 * one group per core). */
static bool occ_shown(const cg_result *row)
{
    return row->facts.occ_groups > 0 && strcmp(row->facts.occ_model, "cpu") != 0;
}

/* "50% (4 wg, local)": resident warps over the most, resident work-groups per compute unit and what bounds
 * them; "4 wg (local)" where the SIMD width is not known; "-" without an estimate. */
static void cell_occ(const cg_result *row, char *buf, size_t n)
{
    const cg_kfacts *f = &row->facts;
    if (!occ_shown(row)) {
        snprintf(buf, n, "-");
    } else if (isfinite(f->occupancy) && f->occupancy > 0) {
        cg_fmt_fixed(buf, n, 100 * f->occupancy, 0);
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%% (%u wg, %s)", f->occ_groups, f->occ_limit);
    } else {
        snprintf(buf, n, "%u wg (%s)", f->occ_groups, f->occ_limit);
    }
}

static void cell_why(const cg_result *row, char *buf, size_t n)
{
    snprintf(buf, n, "%s", row->why);
}

/* A peak figure in its unit, or the status label of a row that gave none. */
static void cell_figure(const cg_result *row, char *buf, size_t n)
{
    if (row->status != CG_RUNG_OK || !isfinite(row->value)) {
        const char *label = cg_status_label(cg_rung_status_name(row->status));
        snprintf(buf, n, "%s", row->status == CG_RUNG_OK || !label ? "-" : label);
        return;
    }
    double v = row->value;
    int prec = v >= 100 ? 0 : v >= 10 ? 1 : 2;
    if (fabs(v) >= 1e12) /* bounded width, whatever the value */
        snprintf(buf, n, "%.3g %s", v, row->unit);
    else
        snprintf(buf, n, "%.*f %s", prec, v, row->unit);
}

static void cell_workload(const cg_result *row, char *buf, size_t n)
{
    snprintf(buf, n, "%s", row->workload);
}

static void cell_rung(const cg_result *row, char *buf, size_t n)
{
    snprintf(buf, n, "%s", row->rung);
}

static void cell_variant(const cg_result *row, char *buf, size_t n)
{
    snprintf(buf, n, "%s", row->variant);
}

/* What a peak figure counts, or why it is not ok. */
static void cell_counts(const cg_result *row, char *buf, size_t n)
{
    snprintf(buf, n, "%s", row->status == CG_RUNG_OK ? row->bytes_note : row->reason);
}

/* clang-format off */
static const column run_columns[] = {
    /* header         cell            right-aligned */
    {"workload:rung", cell_name,      false},
    {"status",        cell_status,    false},
    {"median",        cell_median,    true},
    {"+-CV %",        cell_cv,        true},
    {"GB/s",          cell_gbps,      true},
    {"GFLOP/s",       cell_gflops,    true},
    {"items/s",       cell_items,     true},
    {"roofline %",    cell_roofline,  true},
    {"speedup",       cell_speedup,   true},
    {"occupancy",     cell_occ,       false},
    {"why",           cell_why,       false},
};
static const column peak_columns[] = {
    {"family",        cell_workload,  false},
    {"test",          cell_rung,      false},
    {"variant",       cell_variant,   false},
    {"figure",        cell_figure,    true},
    {"counts",        cell_counts,    false},
};
/* clang-format on */
#define NCOL_MAX 11

/* The columns of a kind's table. */
typedef struct column_set {
    const column *col;
    size_t n;
    bool fit;       /* the last column is left out when the line is wider than the terminal */
    bool group_gap; /* a blank line between rows of different workloads (peak: families) */
} column_set;
static const column_set run_set = {run_columns, sizeof run_columns / sizeof run_columns[0], true, false};
static const column_set peak_set = {peak_columns, sizeof peak_columns / sizeof peak_columns[0], false, true};
_Static_assert(sizeof run_columns / sizeof run_columns[0] <= NCOL_MAX, "raise NCOL_MAX");
_Static_assert(sizeof peak_columns / sizeof peak_columns[0] <= NCOL_MAX, "raise NCOL_MAX");

/* Prints one line of the table's first ncol columns: the header when row is NULL. The last column is not
 * padded. */
static void print_line(FILE *f, const column_set *cs, const cg_result *row, const int *width, size_t ncol)
{
    char buf[CELL];
    for (size_t c = 0; c < ncol; c++) {
        if (row)
            cs->col[c].cell(row, buf, sizeof buf);
        else
            snprintf(buf, sizeof buf, "%s", cs->col[c].header);
        const char *sep = c ? GAP : "";
        if (c == ncol - 1)
            fprintf(f, "%s%s\n", buf[0] ? sep : "", buf); /* no trailing blanks */
        else
            fprintf(f, cs->col[c].right ? "%s%*s" : "%s%-*s", sep, width[c], buf);
    }
}

/* The table; its last column is left out when the set allows it and the whole line would be wider than cols
 * (0: no limit). Returns whether it was left out. */
static bool print_table(FILE *f, const cg_report *r, const column_set *cs, int cols)
{
    int width[NCOL_MAX], total = 0;
    char buf[CELL];
    for (size_t c = 0; c < cs->n; c++) {
        width[c] = (int)strlen(cs->col[c].header);
        for (size_t i = 0; i < r->n; i++) {
            cs->col[c].cell(&r->rows[i], buf, sizeof buf);
            if ((int)strlen(buf) > width[c]) width[c] = (int)strlen(buf);
        }
        total += width[c] + (c ? (int)strlen(GAP) : 0);
    }
    size_t ncol = cs->fit && cols > 0 && total > cols ? cs->n - 1 : cs->n;
    print_line(f, cs, NULL, width, ncol);
    for (size_t i = 0; i < r->n; i++) {
        if (cs->group_gap && i > 0 && strcmp(r->rows[i].workload, r->rows[i - 1].workload)) fputc('\n', f);
        print_line(f, cs, &r->rows[i], width, ncol);
    }
    return ncol < cs->n;
}

static void print_reasons(FILE *f, const cg_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        const cg_result *row = &r->rows[i];
        char name[CELL];
        if (row->status == CG_RUNG_OK) continue;
        cell_name(row, name, sizeof name);
        fprintf(f, "%s %s%s%s\n", name, cg_rung_status_name(row->status), row->reason[0] ? ": " : "",
                row->reason);
    }
}

/* The row's numbers behind a warning: "CV 12.3%". */
static void warning_detail(const cg_result *row, unsigned bit, char *buf, size_t n)
{
    char t[32];
    buf[0] = '\0';
    if (bit == CG_WARN_HIGH_CV) {
        cg_fmt_fixed(t, sizeof t, 100 * row->t_cv, 1);
        snprintf(buf, n, "CV %s%%", t);
    } else if (bit == CG_WARN_TOO_SHORT && row->t_median > 0) {
        cg_fmt_time(t, sizeof t, row->t_median);
        snprintf(buf, n, "median %s", t);
    } else if (bit == CG_WARN_OUTLIERS) {
        snprintf(buf, n, "%zu of %zu runs", row->outliers, row->runs);
    } else if (bit == CG_WARN_ABOVE_ROOF) {
        cg_fmt_fixed(t, sizeof t, row->roofline_pct, 0);
        snprintf(buf, n, "%s%% of roofline", t);
    }
}

/* Is row b worse than row a for the warning bit (the row the summary names)? */
static bool worse(const cg_result *a, const cg_result *b, unsigned bit)
{
    if (!a) return true;
    if (bit == CG_WARN_HIGH_CV) return b->t_cv > a->t_cv;
    if (bit == CG_WARN_TOO_SHORT) return b->t_median < a->t_median;
    if (bit == CG_WARN_OUTLIERS) return b->outliers * a->runs > a->outliers * b->runs;
    if (bit == CG_WARN_EMULATED) return false; /* none is worse: the first is named */
    return b->roofline_pct > a->roofline_pct;
}

/* "Warning: <what> on K of N rungs (worst W: <numbers>): <fix>": the generic text is "<what>: <fix>". */
static void print_warning_kind(FILE *f, const cg_report *r, unsigned bit, size_t ran)
{
    const cg_result *w = NULL;
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->rows[i].warnings & bit) {
            k++;
            if (worse(w, &r->rows[i], bit)) w = &r->rows[i];
        }
    if (!w) return;
    const char *fix = cg_warning_fix(bit), *colon = strchr(fix, ':');
    char detail[64], name[CELL];
    warning_detail(w, bit, detail, sizeof detail);
    cell_name(w, name, sizeof name);
    int what = colon ? (int)(colon - fix) : (int)strlen(fix);
    fprintf(f, "Warning: %.*s on %zu of %zu rung%s (%s %s%s%s)%s\n", what, fix, k, ran, ran == 1 ? "" : "s",
            k == 1                    ? "at"
            : bit == CG_WARN_EMULATED ? "first"
                                      : "worst",
            name, detail[0] ? ": " : "", detail, colon ? colon : "");
}

void cg_report_warnings(const cg_report *r, FILE *f)
{
    size_t ran = 0;
    for (size_t i = 0; i < r->n; i++)
        ran += did_run(&r->rows[i]);
    for (unsigned b = 0; b < CG_WARN_COUNT; b++)
        print_warning_kind(f, r, 1u << b, ran);
}

/* Under the table: what "!" means, with the count of each warning kind. */
static void print_legend(FILE *f, const cg_report *r)
{
    fprintf(f, "!: warnings:");
    for (unsigned b = 0, first = 1; b < CG_WARN_COUNT; b++) {
        size_t k = 0;
        for (size_t i = 0; i < r->n; i++)
            k += (r->rows[i].warnings & (1u << b)) != 0;
        if (!k) continue;
        fprintf(f, "%s %s on %zu row%s", first ? "" : ",", cg_warning_name(1u << b), k, k == 1 ? "" : "s");
        first = 0;
    }
    fprintf(f, " (fixes: stderr; per row: the JSON)\n");
}

static void fmt_ceiling(char *buf, size_t n, double v, const char *unit)
{
    if (isfinite(v) && v > 0) {
        cg_fmt3(buf, n, v);
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, " %s", unit);
    } else {
        snprintf(buf, n, "-");
    }
}

/* Workload, then bytes note. */
static int cmp_note(const cg_result *a, const cg_result *b)
{
    int c = strcmp(a->workload, b->workload);
    return c ? c : strcmp(a->bytes_note, b->bytes_note);
}

/* For each row of r: NOTE_FIRST when it is the first row of its workload with its bytes note, NOTE_VARIES
 * when its workload's rows have more than one note. One sort by (workload, note): O(n log n). */
enum { NOTE_FIRST = 1, NOTE_VARIES = 2 };
static unsigned char *note_flags(const cg_report *r)
{
    size_t *idx = cg_rows_sort(r, cmp_note);
    unsigned char *flags = calloc(r->n + 1, 1);
    for (size_t s = 0, e; idx && flags && s < r->n; s = e) { /* [s, e): one workload */
        size_t notes = 0;
        for (e = s; e < r->n && !strcmp(r->rows[idx[e]].workload, r->rows[idx[s]].workload); e++)
            if (e == s || cmp_note(&r->rows[idx[e]], &r->rows[idx[e - 1]])) {
                flags[idx[e]] = NOTE_FIRST;
                notes += r->rows[idx[e]].bytes_note[0] != '\0';
            }
        for (size_t k = s; notes > 1 && k < e; k++)
            flags[idx[k]] |= NOTE_VARIES;
    }
    if (!idx) {
        free(flags);
        flags = NULL;
    }
    free(idx);
    return flags;
}

/* Which bytes each workload's bandwidth counts, once per workload and note. Where the note differs between
 * the variants of a workload, each is labelled with its row's group ("convolution[5x5]"). */
static void print_notes(FILE *f, const cg_report *r)
{
    bool notes = false;
    for (size_t i = 0; i < r->n; i++)
        notes = notes || r->rows[i].bytes_note[0];
    unsigned char *flags = notes ? note_flags(r) : NULL;
    if (!flags) return; /* no note, or out of memory: the notes are left out */
    fprintf(f, "GB/s = bytes / median time, where bytes counts:\n");
    for (size_t i = 0; i < r->n; i++) {
        const cg_result *row = &r->rows[i];
        if (!row->bytes_note[0] || !(flags[i] & NOTE_FIRST)) continue;
        char label[CG_GROUP_LEN];
        if (flags[i] & NOTE_VARIES)
            cg_result_group(row, label, sizeof label);
        else
            snprintf(label, sizeof label, "%s", row->workload);
        fprintf(f, "  %s: %s\n", label, row->bytes_note);
    }
    free(flags);
}

/* The device, the ceilings and which bytes each workload's bandwidth counts. */
static void print_footer(FILE *f, const cg_report *r)
{
    const cg_report_device *d = &r->device;
    char copy[32], rd[32], mad[32];
    fmt_ceiling(copy, sizeof copy, r->copy_gbps, "GB/s");
    fmt_ceiling(rd, sizeof rd, r->read_gbps, "GB/s");
    fmt_ceiling(mad, sizeof mad, r->mad_gflops, "GFLOP/s");
    fprintf(f, "Device: %s (%s, driver %s)\n", d->name[0] ? d->name : "?", d->platform[0] ? d->platform : "?",
            d->driver[0] ? d->driver : "?");
    fprintf(f, "Roofline (%s): copy %s, read %s, MAD %s\n", r->roofline_source[0] ? r->roofline_source : "?",
            copy, rd, mad);
    print_notes(f, r);
    for (size_t i = 0; i < r->n; i++) {
        const cg_result *row = &r->rows[i];
        char name[CELL];
        if (strcmp(row->params_from, "tuned")) continue;
        cell_name(row, name, sizeof name);
        fprintf(f, "%s ran with tuned parameters %s (clgauge tune's winner; --no-tuned runs its own)\n", name,
                row->params);
    }
}

int cg_report_text_columns(FILE *f)
{
    struct winsize ws;
    int fd = fileno(f);
    if (fd < 0 || !isatty(fd)) return 0;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    const char *env = getenv("COLUMNS");
    int cols = env ? atoi(env) : 0;
    return cols > 0 ? cols : 80;
}

/* A peak's footer: the device and how each figure is taken. */
static void print_peak_footer(FILE *f, const cg_report *r)
{
    fprintf(
        f,
        "\nDevice: %s (%s, driver %s). Each figure is the best of its timed runs (latencies: min, median, "
        "p99 of the samples); --max-time %.3g s per figure%s.\n",
        r->device.name, r->device.platform, r->device.driver, r->max_time, r->quick ? ", --quick" : "");
}

/* The run's columns for r: the occupancy column only when a row has a GPU estimate (occ_shown), so that a
 * CPU run's table stays as narrow as before. */
static const column_set *run_set_of(const cg_report *r, column_set *set, column *buf)
{
    bool occ = false;
    for (size_t i = 0; i < r->n && !occ; i++)
        occ = occ_shown(&r->rows[i]);
    *set = run_set;
    if (occ) return set;
    set->n = 0;
    for (size_t c = 0; c < run_set.n; c++)
        if (run_set.col[c].cell != cell_occ) buf[set->n++] = run_set.col[c];
    set->col = buf;
    return set;
}

void cg_report_text_fit(const cg_report *r, FILE *f, int cols)
{
    bool narrow = false, failed = false, warned = false;
    column_set set;
    column cols_buf[NCOL_MAX];
    if (r->kind == CG_KIND_PEAK) {
        print_table(f, r, &peak_set, cols);
        print_peak_footer(f, r);
        return;
    }
    if (r->n == 0)
        fprintf(f, "No results.\n");
    else
        narrow = print_table(f, r, run_set_of(r, &set, cols_buf), cols);
    for (size_t i = 0; i < r->n; i++) {
        failed = failed || r->rows[i].status != CG_RUNG_OK;
        warned = warned || r->rows[i].warnings;
    }
    if (warned) print_legend(f, r);
    if (narrow) fprintf(f, "(why column left out to fit %d columns: `clgauge list` shows it)\n", cols);
    if (failed) {
        fputc('\n', f);
        print_reasons(f, r);
    }
    fputc('\n', f);
    print_footer(f, r);
}

void cg_report_text(const cg_report *r, FILE *f)
{
    cg_report_text_fit(r, f, cg_report_text_columns(f));
}
