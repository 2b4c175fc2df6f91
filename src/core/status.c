/* Merging of statuses: which failure a run reports when several things went wrong. */
#include "core/status.h"

static int rank(cg_status s)
{
    switch (s) {
    case CG_OK:
        return 0;
    case CG_E_VERIFY:
        return 1;
    default:
        return 2;
    }
}

cg_status cg_status_merge(cg_status a, cg_status b)
{
    return rank(b) > rank(a) ? b : a;
}
