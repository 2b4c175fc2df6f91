/* Platforms and devices: enumeration, the properties clgauge reports (every output writes them through the
 * report device block, model/result.h), feature detection (images, fp64, fp16 by test-compiling, NVIDIA
 * inline PTX) and device selection. */
#ifndef CG_DEVICE_H
#define CG_DEVICE_H
#include <stdbool.h>
#include <stddef.h>
#include "core/cl.h"
#include "core/status.h"

/* What a rung can need of a device; a rung row lists these as data (cg_rung.needs). */
typedef enum cg_feature {
    CG_FEAT_IMAGES = 1u << 0, /* CL_DEVICE_IMAGE_SUPPORT */
    CG_FEAT_FP64 = 1u << 1,   /* cl_khr_fp64 or CL_DEVICE_DOUBLE_FP_CONFIG != 0 */
    CG_FEAT_FP16 = 1u << 2,   /* a half-arithmetic kernel compiles (probe), listed or not */
    CG_FEAT_NV_PTX = 1u << 3, /* NVIDIA platform: inline PTX through asm() */
    /* Single-channel 2D image formats, optional in OpenCL 1.2 (found on the context: see cg_ctx.offered). */
    CG_FEAT_IMAGE_R8 = 1u << 4,      /* CL_R, CL_UNSIGNED_INT8 */
    CG_FEAT_IMAGE_RF = 1u << 5,      /* CL_R, CL_FLOAT */
    CG_FEAT_INT64_ATOMICS = 1u << 6, /* cl_khr_int64_base_atomics: 64-bit atom_* on global memory */
    CG_FEAT_NV_MMA = 1u << 7,        /* NVIDIA, compute capability 8.0 or above: PTX mma.sync with TF32 */
} cg_feature;
#define CG_FEAT_COUNT 8
/* The names --mask-features takes, for messages. */
#define CG_FEAT_LIST "images, fp64, fp16, nvidia-ptx, image-r8, image-rf, int64-atomics, nvidia-mma"

/* "images", "fp64", "fp16", "nvidia-ptx", "image-r8", "image-rf", "int64-atomics", "nvidia-mma" for one bit;
 * NULL for an unknown bit. */
const char *cg_feature_name(unsigned bit);
/* Parses "images,fp64" into bits; returns false (and sets *bad to the first unknown word) on error. */
bool cg_feature_parse(const char *list, unsigned *bits, char *bad, size_t badlen);

typedef enum cg_fp16_support {
    CG_FP16_UNKNOWN,
    CG_FP16_NO,
    CG_FP16_LISTED,
    CG_FP16_COMPILES
} cg_fp16_support;

typedef struct cg_device {
    cl_platform_id platform;
    cl_device_id id;
    unsigned pidx, didx; /* platform and device index as enumerated, for "P:D" */
    char platform_name[128], platform_vendor[128], platform_version[128];
    char name[256], vendor[128], version[128], driver[128], c_version[128];
    cl_device_type type;
    cl_uint compute_units, clock_mhz, address_bits;
    cl_ulong global_mem, local_mem, max_alloc, const_mem, global_cache;
    size_t max_wg;
    cl_device_local_mem_type local_mem_type;    /* CL_LOCAL (dedicated), CL_GLOBAL (emulated in global) */
    cl_device_mem_cache_type global_cache_type; /* CL_NONE, CL_READ_ONLY_CACHE, CL_READ_WRITE_CACHE */
    cl_uint global_cacheline;                   /* bytes */
    size_t wg_multiple; /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of a trivial kernel; 0 until probed */
    bool images, fp64;
    cg_fp16_support fp16; /* CG_FP16_UNKNOWN until cg_device_probe_fp16 runs */
    bool nvidia;          /* platform is NVIDIA's: inline PTX available */
    unsigned features;    /* cg_feature bits this device offers (fp16 only after the probe) */
} cg_device;

typedef struct cg_device_list {
    cg_device *dev;
    size_t n;
} cg_device_list;

/* Enumerates every device of every platform. CG_E_NODEVICE with one logged line (naming the fix) when there
 * is no platform or no device at all; CG_E_RUNTIME on other OpenCL errors. */
cg_status cg_device_list_init(cg_device_list *l);
void cg_device_list_fini(cg_device_list *l);

/* Selects by "P:D", "gpu", "cpu", "accelerator", or a case-insensitive substring of the device name; NULL or
 * "" picks the first GPU, else the first device. CG_E_NODEVICE with a line listing what exists when nothing
 * matches; CG_E_USAGE for a malformed "P:D". */
cg_status cg_device_select(const cg_device_list *l, const char *sel, const cg_device **out);

/* Test-compiles a half-precision kernel to learn whether fp16 arithmetic works (NVIDIA does not list
 * cl_khr_fp16); sets d->fp16 and the CG_FEAT_FP16 bit. */
void cg_device_probe_fp16(cg_device *d);

/* Builds a trivial kernel to read its CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE into d->wg_multiple (the
 * warp or wavefront width on most GPUs); leaves 0 when the build fails. */
void cg_device_probe_wg_multiple(cg_device *d);
/* "local", "global" or "none"; "none", "read-only" or "read-write". */
const char *cg_local_mem_type_name(cl_device_local_mem_type t);
const char *cg_cache_type_name(cl_device_mem_cache_type t);

/* "GPU", "CPU", "ACCELERATOR", "DEFAULT" or "OTHER". */
const char *cg_device_type_name(cl_device_type t);
const char *cg_fp16_name(cg_fp16_support s);

#endif
