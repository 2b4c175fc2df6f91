/* Doubling growth for the program's arrays. */
#include "model/grow.h"
#include <stdint.h>
#include <stdlib.h>

bool cg_grow(void **items, size_t *cap, size_t n, size_t elem, size_t first)
{
    if (n < *cap) return true;
    size_t want = *cap ? 2 * *cap : first;
    if (want <= *cap || elem == 0 || want > SIZE_MAX / elem) return false;
    void *p = realloc(*items, want * elem);
    if (!p) return false;
    *items = p;
    *cap = want;
    return true;
}
