/* `clgauge list`: workloads, their rungs and each rung's why-line, from the registry. */
#include <string.h>
#include "cli/commands.h"
#include "core/device.h"
#include "workloads/registry.h"

/* " [needs images, image-r8]", or "" when the rung needs nothing. */
static void needs_text(unsigned needs, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (unsigned b = 1; b && b <= needs; b <<= 1)
        if ((needs & b) && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : " [needs ",
                                     cg_feature_name(b));
    if (used && used < len) snprintf(buf + used, len - used, "]");
}

cg_status cg_cmd_list(const cg_opts *o, FILE *out)
{
    if (o->quiet) return CG_OK;
    for (size_t i = 0; i < cg_nworkloads; i++) {
        const cg_workload *w = cg_workloads[i];
        fprintf(out, "%s: %s\n  --size: %s\n", w->name, w->summary, w->size_help);
        for (size_t k = 0; k < w->n_rungs; k++) {
            char needs[96];
            needs_text(w->rungs[k].needs, needs, sizeof needs);
            fprintf(out, "  %s:%-16s %s%s\n", w->name, w->rungs[k].name, w->rungs[k].why, needs);
        }
        fputc('\n', out);
    }
    return CG_OK;
}
