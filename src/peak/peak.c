/* The peak test table, --only selection, the loop that runs the selected tests, and the helpers every family
 * shares: rate arithmetic, the zero-copy and watchdog guards, best-of timing within --max-time, rows. */
#include "peak/peak.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/clerr.h"
#include "core/events.h"
#include "core/program.h"
#include "peak/tests.h"

const cg_peak_test cg_peak_tests[] = {
    {"read", "bandwidth", "global read-only, widths 1..16 (bytes read)", cg_peak_bw_read, true},
    {"write", "bandwidth", "global write-only, widths 1..16 (bytes written)", cg_peak_bw_write, false},
    {"copy", "bandwidth", "global copy, widths 1..16 (bytes read + written)", cg_peak_bw_copy, true},
    {"stride", "bandwidth", "float reads at a stride of 1..64 elements (bytes used)", cg_peak_bw_stride,
     false},
    {"gather", "bandwidth", "float reads at random indices (bytes used)", cg_peak_bw_gather, false},
    {"offset", "bandwidth", "float4 reads shifted by 0..3 floats: misaligned vloads", cg_peak_bw_offset,
     false},
    {"fp32", "compute", "float MADs, widths 1..16 (2 FLOPs each)", cg_peak_fp32, true},
    {"fp64", "compute", "double MADs, widths 1..16", cg_peak_fp64, false},
    {"fp16", "compute", "half MADs, widths 1..16 (where a half kernel compiles)", cg_peak_fp16, false},
    {"int32", "compute", "int multiply-adds, widths 1..16 (2 ops each)", cg_peak_int32, false},
    {"int24", "compute", "mad24, widths 1..16 (2 ops each)", cg_peak_int24, false},
    {"tf32-mma", "compute", "TF32 mma.sync on NVIDIA's tensor cores (inline PTX; 2 FLOPs a multiply-add)",
     cg_peak_tf32_mma, false},
    {"f16-mma", "compute",
     "fp16 mma.sync (m16n8k16, fp32 accumulators) on NVIDIA's tensor cores (inline PTX)", cg_peak_f16_mma,
     false},
    {"crossover", "balance", "copy with k = 0, 3, 6 .. flops per pixel: where compute starts to cost",
     cg_peak_crossover, false},
    {"chains", "balance", "fp32 MADs in 1, 2, 4, 8, 16 independent chains per work-item", cg_peak_chains,
     false},
    {"pageable", "transfer", "write/read from malloc'd host memory, 4 KiB..1 GiB", cg_peak_xfer_pageable,
     false},
    {"pinned", "transfer", "write/read from pinned (ALLOC_HOST_PTR) memory, 4 KiB..1 GiB",
     cg_peak_xfer_pinned, false},
    {"map", "transfer", "map for reading / unmap after writing, 4 KiB..1 GiB", cg_peak_xfer_map, false},
    {"launch", "latency", "empty kernel: queued->start and enqueue+finish", cg_peak_latency, false},
    {"local-bw", "local", "local-memory float4 reads", cg_peak_local_bw, false},
    {"bank", "local", "local reads at a stride of 1..64 words: bank conflicts", cg_peak_local_bank, false},
    {"atomic-global", "atomics", "global atomic_add: one address vs many", cg_peak_atomic_global, false},
    {"atomic-local", "atomics", "local atomic_add: one address vs many", cg_peak_atomic_local, false},
    {"image", "image", "read_imagef nearest/linear vs the same buffer reads", cg_peak_image, false},
    {"sizes", "cache", "read, repeated read and copy of 4 KiB .. 1 GiB buffers: where caches end",
     cg_peak_sizes, false},
    {"coalescing", "rules", "read float, add 1, write: coalesced vs idle, permuted, misaligned, float3",
     cg_peak_coalescing, false},
    {"divergence", "rules", "a branch of granularity 1..128 work-items: the SIMD width", cg_peak_divergence,
     false},
    {"scatter", "scatter", "read float, add 1, write: linear vs random gather vs random scatter",
     cg_peak_scatter, false},
    {"channels", "scatter", "columns at a pitch of 1..64 KiB vs one float longer: channel camping",
     cg_peak_channels, false},
    {"alloc", "overheads", "create+release of buffers and images 4 KiB..256 MiB; their first write",
     cg_peak_ovh_alloc, false},
    {"transfers", "overheads", "N x 4 KiB writes/reads vs one of N x 4 KiB (16 MiB): many small vs one",
     cg_peak_ovh_transfers, false},
    {"events", "overheads", "host time per launch of a tiny kernel: NULL event vs an event requested",
     cg_peak_ovh_events, false},
    {"queues", "overheads", "many small independent kernels: in-order vs out-of-order queue",
     cg_peak_ovh_queues, false},
};
const size_t cg_peak_ntests = sizeof cg_peak_tests / sizeof cg_peak_tests[0];
_Static_assert(sizeof cg_peak_tests / sizeof cg_peak_tests[0] <= CG_PEAK_MAX_TESTS,
               "more peak tests than CG_PEAK_MAX_TESTS: raise it in peak/peak.h");

