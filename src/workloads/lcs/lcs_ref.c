/* The lcs workload's CPU side: the plain DP (one row of memory, the definition every other answer is
 * checked against on small sizes), the bit-parallel DP with 64-bit words (fast enough to check the GPU's
 * default 2^20 x 2^20 in seconds; it is the reference of every run) and the hand-threaded comparison: the
 * anti-diagonal DP on pthreads, three diagonals, one barrier per diagonal, an inner loop the compiler
 * vectorises (built for AVX-512, AVX2 and plain x86-64, the best picked at load time). */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <x86intrin.h>
#endif
#include "workloads/lcs/lcs.h"

int64_t lcs_ref_dp(const uint8_t *a, size_t n, const uint8_t *b, size_t m)
{
    int32_t *row = calloc(m + 1, sizeof *row);
    if (!row) return -1;
    for (size_t i = 1; i <= n; i++) {
        int32_t dg = 0; /* L[i-1][j-1] */
        for (size_t j = 1; j <= m; j++) {
            int32_t up = row[j], v;
            if (a[i - 1] == b[j - 1])
                v = dg + 1;
            else
                v = up > row[j - 1] ? up : row[j - 1];
            dg = up;
            row[j] = v;
        }
    }
    int64_t r = row[m];
    free(row);
    return r;
}

/* One character of b: V = (V + (V & M)) | (V & ~M) over nw words, the sum's carry chained through them
 * (x86-64: one add-with-carry per word; the GPU default is 1.7e10 of these). */
static void bitpar_row(uint64_t *restrict v, const uint64_t *restrict mk, size_t nw)
{
#if defined(__x86_64__) && defined(__GNUC__)
    unsigned char carry = 0;
    for (size_t w = 0; w < nw; w++) {
        unsigned long long sum;
        carry = _addcarry_u64(carry, v[w], v[w] & mk[w], &sum);
        v[w] = sum | (v[w] & ~mk[w]);
    }
#else
    uint64_t carry = 0;
    for (size_t w = 0; w < nw; w++) {
        uint64_t x = v[w] & mk[w], s = v[w] + x, s2 = s + carry;
        carry = (s < v[w]) | (s2 < s);
        v[w] = s2 | (v[w] & ~mk[w]);
    }
#endif
}

int64_t lcs_ref_bitpar(const uint8_t *a, size_t n, const uint8_t *b, size_t m)
{
    size_t nw = (n + 63) / 64;
    uint64_t *mask = calloc(256 * nw, sizeof *mask), *v = malloc(nw * sizeof *v);
    if (!mask || !v) {
        free(mask);
        free(v);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        mask[(size_t)a[i] * nw + i / 64] |= 1ull << (i % 64);
    memset(v, 0xFF, nw * sizeof *v);
    for (size_t j = 0; j < m; j++)
        bitpar_row(v, mask + (size_t)b[j] * nw, nw);
    int64_t ones = 0;
    for (size_t i = 0; i < n; i++)
        ones += (v[i / 64] >> (i % 64)) & 1;
    free(mask);
    free(v);
    return (int64_t)n - ones;
}

/* ---- the threaded anti-diagonal DP --------------------------------------------------------------------- */

typedef struct thr_job {
    const uint8_t *a, *br; /* br: b reversed, so that b[d - i - 1] = br[m - d + i] walks forward with i */
    size_t n, m;
    int32_t *diag[3]; /* indexed by row i; position i is first written at diagonal i + 1, so the borders
                         L[0][*] and L[i][0] stay the zeros of calloc */
    int threads;      /* the threads that work: set, with the barrier, once all have started */
    bool go;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_barrier_t bar;
} thr_job;

typedef struct thr_arg {
    thr_job *job;
    int t;
} thr_arg;

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define LCS_VECTORISE __attribute__((target_clones("avx512f", "avx2", "default"), optimize("O3")))
#else
#define LCS_VECTORISE
#endif

/* Cells lo .. hi - 1 of diagonal d, b's character of cell i at br[i + off]: independent of each other, so
 * the loop vectorises. */
LCS_VECTORISE static void diag_span(const uint8_t *restrict a, const uint8_t *restrict br, ptrdiff_t off,
                                    int32_t *restrict cur, const int32_t *restrict p1,
                                    const int32_t *restrict p2, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; i++) {
        int32_t up = p1[i - 1], left = p1[i], mx = up > left ? up : left;
        cur[i] = a[i - 1] == br[(ptrdiff_t)i + off] ? p2[i - 1] + 1 : mx;
    }
}

