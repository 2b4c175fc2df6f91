/* `clgauge report`: saved runs (JSON) back as text tables, or as one HTML page with charts (--html); the
 * HTML steps `run --html` shares: the early check (gnuplot on PATH, a valid $CLGAUGE_GNUPLOT_TIMEOUT, the
 * path writable) and the writing; and the writing of the report files of run and peak, together. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/commands.h"
#include "cli/meta.h"
#include "core/fs.h"
#include "core/log.h"
#include "core/safefile.h"
#include "report/html.h"
#include "cli/runfile.h"
#include "report/plot.h"
#include "report/report.h"

cg_status cg_cmd_html_check(const char *path)
{
    char err[256];
    double timeout;
    if (!path) return CG_OK;
    if (!cg_plot_available()) {
        CG_ERROR("%s", CG_PLOT_MISSING);
        return CG_E_RUNTIME;
    }
    if (!cg_plot_timeout(&timeout, err, sizeof err)) {
        CG_ERROR("%s", err);
        return CG_E_USAGE;
    }
    return cg_cli_check_writable("--html", path);
}

cg_status cg_cmd_html_write(const cg_report *const *runs, size_t n, const char *path,
                            const char *command_line)
{
    char gen[1200], err[512];
    bool io;
    snprintf(gen, sizeof gen, "clgauge %s (git %s): %s", CLGAUGE_VERSION, CLGAUGE_GIT, command_line);
    if (cg_report_html(runs, n, gen, path, err, sizeof err, &io) == 0) return CG_OK;
    CG_ERROR("%s", err);
    return io ? CG_E_IO : CG_E_RUNTIME;
}

cg_status cg_cmd_write_files(const cg_opts *o, const cg_report *rep)
{
    cg_status st = CG_OK;
    cg_safefile_batch_begin(); /* the report files are replaced together, or none of them */
    if (o->json && cg_report_json(rep, o->json) != 0) {
        CG_ERROR("cannot write --json file %s: %s", o->json, cg_fs_strerror(errno));
        st = CG_E_IO;
    }
    if (o->csv && cg_report_csv(rep, o->csv) != 0) {
        CG_ERROR("cannot write --csv file %s: %s", o->csv, cg_fs_strerror(errno));
        st = CG_E_IO;
    }
    if (o->html && rep->kind == CG_KIND_RUN)
        st = cg_status_merge(st, cg_cmd_html_write(&rep, 1, o->html, rep->command_line));
    if (cg_safefile_batch_end(st == CG_OK) != 0) {
        CG_ERROR("cannot put the report files in place: %s", cg_fs_strerror(errno));
        st = CG_E_IO;
    }
    return st;
}

cg_status cg_cmd_report(const cg_opts *o, int argc, char **argv, FILE *out)
{
    cg_status st = cg_cmd_html_check(o->html);
    if (st != CG_OK) return st;
    cg_report reps[CG_MAX_FILES];
    const cg_report *ptrs[CG_MAX_FILES];
    int loaded = 0;
    char err[512];
    for (; loaded < o->nfiles; loaded++) {
        ptrs[loaded] = &reps[loaded];
        if (cg_report_load(o->files[loaded], &reps[loaded], err, sizeof err) != 0) {
            CG_ERROR("%s", err);
            cg_report_fini(&reps[loaded]);
            st = CG_E_IO;
            break;
        }
    }
    if (st == CG_OK && o->html) {
        char cmd[1024];
        cg_cli_command_line(cmd, sizeof cmd, argc, argv); /* valid UTF-8, cut on a character */
        st = cg_cmd_html_write(ptrs, (size_t)loaded, o->html, cmd);
    }
    for (int i = 0; st == CG_OK && !o->html && i < loaded; i++) {
        if (loaded > 1) fprintf(out, "%s== %s ==\n", i ? "\n" : "", o->files[i]);
        cg_report_text(&reps[i], out);
        if (!o->quiet) cg_report_warnings(&reps[i], stderr); /* one line per warning kind, with its fix */
    }
    for (int i = 0; i < loaded; i++)
        cg_report_fini(&reps[i]);
    return st;
}
