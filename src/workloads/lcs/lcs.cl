/* The lcs ladder: the length of the longest common subsequence of a (n bytes, the DP's rows i = 1..n) and b
 * (m bytes, its columns j = 1..m). L[i][j] = a[i-1] == b[j-1] ? L[i-1][j-1] + 1 : max(L[i-1][j], L[i][j-1]),
 * L[0][*] = L[*][0] = 0; the score is L[n][m]. Build options (lcs.c sets them from the rung's parameters):
 *   WG    work-group size of the per-cell kernels; TILE  side of a tile; PAD  padding of the diagonal
 *   arrays and of the ushort strings at both ends (at least WG x 4); WBITS 32 or 64: bits per word of the
 *   bit-parallel kernels. */
#ifndef WG
#define WG 256
#endif
#ifndef TILE
#define TILE 64
#endif
#ifndef PAD
#define PAD 1024
#endif
#ifndef WBITS
#define WBITS 32
#endif
#if WBITS == 64
typedef ulong word;
#else
typedef uint word;
#endif

/* Zeroes n ints (the starting state of the padded diagonals and of the tile borders). */
__kernel void lcs_zero(__global int *x, uint n)
{
    uint i = get_global_id(0);
    if (i < n) x[i] = 0;
}

/* One work-item copies the score from where the last diagonal left it. */
__kernel void lcs_take(__global const int *src, ulong at, __global int *score)
{
    score[0] = src[at];
}

/* naive: cell (i, d - i) of anti-diagonal d, i = i0 + gid, in a row-major (n+1) x (m+1) matrix; the borders
 * are written as 0 by the same launch. */
__kernel void lcs_naive(__global const uchar *a, __global const uchar *b, __global int *L, int n, int m,
                        int d, int i0, int count)
{
    int g = get_global_id(0);
    if (g >= count) return;
    int i = i0 + g, j = d - i;
    size_t w = (size_t)m + 1, at = (size_t)i * w + (size_t)j;
    int v = 0;
    if (i > 0 && j > 0) {
        if (a[i - 1] == b[j - 1])
            v = L[at - w - 1] + 1;
        else
            v = max(L[at - w], L[at - 1]);
    }
    L[at] = v;
}

/* diag3: the same cell, stored by its row i in the array of its diagonal; only diagonals d-1 (p1) and d-2
 * (p2) are kept. Arrays are indexed i + PAD (the padded rungs share them). */
__kernel void lcs_diag3(__global const uchar *a, __global const uchar *b, __global int *cur,
                        __global const int *p1, __global const int *p2, int d, int i0, int count)
{
    int g = get_global_id(0);
    if (g >= count) return;
    int i = i0 + g, j = d - i, k = i + PAD;
    int v = 0;
    if (i > 0 && j > 0) {
        if (a[i - 1] == b[j - 1])
            v = p2[k - 1] + 1;
        else
            v = max(p1[k - 1], p1[k]);
    }
    cur[k] = v;
}

/* pad: ap/bp are the strings as ushort with PAD sentinels on both ends (256 in a, 257 in b: they never match
 * anything), the diagonals zeroed once: every cell of a whole group is computed, no test at all. A cell
 * outside the matrix on the low side (i <= 0 or j <= 0) computes 0, one on the high side a value that only
 * other high-side cells read. */
__kernel void lcs_pad(__global const ushort *ap, __global const ushort *bp, __global int *cur,
                      __global const int *p1, __global const int *p2, int d, int i0)
{
    int i = i0 + (int)get_global_id(0), k = i + PAD;
    int v;
    if (ap[k - 1] == bp[d - i + PAD - 1])
        v = p2[k - 1] + 1;
    else
        v = max(p1[k - 1], p1[k]);
    cur[k] = v;
}

/* branchless: as pad, the choice made with a mask (the talk's masked store) instead of if/else. */
__kernel void lcs_mask(__global const ushort *ap, __global const ushort *bp, __global int *cur,
                       __global const int *p1, __global const int *p2, int d, int i0)
{
    int i = i0 + (int)get_global_id(0), k = i + PAD;
    int eq = -(int)(ap[k - 1] == bp[d - i + PAD - 1]);
    cur[k] = (eq & (p2[k - 1] + 1)) | (~eq & max(p1[k - 1], p1[k]));
}

/* vec4: four consecutive cells of the diagonal per work-item, as int4 (b read backwards: its lanes
 * reversed). */
