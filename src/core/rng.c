/* Seeded random inputs: xoshiro256** seeded through splitmix64 (public-domain algorithms, written here from
 * their published definitions). */
#include "core/rng.h"
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void cg_rng_init(cg_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

uint64_t cg_rng_next(cg_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

float cg_rng_float(cg_rng *r)
{
    return (float)(cg_rng_next(r) >> 40) * (1.0f / 16777216.0f);
}

void cg_rng_fill_float(cg_rng *r, float *x, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++)
        x[i] = lo + (hi - lo) * cg_rng_float(r);
}

void cg_rng_fill_bytes(cg_rng *r, void *x, size_t n)
{
    unsigned char *p = x;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v = cg_rng_next(r);
        memcpy(p + i, &v, 8);
    }
    if (i < n) {
        uint64_t v = cg_rng_next(r);
        memcpy(p + i, &v, n - i);
    }
}