static void valid_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < cg_peak_ntests && used < len; i++) {
        const cg_peak_test *t = &cg_peak_tests[i];
        if (i == 0 || strcmp(t->family, cg_peak_tests[i - 1].family))
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "; " : "", t->family);
        if (used < len) used += (size_t)snprintf(buf + used, len - used, " %s", t->name);
    }
}

/* Marks the tests a name selects (a family or a test); false when it names nothing. */
static bool select_name(const char *name, size_t len, bool *sel)
{
    bool any = false;
    for (size_t i = 0; i < cg_peak_ntests; i++) {
        const cg_peak_test *t = &cg_peak_tests[i];
        if ((strlen(t->name) == len && !strncmp(t->name, name, len)) ||
            (strlen(t->family) == len && !strncmp(t->family, name, len)))
            sel[i] = any = true;
    }
    return any;
}

cg_status cg_peak_select(const char *only, bool quick, bool *sel)
{
    for (size_t i = 0; i < cg_peak_ntests; i++)
        sel[i] = !only && (!quick || cg_peak_tests[i].quick);
    if (!only) return CG_OK;
    for (const char *p = only;;) {
        size_t len = strcspn(p, ",");
        if (!select_name(p, len, sel)) {
            char names[1024];
            valid_names(names, sizeof names);
            CG_ERROR("unknown peak test '%.*s' in --only; families and tests: %s", (int)len, p, names);
            return CG_E_USAGE;
        }
        if (!p[len]) break;
        p += len + 1;
    }
    return CG_OK;
}

cg_status cg_peak_run(cg_ctx *ctx, const cg_peak_opts *o, const bool *sel, cg_report *rep)
{
    cg_peak_env e = {ctx, o, rep, NULL, NULL, NULL, false, 0};
    cg_status st = CG_OK;
    size_t n_sel = 0, k = 0;
    for (size_t i = 0; i < cg_peak_ntests; i++)
        n_sel += sel[i];
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < cg_peak_ntests; i++) {
        if (!sel[i]) continue;
        e.family = cg_peak_tests[i].family;
        e.test = cg_peak_tests[i].name;
        e.host_ok = false;
        e.host_best = 0;
        size_t before = rep->n;
        cg_status s = cg_peak_tests[i].run(&e);
        if (s != CG_OK && rep->n == before) {
            cg_result *row = cg_peak_add(&e, "-", "");
            if (row)
                cg_peak_set_status(row, CG_RUNG_CL_ERROR, "the test stopped with an error (see the log)");
        }
        clFinish(ctx->queue);
        if (o->progress) {
            struct timespec t1;
            clock_gettime(CLOCK_MONOTONIC, &t1);
            double el = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
            o->progress(rep, before, ++k, n_sel, el, o->user);
        }
    }
    if (e.util) clReleaseProgram(e.util);
    for (size_t i = 0; i < rep->n; i++) {
        if (rep->rows[i].status == CG_RUNG_WRONG)
            st = cg_status_merge(st, CG_E_VERIFY);
        else if (cg_rung_status_failed(rep->rows[i].status)) /* cl_error, build_failed */
            st = CG_E_RUNTIME;
    }
    return st;
}