__kernel void lcs_vec4(__global const ushort *ap, __global const ushort *bp, __global int *cur,
                       __global const int *p1, __global const int *p2, int d, int i0)
{
    int i = i0 + 4 * (int)get_global_id(0), k = i + PAD;
    ushort4 x = vload4(0, ap + k - 1);
    ushort4 y = vload4(0, bp + d - i + PAD - 4).wzyx;
    int4 eq = convert_int4(x == y);
    int4 up = vload4(0, p1 + k - 1), left = vload4(0, p1 + k), dg = vload4(0, p2 + k - 1);
    vstore4((eq & (dg + 1)) | (~eq & max(up, left)), 0, cur + k);
}

/* tile-item: one work-item solves a whole TILE x TILE tile row by row, left to right (a cache-sized working
 * set walked the way a prefetcher likes), in place in H (the last row of every column) and V (the last column
 * of every row); K[ti - tj + tc] holds a tile's corner (written by the tile up-left, two tile diagonals
 * before: no tile of the diagonal between has that index). One launch per tile diagonal D. */
__kernel void lcs_tile_item(__global const uchar *a, __global const uchar *b, __global int *H,
                            __global int *V, __global int *K, int n, int m, int tc, int D, int ti0,
                            __global int *score)
{
    int ti = ti0 + (int)get_global_id(0), tj = D - ti;
    int r0 = ti * TILE, c0 = tj * TILE;
    int dg0 = K[ti - tj + tc], v = 0;
    for (int r = 1; r <= TILE; r++) {
        int R = r0 + r, left = V[R], dg = dg0;
        uchar x = a[R - 1];
        dg0 = left;
        for (int c = 1; c <= TILE; c++) {
            int up = H[c0 + c];
            v = x == b[c0 + c - 1] ? dg + 1 : max(up, left);
            H[c0 + c] = v;
            dg = up;
            left = v;
        }
        V[R] = v;
        if (R == n && m > c0 && m <= c0 + TILE) score[0] = H[m];
    }
    K[ti - tj + tc] = v;
}

/* tile-simd: as tile-item, a tile of 16 rows x TILE columns per work-item, but walked by anti-diagonals with
 * the 16 rows as the lanes of int16 vectors (the talk's rows shifted so that a diagonal is one vector): lane k
 * does column s - k at step s; a lane outside the tile keeps its value (a masked store), which is exactly the
 * left edge before it starts and the right edge after it ends. ap/bp: the padded ushort strings. */
__kernel void lcs_tile_simd(__global const ushort *ap, __global const ushort *bp, __global int *H,
                            __global int *V, __global int *K, int n, int m, int tc, int D, int ti0,
                            __global int *score)
{
    int ti = ti0 + (int)get_global_id(0), tj = D - ti;
    int r0 = ti * 16, c0 = tj * TILE;
    const int16 lane = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    int16 x = convert_int16(vload16(0, ap + PAD + r0));
    int16 d1 = vload16(0, V + r0 + 1), d2 = d1;
    int dg0 = K[ti - tj + tc], kn = n - r0 - 1, sn = m - c0 - 1 + kn;
    bool mine = kn >= 0 && kn < 16 && m > c0 && m <= c0 + TILE; /* this tile holds the score's cell */
    for (int s = 0; s < TILE + 15; s++) {
        int16 y = convert_int16(vload16(0, bp + PAD + c0 + s - 15).sfedcba9876543210);
        int up0 = s < TILE ? H[c0 + 1 + s] : 0, dgl = s == 0 ? dg0 : s <= TILE ? H[c0 + s] : 0;
        int16 up = (int16)(up0, d1.s0123, d1.s4567, d1.s89ab, d1.scde);
        int16 dg = (int16)(dgl, d2.s0123, d2.s4567, d2.s89ab, d2.scde);
        int16 v = select(max(up, d1), dg + 1, x == y);
        int16 act = (lane <= s) & (lane > s - TILE);
        d2 = d1;
        d1 = select(d1, v, act);
        if (s >= 15) H[c0 + s - 14] = d1.sf;
        if (mine && s == sn) {
            int lanes[16];
            vstore16(d1, 0, lanes);
            score[0] = lanes[kn];
        }
    }
    vstore16(d1, 0, V + r0 + 1);
    K[ti - tj + tc] = d1.sf;
}

/* tiled: a work-group of TILE work-items solves a tile in local memory; work-item t owns row t and sweeps
 * the tile's 2 TILE - 1 inner anti-diagonals, taking the cell above from its neighbour through a
 * double-buffered local row (one barrier per step). Borders as lcs_tile_item; one launch per tile diagonal. */
