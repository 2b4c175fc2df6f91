/* blur's recursive filters, whose cost per pixel does not grow with sigma (blur.cl has the convolutions):
 * the Young-van Vliet recursive Gaussian (a work-item per line, with transposes between the passes, or with
 * lines cut into blocks and a carry fix-up) and Deriche's (the guide's own 4+4 taps; k, a float16 of
 * coefficients). The YvV kernels take c = (B, b1/b0, b2/b0, b3/b0); the block rungs' (Nehab et al.) are in
 * blur_blk.cl. Pixel indices are int: the host refuses 2^31 pixels.
 */

/* ---- the recursive Gaussian (Young-van Vliet): 4 MADs per pixel and pass, whatever sigma ---------------
 * One work-item filters one line of n samples `stride` apart: a causal pass into out, started at the steady
 * state of the first sample (exact for a picture extended by its edge pixel), then an anti-causal pass over
 * out in place, started where the same extension past the last sample puts it (Triggs and Sdika): the
 * steady state plus m (3x3, row-major) times the causal pass's last three deviations from it. */
void yvv_line(__global const float *in, __global float *out, int n, int stride, float4 c, float16 m)
{
    float p1 = in[0], p2 = p1, p3 = p1;
    for (int i = 0; i < n; i++) {
        float v = c.x * in[i * stride] + c.y * p1 + c.z * p2 + c.w * p3;
        out[i * stride] = v;
        p3 = p2;
        p2 = p1;
        p1 = v;
    }
    float e = in[(n - 1) * stride];
    float d0 = out[(n - 1) * stride] - e;
    float d1 = (n > 1 ? out[(n - 2) * stride] : in[0]) - e;
    float d2 = (n > 2 ? out[(n - 3) * stride] : in[0]) - e;
    p1 = e + m.s0 * d0 + m.s1 * d1 + m.s2 * d2;
    p2 = e + m.s3 * d0 + m.s4 * d1 + m.s5 * d2;
    p3 = e + m.s6 * d0 + m.s7 * d1 + m.s8 * d2;
    for (int i = n - 1; i >= 0; i--) {
        float v = c.x * out[i * stride] + c.y * p1 + c.z * p2 + c.w * p3;
        out[i * stride] = v;
        p3 = p2;
        p2 = p1;
        p1 = v;
    }
}

/* rgH: one work-item per row; neighbouring work-items are a row apart, so no load is coalesced on a GPU. */
__kernel void blur_rg_rows(__global const float *in, __global float *out, int w, int h, float4 c, float16 m)
{
    int y = get_global_id(0);
    if (y < h) yvv_line(in + y * w, out + y * w, w, 1, c, m);
}

/* rgV: one work-item per column; neighbouring work-items read neighbouring floats: coalesced. */
__kernel void blur_rg_cols(__global const float *in, __global float *out, int w, int h, float4 c, float16 m)
{
    int x = get_global_id(0);
    if (x < w) yvv_line(in + x, out + x, h, w, c, m);
}

/* The transpose of the recursive-vt rung (out, w rows of h, = in, h rows of w, transposed): a 32x32 tile,
 * local rows padded by one float, 32x8 work-groups (the transpose ladder's tile32 rung). */
__kernel void blur_transpose(__global const float *in, __global float *out, int w, int h)
{
    __local float tile[32][33];
    int lx = get_local_id(0), ly = get_local_id(1);
    int x = get_group_id(0) * 32 + lx, y0 = get_group_id(1) * 32 + ly;
    for (int j = 0; j < 32; j += 8)
        if (x < w && y0 + j < h) tile[ly + j][lx] = in[(y0 + j) * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * 32 + lx, oy0 = get_group_id(0) * 32 + ly;
    for (int j = 0; j < 32; j += 8)
        if (ox < h && oy0 + j < w) out[(oy0 + j) * h + ox] = tile[lx][ly + j];
}

/* The guide's own transpose (Listing 14-6, transposeLS): 16x16 work-groups, one element per work-item, the
 * block transposed on its write into local memory (aux[iy + ix * 16]), and the skew: block row by + bx
 * (mod the number of block rows), bx unchanged. Bounds checks added: the guide assumes multiples of 16. */
__kernel void blur_transpose_ls(__global const float *in, __global float *out, int w, int h)
{
    __local float aux[256];
    int bx = get_group_id(0), by = get_group_id(1);
    int ix = get_local_id(0), iy = get_local_id(1);
    by = (by + bx) % (int)get_num_groups(1); /* the guide's one changed line (cast: int arithmetic) */
    int x = bx * 16 + ix, y = by * 16 + iy;
    if (x < w && y < h) aux[iy + ix * 16] = in[y * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = by * 16 + ix, oy = bx * 16 + iy; /* out is w rows of h */
    if (ox < h && oy < w) out[oy * h + ox] = aux[ix + iy * 16];
}

/* ---- Deriche's recursive Gaussian (the guide's Listing 14-4: 4 feed-forward, 4 feedback taps) ------------
 * One work-item filters one line of n samples `stride` apart: the causal pass y+ into out, from the steady
 * state of the first sample, then the anti-causal pass y- from the steady state of the last, which reads the
 * input (never y+) and adds its output to out: y = y+ + y- (Deriche 1993), 5 accesses and 2 x 8 MADs per pixel.
 * k: s0..s3 the causal feed-forward taps n0..n3, s4..s7 the anti-causal ones m1..m4, s8..sb the feedback
 * d1..d4, sc and sd the steady-state outputs per unit input of the two passes. */
void dr_line(__global const float *in, __global float *out, int n, int stride, float16 k)
{
    float x = in[0];
    float i1 = x, i2 = x, i3 = x, o1 = k.sc * x, o2 = o1, o3 = o1, o4 = o1;
    for (int i = 0; i < n; i++) {
        float i0 = in[i * stride];
        float o0 = k.s0 * i0 + k.s1 * i1 + k.s2 * i2 + k.s3 * i3 - k.s8 * o1 - k.s9 * o2 - k.sa * o3 - k.sb * o4;
        out[i * stride] = o0;
        i3 = i2;
        i2 = i1;
        i1 = i0;
        o4 = o3;
        o3 = o2;
        o2 = o1;
        o1 = o0;
    }
    x = in[(n - 1) * stride];
    float i4 = x;
    i1 = i2 = i3 = x;
    o1 = o2 = o3 = o4 = k.sd * x;
    for (int i = n; i-- > 0;) {
        float o0 = k.s4 * i1 + k.s5 * i2 + k.s6 * i3 + k.s7 * i4 - k.s8 * o1 - k.s9 * o2 - k.sa * o3 - k.sb * o4;
        float i0 = in[i * stride];
        out[i * stride] += o0;
        i4 = i3;
        i3 = i2;
        i2 = i1;
        i1 = i0;
        o4 = o3;
        o3 = o2;
        o2 = o1;
        o1 = o0;
    }
}

/* dH: one work-item per row (the guide's rgH), loads a row apart. */
__kernel void blur_dr_rows(__global const float *in, __global float *out, int w, int h, float16 k)
{
    int y = get_global_id(0);
    if (y < h) dr_line(in + y * w, out + y * w, w, 1, k);
}

/* dV: one work-item per column (the guide's rgV), coalesced. */
__kernel void blur_dr_cols(__global const float *in, __global float *out, int w, int h, float16 k)
{
    int x = get_global_id(0);
    if (x < w) dr_line(in + x, out + x, h, w, k);
}
