/* The one growable-array step every list in the program uses (report rows, run and peak; events). */
#ifndef CG_GROW_H
#define CG_GROW_H
#include <stdbool.h>
#include <stddef.h>

/* Makes room for one more element in the array *items of *cap elements of elem bytes holding n: doubles the
 * capacity (first when it is 0) when n == *cap. Returns false, leaving the array as it was, when the memory
 * cannot be had or the size would overflow. */
bool cg_grow(void **items, size_t *cap, size_t n, size_t elem, size_t first);

#endif
