/* Numbers for people: times and rates with their unit, shared by the terminal table, the HTML page and
 * `compare`. */
#ifndef CG_UNITS_H
#define CG_UNITS_H
#include <stddef.h>

/* v > 0 with three significant digits and no exponent: "1.23", "12.3", "123", "1234"; from 1e7 on with an
 * exponent ("1.23e+07"), so that no value (1e308 from a damaged file) makes a cell wider than 9 characters.
 */
void cg_fmt3(char *buf, size_t n, double v);
/* Seconds in the unit that puts the value in [1, 1000), three significant digits: "512 ns", "1.23 ms". */
void cg_fmt_time(char *buf, size_t n, double seconds);
/* v with `decimals` decimals ("12.3"), or three significant digits with an exponent where that would be
 * longer than 10 characters: bounded width for percentages and ratios. */
void cg_fmt_fixed(char *buf, size_t n, double v, int decimals);
/* A rate with an SI prefix: cg_fmt_rate(.., 1.2e9, "B") gives "1.20 GB/s". "-" when not finite or <= 0. */
void cg_fmt_rate(char *buf, size_t n, double per_second, const char *unit);

#endif
