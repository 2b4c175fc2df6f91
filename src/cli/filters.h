/* The --filter argument of `run`: one filter size ("32": 32x32, "5x3": 5 wide, 3 high) or a comma-separated
 * list of them ("3,5,9,17,32"), a sweep that runs the ladder once per size; an item "A-B" is every square
 * size from A to B ("2-32": 2x2, 3x3, ..., 32x32, the seed's sawtooth plot). */
#ifndef CG_CLI_FILTERS_H
#define CG_CLI_FILTERS_H
#include <stdbool.h>
#include <stddef.h>

#define CG_FILTERS_MAX    32   /* sizes in one sweep: "1-32" fits */
#define CG_FILTER_DIM_MAX 1024 /* a bound on each side against absurd values; the workload checks its own */
#define CG_VARIANT_LEN    24   /* fits "1024x1024" and the result row's variant field */

typedef struct cg_filter_size {
    int w, h;
} cg_filter_size;

/* Parses s into out[0..n), in the order given, and returns n (1 to CG_FILTERS_MAX). Each item is N (NxN) or
 * WxH with W and H decimal integers from 1 to CG_FILTER_DIM_MAX, nothing else (no sign, no blank, no suffix),
 * or A-B with A < B, for the square sizes A to B. On an empty list or item, a malformed item ("x5", "3x",
 * "3x4x5", "abc", "-3", "5-", "5-3", "3x3-5"), a side of 0 or above the bound, more than CG_FILTERS_MAX sizes
 * or a size given twice ("5" and "5x5", "5" and "2-9") returns 0 with one line in err:
 * the problem, naming the item, and its fix ("'3x' lacks a height: use N or WxH, e.g. 32 or 5x3,
 * comma-separated"). */
size_t cg_filters_parse(const char *s, cg_filter_size *out, char *err, size_t errlen);
/* cg_filters_parse with the bound max (a workload's largest side; outside 1..CG_FILTER_DIM_MAX: that bound),
 * so that a refused side names the real limit ("'0' has a side outside 1 to 32"). */
size_t cg_filters_parse_max(const char *s, int max, cg_filter_size *out, char *err, size_t errlen);

/* The variant label of a size, always "WxH" ("32x32"), into buf (CG_VARIANT_LEN fits any size). */
void cg_filter_label(const cg_filter_size *f, char *buf, size_t len);

#endif
