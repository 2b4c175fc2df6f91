/* `clgauge compare OLD.json NEW.json`: loads both runs and hands them to report/compare.c. Exit 0 when
 * nothing regressed, 3 (CG_E_VERIFY) when a rung regressed beyond threshold and noise or passed before and
 * fails now, 1 when the runs have nothing in common, 5 when a file is not a readable clgauge run (or is
 * damaged, or too large to compare in memory). */
#include <string.h>
#include "cli/commands.h"
#include "core/log.h"
#include "report/compare.h"
#include "cli/runfile.h"

cg_status cg_cmd_compare(const cg_opts *o, FILE *out)
{
    cg_report a, b;
    char err[512];
    cg_status st = CG_OK;
    cg_report_init(&b);
    if (cg_report_load(o->files[0], &a, err, sizeof err) != 0 ||
        cg_report_load(o->files[1], &b, err, sizeof err) != 0) {
        CG_ERROR("%s", err);
        st = CG_E_IO;
        goto out;
    }
    switch (cg_compare(&a, o->files[0], &b, o->files[1], o->threshold, out, err, sizeof err)) {
    case CG_CMP_NO_MEMORY:
        CG_ERROR("%s", err);
        st = CG_E_IO;
        break;
    case CG_CMP_NOTHING_IN_COMMON:
        CG_ERROR("%s", err);
        st = CG_E_USAGE;
        break;
    case CG_CMP_REGRESSED:
        st = CG_E_VERIFY;
        break;
    case CG_CMP_OK:
        break;
    }
out:
    cg_report_fini(&a);
    cg_report_fini(&b);
    return st;
}
