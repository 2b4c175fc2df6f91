/* Kernel facts: the launch log a run records, the clGetKernelWorkGroupInfo queries, NVIDIA's registers from a
 * -cl-nv-verbose build log and the occupancy estimate of a row (core/occupancy.h). */
#include "core/kfacts.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <CL/cl_ext.h>
#include "core/clerr.h"
#include "core/occupancy.h"
#include "core/program.h"
#include "core/ptxas.h"
#include "model/grow.h"

/* cl_nv_device_attribute_query (CL/cl_ext.h; defined here for headers that lack it) */
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif
#ifndef CL_DEVICE_REGISTERS_PER_BLOCK_NV
#define CL_DEVICE_REGISTERS_PER_BLOCK_NV 0x4002
#endif
#ifndef CL_DEVICE_WARP_SIZE_NV
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif

#define NO_KERNEL 0xffu

void cg_launches_init(cg_launches *l)
{
    memset(l, 0, sizeof *l);
    l->main_k = -1;
}

void cg_launches_fini(cg_launches *l)
{
    for (size_t i = 0; i < l->n; i++)
        clReleaseKernel(l->k[i].k);
    free(l->kid);
    cg_launches_init(l);
}

void cg_launches_note(cg_launches *l, cl_kernel k, cl_uint dims, const size_t *local, size_t ev_index)
{
    size_t i = 0;
    while (i < l->n && l->k[i].k != k)
        i++;
    if (i == l->n) {
        if (l->n == CG_LAUNCH_KERNELS_MAX || dims < 1 || dims > 3 || clRetainKernel(k) != CL_SUCCESS) {
            l->more++;
            return;
        }
        cg_launch *c = &l->k[l->n++];
        *c = (cg_launch){.k = k, .dims = dims, .auto_local = local == NULL};
        for (cl_uint d = 0; local && d < dims; d++)
            c->local[d] = local[d];
    }
    l->k[i].launches++;
    while (ev_index >= l->kid_cap) {
        void *p = l->kid;
        size_t old = l->kid_cap;
        if (!cg_grow(&p, &l->kid_cap, l->kid_cap, 1, 64)) return;
        l->kid = p;
        memset(l->kid + old, NO_KERNEL, l->kid_cap - old);
    }
    l->kid[ev_index] = (unsigned char)i;
}

int cg_launches_main(cg_launches *l, const cg_events *ev)
{
    l->main_k = l->n ? 0 : -1;
    for (size_t i = 0; i < ev->n && i < l->kid_cap; i++) {
        cl_ulong s, t;
        if (l->kid[i] == NO_KERNEL || !ev->ev[i]) continue;
        if (clGetEventProfilingInfo(ev->ev[i], CL_PROFILING_COMMAND_START, sizeof s, &s, NULL) !=
                CL_SUCCESS ||
            clGetEventProfilingInfo(ev->ev[i], CL_PROFILING_COMMAND_END, sizeof t, &t, NULL) != CL_SUCCESS)
            return l->main_k;
        l->k[l->kid[i]].device_s += t > s ? (double)(t - s) * 1e-9 : 0;
    }
    for (size_t i = 1; i < l->n; i++)
        if (l->k[i].device_s > l->k[l->main_k].device_s) l->main_k = (int)i;
    return l->main_k;
}

/* "256", "16x16", "8x8x4"; "auto" for the runtime's choice. Returns the work-items of one group (0: auto). */
static size_t shape(cl_uint dims, const size_t *local, char *buf, size_t n)
{
    size_t items = 1, used = 0;
    if (!local) {
        snprintf(buf, n, "auto");
        return 0;
    }
    buf[0] = 0;
    for (cl_uint d = 0; d < dims && d < 3; d++) {
        int w = snprintf(buf + used, n - used, "%s%zu", d ? "x" : "", local[d]);
        if (w > 0 && (size_t)w < n - used) used += (size_t)w;
        items *= local[d];
    }
    return items;
}

cg_status cg_kfacts_query(const cg_ctx *ctx, cl_kernel k, cl_uint dims, const size_t *local, unsigned regs,
                          cg_kfacts *f)
{
    cg_status st = CG_OK;
    cl_device_id d = ctx->dev->id;
    cl_ulong lm = 0, pm = 0;
    f->wg_size = shape(dims, local, f->wg_local, sizeof f->wg_local);
    f->registers = regs;
    CG_TRY(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof f->kernel, f->kernel, NULL));
    CG_TRY(clGetKernelWorkGroupInfo(k, d, CL_KERNEL_WORK_GROUP_SIZE, sizeof f->wg_max, &f->wg_max, NULL));
    CG_TRY(clGetKernelWorkGroupInfo(k, d, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof f->wg_multiple,
                                    &f->wg_multiple, NULL));
    CG_TRY(clGetKernelWorkGroupInfo(k, d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL));
    CG_TRY(clGetKernelWorkGroupInfo(k, d, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pm, &pm, NULL));
