/* The second hand-threaded comparison of the lcs ladder: tile-simd's algorithm in C. Bands of 16 rows, each
 * walked left to right in blocks of 1024 columns by anti-diagonals, the 16 rows as the lanes of an inner
 * loop of fixed length the compiler turns into one vector (built for AVX-512, AVX2 and plain x86-64); the
 * threads take bands round robin and a band starts a block once the band above has finished it (a progress
 * counter per band, release/acquire, the wait yielding) - the talk's multicore wavefront of cache-sized
 * tiles, walked left to right for the prefetcher. */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/lcs/lcs.h"

#define LANES  16   /* rows of a band */
#define BLOCK  1024 /* columns of a block */
#define SENT_A (-1) /* never-matching padding of a and b */
#define SENT_B (-2)

typedef struct tiles_job {
    int32_t *a;       /* n_pad characters, SENT_A past n */
    int32_t *br;      /* b reversed and padded: b[j] = br[BR_OFF + m - 1 - j], SENT_B outside */
    int32_t *H;       /* the last row computed in each column (1-based), m_pad + 1 */
    atomic_int *done; /* blocks finished per band */
    size_t n, m, bands, blocks;
    int threads; /* the threads that work: set once all have started */
    bool go;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    atomic_int score;
} tiles_job;

#define BR_OFF (BLOCK + LANES)

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define LCS_VECTORISE __attribute__((target_clones("avx512f", "avx2", "default"), optimize("O3")))
#else
#define LCS_VECTORISE
#endif

/* 16 lanes of int32: GCC's vector extension (one zmm register in the AVX-512 clone). */
typedef int32_t v16 __attribute__((vector_size(LANES * sizeof(int32_t))));

/* (x, v0, v1, ..., v14): v moved up one lane, x entering lane 0 (a macro: a function passing v16 by value
 * would change the ABI between the clones). */
