/* transpose: out (w rows of h floats) is the transpose of in (h rows of w floats): out[x * h + y] =
 * in[y * w + x]. Every kernel takes (input, output, w, h) and checks its bounds, so any size
 * works. Build options of the tiled kernels:
 *   TILE   the square tile side (16, 32, 64): one work-group moves one TILE x TILE block;
 *   ROWS   the work-group height: each work-item moves TILE / ROWS rows of the tile (or of float4s);
 *   PAD    1 pads each local row by one float, so that a column of the tile spans every bank;
 *   DIAG   1 renumbers the work-groups diagonally, so that groups running together touch different
 *          memory partitions (the AMD/Apple "diagonal block reordering");
 *   ALIGN4 1 when w and h are multiples of 4 (float4 rows start on 16-byte boundaries).
 * Indices are int: the host refuses 2^31 elements or more. */

#ifndef TILE
#define TILE 16
#endif
#ifndef ROWS
#define ROWS TILE
#endif
#ifndef PAD
#define PAD 0
#endif
#ifndef DIAG
#define DIAG 0
#endif
#ifndef ALIGN4
#define ALIGN4 0
#endif

/* One work-item per element: reads along rows are coalesced, writes stride by h floats. */
__kernel void tr_naive(__global const float *in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h) out[x * h + y] = in[y * w + x];
}

/* The block (bx, by) this group moves: the launch order, or a diagonal renumbering of it. The diagonal map
 * is a bijection for any grid: the linear launch index is re-read column-major and skewed by one block per
 * column, so consecutive groups fall on a diagonal (for a square grid: by = bx, bx = (bx + by) % groups). */
void block_of(int *bx, int *by)
{
    int gx = get_num_groups(0);
    *bx = get_group_id(0);
    *by = get_group_id(1);
#ifndef SKEW
#define SKEW 0
#endif
#ifndef TW
#define TW 0
#endif
#if DIAG
    int gy = get_num_groups(1);
    int lin = *bx + gx * *by;
    *by = lin % gy;
    *bx = (lin / gy + *by) % gx;
#elif SKEW
    *by = (*by + *bx) % get_num_groups(1); /* the seed's one line: a bijection of by for each bx */
#endif
}

/* A TILE x TILE block through local memory: coalesced reads along input rows, coalesced writes along output
 * rows; the work-group is TILE x ROWS, each work-item moves TILE / ROWS elements. */
__kernel void tr_tile(__global const float *in, __global float *out, int w, int h)
{
    __local float tile[TILE][TILE + PAD];
    int bx, by;
    block_of(&bx, &by);
    int lx = get_local_id(0), ly = get_local_id(1);
    int x = bx * TILE + lx, y0 = by * TILE + ly;
#if TW /* the seed's: transposed on the write into local memory, read out by rows */
    for (int i = 0; i < TILE; i += ROWS)
        if (x < w && y0 + i < h) tile[lx][ly + i] = in[(y0 + i) * w + x];
#else
    for (int j = 0; j < TILE; j += ROWS)
        if (x < w && y0 + j < h) tile[ly + j][lx] = in[(y0 + j) * w + x];
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = by * TILE + lx, oy0 = bx * TILE + ly; /* output column = input row, and the reverse */
#if TW
    for (int i = 0; i < TILE; i += ROWS)
        if (ox < h && oy0 + i < w) out[(oy0 + i) * h + ox] = tile[ly + i][lx];
#else
    for (int j = 0; j < TILE; j += ROWS)
        if (ox < h && oy0 + j < w) out[(oy0 + j) * h + ox] = tile[lx][ly + j];
#endif
}

/* float4 loads and stores: the group is (TILE / 4) x ROWS; each work-item reads float4s along input rows
 * and writes float4s along output rows, four tile columns gathered from local memory for each. Partial
 * float4s at the ragged right or bottom edge move element by element. */
float4 load4(__global const float *in, int x, int y, int w, int h)
{
    if (y >= h || x >= w) return (float4)(0.0f);
    if (x + 3 < w) {
#if ALIGN4
        return *(__global const float4 *)(in + y * w + x);
#else
        return vload4(0, in + y * w + x);
#endif
    }
    float4 v = (float4)(0.0f);
    v.s0 = in[y * w + x];
    if (x + 1 < w) v.s1 = in[y * w + x + 1];
    if (x + 2 < w) v.s2 = in[y * w + x + 2];
    return v;
}

void store4(__global float *out, float4 v, int x, int y, int w, int h)
{
    if (y >= h || x >= w) return;
    if (x + 3 < w) {
#if ALIGN4
        *(__global float4 *)(out + y * w + x) = v;
#else
        vstore4(v, 0, out + y * w + x);
#endif
        return;
    }
    out[y * w + x] = v.s0;
    if (x + 1 < w) out[y * w + x + 1] = v.s1;
    if (x + 2 < w) out[y * w + x + 2] = v.s2;
}

__kernel void tr_vec4(__global const float *in, __global float *out, int w, int h)
{
    __local float tile[TILE][TILE + PAD];
    int bx, by;
    block_of(&bx, &by);
    int lx = get_local_id(0), ly = get_local_id(1);
    int x = bx * TILE + 4 * lx, y0 = by * TILE + ly;
    for (int j = 0; j < TILE; j += ROWS) {
        float4 v = load4(in, x, y0 + j, w, h);
        tile[ly + j][4 * lx] = v.s0;
        tile[ly + j][4 * lx + 1] = v.s1;
        tile[ly + j][4 * lx + 2] = v.s2;
        tile[ly + j][4 * lx + 3] = v.s3;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = by * TILE + 4 * lx, oy0 = bx * TILE + ly;
    for (int j = 0; j < TILE; j += ROWS) {
        int c = ly + j;
        float4 v = (float4)(tile[4 * lx][c], tile[4 * lx + 1][c], tile[4 * lx + 2][c], tile[4 * lx + 3][c]);
        store4(out, v, ox, oy0 + j, h, w);
    }
}
