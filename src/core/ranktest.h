/* The Mann–Whitney U test (Wilcoxon rank-sum test): do two sets of timings come from the same distribution?
 * Rank-based, so one slow run moves it no more than any other run that is slower: the right test for GPU
 * timings, whose spread is skewed and has outliers. docs/reports.md says how `compare` uses it. */
#ifndef CG_RANKTEST_H
#define CG_RANKTEST_H
#include <stdbool.h>
#include <stddef.h>

/* Up to this many samples on each side, and when no two samples tie, the p-value is exact (the U
 * distribution counted in full); else it is the normal approximation with the tie correction and a
 * continuity correction of 1/2. */
#define CG_RANKTEST_EXACT_MAX 50

/* The two-sided p-value of the Mann–Whitney U test on a[0..na-1] and b[0..nb-1]: the probability, when both
 * come from one distribution, of a U at least as far from na*nb/2 as the one observed. 1 when na or nb is 0,
 * or every sample ties. Returns false (p untouched) only when out of memory. */
bool cg_ranktest_p(const double *a, size_t na, const double *b, size_t nb, double *p);

#endif
