/* The convolution's CPU reference. At the GPU default (8192^2 outputs, 32x32 taps: 6.9e10 MADs) one core
 * would take tens of seconds, so the rows are split over threads; each thread walks taps in the outer loops
 * and a whole output row in the inner one, a plain axpy the compiler vectorizes. */
#include "workloads/convolution/convolution_ref.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REF_MAX_THREADS 64

typedef struct ref_job {
    const conv_ref_in *a;
    float *out;
    size_t y0, y1;
} ref_job;

static void rows(const conv_ref_in *a, float *out, size_t y0, size_t y1)
{
    for (size_t y = y0; y < y1; y++) {
        float *restrict o = out + y * a->w;
        memset(o, 0, a->w * sizeof *o);
        for (int j = 0; j < a->fh; j++) {
            const float *src = a->in + (y + (size_t)j) * a->ip;
            for (int i = 0; i < a->fw; i++) {
                float c = a->f[(size_t)j * (size_t)a->fw + (size_t)i];
                const float *restrict s = src + i;
                for (size_t x = 0; x < a->w; x++)
                    o[x] += c * s[x];
            }
        }
    }
}

static void *worker(void *arg)
{
    ref_job *j = arg;
    rows(j->a, j->out, j->y0, j->y1);
    return NULL;
}

static size_t thread_count(size_t h)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t n = cpus > 0 ? (size_t)cpus : 1;
    if (n > REF_MAX_THREADS) n = REF_MAX_THREADS;
    return n < h ? n : (h ? h : 1);
}

void conv_reference(const conv_ref_in *a, float *out)
{
    size_t n = thread_count(a->h);
    pthread_t tid[REF_MAX_THREADS];
    ref_job job[REF_MAX_THREADS];
    bool started[REF_MAX_THREADS] = {false};
    for (size_t t = 0; t < n; t++) {
        job[t] = (ref_job){a, out, a->h * t / n, a->h * (t + 1) / n};
        started[t] = t > 0 && pthread_create(&tid[t], NULL, worker, &job[t]) == 0;
    }
    rows(a, out, job[0].y0, job[0].y1);
    for (size_t t = 1; t < n; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            rows(a, out, job[t].y0, job[t].y1);
    }
}