static void *thr_main(void *p)
{
    thr_arg *ta = p;
    thr_job *j = ta->job;
    pthread_mutex_lock(&j->mu);
    while (!j->go)
        pthread_cond_wait(&j->cv, &j->mu);
    pthread_mutex_unlock(&j->mu);
    if (ta->t >= j->threads) return NULL; /* not needed: a later thread failed to start */
    for (size_t d = 2; d <= j->n + j->m; d++) {
        size_t lo = d > j->m ? d - j->m : 1, hi = (d - 1 < j->n ? d - 1 : j->n) + 1;
        size_t len = hi - lo, t = (size_t)ta->t, k = (size_t)j->threads;
        size_t s0 = lo + len * t / k, s1 = lo + len * (t + 1) / k;
        diag_span(j->a, j->br, (ptrdiff_t)j->m - (ptrdiff_t)d, j->diag[d % 3], j->diag[(d - 1) % 3],
                  j->diag[(d - 2) % 3], s0, s1);
        if (k > 1) pthread_barrier_wait(&j->bar);
    }
    return NULL;
}

/* Starts up to want - 1 helpers, then works with those that started as thread 0 and joins them; false when
 * the barrier cannot be made (then no thread worked). */
static bool thr_run(thr_job *j, int want, thr_arg *args, pthread_t *tid)
{
    int started = 0;
    for (int t = 0; t < want; t++)
        args[t] = (thr_arg){j, t};
    while (started + 1 < want && pthread_create(&tid[started + 1], NULL, thr_main, &args[started + 1]) == 0)
        started++;
    bool ok = pthread_barrier_init(&j->bar, NULL, (unsigned)(started + 1)) == 0;
    pthread_mutex_lock(&j->mu);
    j->threads = ok ? started + 1 : 0;
    j->go = true;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
    if (ok) thr_main(&args[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    if (ok) pthread_barrier_destroy(&j->bar);
    return ok;
}

int64_t lcs_ref_threads(const uint8_t *a, size_t n, const uint8_t *b, size_t m, int threads)
{
    int64_t r = -1;
    int want = threads < 1 ? 1 : threads;
    thr_job j = {.a = a, .n = n, .m = m, .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
    uint8_t *br = malloc(m);
    thr_arg *args = calloc((size_t)want, sizeof *args);
    pthread_t *tid = calloc((size_t)want, sizeof *tid);
    for (int k = 0; k < 3; k++)
        j.diag[k] = calloc(n + 1, sizeof(int32_t));
    if (!br || !args || !tid || !j.diag[0] || !j.diag[1] || !j.diag[2]) goto out;
    for (size_t x = 0; x < m; x++)
        br[x] = b[m - 1 - x];
    j.br = br;
    if (thr_run(&j, want, args, tid)) r = j.diag[(n + m) % 3][n];
out:
    for (int k = 0; k < 3; k++)
        free(j.diag[k]);
    free(br);
    free(args);
    free(tid);
    return r;
}

size_t lcs_traceback(const uint8_t *a, size_t n, const uint8_t *b, size_t m, const uint8_t *rows,
                     size_t stride, uint32_t *ai, uint32_t *bj)
{
    size_t i = n, j = m, len = 0;
    while (i > 0 && j > 0) {
        if (a[i - 1] == b[j - 1]) {
            ai[len] = (uint32_t)(i - 1), bj[len] = (uint32_t)(j - 1), len++;
            i--, j--;
        } else if (rows[(j - 1) * stride + (i - 1) / 8] >> ((i - 1) % 8) & 1) {
            i--;
        } else {
            j--;
        }
    }
    return len;
}

bool lcs_is_common(const uint8_t *a, size_t n, const uint8_t *b, size_t m, const uint32_t *ai,
                   const uint32_t *bj, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        if (ai[k] >= n || bj[k] >= m || a[ai[k]] != b[bj[k]]) return false;
        if (k && (ai[k] >= ai[k - 1] || bj[k] >= bj[k - 1])) return false;
    }
    return true;
}
