/* Platforms and devices: enumeration, the property table that drives `clgauge devices`, feature detection and
 * the --device selector. */
#include "core/device.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/clerr.h"

static const char *const feature_names[CG_FEAT_COUNT] = {
    "images", "fp64", "fp16", "nvidia-ptx", "image-r8", "image-rf", "int64-atomics", "nvidia-mma"};

const char *cg_feature_name(unsigned bit)
{
    for (unsigned i = 0; i < CG_FEAT_COUNT; i++)
        if (bit == 1u << i) return feature_names[i];
    return NULL;
}

bool cg_feature_parse(const char *list, unsigned *bits, char *bad, size_t badlen)
{
    *bits = 0;
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        unsigned i = 0;
        while (i < CG_FEAT_COUNT && !(strlen(feature_names[i]) == len && !strncmp(p, feature_names[i], len)))
            i++;
        if (i == CG_FEAT_COUNT) {
            snprintf(bad, badlen, "%.*s", (int)len, p);
            return false;
        }
        *bits |= 1u << i;
        p += len + (p[len] == ',');
    }
    return true;
}

const char *cg_device_type_name(cl_device_type t)
{
    if (t & CL_DEVICE_TYPE_GPU) return "GPU";
    if (t & CL_DEVICE_TYPE_CPU) return "CPU";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) return "ACCELERATOR";
    if (t & CL_DEVICE_TYPE_DEFAULT) return "DEFAULT";
    return "OTHER";
}

const char *cg_fp16_name(cg_fp16_support s)
{
    static const char *n[] = {"not probed", "no", "yes (cl_khr_fp16)", "yes (compiles, not listed)"};
    return n[s];
}

static void info_str(cl_device_id d, cl_device_info p, char *buf, size_t len)
{
    if (clGetDeviceInfo(d, p, len, buf, NULL) != CL_SUCCESS) snprintf(buf, len, "?");
    buf[len - 1] = 0;
}

static void plat_str(cl_platform_id pl, cl_platform_info p, char *buf, size_t len)
{
    if (clGetPlatformInfo(pl, p, len, buf, NULL) != CL_SUCCESS) snprintf(buf, len, "?");
    buf[len - 1] = 0;
}

#define INFO_NUM(d, p, var)                                                                                  \
    do {                                                                                                     \
        if (clGetDeviceInfo(d, p, sizeof(var), &(var), NULL) != CL_SUCCESS) (var) = 0;                       \
    } while (0)

static bool has_extension(cl_device_id d, const char *ext)
{
    size_t n = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &n) != CL_SUCCESS || n == 0) return false;
    char *s = malloc(n + 1);
    bool found = false;
    if (s && clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, n, s, NULL) == CL_SUCCESS) {
        s[n] = 0;
        size_t el = strlen(ext);
        for (char *p = strstr(s, ext); p && !found; p = strstr(p + 1, ext))
            found = (p == s || p[-1] == ' ') && (p[el] == ' ' || p[el] == 0);
    }
    free(s);
    return found;
}

/* The compute capability's major number on NVIDIA's platform (cl_nv_device_attribute_query), 0 elsewhere. */
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#endif
static cl_uint nv_major(cl_device_id id)
{
    cl_uint major = 0;
    if (!has_extension(id, "cl_nv_device_attribute_query")) return 0;
    INFO_NUM(id, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, major);
    return major;
}

