/* Comparison of device output with the CPU reference: exact for integers, a tolerance for floats; records the
 * max error and the first mismatch so that a FAILED row says where and by how much. */
#ifndef CG_CHECK_H
#define CG_CHECK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cg_check {
    bool ok;
    size_t checked;        /* elements compared */
    size_t mismatches;     /* elements outside tolerance (or unequal, for integers) */
    double max_abs_err;    /* largest |got - want| over all elements (NaN in got counts as infinite) */
    double max_rel_err;    /* largest |got - want| / max(|want|, tiny) */
    double tolerance;      /* the tolerance used (0 for exact); for a bound check, the largest bound */
    double bound_ratio;    /* largest |got - want| / bound over all elements: <= 1 passes (0 for exact) */
    long long first_index; /* first mismatching element, -1 if none */
    double first_got, first_want;
    char detail[160]; /* one line: "" when ok, else e.g. "element 17 (x=17, y=0): got 3.5, want 3.25" */
} cg_check;

/* Floats: an element passes when |got-want| <= abs_tol + rel_tol*|want|; NaN/Inf in got fails. */
void cg_check_float(cg_check *c, const float *got, const float *want, size_t n, double abs_tol,
                    double rel_tol);
/* The unit roundoff of float (2^-24) and gamma_k = k u / (1 - k u), the bound on the relative error of a
 * k-term float sum or dot product in any order, FMA or not (Higham, "Accuracy and Stability of Numerical
 * Algorithms", 2nd ed., section 3.1): |fl(sum) - sum| <= gamma_k * sum|terms|. */
#define CG_FLOAT_U 0x1p-24
double cg_gamma(double k);

/* Error-bound check: element i passes when |got[i] - want[i]| <= scale * absum[i] + floor, where absum[i]
 * is the sum of |terms| that make output i (sum |w_j x_j| for a filter, sum |x_j| for a sum) and scale is
 * typically 2 gamma_k (device sum and float reference each within gamma_k of the exact value) or gamma_k + a
 * double reference's negligible error. absum NULL means |want[i]|. floor covers rounding a result that is
 * exactly 0. NaN/Inf in got fails. Records bound_ratio (worst error / bound) for the report. */
void cg_check_bound(cg_check *c, const float *got, const float *want, const float *absum, size_t n,
                    double scale, double floor);

/* Bytes and unsigned ints: exact. */
void cg_check_u8(cg_check *c, const uint8_t *got, const uint8_t *want, size_t n);
void cg_check_u32(cg_check *c, const uint32_t *got, const uint32_t *want, size_t n);
/* A single scalar (a reduction's sum) against a tolerance given in absolute terms (its error bound: records
 * bound_ratio = |got - want| / abs_tol when abs_tol > 0; abs_tol 0 is an exact check). */
void cg_check_scalar(cg_check *c, double got, double want, double abs_tol);
/* Adds "(x=.., y=..)" to the detail line for 2D data of the given width (call after a failed check). */
void cg_check_locate_2d(cg_check *c, size_t width);

#endif
