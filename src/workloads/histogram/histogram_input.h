/* The histogram workload's inputs (histogram_input.c). */
#ifndef CG_HISTOGRAM_INPUT_H
#define CG_HISTOGRAM_INPUT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HIST_BINS    256
#define HIST_IMAGE_W 4096 /* the image pattern's row length in pixels */

enum { PAT_RANDOM, PAT_ALLEQUAL, PAT_IMAGE, PAT_COUNT }; /* --pattern */

/* n bytes of pattern (PAT_*) from seed: random bytes, or with exact --check exact's runs of ascending bins
 * (every bin its own count); one seeded byte repeated; or the image pattern (diagonal bands plus noise). */
void hist_fill_pattern(uint64_t seed, int pattern, bool exact, uint8_t *x, size_t n);

#endif