static void fill_device(cg_device *d)
{
    cl_device_id id = d->id;
    info_str(id, CL_DEVICE_NAME, d->name, sizeof d->name);
    info_str(id, CL_DEVICE_VENDOR, d->vendor, sizeof d->vendor);
    info_str(id, CL_DEVICE_VERSION, d->version, sizeof d->version);
    info_str(id, CL_DRIVER_VERSION, d->driver, sizeof d->driver);
    info_str(id, CL_DEVICE_OPENCL_C_VERSION, d->c_version, sizeof d->c_version);
    INFO_NUM(id, CL_DEVICE_TYPE, d->type);
    INFO_NUM(id, CL_DEVICE_MAX_COMPUTE_UNITS, d->compute_units);
    INFO_NUM(id, CL_DEVICE_MAX_CLOCK_FREQUENCY, d->clock_mhz);
    INFO_NUM(id, CL_DEVICE_ADDRESS_BITS, d->address_bits);
    INFO_NUM(id, CL_DEVICE_GLOBAL_MEM_SIZE, d->global_mem);
    INFO_NUM(id, CL_DEVICE_LOCAL_MEM_SIZE, d->local_mem);
    INFO_NUM(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, d->max_alloc);
    INFO_NUM(id, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, d->const_mem);
    INFO_NUM(id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, d->global_cache);
    INFO_NUM(id, CL_DEVICE_MAX_WORK_GROUP_SIZE, d->max_wg);
    INFO_NUM(id, CL_DEVICE_LOCAL_MEM_TYPE, d->local_mem_type);
    INFO_NUM(id, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, d->global_cache_type);
    INFO_NUM(id, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, d->global_cacheline);
    cl_bool img = CL_FALSE;
    INFO_NUM(id, CL_DEVICE_IMAGE_SUPPORT, img);
    d->images = img == CL_TRUE;
    cl_device_fp_config fp64 = 0;
    INFO_NUM(id, CL_DEVICE_DOUBLE_FP_CONFIG, fp64);
    d->fp64 = fp64 != 0 || has_extension(id, "cl_khr_fp64");
    d->fp16 = CG_FP16_UNKNOWN;
    d->nvidia = strstr(d->platform_name, "NVIDIA") != NULL || strstr(d->platform_vendor, "NVIDIA") != NULL;
    d->features = (d->images ? CG_FEAT_IMAGES : 0) | (d->fp64 ? CG_FEAT_FP64 : 0) |
                  (d->nvidia ? CG_FEAT_NV_PTX : 0) | (d->nvidia && nv_major(id) >= 8 ? CG_FEAT_NV_MMA : 0) |
                  (has_extension(id, "cl_khr_int64_base_atomics") ? CG_FEAT_INT64_ATOMICS : 0);
}

static cg_status add_platform(cg_device_list *l, cl_platform_id pl, unsigned pidx)
{
    cl_uint nd = 0;
    cl_int err = clGetDeviceIDs(pl, CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
    if (err == CL_DEVICE_NOT_FOUND || nd == 0) return CG_OK;
    cg_status st = CG_OK;
    cl_device_id *ids = malloc(nd * sizeof *ids);
    cg_device *grown = realloc(l->dev, (l->n + nd) * sizeof *grown);
    if (grown) l->dev = grown;
    CG_FAIL_IF(!ids || !grown, CG_E_RUNTIME, "out of host memory listing devices");
    CG_TRY(clGetDeviceIDs(pl, CL_DEVICE_TYPE_ALL, nd, ids, NULL));
    for (cl_uint i = 0; i < nd; i++) {
        cg_device *d = &l->dev[l->n++];
        memset(d, 0, sizeof *d);
        d->platform = pl;
        d->id = ids[i];
        d->pidx = pidx;
        d->didx = i;
        plat_str(pl, CL_PLATFORM_NAME, d->platform_name, sizeof d->platform_name);
        plat_str(pl, CL_PLATFORM_VENDOR, d->platform_vendor, sizeof d->platform_vendor);
        plat_str(pl, CL_PLATFORM_VERSION, d->platform_version, sizeof d->platform_version);
        fill_device(d);
    }
out:
    free(ids);
    return st;
}

cg_status cg_device_list_init(cg_device_list *l)
{
    cg_status st = CG_OK;
    cl_platform_id *pl = NULL;
    cl_uint np = 0;
    l->dev = NULL;
    l->n = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &np);
    CG_FAIL_IF(err != CL_SUCCESS || np == 0, CG_E_NODEVICE,
               "no OpenCL platform found (%s): install a driver, e.g. `apt-get install pocl-opencl-icd`, "
               "or check OCL_ICD_VENDORS",
               err != CL_SUCCESS ? cg_cl_strerror(err) : "0 platforms");
    pl = malloc(np * sizeof *pl);
    CG_FAIL_IF(!pl, CG_E_RUNTIME, "out of host memory listing platforms");
    CG_TRY(clGetPlatformIDs(np, pl, NULL));
    for (cl_uint i = 0; i < np && st == CG_OK; i++)
        st = add_platform(l, pl[i], i);
    CG_FAIL_IF(st == CG_OK && l->n == 0, CG_E_NODEVICE,
               "OpenCL platforms found but no device: install a driver for your device, or pocl-opencl-icd "
               "for the CPU");
out:
    free(pl);
    if (st != CG_OK) cg_device_list_fini(l);
    return st;
}

void cg_device_list_fini(cg_device_list *l)
{
    free(l->dev);
    l->dev = NULL;
    l->n = 0;
}
