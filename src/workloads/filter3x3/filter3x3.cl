/* filter3x3: the 3x3 Gaussian [1 2 1; 2 4 2; 1 2 1] / 16 with clamp-to-edge borders, one kernel per rung.
 * u8 kernels round as (sum + 8) >> 4, which is exact against the CPU reference; float kernels give sum / 16.
 * Every kernel takes (input, output, width, height); the host launches TX x TY work-groups over a global
 * range rounded up to them, so every kernel checks its bounds. Build options: TX, TY (work-group and local
 * tile shape), PX (output pixels per work-item of the vec kernels: 4, 8 or 16; the vec kernels exist only
 * then) and ROW_ALIGNED (rows start on PX-element boundaries). Pixel indices are int: the host refuses
 * pictures of 2^31 pixels or more. */

#ifndef TX
#define TX 32
#endif
#ifndef TY
#define TY 8
#endif
#ifndef PX
#define PX 1
#endif

/* ---- per pixel, from buffers: every tap clamped with min/max ---------------------------------------- */

/* The unnormalised weighted sum around (x, y) of a uchar picture. */
int sum_u8(__global const uchar *in, int x, int y, int w, int h)
{
    int xl = max(x - 1, 0), xr = min(x + 1, w - 1);
    __global const uchar *t = in + max(y - 1, 0) * w;
    __global const uchar *m = in + y * w;
    __global const uchar *b = in + min(y + 1, h - 1) * w;
    return t[xl] + 2 * t[x] + t[xr] + 2 * m[xl] + 4 * m[x] + 2 * m[xr] + b[xl] + 2 * b[x] + b[xr];
}

float sum_f32(__global const float *in, int x, int y, int w, int h)
{
    int xl = max(x - 1, 0), xr = min(x + 1, w - 1);
    __global const float *t = in + max(y - 1, 0) * w;
    __global const float *m = in + y * w;
    __global const float *b = in + min(y + 1, h - 1) * w;
    return t[xl] + 2.0f * t[x] + t[xr] + 2.0f * m[xl] + 4.0f * m[x] + 2.0f * m[xr] + b[xl] + 2.0f * b[x] +
           b[xr];
}

__kernel void f3_u8_buf_div(__global const uchar *in, __global uchar *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h)
        out[y * w + x] = (uchar)((sum_u8(in, x, y, w, h) + 8) / 16);
}

__kernel void f3_u8_buf_shift(__global const uchar *in, __global uchar *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h)
        out[y * w + x] = (uchar)((sum_u8(in, x, y, w, h) + 8) >> 4);
}

__kernel void f3_f32_buf(__global const float *in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h)
        out[y * w + x] = sum_f32(in, x, y, w, h) / 16.0f;
}

__kernel void f3_f32_buf_native(__global const float *in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h)
        out[y * w + x] = native_divide(sum_f32(in, x, y, w, h), 16.0f);
}

__kernel void f3_f32_buf_mul(__global const float *in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h)
        out[y * w + x] = sum_f32(in, x, y, w, h) * 0.0625f;
}

/* ---- per pixel, from images: the sampler clamps --------------------------------------------------- */

#ifdef __IMAGE_SUPPORT__
__constant sampler_t clamp_nearest =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

#define TAP_U(dx, dy) read_imageui(in, clamp_nearest, (int2)(x + (dx), y + (dy))).x
#define TAP_F(dx, dy) read_imagef(in, clamp_nearest, (int2)(x + (dx), y + (dy))).x

__kernel void f3_u8_img(__read_only image2d_t in, __global uchar *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    uint s = TAP_U(-1, -1) + 2 * TAP_U(0, -1) + TAP_U(1, -1) + 2 * TAP_U(-1, 0) + 4 * TAP_U(0, 0) +
             2 * TAP_U(1, 0) + TAP_U(-1, 1) + 2 * TAP_U(0, 1) + TAP_U(1, 1);
    out[y * w + x] = (uchar)((s + 8) >> 4);
}

