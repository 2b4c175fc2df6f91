/* The tables the CLI is driven by: every registered workload and rung fits the fixed-size selection of
 * cli/targets.h (so adding one past CG_MAX_WORKLOADS / CG_MAX_RUNGS fails here, not silently at run time),
 * the peak test table fits CG_PEAK_MAX_TESTS, and the merged option table (the CLI's rows and every
 * workload's own options) is consistent: what parsing, --help, `list --json` and the completions all read. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cli/options.h"
#include "cli/targets.h"
#include "peak/peak.h"
#include "workloads/registry.h"

static const char *const t_names[CG_WOPTS_MAX] = {
    "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b0", "b1", "b2", "b3", "b4", "b5",
    "b6", "b7", "b8", "b9", "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "d0", "d1"};

static void test_capacities(void **state)
{
    (void)state;
    assert_true(cg_nworkloads <= CG_MAX_WORKLOADS);
    for (size_t w = 0; w < cg_nworkloads; w++) {
        assert_true(cg_workloads[w]->n_rungs >= 1);
        assert_true(cg_workloads[w]->n_rungs <= CG_MAX_RUNGS);
    }
    assert_true(cg_peak_ntests <= CG_PEAK_MAX_TESTS);
    assert_int_equal(cg_targets_check_capacity(), CG_OK);
}

/* "all" selects every rung of every workload, the last rung of the last workload included. */
static void test_all_selects_every_rung(void **state)
{
    (void)state;
    static cg_targets t;
    assert_int_equal(cg_targets_parse("all", &t), CG_OK);
    for (size_t w = 0; w < cg_nworkloads; w++) {
        assert_true(t.any[w]);
        for (size_t r = 0; r < cg_workloads[w]->n_rungs; r++)
            assert_true(t.rung[w][r]);
    }
}

/* No command has two rows of one name or one short form; a flag has no value; value completions are set; a
 * workload-specific option is a run option; every workload's own option is in the table, once, as a run row
 * that the workload takes, with its help prefixed by the workloads taking it. */
static void test_option_rows(void **state)
{
    (void)state;
    size_t n;
    const cg_opt_row *t = cg_opt_table(&n);
    assert_int_equal(cg_opt_table_check(), CG_OK);
    for (size_t i = 0; i < n; i++) {
        const cg_opt_row *a = &t[i];
        assert_non_null(a->help);
        assert_true((a->kind == CG_ARG_FLAG) == (a->metavar == NULL));
        assert_true(a->complete != CG_COMPLETE_WORDS || (a->words && a->words[0]));
        /* a workload's option is run's, and tune's where tune takes it (tune runs the same ladders) */
        assert_true(!cg_opt_is_workload_specific(a) ||
                    (a->commands & ~((1u << CG_CMD_RUN) | (1u << CG_CMD_TUNE))) == 0);
        assert_true(!cg_opt_is_workload_specific(a) || (a->commands & (1u << CG_CMD_RUN)));
        assert_true(!a->takes || a->takers_noun);
        for (size_t j = i + 1; j < n; j++) {
            const cg_opt_row *b = &t[j];
            if (!(a->commands & b->commands)) continue;
            assert_string_not_equal(a->name, b->name);
            assert_true(!a->short_name || a->short_name != b->short_name);
        }
    }
    for (size_t w = 0; w < cg_nworkloads; w++) {
        const cg_workload *wl = cg_workloads[w];
        int sweeps = 0;
        for (size_t k = 0; k < wl->n_wopts; k++) {
            const cg_wopt *d = &wl->wopts[k];
            const cg_opt_row *r = NULL;
            for (size_t i = 0; i < n; i++)
                if (!strcmp(t[i].name, d->name) && (t[i].commands & (1u << CG_CMD_RUN))) r = &t[i];
            if (!r || !r->wopt) fail_msg("%s's --%s is not a workload row of the table", wl->name, d->name);
            assert_true(cg_opt_takes(r, wl));
            assert_true(d->kind != CG_WOPT_WORD || (d->words && d->words[0]));
            assert_true(d->kind != CG_WOPT_EXTENTS || (d->dflt && d->max >= 1));
            sweeps += d->kind == CG_WOPT_EXTENTS;
            char help[512];
            cg_opt_help_text(r, help, sizeof help);
            if (!strstr(help, wl->name) || !strstr(help, d->help))
                fail_msg("--%s help '%s' lacks %s or its own text", d->name, help, wl->name);
        }
        assert_true(sweeps <= 1);
    }
}

/* The workload options a command line gives reach the store by name, typed; the CLI's own are not there. */
static void test_wopt_store(void **state)
{
    (void)state;
    char *argv[] = {"clgauge",
                    "run",
                    "blur,histogram,convolution",
                    "--pattern=allequal",
                    "--filter",
                    "3,5x3",
                    "--sigma",
                    "3",
                    "--runs",
                    "2"};
    cg_opts o;
    assert_int_equal(cg_opts_parse((int)(sizeof argv / sizeof argv[0]), argv, &o), CG_OK);
    assert_int_equal(o.wopts.n, 3);
    assert_true(cg_wopts_number(&o.wopts, "sigma", 5) == 3.0);
    assert_string_equal(cg_wopts_find(&o.wopts, "pattern")->text, "allequal");
    assert_string_equal(cg_wopts_find(&o.wopts, "filter")->text, "3,5x3");
    assert_null(cg_wopts_find(&o.wopts, "runs"));
    assert_true(cg_wopts_number(NULL, "sigma", 5) == 5.0);
    assert_int_equal(o.runs, 2);
    char *bad[] = {"clgauge", "run", "blur", "--sigma", "-2"};
    assert_int_equal(cg_opts_parse(5, bad, &o), CG_E_USAGE);
    char *twice[] = {"clgauge", "run",     "blur", "--sigma",
                     "2.5",     "--sigma", "3"}; /* refused, never "last wins" */
    assert_int_equal(cg_opts_parse(7, twice, &o), CG_E_USAGE);
    cg_wopts s = {0};
    for (int i = 0; i < CG_WOPTS_MAX; i++)
        assert_non_null(cg_wopts_set(&s, t_names[i]));
    assert_null(cg_wopts_set(&s, "one-too-many"));
    assert_non_null(cg_wopts_set(&s, t_names[0])); /* a name already there still has its entry */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capacities),
        cmocka_unit_test(test_all_selects_every_rung),
        cmocka_unit_test(test_option_rows),
        cmocka_unit_test(test_wopt_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
