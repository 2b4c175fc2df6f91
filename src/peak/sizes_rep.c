/* The cache test's repeated reads: "read-rep N" rows beside sizes.c's single-pass rows. A single pass over a
 * small buffer measures the launch (a 4 KiB read is one ~5 us launch on an H100), so here every launch reads
 * the first n bytes of the input over and over (sizes_rep.cl): at least the whole buffer and 256 MiB (64 MiB
 * on a CPU), more where the launch would be shorter than the fitted-work target, so that each launch lasts
 * long against its overhead. The footprint is the buffer (the addresses are masked), and the bytes counted
 * are all the bytes read: n x the passes. Each figure is checked: the work-items' sums against the host's sum
 * of the same floats, and three work-items' sums against a host replay of their addresses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/clerr.h"
#include "peak/tests.h"

#define REP_MIN_GPU ((double)(256u << 20)) /* bytes one launch reads at least */
#define REP_MIN_CPU ((double)(64u << 20))
#define REP_K_MAX                                                                                            \
    65536 /* loads per work-item at most (unless one pass needs more): float sums stay within REP_TOL */
#define REP_TOL 1e-4 /* relative, as the single-pass read's check */

typedef struct rep_run {
    cl_kernel k;
    cl_mem in, out;
    const float *hin; /* the input, as read back by sizes.c */
    float *hout;      /* g sums */
    size_t g;         /* work-items */
    cl_uint w;        /* units of w consecutive work-items read w consecutive elements a step */
    bool perm; /* read_rep_perm: each unit its own order of the blocks (a GPU); else read_rep runs (a CPU) */
    size_t vw; /* floats an element (a load): float4 on a GPU (its widest load), float16 on a CPU (a 64-byte
                * vector load: float4 loads are bound by the instructions, not by L1 or L2) */
} rep_run;

static bool rep_gpu(const cg_peak_env *e)
{
    return e->ctx->dev->type & CL_DEVICE_TYPE_GPU;
}

/* Loads per work-item: at least lo, at most max(REP_K_MAX, lo), a multiple of 8. */
static cl_uint rep_loads(uint64_t want, uint64_t lo)
{
    uint64_t hi = lo > REP_K_MAX ? lo : REP_K_MAX;
    uint64_t k = want < lo ? lo : want > hi ? hi : want;
    return (cl_uint)((k + 7) / 8 * 8);
}

/* The sum of element j (its vw floats), in double. */
static double elem_sum(const rep_run *r, size_t j)
{
    double s = 0;
    for (size_t i = 0; i < r->vw; i++)
        s += r->hin[r->vw * j + i];
    return s;
}

/* The block (of w elements) that unit u of a read_rep_perm grid reads at its load k: start u * nb / units,
 * stride 2u + 1, modulo nb (a power of two). */
static size_t perm_block(const rep_run *r, size_t nb, size_t u, uint64_t k)
{
    uint64_t units = r->g / r->w, start = (uint64_t)u * nb / units;
    return (size_t)((start + k * (2 * (uint64_t)u + 1)) & (nb - 1));
}

/* One work-item's sum, replayed: read_rep's loads are u * K * w + lane + k * w in 32-bit arithmetic (as the
 * kernel's), masked; read_rep_perm's are perm_block(u, k) * w + lane. */
static double replay_item(const rep_run *r, cl_uint mask, cl_uint loads, size_t gid)
{
    size_t u = gid / r->w, lane = gid % r->w, nb = ((size_t)mask + 1) / r->w;
    uint32_t i = (uint32_t)u * loads * r->w + (uint32_t)lane;
    double s = 0;
    for (cl_uint k = 0; k < loads; k++, i += r->w)
        s += elem_sum(r, r->perm ? perm_block(r, nb, u, k) * r->w + lane : (size_t)(i & mask));
    return s;
}

