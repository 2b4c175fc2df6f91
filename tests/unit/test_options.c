/* The option parser of cli/ (cli/options.c): every option of `run` at once, the defaults, and each bad
 * argument with the one-line message a user would see (recorded through a log sink). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "core/log.h"
#include "core/status.h"

static char last_line[2048];
static int log_lines;

static void record(cg_log_level level, const char *msg, void *user)
{
    (void)level;
    (void)user;
    snprintf(last_line, sizeof last_line, "%s", msg);
    log_lines++;
}

static void reset_log(void)
{
    last_line[0] = 0;
    log_lines = 0;
}

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

static cg_status parse(int argc, char **argv, cg_opts *o)
{
    reset_log();
    return cg_opts_parse(argc, argv, o);
}

static void test_opts_run_everything(void **state)
{
    (void)state;
    char *argv[] = {"clgauge",
                    "run",
                    "reduction:naive,filter3x3",
                    "--device",
                    "0:0",
                    "--size=16M",
                    "--runs",
                    "5",
                    "--warmup=0",
                    "--seed",
                    "18446744073709551615",
                    "--json",
                    "a.json",
                    "--csv=b.csv",
                    "--input",
                    "in.png",
                    "--output",
                    "out.png",
                    "--no-cache",
                    "--cache-dir",
                    "/c",
                    "--kernel-dir=/k",
                    "--mask-features",
                    "fp64,images",
                    "--quiet"};
    cg_opts o;
    assert_int_equal(parse(ARGC(argv), argv, &o), CG_OK);
    assert_int_equal(log_lines, 0);
    assert_int_equal(o.command, CG_CMD_RUN);
    assert_string_equal(o.targets, "reduction:naive,filter3x3");
    assert_string_equal(o.device, "0:0");
    assert_string_equal(o.size, "16M");
    assert_int_equal(o.runs, 5);
    assert_int_equal(o.warmup, 0);
    assert_true(o.seed == UINT64_MAX);
    assert_string_equal(o.json, "a.json");
    assert_string_equal(o.csv, "b.csv");
    assert_string_equal(o.input, "in.png");
    assert_string_equal(o.output, "out.png");
    assert_true(o.no_cache && o.quiet && !o.help && !o.version && !o.json_stdout);
    assert_string_equal(o.cache_dir, "/c");
    assert_string_equal(o.kernel_dir, "/k");
    assert_string_equal(o.mask, "fp64,images");
}

static void test_opts_defaults(void **state)
{
    (void)state;
    char *argv[] = {"clgauge", "run", "all"};
    cg_opts o;
    unsetenv("CLGAUGE_DEVICE");
    assert_int_equal(parse(ARGC(argv), argv, &o), CG_OK);
    assert_int_equal(o.runs, 10);
    assert_int_equal(o.warmup, 2);
    assert_true(o.seed == 1);
    assert_null(o.device);
    assert_null(o.size);
    assert_null(o.json);
    assert_false(o.no_cache || o.quiet);
    setenv("CLGAUGE_DEVICE", "gpu", 1);
    assert_int_equal(parse(ARGC(argv), argv, &o), CG_OK);
    assert_string_equal(o.device, "gpu");
    char *over[] = {"clgauge", "run", "all", "--device", "cpu"};
    assert_int_equal(parse(ARGC(over), over, &o), CG_OK);
    assert_string_equal(o.device, "cpu");
    unsetenv("CLGAUGE_DEVICE");
    char *none[] = {"clgauge"};
    assert_int_equal(parse(1, none, &o), CG_OK);
    assert_true(o.help);
    char *ver[] = {"clgauge", "--version"};
    assert_int_equal(parse(2, ver, &o), CG_OK);
    assert_true(o.version);
    char *dev[] = {"clgauge", "devices", "--json"};
    assert_int_equal(parse(3, dev, &o), CG_OK);
    assert_int_equal(o.command, CG_CMD_DEVICES);
    assert_true(o.json_stdout);
    char *help[] = {"clgauge", "help", "run"};
    assert_int_equal(parse(3, help, &o), CG_OK);
    assert_int_equal(o.command, CG_CMD_HELP);
    assert_string_equal(o.targets, "run");
    char *runhelp[] = {"clgauge", "run", "--help"};
    assert_int_equal(parse(3, runhelp, &o), CG_OK);
    assert_true(o.help);
}

/* Each row: the arguments after "clgauge" (NULL-terminated) and what the one logged line must contain. */
static const struct {
    const char *args[5], *msg;
} bad_args[] = {
    {{"run", "all", "--frob"}, "unknown option '--frob'"},
    {{"run", "all", "--frob=1"}, "unknown option '--frob'"},
    {{"devices", "--size", "4"}, "unknown option '--size'"},
    {{"run", "all", "--runs"}, "--runs needs a value"},
    {{"run", "all", "--json="}, "non-empty"},
    {{"run", "--runs", "3"}, "run needs workloads"},
    {{"run", "all", "--runs", "0"}, "--runs expects a whole number from 1"},
    {{"run", "all", "--runs=-3"}, "'-3'"},
    {{"run", "all", "--runs", "1000001"}, "--runs"},
    {{"run", "all", "--warmup", "x"}, "--warmup"},
    {{"run", "all", "--seed", "18446744073709551616"}, "--seed"},
    {{"run", "all", "--seed", "-1"}, "--seed"},
    {{"run", "all", "--no-cache=yes"}, "takes no value"},
    {{"frob"}, "unknown command 'frob'"},
    {{"run", "all", "more"}, "unexpected argument 'more'"},
    {{"run", "all", "--seed", " -1"}, "--seed expects a non-negative integer, not ' -1'"},
    {{"run", "all", "--seed", " 5"}, "--seed"},
    {{"run", "all", "--runs", " 3"}, "--runs expects a whole number"},
    {{"run", "all", "--sigma", "+2"}, "--sigma expects a positive number"},
    {{"run", "all", "-z"}, "unknown option '-z'"},
    {{"run", "all", "-q1"}, "-q (--quiet) takes no value"},
    {{"run", "all", "-r"}, "-r (--runs) needs a value"},
    {{"run", "all", "-s", "4", "-x"}, "unknown option '-x'"},
    {{"peak", "-s", "4"}, "unknown option '-s' for 'peak'"},
};

