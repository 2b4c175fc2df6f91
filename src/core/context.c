/* The context and profiling command queue on one device, and where the program cache lives. */
#include "core/context.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"

static void pick_cache_dir(char *buf, size_t len, const char *given)
{
    const char *env = getenv("CLGAUGE_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    buf[0] = 0;
    if (given && *given)
        snprintf(buf, len, "%s", given);
    else if (env && *env)
        snprintf(buf, len, "%s", env);
    else if (xdg && *xdg)
        snprintf(buf, len, "%s/clgauge", xdg);
    else if (home && *home)
        snprintf(buf, len, "%s/.cache/clgauge", home);
}

cg_status cg_ctx_init(cg_ctx *c, const cg_device *dev, unsigned masked, const char *kernel_dir, bool no_cache,
                      const char *cache_dir)
{
    cg_status st = CG_OK;
    memset(c, 0, sizeof *c);
    c->dev = dev;
    c->features = dev->features & ~masked;
    c->kernel_dir = kernel_dir;
    c->no_cache = no_cache;
    pick_cache_dir(c->cache_dir, sizeof c->cache_dir, cache_dir);
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0};
    CG_TRY_OBJ(c->context, clCreateContext(props, 1, &dev->id, NULL, NULL, CG_ERRP));
    CG_TRY_OBJ(c->queue, clCreateCommandQueue(c->context, dev->id, CL_QUEUE_PROFILING_ENABLE, CG_ERRP));
out:
    if (st != CG_OK) cg_ctx_fini(c);
    return st;
}

void cg_ctx_fini(cg_ctx *c)
{
    if (c->queue) clReleaseCommandQueue(c->queue);
    if (c->context) clReleaseContext(c->context);
    c->queue = NULL;
    c->context = NULL;
}