void cg_peak_ceilings(const cg_report *rep, double *copy_gbps, double *read_gbps, double *mad_gflops)
{
    *copy_gbps = *read_gbps = *mad_gflops = 0;
    for (size_t i = 0; i < rep->n; i++) {
        const cg_result *r = &rep->rows[i];
        double *dst = !strcmp(r->rung, "copy")   ? copy_gbps
                      : !strcmp(r->rung, "read") ? read_gbps
                      : !strcmp(r->rung, "fp32") ? mad_gflops
                                                 : NULL;
        if (dst && r->status == CG_RUNG_OK && isfinite(r->value) && r->value > *dst) *dst = r->value;
    }
}

double cg_peak_rate_g(double amount, double seconds)
{
    if (!(seconds > 0) || !isfinite(seconds) || !isfinite(amount)) return 0;
    return amount / seconds * 1e-9;
}

bool cg_peak_is_zero_copy(double bytes, double seconds)
{
    return !(seconds > 0) || bytes / seconds > CG_PEAK_ZERO_COPY_BPS;
}

uint64_t cg_peak_fit_work(uint64_t work, double t, double target)
{
    if (target > CG_PEAK_WATCHDOG_S) target = CG_PEAK_WATCHDOG_S;
    if (!(t > 0) || !isfinite(t)) return work;
    double w = (double)work * target / t;
    if (w < 1) return 1;
    return w > 1e15 ? (uint64_t)1e15 : (uint64_t)w;
}

int cg_peak_runs_within(double t, double max_time, int lo, int hi)
{
    if (!(t > 0)) return hi;
    double n = floor(max_time / t);
    return n < lo ? lo : n > hi ? hi : (int)n;
}

double cg_peak_quantile(const double *sorted, size_t n, double p)
{
    if (n == 0) return 0;
    double pos = p * (double)(n - 1);
    size_t i = (size_t)pos;
    if (i + 1 >= n) return sorted[n - 1];
    return sorted[i] + (pos - (double)i) * (sorted[i + 1] - sorted[i]);
}

cg_result *cg_peak_add(cg_peak_env *e, const char *variant, const char *unit)
{
    cg_result *row = cg_report_add(e->rep);
    if (!row) {
        CG_ERROR("out of host memory");
        return NULL;
    }
    snprintf(row->workload, sizeof row->workload, "%s", e->family); /* a peak row's family and test */
    snprintf(row->rung, sizeof row->rung, "%s", e->test);
    snprintf(row->variant, sizeof row->variant, "%s", variant);
    snprintf(row->unit, sizeof row->unit, "%s", unit);
    return row;
}

void cg_peak_set_rate(cg_result *row, double amount, double seconds, int runs, const char *note)
{
    row->amount = amount;
    row->t_min = seconds;
    row->runs = (size_t)runs;
    row->value = cg_peak_rate_g(amount, seconds);
    row->status = row->value > 0 ? CG_RUNG_OK : CG_RUNG_CL_ERROR;
    if (row->status != CG_RUNG_OK)
        snprintf(row->reason, sizeof row->reason, "no time was measured (%g s)", seconds);
    snprintf(row->bytes_note, sizeof row->bytes_note, "%s", note);
}

cg_status cg_peak_check_items(cg_peak_env *e, cl_mem out, cg_peak_elem t, const size_t *ids, size_t n,
                              double tol, cg_peak_replay_fn replay, const void *arg, cg_result *row)
{
    cg_status st = CG_OK;
    size_t osz = t == CG_PEAK_F64 ? 8 : 4;
    for (size_t i = 0; i < n; i++) {
        union {
            float f;
            double d;
            uint32_t u;
        } v;
        CG_TRY(clEnqueueReadBuffer(e->ctx->queue, out, CL_TRUE, ids[i] * osz, osz, &v, 0, NULL, NULL));
        double got = t == CG_PEAK_U32   ? (double)v.u
                     : t == CG_PEAK_F64 ? v.d
                                        : (double)v.f,
               want = replay(ids[i], arg);
        if (!(fabs(got - want) <= tol * fabs(want))) {
            cg_peak_set_status(row, CG_RUNG_WRONG, "work-item %zu: got %.9g, want %.9g (host replay)", ids[i],
                               got, want);
            break;
        }
    }
out:
    return st;
}

void cg_peak_set_status(cg_result *row, cg_rung_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(row->reason, sizeof row->reason, fmt, ap);
    va_end(ap);
    row->status = s;
    row->value = 0;
}
