/* The occupancy model (core/occupancy.h) on the seeds' worked examples and on NVIDIA's table, and the ptxas
 * log parser (core/ptxas.h) on sample -cl-nv-verbose lines: the NVIDIA register path checked without an
 * NVIDIA device. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "core/occupancy.h"
#include "core/ptxas.h"

static cg_occ estimate(const cg_occ_limits *l, size_t wg, unsigned regs, uint64_t local)
{
    cg_occ o;
    cg_occ_kernel k = {.wg = wg, .regs = regs, .local_bytes = local};
    cg_occ_estimate(l, &k, &o);
    return o;
}

/* WWDC 2010, OpenCL on NVIDIA (seed 004): an SM of 8 work-groups, 1024 work-items and 32 KB of local memory
 * (the talk says 43 KB once, then 32 KB: one group either way); 128 work-items with 24 KB of local memory fit
 * once ("it would need 48 at least to fit two"): 128 threads of 1024, 4 warps of 32. */
static void test_seed_wwdc(void **state)
{
    (void)state;
    cg_occ_limits sm = {
        .model = "wwdc", .max_groups = 8, .max_threads = 1024, .simd = 32, .local_bytes = 32 * 1024};
    cg_occ o = estimate(&sm, 128, 0, 24 * 1024);
    assert_int_equal(o.groups, 1);
    assert_string_equal(o.limit, "local");
    assert_int_equal(o.warps, 4);
    assert_int_equal(o.max_warps, 32);
    assert_true(fabs(o.occupancy - 0.125) < 1e-12);
    sm.local_bytes = 43 * 1024;
    assert_int_equal(estimate(&sm, 128, 0, 24 * 1024).groups, 1);
    sm.local_bytes = 48 * 1024; /* the 48 KB the talk says two groups would need */
    assert_int_equal(estimate(&sm, 128, 0, 24 * 1024).groups, 2);
    /* without local memory the same group is bound by the 8 resident groups: 1024 threads, full occupancy */
    o = estimate(&sm, 128, 0, 0);
    assert_int_equal(o.groups, 8);
    assert_string_equal(o.limit, "groups");
    assert_true(fabs(o.occupancy - 1.0) < 1e-12);
}

/* Heterogeneous Computing with OpenCL, the CPU/GPU mapping chapter (seed 002), Figure 6.9: a SIMD unit of
 * 256 vector registers per lane of a 64-wide wavefront and 32 kB of LDS; a group of 128 work-items with 42
 * registers each and 12 kB of LDS: two groups, four wavefronts, bound by the LDS. The registers alone
 * would allow three (84 kB of 256 kB per group). */
static void test_seed_gpu_mapping(void **state)
{
    (void)state;
    cg_occ_limits simd = {.model = "hd6970", .simd = 64, .regs = 256 * 64, .local_bytes = 32 * 1024};
    cg_occ o = estimate(&simd, 128, 42, 12 * 1024);
    assert_int_equal(o.groups, 2);
    assert_int_equal(o.warps, 4);
    assert_string_equal(o.limit, "local");
    assert_int_equal(o.max_warps, 0); /* the chapter gives no wavefront maximum: no occupancy fraction */
    assert_true(isnan(o.occupancy));
    o = estimate(&simd, 128, 42, 0);
    assert_int_equal(o.groups, 3);
    assert_int_equal(o.warps, 6);
    assert_string_equal(o.limit, "registers");
}

/* sm_90 (H100): 64 warps, 32 blocks, 65536 registers in 4 sub-partitions, 256 per warp at a time, 228 KiB of
 * shared memory in 128-byte units plus 1 KiB reserved per block. */