/* read_rep_perm's grid: the sums of the nb blocks, then every unit's loads over them. */
static bool perm_sum(const rep_run *r, size_t ne, cl_uint loads, double *want)
{
    size_t nb = ne / r->w, units = r->g / r->w;
    double *bs = calloc(nb, sizeof *bs);
    if (!bs) return false;
    for (size_t j = 0; j < ne; j++)
        bs[j / r->w] += elem_sum(r, j);
    double sum = 0;
    for (size_t u = 0; u < units; u++)
        for (cl_uint k = 0; k < loads; k++)
            sum += bs[perm_block(r, nb, u, k)];
    free(bs);
    *want = sum;
    return true;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* The sum of everything a read_rep grid read: unit u reads the L = K x w elements from u L, wrapped, which
 * is L / ne whole passes and the ne-periodic window [s, s + L % ne). One sweep over the input gives the
 * prefix sums at every window's ends (2 per unit, sorted), so the want costs one pass, not one per unit. */
static bool grid_sum(const rep_run *r, size_t ne, cl_uint loads, double *want)
{
    size_t units = r->g / r->w, L = (size_t)loads * r->w, rest = L % ne, nq = 2 * units;
    size_t *q = malloc(nq * sizeof *q);
    double *pq = malloc(nq * sizeof *pq);
    if (!q || !pq) {
        free(q);
        free(pq);
        return false;
    }
    for (size_t u = 0; u < units; u++) {
        q[2 * u] = ((size_t)u * L) & (ne - 1);
        q[2 * u + 1] = (q[2 * u] + rest) % ne;
    }
    qsort(q, nq, sizeof *q, cmp_size);
    double all = 0;
    size_t k = 0;
    for (size_t j = 0; j <= ne; j++) {
        while (k < nq && q[k] == j)
            pq[k++] = all;
        if (j < ne) all += elem_sum(r, j);
    }
    double sum = 0;
    for (size_t u = 0; u < units; u++) {
        size_t s = ((size_t)u * L) & (ne - 1), t = (s + rest) % ne;
        double ps = pq[(size_t *)bsearch(&s, q, nq, sizeof *q, cmp_size) - q];
        double pt = pq[(size_t *)bsearch(&t, q, nq, sizeof *q, cmp_size) - q];
        sum += (double)(L / ne) * all + (s + rest < ne ? pt - ps : all - ps + pt);
    }
    free(q);
    free(pq);
    *want = sum;
    return true;
}

/* The work-items' sums against grid_sum, then three work-items against a replay of their addresses. */
static void check_rep(const rep_run *r, cl_uint mask, cl_uint loads, cg_result *row)
{
    double want = 0, got = 0;
    bool ok =
        r->perm ? perm_sum(r, (size_t)mask + 1, loads, &want) : grid_sum(r, (size_t)mask + 1, loads, &want);
    if (!ok) {
        cg_peak_set_status(row, CG_RUNG_WRONG, "out of host memory for the check");
        return;
    }
    for (size_t i = 0; i < r->g; i++)
        got += r->hout[i];
    if (!(fabs(got - want) <= REP_TOL * want)) {
        cg_peak_set_status(row, CG_RUNG_WRONG,
                           "the work-items' sums add up to %.9g, the input (%u loads a "
                           "work-item) to %.9g",
                           got, loads, want);
        return;
    }
    const size_t ids[] = {0, (r->g / 2 + 37) % r->g, r->g - 1};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        double one = replay_item(r, mask, loads, ids[i]);
        if (!(fabs(r->hout[ids[i]] - one) <= REP_TOL * one)) {
            cg_peak_set_status(row, CG_RUNG_WRONG, "work-item %zu: got %.9g, want %.9g (host replay)", ids[i],
                               r->hout[ids[i]], one);
            return;
        }
    }
}

/* One size: a probe launch at the least work, the work fitted to a quarter of cg_peak_target (12.5 ms at
 * most: a launch's overhead is microseconds, and 19 sizes at the full target would add 10 s to a full peak),
 * then timed and checked. */