/* Short options, "--" ending the options, and the help wrapped at 80 columns. */
static void test_opts_short_and_end(void **state)
{
    (void)state;
    cg_opts o;
    char *a[] = {"clgauge", "run", "-d", "0:0",    "-s16M", "-r",    "3",
                 "-w0",     "-q",  "-j", "x.json", "--",    "-weird"};
    assert_int_equal(parse(ARGC(a), a, &o), CG_OK);
    assert_string_equal(o.device, "0:0");
    assert_string_equal(o.size, "16M");
    assert_int_equal(o.runs, 3);
    assert_int_equal(o.warmup, 0);
    assert_true(o.quiet);
    assert_string_equal(o.json, "x.json");
    assert_string_equal(o.targets, "-weird"); /* after "--" a word starting with '-' is an argument */
    char *b[] = {"clgauge", "run", "--", "reduction", "--runs"};
    assert_int_equal(parse(ARGC(b), b, &o), CG_E_USAGE); /* "--runs" is a second target: unexpected */
    char *c[] = {"clgauge", "devices", "-j"};
    assert_int_equal(parse(ARGC(c), c, &o), CG_OK);
    assert_true(o.json_stdout);
    char *d[] = {"clgauge", "report", "--", "-a.json", "b.json"};
    assert_int_equal(parse(ARGC(d), d, &o), CG_OK);
    assert_int_equal(o.nfiles, 2);
    assert_string_equal(o.files[0], "-a.json");

    char buf[16384] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    assert_non_null(f);
    for (int cmd = CG_CMD_NONE; cmd <= CG_CMD_HELP; cmd++)
        cg_opts_help((cg_command)cmd, f);
    fclose(f);
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
        if (strlen(line) > 80) fail_msg("help line of %zu columns: %s", strlen(line), line);
}

static void test_opts_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_args / sizeof bad_args[0]; i++) {
        char *argv[6] = {"clgauge"};
        int argc = 1;
        while (argc < 6 && bad_args[i].args[argc - 1])
            argv[argc] = (char *)bad_args[i].args[argc - 1], argc++;
        cg_opts o;
        assert_int_equal(parse(argc, argv, &o), CG_E_USAGE);
        assert_int_equal(log_lines, 1);
        if (!strstr(last_line, bad_args[i].msg))
            fail_msg("%s %s: '%s' does not contain '%s'", argv[1], argv[argc - 1], last_line,
                     bad_args[i].msg);
    }
}

int main(void)
{
    cg_log_set_sink(record, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opts_run_everything),
        cmocka_unit_test(test_opts_defaults),
        cmocka_unit_test(test_opts_errors),
        cmocka_unit_test(test_opts_short_and_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
