/* Seeded pseudo-random inputs (splitmix64 seeding xoshiro256**): the same seed gives the same data
 * everywhere. */
#ifndef CG_RNG_H
#define CG_RNG_H
#include <stddef.h>
#include <stdint.h>

typedef struct cg_rng {
    uint64_t s[4];
} cg_rng;

void cg_rng_init(cg_rng *r, uint64_t seed);
uint64_t cg_rng_next(cg_rng *r);
/* Uniform in [0, 1). */
float cg_rng_float(cg_rng *r);
/* Uniform in [lo, hi). */
void cg_rng_fill_float(cg_rng *r, float *x, size_t n, float lo, float hi);
void cg_rng_fill_bytes(cg_rng *r, void *x, size_t n);

#endif
