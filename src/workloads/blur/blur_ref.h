/* The blur ladder's arithmetic on the host: the sampled Gaussian's weights, the Young-van Vliet recursive
 * coefficients, and the CPU references (in double, clamp-to-edge borders) every rung is checked against. */
#ifndef CG_BLUR_REF_H
#define CG_BLUR_REF_H
#include <stddef.h>

/* Radius of the sampled Gaussian: ceil(3 sigma) (sigma 5: 15, so 2 * 15 + 1 = 31 taps). */
int blur_radius(double sigma);
/* The 2r+1 weights exp(-i^2 / (2 sigma^2)), i = -r..r, normalised to sum 1, as floats. */
void blur_weights(double sigma, int r, float *g);
/* --check exact's weights: 1 + (5k + 2) % 4 (1 to 4, no symmetry: a mirrored filter differs) over the
 * power of two at or above their sum. With pixels 0..15 every partial sum of a 2D filter up to radius 96 is
 * an integer below 2^24 over a power of two: exact in float in any order. */
void blur_exact_weights(int r, float *g);
/* Young and van Vliet (1995) coefficients for sigma >= 0.5: c[0] = B, c[1..3] = b1/b0, b2/b0, b3/b0, with
 * B + c1 + c2 + c3 = 1 (a constant input stays constant). */
void blur_yvv_coeffs(double sigma, float c[4]);
/* The start of the anti-causal pass for a line extended past its last sample x by x itself (Triggs and
 * Sdika, 2006): with u the causal pass and d = (u[n-1] - x, u[n-2] - x, u[n-3] - x), the anti-causal values
 * just past the end are v[n + j] = x + sum over k of m[3 j + k] d[k]. m follows from c by linearity: each
 * column is what a unit deviation of the causal state becomes after the causal pass runs on over the
 * (constant) extension and the anti-causal pass runs back over it, computed in double over 20000 samples
 * (far past where the filter's response has decayed, for every sigma it accepts). */
void blur_yvv_boundary(const float c[4], float m[9]);
/* Deriche's 4th-order recursive Gaussian (R. Deriche, "Recursively implementing the Gaussian and its
 * derivatives", INRIA RR-1893, 1993): h(x) = (a0 cos(w0 x/s) + a1 sin(w0 x/s)) e^(-b0 x/s) + (c0 cos(w1 x/s)
 * + c1 sin(w1 x/s)) e^(-b1 x/s) for x >= 0, mirrored for x < 0, with a0 1.68, a1 3.735, b0 1.783, b1 1.723,
 * w0 0.6318, w1 1.997, c0 -0.6803, c1 -0.2598, as the sum of a causal filter (h at n >= 0) and an anti-causal
 * one (h at n <= -1), each 4 feed-forward and 4 feedback taps: y+[n] = n0 x[n] + .. + n3 x[n-3] - d1 y+[n-1]
 * - ..
 * - d4 y+[n-4]; y-[n] = m1 x[n+1] + .. + m4 x[n+4] - d1 y-[n+1] - .. - d4 y-[n+4]; y = y+ + y-. k[0..3] =
 * n0..n3, k[4..7] = m1..m4, k[8..11] = d1..d4 (floats, the numerators scaled so that the DC gain of the float
 * filter is 1 up to their rounding), k[12], k[13] = the steady-state outputs of the causal and anti-causal
 * filters per unit of a constant input, sum n / (1 + sum d) and sum m / (1 + sum d), from the float
 * coefficients; k[14], k[15] = 0. */
void blur_deriche_coeffs(double sigma, float k[16]);
/* The same recursion in double from the float coefficients k, along rows (dir 0) or columns (dir 1): the
 * causal pass started at the steady state of the first sample (inputs x[-1..-3] and outputs y+[-1..-4] as for
 * a line extended by that sample forever), the anti-causal pass at the steady state of the last; its output
 * added to the causal one. Exactly the filter h applied to the line extended by its edge samples
 * (clamp-to-edge), since each part reads the input on one side only. in and out are w x h, distinct. */
void blur_ref_deriche(const double *in, double *out, size_t w, size_t h, const float k[16], int dir);
/* blur_bound_dr.c: the largest |float kernel - double reference| of the Deriche filter along one direction
 * for inputs within [-x, x] that carry errors up to ein already: every rounding of an 8-term dot product
 * bounded by gamma_8 (any order, FMA or not), carried to the outputs by the l1 norm of the feedback's impulse
 * response, the starts' roundings by the homogeneous response, the final sum's rounding, and ein by the l1
 * norm of the whole filter. Independent of the line's length. *out_sup gets the bound on |output|. INFINITY
 * when the feedback amplifies its own roundings too much for a bound. */
double blur_deriche_bound(const float k[16], double x, double ein, double *out_sup);

/* One pass of the sampled Gaussian along rows (dir 0) or columns (dir 1): out = in convolved with the 2r+1
 * weights g, taps clamped to the picture. in and out are w x h, distinct. */
void blur_ref_conv(const double *in, double *out, size_t w, size_t h, const float *g, int r, int dir);
/* The recursive Gaussian along rows (dir 0) or columns (dir 1): a causal pass started at the steady state of
 * the first sample, then an anti-causal pass started by m (blur_yvv_boundary) at the last. */
void blur_ref_yvv(const double *in, double *out, size_t w, size_t h, const float c[4], const float m[9],
                  int dir);

/* blur_bound.c: the largest |float kernel - double reference| of the recursive filter over lines of n
 * samples along one direction, for inputs within [-x, x] that carry errors up to ein already (0 for the
 * first direction): every rounding of the kernel bounded by gamma_4 (a 4-term dot product in any order, FMA
 * or not), times how far it travels to an output (the infinity norms of the line filter's responses,
 * computed in double on the host). *out_sup gets the bound on |output| (the next direction's x). INFINITY
 * when no bound can be given (out of memory). */
double blur_yvv_bound(const float c[4], const float m[9], size_t n, double x, double ein, double *out_sup);
/* Sum of |h| for the feedback's impulse response h (h0 = 1, h_k = c1 h_{k-1} + c2 h_{k-2} + c3 h_{k-3}),
 * c[1..3] as in blur_yvv_coeffs: how far one error of the causal recursion can grow. */
double blur_yvv_feedback_l1(const double c[4]);

/* blur_bound_blk.c: the block rungs' carry maps for a block of L >= 1 samples (Nehab et al. 2011), in double
 * from the float coefficients c. M (3x3, row-major) takes the recursion's state (newest value first) across
 * L samples of zero input; F takes the causal state entering a block to the anti-causal state leaving its
 * top, after the causal pass over the block's zero input and the anti-causal pass over that from zero. */
void blur_yvv_block_maps(const float c[4], int L, double M[9], double F[9]);
/* blur_yvv_bound for the block rungs (lines of n samples cut into blocks of blk): every rounding of the three
 * passes bounded as in blur_yvv_bound (the carries' 3x3 products and the float rounding of M and F
 * included), times how far it travels, measured by running the block algorithm itself in double. */
double blur_yvv_block_bound(const float c[4], const float m[9], size_t n, size_t blk, double x, double ein,
                            double *out_sup);

#endif
