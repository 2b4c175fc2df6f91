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
    double tolerance;      /* the tolerance used (0 for exact) */
    long long first_index; /* first mismatching element, -1 if none */
    double first_got, first_want;
    char detail[160]; /* one line: "" when ok, else e.g. "element 17 (x=17, y=0): got 3.5, want 3.25" */
} cg_check;

/* Floats: an element passes when |got-want| <= abs_tol + rel_tol*|want|; NaN/Inf in got fails. */
void cg_check_float(cg_check *c, const float *got, const float *want, size_t n, double abs_tol,
                    double rel_tol);
/* Bytes and unsigned ints: exact. */
void cg_check_u8(cg_check *c, const uint8_t *got, const uint8_t *want, size_t n);
void cg_check_u32(cg_check *c, const uint32_t *got, const uint32_t *want, size_t n);
/* A single scalar (a reduction's sum) against a tolerance given in absolute terms. */
void cg_check_scalar(cg_check *c, double got, double want, double abs_tol);
/* Adds "(x=.., y=..)" to the detail line for 2D data of the given width (call after a failed check). */
void cg_check_locate_2d(cg_check *c, size_t width);

#endif
