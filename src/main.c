/* clgauge's entry point: argv -> options -> command -> exit code. The only place that decides where output
 * and log lines go, and the only place that exits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/commands.h"
#include "core/log.h"

typedef struct sink_cfg {
    bool quiet, debug;
} sink_cfg;

static void sink(cg_log_level level, const char *msg, void *user)
{
    const sink_cfg *c = user;
    switch (level) {
    case CG_LOG_ERROR:
        fprintf(stderr, "clgauge: error: %s\n", msg);
        break;
    case CG_LOG_WARN:
        fprintf(stderr, "clgauge: warning: %s\n", msg);
        break;
    case CG_LOG_INFO:
        if (!c->quiet) fprintf(stderr, "clgauge: %s\n", msg);
        break;
    case CG_LOG_DEBUG:
        if (c->debug) fprintf(stderr, "clgauge: debug: %s\n", msg);
        break;
    }
}

int main(int argc, char **argv)
{
    sink_cfg cfg = {false, getenv("CLGAUGE_DEBUG") != NULL};
    cg_log_set_sink(sink, &cfg);
    cg_opts o;
    cg_status st = cg_opts_parse(argc, argv, &o);
    if (st != CG_OK) return st;
    cfg.quiet = o.quiet;
    if (o.version) {
        printf("clgauge %s (git %s)\n", CLGAUGE_VERSION, CLGAUGE_GIT);
        return 0;
    }
    if (o.help || o.command == CG_CMD_HELP) {
        cg_command c = o.command;
        if (c == CG_CMD_HELP && o.targets) {
            cg_opts tmp;
            char *args[] = {argv[0], (char *)o.targets, "--help"};
            if (cg_opts_parse(3, args, &tmp) != CG_OK) return CG_E_USAGE;
            c = tmp.command;
        }
        cg_opts_help(c, stdout);
        return 0;
    }
    switch (o.command) {
    case CG_CMD_DEVICES:
        st = cg_cmd_devices(&o, stdout);
        break;
    case CG_CMD_LIST:
        st = cg_cmd_list(&o, stdout);
        break;
    case CG_CMD_RUN:
        st = cg_cmd_run(&o, argc, argv, stdout);
        break;
    case CG_CMD_TUNE:
        st = cg_cmd_tune(&o, argc, argv, stdout);
        break;
    case CG_CMD_PEAK:
        st = cg_cmd_peak(&o, argc, argv, stdout);
        break;
    case CG_CMD_REPORT:
        st = cg_cmd_report(&o, argc, argv, stdout);
        break;
    case CG_CMD_COMPARE:
        st = cg_cmd_compare(&o, stdout);
        break;
    case CG_CMD_COMPLETIONS:
        st = cg_cmd_completions(&o, stdout);
        break;
    default:
        break;
    }
    if (fflush(stdout) != 0 && st == CG_OK) {
        fprintf(stderr, "clgauge: error: cannot write to standard output\n");
        st = CG_E_IO;
    }
    return (int)st;
}