static cg_status rep_size(cg_peak_env *e, rep_run *r, size_t n)
{
    cg_status st = CG_OK;
    size_t es = 4 * r->vw; /* bytes an element */
    cl_uint mask = (cl_uint)(n / es - 1), poison = 0xffffffffu, loads, k8;
    double least = rep_gpu(e) ? REP_MIN_GPU : REP_MIN_CPU, t = 0, best = 0;
    size_t lsz = cg_peak_local(e, r->g);
    int runs = 0;
    char variant[32], note[96];
    cg_peak_size_label("read-rep", n, variant, sizeof variant);
    cg_result *row = cg_peak_add(e, variant, "GB/s");
    CG_FAIL_IF(!row, CG_E_RUNTIME, "out of host memory");
    uint64_t lo = (uint64_t)ceil(fmax((double)n, least) / (double)es / (double)r->g);
    loads = rep_loads(lo, lo);
    k8 = loads / 8;
    CG_TRY(clSetKernelArg(r->k, 2, sizeof mask, &mask));
    CG_TRY(clSetKernelArg(r->k, 4, sizeof k8, &k8));
    if ((st = cg_peak_launch(e, r->k, r->g, lsz, &t)) != CG_OK) goto out;
    loads = rep_loads(cg_peak_fit_work(loads, t, cg_peak_target(e) / 4), lo);
    k8 = loads / 8;
    CG_TRY(clSetKernelArg(r->k, 4, sizeof k8, &k8));
    CG_TRY(clEnqueueFillBuffer(e->ctx->queue, r->out, &poison, sizeof poison, 0, r->g * 4, 0, NULL, NULL));
    if ((st = cg_peak_time_kernel(e, r->k, r->g, lsz, &best, &runs)) != CG_OK) goto out;
    double bytes = (double)es * (double)r->g * loads;
    snprintf(note, sizeof note, "bytes read: %.0f x the buffer in one launch; checked", bytes / (double)n);
    cg_peak_set_rate(row, bytes, best, runs, note);
    CG_TRY(clEnqueueReadBuffer(e->ctx->queue, r->out, CL_TRUE, 0, r->g * 4, r->hout, 0, NULL, NULL));
    check_rep(r, mask, loads, row);
out:
    if (st != CG_OK && row) cg_peak_set_status(row, CG_RUNG_CL_ERROR, "OpenCL error (see the log)");
    return st;
}

cg_status cg_peak_sizes_rep(cg_peak_env *e, cl_mem in, const float *hin, size_t top)
{
    cg_status st = CG_OK;
    cl_program p = NULL;
    bool gpu = rep_gpu(e);
    rep_run r = {.in = in,
                 .hin = hin,
                 .g = (size_t)e->ctx->dev->compute_units * 2048,
                 .w = gpu ? 256 : 1,
                 /* CLGAUGE_REP_PERM=1 runs the GPU's kernel on any device (tests/device/test_peak.sh) */
                 .perm = gpu || getenv("CLGAUGE_REP_PERM"),
                 .vw = gpu ? 4 : 16};
    char opts[32];
    snprintf(opts, sizeof opts, "-DVT=float%zu -DVW=%zu", r.vw, r.vw);
    r.hout = malloc(r.g * 4);
    CG_FAIL_IF(!r.hout, CG_E_RUNTIME, "out of host memory (%zu bytes)", r.g * 4);
    CG_TRY_OBJ(r.out, clCreateBuffer(e->ctx->context, CL_MEM_READ_WRITE, r.g * 4, NULL, CG_ERRP));
    if ((st = cg_peak_build(e, "sizes_rep.cl", opts, &p)) != CG_OK) goto out;
    CG_TRY_OBJ(r.k, clCreateKernel(p, r.perm ? "read_rep_perm" : "read_rep", CG_ERRP));
    CG_TRY(clSetKernelArg(r.k, 0, sizeof r.in, &r.in));
    CG_TRY(clSetKernelArg(r.k, 1, sizeof r.out, &r.out));
    CG_TRY(clSetKernelArg(r.k, 3, sizeof r.w, &r.w));
    for (size_t n = CG_PEAK_SIZE_MIN; n <= top && st == CG_OK; n *= e->o->quick ? 4 : 2)
        st = rep_size(e, &r, n);
out:
    if (r.k) clReleaseKernel(r.k);
    if (p) clReleaseProgram(p);
    if (r.out) clReleaseMemObject(r.out);
    free(r.hout);
    return st;
}