#if defined(__clang__)
#define SHIFT_IN(v, x)                                                                                       \
    __builtin_shufflevector((v), ((v16){(x)}), 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
#else
#define SHIFT_IN(v, x)                                                                                       \
    __builtin_shuffle((v), ((v16){(x)}), ((v16){16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}))
#endif
/* (b1, ..., b15, c15): b moved down one lane, c's last lane entering lane 15. */
#if defined(__clang__)
#define TAKE_BOTTOM(b, c)                                                                                    \
    __builtin_shufflevector((b), (c), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 31)
#else
#define TAKE_BOTTOM(b, c)                                                                                    \
    __builtin_shuffle((b), (c), ((v16){1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 31}))
#endif

/* Block bj of band bi: lanes carried in d (lane k = row r0 + k: the left edge on entry, the right edge on
 * exit), *corner the cell L[r0][c0] on entry, the next block's on exit; the band's bottom row written to H.
 * Lane k does column s - k at step s; a lane outside the block keeps its value (a masked select). One call
 * per block: the vector clone is picked once. */
LCS_VECTORISE static void band_block(tiles_job *j, size_t bi, size_t bj, v16 *d, int32_t *corner)
{
    const v16 lane = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    size_t r0 = bi * LANES, c0 = bj * BLOCK;
    int32_t next_corner = j->H[c0 + BLOCK];
    v16 av, bw, cur = *d, prev = *d, bot = *d;
    memcpy(&av, j->a + r0, sizeof av);
    /* the score's cell (n, m) is lane kn of this band at step sn of this block, if here */
    size_t kn = j->n - 1 - r0, sn = j->m - 1 - c0 + kn;
    bool mine = j->n - 1 >= r0 && kn < LANES && j->m > c0 && j->m <= c0 + BLOCK;
    for (size_t s = 0; s < BLOCK + LANES - 1; s++) {
        int32_t up0 = s < BLOCK ? j->H[c0 + 1 + s] : 0;                 /* above lane 0 */
        int32_t dg0 = s == 0 ? *corner : s <= BLOCK ? j->H[c0 + s] : 0; /* up-left of lane 0 */
        memcpy(&bw, j->br + (BR_OFF + j->m - 1 - c0 - s), sizeof bw);   /* b[c0 + s - k] */
        v16 up = SHIFT_IN(cur, up0), dg = SHIFT_IN(prev, dg0);
        v16 gt = up > cur, eq = av == bw;
        v16 v = (eq & (dg + 1)) | (~eq & ((up & gt) | (cur & ~gt)));
        prev = cur;
        if (s >= LANES - 1 && s < BLOCK) { /* every lane inside the block */
            cur = v;
        } else { /* ramp up or down: lanes outside keep their value */
            v16 act = (lane <= (int32_t)s) & (lane > (int32_t)s - BLOCK);
            cur = (act & v) | (~act & cur);
        }
        /* the bottom lane's cells, 16 columns at a time into H (no lane extracted per step) */
        bot = TAKE_BOTTOM(bot, cur);
        if (s >= LANES - 1 && (s - (LANES - 1)) % LANES == LANES - 1)
            memcpy(j->H + c0 + 1 + s - (LANES - 1) - (LANES - 1), &bot, sizeof bot);
        if (mine && s == sn) atomic_store(&j->score, cur[kn]);
    }
    *d = cur;
    *corner = next_corner;
}

typedef struct tiles_arg {
    tiles_job *job;
    int t;
} tiles_arg;

static void *tiles_main(void *p)
{
    tiles_arg *ta = p;
    tiles_job *j = ta->job;
    v16 d;
    int32_t corner;
    pthread_mutex_lock(&j->mu);
    while (!j->go)
        pthread_cond_wait(&j->cv, &j->mu);
    pthread_mutex_unlock(&j->mu);
    for (size_t bi = (size_t)ta->t; ta->t < j->threads && bi < j->bands; bi += (size_t)j->threads) {
        memset(&d, 0, sizeof d); /* the left border L[*][0] and the corner L[r0][0] */
        corner = 0;
        for (size_t bj = 0; bj < j->blocks; bj++) {
            while (bi > 0 && (size_t)atomic_load_explicit(&j->done[bi - 1], memory_order_acquire) <= bj)
                sched_yield();
            band_block(j, bi, bj, &d, &corner);
            atomic_store_explicit(&j->done[bi], (int)bj + 1, memory_order_release);
        }
    }
    return NULL;
}

/* The padded copies of the strings and the shared arrays; false when out of memory. */
static bool tiles_init(tiles_job *j, const uint8_t *a, const uint8_t *b)
{
    size_t n_pad = j->bands * LANES, m_pad = j->blocks * BLOCK, br_len = m_pad + 2 * BR_OFF;
    j->a = malloc(n_pad * sizeof *j->a);
    j->br = malloc(br_len * sizeof *j->br);
    j->H = calloc(m_pad + 1, sizeof *j->H);
    j->done = calloc(j->bands, sizeof *j->done);
    if (!j->a || !j->br || !j->H || !j->done) return false;
    for (size_t i = 0; i < n_pad; i++)
        j->a[i] = i < j->n ? a[i] : SENT_A;
    for (size_t x = 0; x < br_len; x++) {
        size_t k = x - BR_OFF; /* wraps when x < BR_OFF: then k >= m */
        j->br[x] = x >= BR_OFF && k < j->m ? b[j->m - 1 - k] : SENT_B;
    }
    return true;
}

int64_t lcs_ref_tiles(const uint8_t *a, size_t n, const uint8_t *b, size_t m, int threads)
{
    tiles_job j = {.n = n,
                   .m = m,
                   .bands = (n + LANES - 1) / LANES,
                   .blocks = (m + BLOCK - 1) / BLOCK,
                   .mu = PTHREAD_MUTEX_INITIALIZER,
                   .cv = PTHREAD_COND_INITIALIZER};
    int want = threads < 1 ? 1 : threads, started = 0;
    int64_t r = -1;
    pthread_t *tid = calloc((size_t)want, sizeof *tid);
    tiles_arg *args = calloc((size_t)want, sizeof *args);
    atomic_init(&j.score, -1);
    if (!tid || !args || !tiles_init(&j, a, b)) goto out;
    for (int t = 0; t < want; t++)
        args[t] = (tiles_arg){&j, t};
    while (started + 1 < want && pthread_create(&tid[started + 1], NULL, tiles_main, &args[started + 1]) == 0)
        started++;
    pthread_mutex_lock(&j.mu);
    j.threads = started + 1; /* the bands are dealt to the threads that started */
    j.go = true;
    pthread_cond_broadcast(&j.cv);
    pthread_mutex_unlock(&j.mu);
    tiles_main(&args[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    r = atomic_load(&j.score);
out:
    free(j.a);
    free(j.br);
    free(j.H);
    free(j.done);
    free(tid);
    free(args);
    return r;
}
