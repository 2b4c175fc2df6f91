/* The property table (clinfo's dinfo_traits): one row per reported property, read by every output format. */
#include "core/device.h"

#define STR_GETTER(field)                                                                                    \
    static const char *s_##field(const cg_device *d)                                                         \
    {                                                                                                        \
        return d->field;                                                                                     \
    }
#define NUM_GETTER(field)                                                                                    \
    static unsigned long long n_##field(const cg_device *d)                                                  \
    {                                                                                                        \
        return (unsigned long long)d->field;                                                                 \
    }

STR_GETTER(platform_name)
STR_GETTER(platform_version)
STR_GETTER(name)
STR_GETTER(vendor)
STR_GETTER(version)
STR_GETTER(driver)
STR_GETTER(c_version)
NUM_GETTER(compute_units)
NUM_GETTER(clock_mhz)
NUM_GETTER(global_mem)
NUM_GETTER(local_mem)
NUM_GETTER(max_alloc)
NUM_GETTER(const_mem)
NUM_GETTER(global_cache)
NUM_GETTER(max_wg)
NUM_GETTER(images)
NUM_GETTER(fp64)
NUM_GETTER(nvidia)

static const char *s_type(const cg_device *d)
{
    return cg_device_type_name(d->type);
}

static const char *s_fp16(const cg_device *d)
{
    return cg_fp16_name(d->fp16);
}

const cg_device_prop cg_device_props[] = {
    {"platform", "Platform", CG_PROP_STR, s_platform_name, NULL},
    {"platform_version", "Platform version", CG_PROP_STR, s_platform_version, NULL},
    {"name", "Device", CG_PROP_STR, s_name, NULL},
    {"vendor", "Vendor", CG_PROP_STR, s_vendor, NULL},
    {"type", "Type", CG_PROP_STR, s_type, NULL},
    {"compute_units", "Compute units", CG_PROP_UINT, NULL, n_compute_units},
    {"clock_mhz", "Max clock (MHz)", CG_PROP_UINT, NULL, n_clock_mhz},
    {"global_mem_bytes", "Global memory", CG_PROP_BYTES, NULL, n_global_mem},
    {"global_cache_bytes", "Global memory cache", CG_PROP_BYTES, NULL, n_global_cache},
    {"local_mem_bytes", "Local memory", CG_PROP_BYTES, NULL, n_local_mem},
    {"constant_mem_bytes", "Constant buffer", CG_PROP_BYTES, NULL, n_const_mem},
    {"max_alloc_bytes", "Max allocation", CG_PROP_BYTES, NULL, n_max_alloc},
    {"max_work_group_size", "Max work-group size", CG_PROP_UINT, NULL, n_max_wg},
    {"images", "Image support", CG_PROP_BOOL, NULL, n_images},
    {"fp64", "fp64", CG_PROP_BOOL, NULL, n_fp64},
    {"fp16", "fp16", CG_PROP_STR, s_fp16, NULL},
    {"nvidia_inline_ptx", "NVIDIA inline PTX", CG_PROP_BOOL, NULL, n_nvidia},
    {"opencl_version", "OpenCL version", CG_PROP_STR, s_version, NULL},
    {"opencl_c_version", "OpenCL C version", CG_PROP_STR, s_c_version, NULL},
    {"driver_version", "Driver version", CG_PROP_STR, s_driver, NULL},
};
const size_t cg_device_nprops = sizeof cg_device_props / sizeof cg_device_props[0];
