/* The tables the CLI is driven by: every registered workload and rung fits the fixed-size selection of
 * cli/targets.h (so adding one past CG_MAX_WORKLOADS / CG_MAX_RUNGS fails here, not silently at run time),
 * the peak test table fits CG_PEAK_MAX_TESTS, and the option table is consistent (what parsing, --help,
 * `list --json` and the completions all read). */
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

/* No command has two rows of one name or one short form; a flag has no value; value completions are set. */
static void test_option_rows(void **state)
{
    (void)state;
    for (size_t i = 0; i < cg_opt_nrows; i++) {
        const cg_opt_row *a = &cg_opt_rows[i];
        assert_non_null(a->help);
        assert_true((a->kind == CG_ARG_FLAG) == (a->metavar == NULL));
        assert_true(a->complete != CG_COMPLETE_WORDS || (a->words && a->words[0]));
        assert_true(!a->takes || a->commands == (1u << CG_CMD_RUN));
        for (size_t j = i + 1; j < cg_opt_nrows; j++) {
            const cg_opt_row *b = &cg_opt_rows[j];
            if (!(a->commands & b->commands)) continue;
            assert_string_not_equal(a->name, b->name);
            assert_true(!a->short_name || a->short_name != b->short_name);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capacities),
        cmocka_unit_test(test_all_selects_every_rung),
        cmocka_unit_test(test_option_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
