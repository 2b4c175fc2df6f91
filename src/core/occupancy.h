/* The estimated occupancy of one compute unit: how many work-groups of a kernel can be resident on it at
 * once, and, where the SIMD width (warp, wavefront) is known, resident warps over the most it holds (the WWDC
 * NVIDIA part's definition). OpenCL gives no per-compute-unit limits, so they come from a documented table by
 * NVIDIA compute capability (cg_occ_nvidia) or a generic model (cg_occ_generic); docs/tune.md, "Kernel facts
 * and occupancy", lists both and what they leave out. Pure arithmetic: no OpenCL call, unit-tested on the
 * seeds' worked examples. */
#ifndef CG_OCCUPANCY_H
#define CG_OCCUPANCY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The resources of one compute unit. A limit of 0 is not known and bounds nothing. */
typedef struct cg_occ_limits {
    const char *model;    /* "sm_90", "generic", "cpu": the row's occ_model */
    unsigned max_groups;  /* resident work-groups (CUDA: blocks per SM) */
    unsigned max_threads; /* resident work-items */
    unsigned simd;        /* work-items of one warp or wavefront; 0: not known (no warp figures) */
    unsigned regs;        /* registers of the compute unit, 32-bit (NVIDIA) or whatever unit regs counts */
    unsigned reg_granule; /* registers are given to a warp in multiples of this (NVIDIA: 256) */
    unsigned reg_parts;   /* the register file is split evenly among this many sub-partitions (0 or 1: one) */
    uint64_t local_bytes; /* local (shared) memory of the compute unit */
    unsigned local_granule;  /* a group's local memory is rounded up to a multiple of this (0 or 1: none) */
    unsigned local_reserved; /* bytes the system keeps per resident group (NVIDIA sm_80 and later: 1 KiB) */
} cg_occ_limits;

/* What one work-group of the kernel uses. */
typedef struct cg_occ_kernel {
    size_t wg;            /* work-items per group (the launched local size); 0: not known (no estimate) */
    unsigned regs;        /* registers per work-item; 0: not known (registers bound nothing) */
    uint64_t local_bytes; /* local memory per group (CL_KERNEL_LOCAL_MEM_SIZE) */
} cg_occ_kernel;

/* The estimate. groups == 0 when the kernel does not fit at all, or wg was not known (limit ""). */
typedef struct cg_occ {
    unsigned groups;    /* resident work-groups per compute unit */
    unsigned warps;     /* resident warps: groups x warps per group; 0 when simd is not known */
    unsigned max_warps; /* the most warps the compute unit holds (max_threads / simd); 0: not known */
    double occupancy;   /* warps / max_warps, NaN when either is not known */
    const char *limit;  /* the resource that bounds groups first: "local", "registers", "threads",
                           "groups"; ties name the first of groups, threads, registers, local; "" none */
} cg_occ;

/* The per-SM limits of NVIDIA compute capability major.minor from the CUDA C Programming Guide's table
 * "Technical Specifications per Compute Capability" (5.0 to 10.0; docs/tune.md copies it). False, *l
 * untouched, for a capability the table lacks. */
bool cg_occ_nvidia(unsigned major, unsigned minor, cg_occ_limits *l);

/* The generic model where no table applies. A CPU (cpu true) runs one work-group per core (compute unit) at
 * a time: max_groups 1, nothing else known. Another device: only its local memory (CL_DEVICE_LOCAL_MEM_SIZE)
 * as one compute unit's is known, so only a group's local memory bounds the estimate; a kernel without local
 * memory gets none (OpenCL tells neither the resident groups, nor work-items, nor registers of a compute
 * unit). */
void cg_occ_generic(bool cpu, uint64_t local_mem, cg_occ_limits *l);

/* The estimate for kernel k on a compute unit with limits l. A group of unknown size (wg 0: the runtime's
 * choice) gets one only where max_groups is the sole limit (the CPU model). Otherwise groups = the least of
 * max_groups,
 * max_threads / (wg rounded up to whole warps), the warps the registers allow / warps per group, and
 * local_bytes / (the group's local memory rounded up to local_granule, plus local_reserved); each limit that
 * is 0 (or, for registers, k->regs 0) is left out. */
void cg_occ_estimate(const cg_occ_limits *l, const cg_occ_kernel *k, cg_occ *out);

#endif