out:
    f->local_bytes = lm;
    f->private_bytes = pm;
    cg_kfacts_occupancy(ctx->dev, f);
    return st;
}

/* Whether the device's extension list names ext. */
static bool has_extension(cl_device_id d, const char *ext)
{
    size_t n = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &n) != CL_SUCCESS || !n) return false;
    char *s = malloc(n + 1);
    bool found = false;
    if (s && clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, n, s, NULL) == CL_SUCCESS) {
        s[n] = 0;
        size_t len = strlen(ext);
        for (const char *p = strstr(s, ext); p && !found; p = strstr(p + 1, ext))
            found = (p == s || p[-1] == ' ') && (p[len] == ' ' || p[len] == 0);
    }
    free(s);
    return found;
}

/* The NVIDIA table's limits for the device's compute capability; false where it has none. The device's warp
 * size, where given, overrides the table's 32; its registers per block are logged (debug) only: on every
 * capability of the table they equal the SM's register file. */
static bool nv_limits(const cg_device *d, cg_occ_limits *l)
{
    cl_uint major = 0, minor = 0, regs = 0, warp = 0;
    if (!has_extension(d->id, "cl_nv_device_attribute_query") ||
        clGetDeviceInfo(d->id, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL) !=
            CL_SUCCESS ||
        clGetDeviceInfo(d->id, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL) !=
            CL_SUCCESS)
        return false;
    clGetDeviceInfo(d->id, CL_DEVICE_WARP_SIZE_NV, sizeof warp, &warp, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_REGISTERS_PER_BLOCK_NV, sizeof regs, &regs, NULL);
    CG_DEBUG("NVIDIA compute capability %u.%u, warp size %u, %u registers per block", major, minor, warp,
             regs);
    if (!cg_occ_nvidia(major, minor, l)) return false;
    if (warp) l->simd = warp;
    return true;
}

void cg_kfacts_occupancy(const cg_device *d, cg_kfacts *f)
{
    cg_occ_limits l;
    if (!nv_limits(d, &l)) cg_occ_generic(d->type & CL_DEVICE_TYPE_CPU, d->local_mem, &l);
    cg_occ_kernel k = {.wg = f->wg_size, .regs = f->registers, .local_bytes = f->local_bytes};
    cg_occ o;
    cg_occ_estimate(&l, &k, &o);
    f->occ_groups = o.groups;
    f->occ_warps = o.warps;
    f->occupancy = o.occupancy;
    snprintf(f->occ_limit, sizeof f->occ_limit, "%s", o.limit);
    snprintf(f->occ_model, sizeof f->occ_model, "%s", l.model);
}

bool cg_kfacts_has_nv_verbose(const cg_device *d)
{
    return has_extension(d->id, "cl_nv_compiler_options");
}

unsigned cg_kfacts_registers(const cg_ctx *ctx, const char *file, const char *options, const char *kernel)
{
    char opts[CG_EXTRA_OPTIONS_MAX + 600], *log = NULL;
    cg_ptxas_info info;
    if (!cg_kfacts_has_nv_verbose(ctx->dev)) return 0;
    /* NVIDIA's driver caches what ptxas made of a program's PTX (~/.nv/ComputeCache) and a build served from
     * there prints no ptxas lines: on an H100 the second run of a rung, in this process or a later one, found
     * none, and an unused -D did not help (the same PTX). An empty kernel of a name unique to this build
     * (process, time, count) makes the PTX new, so ptxas runs and reports every kernel; the driver's cache
     * size limit bounds what these builds leave there. */
    static unsigned count;
    char nonce[96];
    snprintf(opts, sizeof opts, "%s -cl-nv-verbose", options ? options : "");
    snprintf(nonce, sizeof nonce, "\n__kernel void cg_kfacts_nonce_%ld_%ld_%u(void) {}\n", (long)getpid(),
             (long)time(NULL), count++);
    if (cg_program_build_log(ctx, file, nonce, opts, &log) != CG_OK) return 0;
    bool found = cg_ptxas_find(log, kernel, &info);
    if (!found)
        CG_DEBUG(
            "%s: no ptxas register count for kernel %s in the -cl-nv-verbose build log (%zu bytes): %.600s",
            file, kernel, log ? strlen(log) : 0, log ? log : "");
    free(log);
    return found ? info.regs : 0;
}