__kernel __attribute__((reqd_work_group_size(TILE, 1, 1))) void
lcs_tiled(__global const uchar *a, __global const uchar *b, __global int *H, __global int *V,
          __global int *K, int n, int m, int tc, int D, int ti0, __global int *score)
{
    __local int top[TILE + 1], pub[2][TILE + 1];
    __local uchar bl[TILE];
    int t = get_local_id(0), ti = ti0 + (int)get_group_id(0), tj = D - ti;
    int r0 = ti * TILE, c0 = tj * TILE, R = r0 + 1 + t;
    top[t + 1] = H[c0 + 1 + t];
    bl[t] = b[c0 + t];
    if (t == 0) top[0] = K[ti - tj + tc];
    uchar x = a[R - 1];
    int left = V[R], dg = t ? V[R - 1] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t == 0) dg = top[0];
    for (int s = 0; s < 2 * TILE - 1; s++) {
        int c = s - t;
        if (c >= 0 && c < TILE) {
            int up = t ? pub[(s - 1) & 1][t] : top[c + 1];
            int v = x == bl[c] ? dg + 1 : max(up, left);
            dg = up;
            left = v;
            pub[s & 1][t + 1] = v;
            if (t == TILE - 1) H[c0 + 1 + c] = v;
            if (R == n && c0 + 1 + c == m) score[0] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    V[R] = left;
    if (t == TILE - 1) K[ti - tj + tc] = left;
}

/* Bit-parallel LCS (Allison-Dix; Crochemore et al.'s form of Hyyro's update): bit k of a word row holds
 * whether the DP's column of a steps at row k. masks[c * nw + w]: the bits of word w where a equals c. */
__kernel void lcs_masks(__global const uchar *a, __global word *masks, int n, int nw)
{
    int w = get_global_id(0), c = get_global_id(1);
    if (w >= nw) return;
    word bits = 0;
    for (int k = 0; k < WBITS; k++) {
        int i = w * WBITS + k;
        if (i < n && a[i] == c) bits |= (word)1 << k;
    }
    masks[(size_t)c * nw + w] = bits;
}

/* One word step: V' = (V + (V & M)) | (V & ~M), the sum carried across words through *carry. */
word bp_step(word v, word mk, word *carry)
{
    word x = v & mk, s = v + x, s2 = s + *carry;
    *carry = (word)(s < v) | (word)(s2 < s);
    return s2 | (v & ~mk);
}

/* The zero bits of V among the first n: the LCS length. */
int bp_zeros(word v, int w, int n)
{
    int bits = min(WBITS, n - w * WBITS);
    word valid = bits == WBITS ? ~(word)0 : (((word)1 << bits) - 1);
    return bits - (int)popcount(v & valid);
}

/* bitpar: one work-item sweeps every word for every character of b. */
__kernel void lcs_bitpar(__global const uchar *b, __global const word *masks, __global word *V, int n, int m,
                         int nw, __global int *score)
{
    for (int w = 0; w < nw; w++)
        V[w] = ~(word)0;
    for (int j = 0; j < m; j++) {
        __global const word *mk = masks + (size_t)b[j] * nw;
        word carry = 0;
        for (int w = 0; w < nw; w++)
            V[w] = bp_step(V[w], mk[w], &carry);
    }
    int z = 0;
    for (int w = 0; w < nw; w++)
        z += bp_zeros(V[w], w, n);
    score[0] = z;
}

/* bitpar-wg: WG work-items of one group each own a stripe of `per` words; item t handles character j at
 * step j + t, taking the carry into its stripe from item t - 1's previous step (double-buffered in local
 * memory: one barrier per step). */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
lcs_bitpar_wg(__global const uchar *b, __global const word *masks, __global word *V, int n, int m, int nw,
              int per, __global int *score)
{
    __local word cin[2][WG];
    __local int zs[WG];
    int t = get_local_id(0), w0 = min(nw, t * per), w1 = min(nw, w0 + per);
    for (int w = w0; w < w1; w++)
        V[w] = ~(word)0;
    for (int s = 0; s < m + WG - 1; s++) {
        int j = s - t;
        if (j >= 0 && j < m) {
            __global const word *mk = masks + (size_t)b[j] * nw;
            word carry = t ? cin[(s - 1) & 1][t - 1] : 0;
            for (int w = w0; w < w1; w++)
                V[w] = bp_step(V[w], mk[w], &carry);
            cin[s & 1][t] = carry;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    int z = 0;
    for (int w = w0; w < w1; w++)
        z += bp_zeros(V[w], w, n);
    zs[t] = z;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = WG / 2; h > 0; h /= 2) {
        if (t < h) zs[t] += zs[t + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0) score[0] = zs[0];
}
