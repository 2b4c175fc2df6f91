/* Rows of a report in key order, so that `report` and `compare` find a row's match, rank or group in
 * O(log n) instead of scanning every row (a run of 100,000 rows takes seconds, not minutes). */
#ifndef CG_ROWSORT_H
#define CG_ROWSORT_H
#include <stddef.h>
#include "model/result.h"

/* An order on rows: < 0, 0 or > 0 like strcmp. */
typedef int (*cg_row_cmp)(const cg_result *a, const cg_result *b);

/* The row indices 0..r->n-1 sorted stably by cmp (rows equal under cmp keep their order, so the first of
 * them is the lowest index): a malloc'd array of r->n entries (free it), NULL when out of memory. */
size_t *cg_rows_sort(const cg_report *r, cg_row_cmp cmp);
/* The first position p of sorted (cg_rows_sort by an order that begins with cmp's) whose row is not below
 * key under cmp; r->n when every row is below. */
size_t cg_rows_lower(const cg_report *r, const size_t *sorted, cg_row_cmp cmp, const cg_result *key);
/* The row equal to key under cmp with the lowest index (as cg_rows_lower), or NULL. */
const cg_result *cg_rows_find(const cg_report *r, const size_t *sorted, cg_row_cmp cmp, const cg_result *key);
/* Orders by group: workload, then variant (equal when cg_result_same_group). */
int cg_row_cmp_group(const cg_result *a, const cg_result *b);

#endif
