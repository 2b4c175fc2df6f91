/* The convolution's CPU reference: the same "valid" 2D filter as the kernels, in float, split over threads.
 */
#ifndef CG_CONVOLUTION_REF_H
#define CG_CONVOLUTION_REF_H
#include <stddef.h>

typedef struct conv_ref_in {
    const float *in; /* (h + fh - 1) rows of ip floats */
    size_t ip;       /* input pitch in floats */
    const float *f;  /* fh rows of fw floats */
    int fw, fh;
    size_t w, h; /* output size; out has w floats per row */
} conv_ref_in;

/* out[y][x] = sum over j < fh, i < fw of in[y + j][x + i] * f[j][i], rows split over up to one thread per
 * online CPU (at most 64). Accumulates in float, tap by tap, over whole output rows (vectorizable). Rows
 * whose thread cannot be started are done by the caller's thread. */
void conv_reference(const conv_ref_in *a, float *out);

#endif
