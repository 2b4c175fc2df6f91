/* The --device selector ("P:D", "gpu", "cpu", "accelerator", a name substring) and the fp16 probe. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"
#include "core/device.h"

static bool icontains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n) return true;
    }
    return n == 0;
}

static void list_devices(const cg_device_list *l, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < l->n && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%u:%u %s (%s)", i ? ", " : "", l->dev[i].pidx,
                         l->dev[i].didx, l->dev[i].name, cg_device_type_name(l->dev[i].type));
        if (w < 0) break;
        used += (size_t)w;
    }
}

static const cg_device *by_type(const cg_device_list *l, cl_device_type t)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->dev[i].type & t) return &l->dev[i];
    return NULL;
}

static cg_status by_index(const cg_device_list *l, const char *sel, const cg_device **out)
{
    char *e;
    unsigned long p = strtoul(sel, &e, 10), d;
    if (*e != ':' || !isdigit((unsigned char)e[1])) goto bad;
    d = strtoul(e + 1, &e, 10);
    if (*e) goto bad;
    for (size_t i = 0; i < l->n; i++)
        if (l->dev[i].pidx == p && l->dev[i].didx == d) {
            *out = &l->dev[i];
            return CG_OK;
        }
    return CG_E_NODEVICE;
bad:
    CG_ERROR("malformed device selector '%s': use P:D (e.g. 0:0), gpu, cpu, or part of a device name", sel);
    return CG_E_USAGE;
}

cg_status cg_device_select(const cg_device_list *l, const char *sel, const cg_device **out)
{
    *out = NULL;
    if (!sel || !*sel) {
        *out = by_type(l, CL_DEVICE_TYPE_GPU);
        if (!*out) *out = &l->dev[0];
        return CG_OK;
    }
    cg_status st = CG_OK;
    if (isdigit((unsigned char)sel[0]) && strchr(sel, ':'))
        st = by_index(l, sel, out);
    else if (!strcmp(sel, "gpu") || !strcmp(sel, "cpu") || !strcmp(sel, "accelerator"))
        *out = by_type(l, sel[0] == 'g'   ? CL_DEVICE_TYPE_GPU
                          : sel[0] == 'c' ? CL_DEVICE_TYPE_CPU
                                          : CL_DEVICE_TYPE_ACCELERATOR);
    else
        for (size_t i = 0; i < l->n && !*out; i++)
            if (icontains(l->dev[i].name, sel) || icontains(l->dev[i].platform_name, sel)) *out = &l->dev[i];
    if (st == CG_E_USAGE) return st;
    if (!*out) {
        char have[1024];
        list_devices(l, have, sizeof have);
        CG_ERROR("no device matches '%s'; available: %s (see `clgauge devices`)", sel, have);
        return CG_E_NODEVICE;
    }
    return CG_OK;
}

static const char fp16_probe[] = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                                 "__kernel void probe(__global half *x) {\n"
                                 "    size_t i = get_global_id(0);\n"
                                 "    half a = x[i], b = x[i + 1];\n"
                                 "    x[i] = a * b + a;\n"
                                 "}\n";

void cg_device_probe_wg_multiple(cg_device *d)
{
    const char *src = "__kernel void k(__global float *a) { a[get_global_id(0)] += 1.0f; }";
    cl_int err;
    size_t m = 0;
    cl_context c = clCreateContext(NULL, 1, &d->id, NULL, NULL, &err);
    cl_program p = c ? clCreateProgramWithSource(c, 1, &src, NULL, &err) : NULL;
    cl_kernel k =
        p && clBuildProgram(p, 1, &d->id, "", NULL, NULL) == CL_SUCCESS ? clCreateKernel(p, "k", &err) : NULL;
    if (k && clGetKernelWorkGroupInfo(k, d->id, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof m, &m,
                                      NULL) != CL_SUCCESS)
        m = 0;
    d->wg_multiple = m;
    if (k) clReleaseKernel(k);
    if (p) clReleaseProgram(p);
    if (c) clReleaseContext(c);
}

const char *cg_local_mem_type_name(cl_device_local_mem_type t)
{
    return t == CL_LOCAL ? "local" : t == CL_GLOBAL ? "global" : "none";
}

const char *cg_cache_type_name(cl_device_mem_cache_type t)
{
    return t == CL_READ_ONLY_CACHE ? "read-only" : t == CL_READ_WRITE_CACHE ? "read-write" : "none";
}

void cg_device_probe_fp16(cg_device *d)
{
    bool listed = false;
    size_t n = 0;
    if (clGetDeviceInfo(d->id, CL_DEVICE_EXTENSIONS, 0, NULL, &n) == CL_SUCCESS && n) {
        char *ext = malloc(n + 1);
        if (ext && clGetDeviceInfo(d->id, CL_DEVICE_EXTENSIONS, n, ext, NULL) == CL_SUCCESS) {
            ext[n] = 0;
            listed = strstr(ext, "cl_khr_fp16") != NULL;
        }
        free(ext);
    }
    bool compiles = false;
    cl_int err;
    /* PoCL lists cl_khr_fp16 exactly when its compiler takes half, and a failing build there writes its error
     * count straight to the process's stderr (which is never hidden): probe only other platforms */
    bool pocl = strstr(d->version, "PoCL") != NULL;
    cl_context c = listed || !pocl ? clCreateContext(NULL, 1, &d->id, NULL, NULL, &err) : NULL;
    if (c) {
        const char *src = fp16_probe;
        cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &err);
        if (p) {
            /* the probe's build log (the expected errors of a failing probe) stays in the program object: it
             * is never read. The process's stderr is never touched (a hidden stderr hid real aborts). */
            compiles = clBuildProgram(p, 1, &d->id, "", NULL, NULL) == CL_SUCCESS;
            clReleaseProgram(p);
        }
        clReleaseContext(c);
    }
    d->fp16 = compiles ? (listed ? CG_FP16_LISTED : CG_FP16_COMPILES) : CG_FP16_NO;
    if (compiles) d->features |= CG_FEAT_FP16;
}