static void test_nvidia_sm90(void **state)
{
    (void)state;
    cg_occ_limits l;
    assert_true(cg_occ_nvidia(9, 0, &l));
    assert_string_equal(l.model, "sm_90");
    assert_int_equal(l.max_threads, 2048);
    assert_int_equal(l.max_groups, 32);
    assert_int_equal(l.local_bytes, 228 * 1024);
    /* 128 items, 32 registers: 16 groups by threads and by registers (a tie names threads), 64 warps */
    cg_occ o = estimate(&l, 128, 32, 0);
    assert_int_equal(o.groups, 16);
    assert_string_equal(o.limit, "threads");
    assert_true(fabs(o.occupancy - 1.0) < 1e-12);
    /* 256 items, 64 registers: 2048 per warp, 8 warps per sub-partition, 32 warps: 4 groups, 50% */
    o = estimate(&l, 256, 64, 0);
    assert_int_equal(o.groups, 4);
    assert_string_equal(o.limit, "registers");
    assert_int_equal(o.warps, 32);
    assert_true(fabs(o.occupancy - 0.5) < 1e-12);
    /* 42 registers round up to 1536 per warp: 10 warps per sub-partition, 40 warps, 10 groups of 128 */
    o = estimate(&l, 128, 42, 0);
    assert_int_equal(o.groups, 10);
    assert_int_equal(o.warps, 40);
    assert_string_equal(o.limit, "registers");
    /* ... whole warps per sub-partition: 64 items (2 warps) of 42 registers fit 20 times, not 21 (42 / 2) */
    o = estimate(&l, 64, 42, 0);
    assert_int_equal(o.groups, 20);
    /* the 1 KiB reserved per group counts: 45 KiB groups fit 4 times in 228 KiB, not 5 */
    o = estimate(&l, 64, 16, 45 * 1024);
    assert_int_equal(o.groups, 4);
    assert_string_equal(o.limit, "local");
    /* 48 KiB of local memory per group (+1 KiB reserved): 4 groups in 228 KiB */
    o = estimate(&l, 256, 16, 48 * 1024);
    assert_int_equal(o.groups, 4);
    assert_string_equal(o.limit, "local");
    /* the seed 004 group on sm_90: 24 KiB + 1 KiB a group, 9 fit; 128 items, so 36 of 64 warps */
    o = estimate(&l, 128, 0, 24 * 1024);
    assert_int_equal(o.groups, 9);
    assert_int_equal(o.warps, 36);
    /* a group whose registers exceed the SM's cannot be resident at all */
    o = estimate(&l, 1024, 255, 0);
    assert_int_equal(o.groups, 0);
    assert_string_equal(o.limit, "registers");
    /* the runtime's choice of work-group size: no estimate on a GPU */
    o = estimate(&l, 0, 32, 0);
    assert_int_equal(o.groups, 0);
    assert_string_equal(o.limit, "");
    assert_true(isnan(o.occupancy));
}

/* The table's other rows and its gaps. */
static void test_nvidia_table(void **state)
{
    (void)state;
    cg_occ_limits l;
    assert_true(cg_occ_nvidia(8, 6, &l)); /* RTX 30: 48 warps, 16 blocks, 100 KiB */
    assert_string_equal(l.model, "sm_86");
    assert_int_equal(l.max_threads, 1536);
    assert_int_equal(l.max_groups, 16);
    cg_occ o = estimate(&l, 64, 16, 0); /* 2 warps a group: 16 blocks bound first, 32 of 48 warps */
    assert_int_equal(o.groups, 16);
    assert_string_equal(o.limit, "groups");
    assert_int_equal(o.max_warps, 48);
    assert_true(cg_occ_nvidia(7, 5, &l));
    assert_int_equal(l.max_threads, 1024);
    assert_true(cg_occ_nvidia(6, 0, &l)); /* GP100: registers in 2 sub-partitions */
    assert_int_equal(l.reg_parts, 2);
    assert_false(cg_occ_nvidia(3, 5, &l)); /* Kepler: not in the table */
    assert_false(cg_occ_nvidia(9, 1, &l));
}

