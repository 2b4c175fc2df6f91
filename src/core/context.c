/* The context and profiling command queue on one device, and where the program cache lives. */
#include "core/context.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/buffers.h"
#include "core/clerr.h"
#include "core/fs.h"
#include "core/log.h"

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

/* Makes the cache directory and its programs/ subdirectory (mode 0700) and trusts them only when the user
 * alone can write them (as ssh treats ~/.ssh); otherwise warns once and turns the cache off for this run. */
static void check_cache_dir(char *dir)
{
    char sub[1100], why[96];
    const char *bad = dir;
    snprintf(sub, sizeof sub, "%s/programs", dir);
    if (!cg_fs_mkdirs(sub)) {
        CG_WARN("cannot use the cache directory %s: %s; building from source (pick another with --cache-dir "
                "DIR, or --no-cache)",
                dir, strerror(errno));
        dir[0] = 0;
        return;
    }
    if (cg_fs_dir_trusted(dir, why, sizeof why) && (bad = sub, cg_fs_dir_trusted(sub, why, sizeof why))) {
        if (access(sub, W_OK | X_OK) == 0) return;
        snprintf(why, sizeof why, "%s", strerror(errno));
    }
    CG_WARN("not using the cache directory %s: %s; building from source (it must be yours and not writable "
            "by group or others: chmod go-w %s, or --cache-dir DIR, or --no-cache)",
            bad, why, bad);
    dir[0] = 0;
}

/* The CG_FEAT_IMAGE_* bits of the read-only 2D formats the context supports (none without image support). */
static unsigned image_formats(cl_context context, unsigned features)
{
    static const struct {
        cl_image_format f;
        unsigned bit;
    } wanted[] = {{{CL_R, CL_UNSIGNED_INT8}, CG_FEAT_IMAGE_R8}, {{CL_R, CL_FLOAT}, CG_FEAT_IMAGE_RF}};
    cl_image_format list[512];
    cl_uint n = 0;
    unsigned bits = 0;
    if (!(features & CG_FEAT_IMAGES) ||
        clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 512, list, &n) !=
            CL_SUCCESS)
        return 0;
    for (cl_uint i = 0; i < n && i < 512; i++)
        for (size_t k = 0; k < sizeof wanted / sizeof wanted[0]; k++)
            if (list[i].image_channel_order == wanted[k].f.image_channel_order &&
                list[i].image_channel_data_type == wanted[k].f.image_channel_data_type)
                bits |= wanted[k].bit;
    return bits;
}

cg_status cg_ctx_init(cg_ctx *c, const cg_device *dev, unsigned masked, const char *kernel_dir, bool no_cache,
                      const char *cache_dir)
{
    cg_status st = CG_OK;
    memset(c, 0, sizeof *c);
    c->dev = dev;
    c->kernel_dir = kernel_dir;
    c->no_cache = no_cache;
    pick_cache_dir(c->cache_dir, sizeof c->cache_dir, cache_dir);
    if (!no_cache && c->cache_dir[0]) check_cache_dir(c->cache_dir);
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0};
    CG_TRY_OBJ(c->context, clCreateContext(props, 1, &dev->id, NULL, NULL, CG_ERRP));
    CG_TRY_OBJ(c->queue, clCreateCommandQueue(c->context, dev->id, CL_QUEUE_PROFILING_ENABLE, CG_ERRP));
    c->offered = dev->features | image_formats(c->context, dev->features);
    c->features = c->offered & ~masked;
    const char *emu = getenv("CLGAUGE_EMULATE_MMA");
    if (emu && strcmp(emu, "1") == 0 && !(c->offered & CG_FEAT_NV_MMA)) {
        if (!(c->features & CG_FEAT_FP64)) {
            CG_WARN(
                "CLGAUGE_EMULATE_MMA=1 ignored on %s: the emulation sums in double, which this device lacks",
                dev->name);
        } else {
            c->mma_emulated = true;
            c->offered |= CG_FEAT_NV_MMA;
            c->features = c->offered & ~masked;
            CG_WARN(
                "CLGAUGE_EMULATE_MMA=1: the nvidia-mma rungs run an OpenCL C emulation of their inline PTX "
                "on %s, which checks their logic; their times are not tensor-core times",
                dev->name);
        }
    }
    c->memo = calloc(1, sizeof *c->memo);
out:
    if (st != CG_OK) cg_ctx_fini(c);
    return st;
}

void cg_ctx_fini(cg_ctx *c)
{
    if (c->memo) {
        for (size_t i = 0; i < c->memo->n; i++)
            clReleaseProgram(c->memo->e[i].p);
        free(c->memo);
        c->memo = NULL;
    }
    cg_buffers_fini(c);
    if (c->queue) clReleaseCommandQueue(c->queue);
    if (c->context) clReleaseContext(c->context);
    c->queue = NULL;
    c->context = NULL;
}