__kernel void f3_f32_img(__read_only image2d_t in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    float s = TAP_F(-1, -1) + 2.0f * TAP_F(0, -1) + TAP_F(1, -1) + 2.0f * TAP_F(-1, 0) + 4.0f * TAP_F(0, 0) +
              2.0f * TAP_F(1, 0) + TAP_F(-1, 1) + 2.0f * TAP_F(0, 1) + TAP_F(1, 1);
    out[y * w + x] = native_divide(s, 16.0f);
}

/* The seed's (003) earlier image kernels: a whole uint4/float4 pixel accumulated by nine statements from the
 * upper-left tap, as its first image kernel did, then one change per kernel: one division instead of four, a
 * shift (u8) or native_divide (float), and, after f3_u8_img / f3_f32_img (one expression), the centre tap
 * fetched first. */
#define RD_U(dx, dy) read_imageui(in, clamp_nearest, (int2)(x + (dx), y + (dy)))
#define RD_F(dx, dy) read_imagef(in, clamp_nearest, (int2)(x + (dx), y + (dy)))
#define ACC9(T, l, RD, two, four)                                                                            \
    T l = RD(-1, -1);                                                                                        \
    l = l + (two)*RD(0, -1);                                                                                 \
    l = l + RD(1, -1);                                                                                       \
    l = l + (two)*RD(-1, 0);                                                                                 \
    l = l + (four)*RD(0, 0);                                                                                 \
    l = l + (two)*RD(1, 0);                                                                                  \
    l = l + RD(-1, 1);                                                                                       \
    l = l + (two)*RD(0, 1);                                                                                  \
    l = l + RD(1, 1)

/* Four divisions, one per component, as the seed's write_imageui consumed them. The other three components
 * are folded in so that a compiler cannot drop their divisions: each is at most 255 (an 8-bit format's
 * channel, or the 0 or 1 of a missing one; PoCL gives its own alpha), so their sum shifted right by 12 is 0. */
__kernel void f3_u8_img_div4(__read_only image2d_t in, __global uchar *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    ACC9(uint4, l, RD_U, 2, 4);
    uint4 o = (l + 8) / 16;
    out[y * w + x] = (uchar)(o.x | ((o.y + o.z + o.w) >> 12));
}

__kernel void f3_u8_img_div1(__read_only image2d_t in, __global uchar *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    ACC9(uint4, l, RD_U, 2, 4);
    out[y * w + x] = (uchar)((l.x + 8) / 16);
}

__kernel void f3_u8_img_shift(__read_only image2d_t in, __global uchar *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    ACC9(uint4, l, RD_U, 2, 4);
    out[y * w + x] = (uchar)((l.x + 8) >> 4);
}

__kernel void f3_u8_img_centre(__read_only image2d_t in, __global uchar *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    uint c = 4 * TAP_U(0, 0) + 2 * TAP_U(-1, 0) + 2 * TAP_U(1, 0) + 2 * TAP_U(0, -1) + 2 * TAP_U(0, 1) +
             TAP_U(-1, -1) + TAP_U(1, -1) + TAP_U(-1, 1) + TAP_U(1, 1);
    out[y * w + x] = (uchar)((c + 8) >> 4);
}

/* The other three components are folded in as 0 * their sum (finite on any device): IEEE rules forbid a
 * compiler to drop it, so the four divisions stay (see f3_u8_img_div4). */
__kernel void f3_f32_img_div4(__read_only image2d_t in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    ACC9(float4, l, RD_F, 2.0f, 4.0f);
    float4 o = l / 16.0f;
    out[y * w + x] = o.x + 0.0f * (o.y + o.z + o.w);
}

__kernel void f3_f32_img_div1(__read_only image2d_t in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    ACC9(float4, l, RD_F, 2.0f, 4.0f);
    out[y * w + x] = l.x / 16.0f;
}

__kernel void f3_f32_img_native(__read_only image2d_t in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    ACC9(float4, l, RD_F, 2.0f, 4.0f);
    out[y * w + x] = native_divide(l.x, 16.0f);
}

__kernel void f3_f32_img_centre(__read_only image2d_t in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    float c = 4.0f * TAP_F(0, 0) + 2.0f * TAP_F(-1, 0) + 2.0f * TAP_F(1, 0) + 2.0f * TAP_F(0, -1) +
              2.0f * TAP_F(0, 1) + TAP_F(-1, -1) + TAP_F(1, -1) + TAP_F(-1, 1) + TAP_F(1, 1);
    out[y * w + x] = native_divide(c, 16.0f);
}
#endif