/* The generic models: a CPU holds one group per core whatever its size; another device is bound by local
 * memory only, and without local memory has no estimate. */
static void test_generic(void **state)
{
    (void)state;
    cg_occ_limits l;
    cg_occ_generic(true, 32768, &l);
    assert_string_equal(l.model, "cpu");
    cg_occ o = estimate(&l, 256, 0, 1024);
    assert_int_equal(o.groups, 1);
    assert_string_equal(o.limit, "groups");
    assert_true(isnan(o.occupancy));
    assert_int_equal(estimate(&l, 0, 0, 0).groups, 1); /* "auto": still one per core */
    cg_occ_generic(false, 64 * 1024, &l);
    assert_string_equal(l.model, "generic");
    o = estimate(&l, 256, 0, 16 * 1024);
    assert_int_equal(o.groups, 4);
    assert_string_equal(o.limit, "local");
    assert_int_equal(o.warps, 0);
    o = estimate(&l, 256, 0, 0);
    assert_int_equal(o.groups, 0);
    assert_string_equal(o.limit, "");
}

static const char multi_log[] = "ptxas info    : 0 bytes gmem\n"
                                "ptxas info    : Compiling entry function 'reduce_naive' for 'sm_90'\n"
                                "ptxas info    : Function properties for reduce_naive\n"
                                "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                                "ptxas info    : Used 16 registers, 1024 bytes smem, 368 bytes cmem[0]\n"
                                "ptxas info    : Compiling entry function 'reduce_seq' for 'sm_90'\n"
                                "ptxas info    : Function properties for reduce_seq\n"
                                "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                                "ptxas info    : Used 42 registers, 4096+16 bytes smem, 368 bytes cmem[0]\n";

static void test_ptxas(void **state)
{
    (void)state;
    cg_ptxas_info p;
    assert_true(
        cg_ptxas_find("ptxas info    : Used 32 registers, 4096 bytes smem, 400 bytes cmem[0]", NULL, &p));
    assert_int_equal(p.regs, 32);
    assert_int_equal(p.smem, 4096);
    assert_true(cg_ptxas_find("ptxas info    : Used 8 registers, 352 bytes cmem[0]\n", "any", &p));
    assert_int_equal(p.regs, 8); /* no entry lines: the only Used line, whatever the name */
    assert_int_equal(p.smem, 0);
    /* CUDA 12 also counts barriers on the line */
    assert_true(
        cg_ptxas_find("ptxas info    : Used 40 registers, used 1 barriers, 2048 bytes smem, 400 bytes "
                      "cmem[0]\n",
                      NULL, &p));
    assert_int_equal(p.regs, 40);
    assert_int_equal(p.smem, 2048);
    assert_true(cg_ptxas_find(multi_log, "reduce_seq", &p));
    assert_int_equal(p.regs, 42);
    assert_int_equal(p.smem, 4112);
    assert_true(cg_ptxas_find(multi_log, "reduce_naive", &p));
    assert_int_equal(p.regs, 16);
    assert_int_equal(p.smem, 1024);
    assert_false(cg_ptxas_find(multi_log, "reduce", &p)); /* a prefix of a name is not that kernel */
    assert_false(cg_ptxas_find(multi_log, NULL, &p));     /* two kernels: which? */
    assert_int_equal(p.regs, 0);
    assert_false(cg_ptxas_find("", NULL, &p));
    assert_false(cg_ptxas_find(NULL, NULL, &p));
    assert_false(cg_ptxas_find("ptxas info    : Used many registers\n", NULL, &p));
    assert_false(cg_ptxas_find("error : Used 12 registered users\n", NULL, &p));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_wwdc),   cmocka_unit_test(test_seed_gpu_mapping),
        cmocka_unit_test(test_nvidia_sm90), cmocka_unit_test(test_nvidia_table),
        cmocka_unit_test(test_generic),     cmocka_unit_test(test_ptxas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
