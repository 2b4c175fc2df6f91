/* The occupancy model: per-compute-unit limits (an NVIDIA table by compute capability, or a generic model)
 * and the estimate of resident work-groups and warps from what one group uses. */
#include "core/occupancy.h"
#include <math.h>
#include <stddef.h>

/* One row of the CUDA C Programming Guide's "Technical Specifications per Compute Capability" (per SM):
 * resident blocks, warps, 32-bit registers, shared memory (the largest carveout), its allocation unit and the
 * shared memory the system reserves per block. Registers go to a warp in units of 256 and are split among
 * reg_parts sub-partitions (cuda_occupancy.h: 2 on 6.0, 4 elsewhere). */
typedef struct nv_row {
    unsigned major, minor, blocks, warps, regs, smem_kib, smem_unit, smem_reserved, reg_parts;
} nv_row;

/* clang-format off */
static const nv_row nv_table[] = {
    /* cc      blocks warps regs   smem KiB unit reserved parts */
    {5, 0,     32,    64,   65536,  64,     256,  0,       4},
    {5, 2,     32,    64,   65536,  96,     256,  0,       4},
    {5, 3,     32,    64,   65536,  64,     256,  0,       4},
    {6, 0,     32,    64,   65536,  64,     256,  0,       2},
    {6, 1,     32,    64,   65536,  96,     256,  0,       4},
    {6, 2,     32,    64,   65536,  64,     256,  0,       4},
    {7, 0,     32,    64,   65536,  96,     256,  0,       4},
    {7, 2,     32,    64,   65536,  96,     256,  0,       4},
    {7, 5,     16,    32,   65536,  64,     256,  0,       4},
    {8, 0,     32,    64,   65536,  164,    128,  1024,    4},
    {8, 6,     16,    48,   65536,  100,    128,  1024,    4},
    {8, 7,     16,    48,   65536,  164,    128,  1024,    4},
    {8, 9,     24,    48,   65536,  100,    128,  1024,    4},
    {9, 0,     32,    64,   65536,  228,    128,  1024,    4},
    {10, 0,    32,    64,   65536,  228,    128,  1024,    4},
};
/* clang-format on */

/* "sm_90": the model name of each row, indexed like nv_table. */
static const char *const nv_names[] = {"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72",
                                       "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_100"};
_Static_assert(sizeof nv_names / sizeof nv_names[0] == sizeof nv_table / sizeof nv_table[0],
               "one name per row of nv_table");

bool cg_occ_nvidia(unsigned major, unsigned minor, cg_occ_limits *l)
{
    for (size_t i = 0; i < sizeof nv_table / sizeof nv_table[0]; i++) {
        const nv_row *r = &nv_table[i];
        if (r->major != major || r->minor != minor) continue;
        *l = (cg_occ_limits){.model = nv_names[i],
                             .max_groups = r->blocks,
                             .max_threads = r->warps * 32,
                             .simd = 32,
                             .regs = r->regs,
                             .reg_granule = 256,
                             .reg_parts = r->reg_parts,
                             .local_bytes = (uint64_t)r->smem_kib * 1024,
                             .local_granule = r->smem_unit,
                             .local_reserved = r->smem_reserved};
        return true;
    }
    return false;
}

void cg_occ_generic(bool cpu, uint64_t local_mem, cg_occ_limits *l)
{
    *l = cpu ? (cg_occ_limits){.model = "cpu", .max_groups = 1}
             : (cg_occ_limits){.model = "generic", .local_bytes = local_mem};
}

static uint64_t round_up(uint64_t v, uint64_t unit)
{
    return unit > 1 ? (v + unit - 1) / unit * unit : v;
}

/* Lowers *best to v when v is smaller, naming the limit. */
static void bound(unsigned *best, const char **limit, uint64_t v, const char *name)
{
    if (v < *best) {
        *best = (unsigned)v;
        *limit = name;
    }
}

/* Groups the registers allow: whole warps per sub-partition (cuda_occupancy.h's rule), or 0 when one group
 * needs more registers than the compute unit has. */
static uint64_t groups_by_regs(const cg_occ_limits *l, const cg_occ_kernel *k, uint64_t warps_per_group)
{
    uint64_t lanes = l->simd ? l->simd : 1, parts = l->reg_parts ? l->reg_parts : 1;
    uint64_t per_warp = round_up((uint64_t)k->regs * lanes, l->reg_granule);
    if (per_warp * warps_per_group > l->regs) return 0;
    uint64_t warps = (uint64_t)l->regs / parts / per_warp * parts;
    return warps / warps_per_group;
}

void cg_occ_estimate(const cg_occ_limits *l, const cg_occ_kernel *k, cg_occ *out)
{
    *out = (cg_occ){.occupancy = NAN, .limit = ""};
    if (k->wg == 0 && l->max_groups && !l->max_threads && !l->regs && !l->local_bytes) {
        out->groups = l->max_groups; /* the CPU model: whatever the runtime picks, one group per core */
        out->limit = "groups";
        return;
    }
    if (k->wg == 0) return;
    uint64_t simd = l->simd ? l->simd : 1, warps_per_group = (k->wg + simd - 1) / simd;
    unsigned best = UINT32_MAX;
    const char *limit = "";
    if (l->max_groups) bound(&best, &limit, l->max_groups, "groups");
    if (l->max_threads) bound(&best, &limit, l->max_threads / (warps_per_group * simd), "threads");
    if (l->regs && k->regs) bound(&best, &limit, groups_by_regs(l, k, warps_per_group), "registers");
    uint64_t per_group = k->local_bytes ? round_up(k->local_bytes, l->local_granule) + l->local_reserved : 0;
    if (l->local_bytes && per_group) bound(&best, &limit, l->local_bytes / per_group, "local");
    if (best == UINT32_MAX) return; /* nothing bounds it: no estimate */
    out->groups = best;
    out->limit = limit;
    if (!l->simd) return;
    out->warps = (unsigned)(best * warps_per_group);
    out->max_warps = l->max_threads / l->simd;
    if (out->max_warps) out->occupancy = (double)out->warps / out->max_warps;
}