/* ---- local-memory tile: a TX x TY output tile plus a 1-pixel halo, each input read once per group ---- */

/* Fills tile[(TY+2)*(TX+2)] with the group's clamped input window; the whole group loops over it. */
#define LOAD_TILE(tile, in, w, h)                                                                            \
    do {                                                                                                     \
        int bx_ = (int)get_group_id(0) * TX - 1, by_ = (int)get_group_id(1) * TY - 1;                        \
        for (int i = (int)(get_local_id(1) * TX + get_local_id(0)); i < (TX + 2) * (TY + 2); i += TX * TY) { \
            int ty_ = i / (TX + 2), tx_ = i - ty_ * (TX + 2);                                                \
            (tile)[i] = (in)[clamp(by_ + ty_, 0, (h)-1) * (w) + clamp(bx_ + tx_, 0, (w)-1)];                 \
        }                                                                                                    \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                        \
    } while (0)

/* The weighted sum around local (lx+1, ly+1) of a tile with row length TX + 2; TT(r, c) is the tap r rows
 * and c columns from the window's top left. */
#define TT(t, lx, ly, r, c) (t)[((ly) + (r)) * (TX + 2) + (lx) + (c)]
#define TILE_SUM(t, lx, ly, two, four)                                                                       \
    (TT(t, lx, ly, 0, 0) + (two)*TT(t, lx, ly, 0, 1) + TT(t, lx, ly, 0, 2) + (two)*TT(t, lx, ly, 1, 0) +     \
     (four)*TT(t, lx, ly, 1, 1) + (two)*TT(t, lx, ly, 1, 2) + TT(t, lx, ly, 2, 0) +                          \
     (two)*TT(t, lx, ly, 2, 1) + TT(t, lx, ly, 2, 2))

__kernel __attribute__((reqd_work_group_size(TX, TY, 1))) void
f3_u8_local(__global const uchar *in, __global uchar *out, int w, int h)
{
    __local uchar tile[(TX + 2) * (TY + 2)];
    LOAD_TILE(tile, in, w, h);
    int lx = get_local_id(0), ly = get_local_id(1);
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h)
        out[y * w + x] = (uchar)((TILE_SUM(tile, lx, ly, 2, 4) + 8) >> 4);
}

__kernel __attribute__((reqd_work_group_size(TX, TY, 1))) void
f3_f32_local(__global const float *in, __global float *out, int w, int h)
{
    __local float tile[(TX + 2) * (TY + 2)];
    LOAD_TILE(tile, in, w, h);
    int lx = get_local_id(0), ly = get_local_id(1);
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h)
        out[y * w + x] = native_divide(TILE_SUM(tile, lx, ly, 2.0f, 4.0f), 16.0f);
}

/* ---- vec: PX consecutive outputs per work-item ---------------------------------------------------------
 * Interior items load three PX-wide rows as vectors (aligned pointer casts when the host says every row
 * starts on a PX-element boundary, -DROW_ALIGNED=1; vloadn otherwise) plus one scalar left and right of
 * each, sum vertically first (PX + 2 columns), then horizontally by shifting the column sums one lane, and
 * store PX outputs at once. Items touching a border or the ragged right end take the clamped per-pixel
 * path. */
