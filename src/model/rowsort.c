/* A bottom-up merge sort of row indices (stable, O(n log n), with the comparison as a plain function of two
 * rows) and a binary search over its result. */
#include "model/rowsort.h"

#include <stdlib.h>
#include <string.h>

/* Merges the sorted runs src[lo..mid) and src[mid..hi) into dst[lo..hi), the left run first on ties. */
static void merge(const cg_report *r, cg_row_cmp cmp, const size_t *src, size_t *dst, size_t lo, size_t mid,
                  size_t hi)
{
    size_t i = lo, j = mid, o = lo;
    while (i < mid && j < hi)
        dst[o++] = cmp(&r->rows[src[j]], &r->rows[src[i]]) < 0 ? src[j++] : src[i++];
    while (i < mid)
        dst[o++] = src[i++];
    while (j < hi)
        dst[o++] = src[j++];
}

size_t *cg_rows_sort(const cg_report *r, cg_row_cmp cmp)
{
    size_t n = r->n, *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        a[i] = i;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = mid + width < n ? mid + width : n;
            merge(r, cmp, a, b, lo, mid, hi);
        }
        size_t *t = a;
        a = b;
        b = t;
    }
    free(b);
    return a;
}

size_t cg_rows_lower(const cg_report *r, const size_t *sorted, cg_row_cmp cmp, const cg_result *key)
{
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp(&r->rows[sorted[mid]], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const cg_result *cg_rows_find(const cg_report *r, const size_t *sorted, cg_row_cmp cmp, const cg_result *key)
{
    size_t p = cg_rows_lower(r, sorted, cmp, key);
    return p < r->n && cmp(&r->rows[sorted[p]], key) == 0 ? &r->rows[sorted[p]] : NULL;
}

int cg_row_cmp_group(const cg_result *a, const cg_result *b)
{
    int c = strcmp(a->workload, b->workload);
    return c ? c : strcmp(a->variant, b->variant);
}
