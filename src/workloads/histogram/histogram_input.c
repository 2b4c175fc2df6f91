/* The histogram workload's inputs: the bytes of each --pattern (random, allequal, image) and --check exact's
 * runs, from a seed. */
#include <string.h>

#include "core/rng.h"
#include "workloads/histogram/histogram_input.h"

/* The image pattern: rows of HIST_IMAGE_W bytes, diagonal bands (a triangle wave over x + y, 16 px per grey
 * level) plus seeded noise in [-3, 3]: a smooth picture with a few distinct values per neighbourhood. */
static void fill_image(cg_rng *rng, uint8_t *x, size_t n)
{
    uint64_t bits = 0;
    int left = 0;
    for (size_t i = 0; i < n; i++) {
        if (left < 3) {
            bits = cg_rng_next(rng);
            left = 63;
        }
        int noise = (int)(bits % 7) - 3;
        bits /= 7;
        left -= 3;
        size_t t = ((i % HIST_IMAGE_W) + i / HIST_IMAGE_W) / 16 % 510;
        int v = (int)(t < 256 ? t : 509 - t) + noise;
        x[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

/* The --check exact pattern: runs of ascending bins, bin b's run (b + 1) units long, so that every bin has
 * its own count (a mislabelled or lost bin shows) and the input ends in the highest bins (a dropped tail
 * shows); lane i % 16 of each 16-byte vector adds 37 x lane to the bin, so that a uint4 kernel counting one
 * byte lane twice and another never changes the counts. Long runs of one bin also make a non-atomic update
 * lose counts wherever work-items run concurrently. Bin 255 is kept for 8 single bytes spread over the input,
 * each alone in its part of it, so that a merge that skips a bin a group counted once shows. */
static void fill_exact(uint8_t *x, size_t n)
{
    const double total = HIST_BINS * (HIST_BINS + 1) / 2.0;
    size_t b = 0;
    for (size_t i = 0; i < n; i++) {
        double at = (double)i * total / (double)n;
        while (b + 1 < HIST_BINS && (double)(b + 1) * (b + 2) / 2.0 <= at)
            b++;
        x[i] = (uint8_t)((b + 37 * (i % 16)) % 255);
    }
    for (size_t k = 0; k < 8; k++)
        x[(size_t)((double)(2 * k + 1) * (double)n / 16.0)] = 255;
}

void hist_fill_pattern(uint64_t seed, int pattern, bool exact, uint8_t *x, size_t n)
{
    cg_rng rng;
    cg_rng_init(&rng, seed);
    if (pattern == PAT_RANDOM && exact)
        fill_exact(x, n);
    else if (pattern == PAT_RANDOM)
        cg_rng_fill_bytes(&rng, x, n);
    else if (pattern == PAT_ALLEQUAL)
        memset(x, (int)(cg_rng_next(&rng) & 0xFF), n);
    else
        fill_image(&rng, x, n);
}