#if PX == 4 || PX == 8 || PX == 16
#ifndef ROW_ALIGNED
#define ROW_ALIGNED 0
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
typedef CAT(uchar, PX) ucharv;
typedef CAT(ushort, PX) ushortv;
typedef CAT(float, PX) floatv;
#define VLOAD CAT(vload, PX)
#define VSTORE CAT(vstore, PX)
#define TO_USHORT CAT(convert_ushort, PX)
#define TO_UCHAR CAT(convert_uchar, PX)
/* (l, v0 .. v[PX-2]) and (v1 .. v[PX-1], r): v shifted one lane, with a new first or last lane. */
#if PX == 4
#define SHIFT_IN_L(T, l, v) ((T)((l), (v).s012))
#define SHIFT_IN_R(T, v, r) ((T)((v).s123, (r)))
#elif PX == 8
#define SHIFT_IN_L(T, l, v) ((T)((l), (v).s0123, (v).s456))
#define SHIFT_IN_R(T, v, r) ((T)((v).s123, (v).s4567, (r)))
#else
#define SHIFT_IN_L(T, l, v) ((T)((l), (v).s0123, (v).s4567, (v).s89ab, (v).scde))
#define SHIFT_IN_R(T, v, r) ((T)((v).s123, (v).s4567, (v).s89ab, (v).scdef, (r)))
#endif
/* Aligned rows: u8 vectors travel as 32-bit words (uint, uint2, uint4), since some compilers (NVIDIA's) split
 * a ucharN load into 4-byte pieces but load a uint4 with one 16-byte instruction. */
#if PX == 4
typedef uint wordv;
#define AS_WORDV as_uint
#elif PX == 8
typedef uint2 wordv;
#define AS_WORDV as_uint2
#else
typedef uint4 wordv;
#define AS_WORDV as_uint4
#endif
#if ROW_ALIGNED
#define LOAD_U8V(p) CAT(as_uchar, PX)(*(__global const wordv *)(p))
#define STORE_U8V(x, p) (*(__global wordv *)(p) = AS_WORDV(x))
#define LOAD_F32V(p) (*(__global const floatv *)(p))
#define STORE_F32V(x, p) (*(__global floatv *)(p) = (x))
#else
#define LOAD_U8V(p) VLOAD(0, p)
#define STORE_U8V(x, p) VSTORE(x, 0, p)
#define LOAD_F32V(p) VLOAD(0, p)
#define STORE_F32V(x, p) VSTORE(x, 0, p)
#endif

__kernel void f3_u8_vec(__global const uchar *in, __global uchar *out, int w, int h)
{
    int x0 = get_global_id(0) * PX, y = get_global_id(1);
    if (x0 >= w || y >= h)
        return;
    if (x0 == 0 || x0 + PX >= w || y == 0 || y == h - 1) {
        for (int i = 0; i < PX && x0 + i < w; i++)
            out[y * w + x0 + i] = (uchar)((sum_u8(in, x0 + i, y, w, h) + 8) >> 4);
        return;
    }
    __global const uchar *m = in + y * w + x0;
    ushortv v =
        TO_USHORT(LOAD_U8V(m - w)) + (TO_USHORT(LOAD_U8V(m)) << (ushort)1) + TO_USHORT(LOAD_U8V(m + w));
    ushort vl = (ushort)(m[-w - 1] + 2 * m[-1] + m[w - 1]);
    ushort vr = (ushort)(m[-w + PX] + 2 * m[PX] + m[w + PX]);
    ushortv s = SHIFT_IN_L(ushortv, vl, v) + (v << (ushort)1) + SHIFT_IN_R(ushortv, v, vr);
    STORE_U8V(TO_UCHAR((s + (ushort)8) >> (ushort)4), out + y * w + x0);
}

__kernel void f3_f32_vec(__global const float *in, __global float *out, int w, int h)
{
    int x0 = get_global_id(0) * PX, y = get_global_id(1);
    if (x0 >= w || y >= h)
        return;
    if (x0 == 0 || x0 + PX >= w || y == 0 || y == h - 1) {
        for (int i = 0; i < PX && x0 + i < w; i++)
            out[y * w + x0 + i] = native_divide(sum_f32(in, x0 + i, y, w, h), 16.0f);
        return;
    }
    __global const float *m = in + y * w + x0;
    floatv v = LOAD_F32V(m - w) + 2.0f * LOAD_F32V(m) + LOAD_F32V(m + w);
    float vl = m[-w - 1] + 2.0f * m[-1] + m[w - 1];
    float vr = m[-w + PX] + 2.0f * m[PX] + m[w + PX];
    floatv s = SHIFT_IN_L(floatv, vl, v) + 2.0f * v + SHIFT_IN_R(floatv, v, vr);
    STORE_F32V(native_divide(s, (floatv)16.0f), out + y * w + x0);
}
#endif
