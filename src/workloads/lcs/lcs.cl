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
#ifndef RPI
#define RPI 1
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
__kernel void lcs_masks(__global const uchar *a, __global word *masks, int n, int nw, int astride)
{
    int w = get_global_id(0), c = get_global_id(1);
    size_t pair = get_global_id(2);
    if (w >= nw) return;
    a += pair * astride;
    masks += pair * get_global_size(1) * nw;
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

/* tiled-rows, tiled-wide: as tiled, but each of the WG work-items owns RPI consecutive rows of a (WG RPI) x
 * TILE tile. Per step it computes RPI cells of one column top to bottom in registers (each cell's upper
 * neighbour is the one it just computed), and only its bottom cell goes to the next work-item through local
 * memory: RPI cells per barrier instead of 1. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
lcs_tiled_rows(__global const uchar *a, __global const uchar *b, __global int *H, __global int *V,
               __global int *K, int n, int m, int tc, int D, int ti0, __global int *score)
{
    __local int top[TILE + 1], pub[2][WG + 1];
    __local uchar bl[TILE];
    int t = get_local_id(0), ti = ti0 + (int)get_group_id(0), tj = D - ti;
    int c0 = tj * TILE, R = ti * WG * RPI + 1 + t * RPI;
    for (int c = t; c < TILE; c += WG) {
        top[c + 1] = H[c0 + 1 + c];
        bl[c] = b[c0 + c];
    }
    if (t == 0) top[0] = K[ti - tj + tc];
    uchar x[RPI];
    int left[RPI], dg[RPI];
    for (int k = 0; k < RPI; k++) {
        x[k] = a[R - 1 + k];
        left[k] = V[R + k];
        dg[k] = V[R - 1 + k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t == 0) dg[0] = top[0];
    for (int s = 0; s < TILE + WG - 1; s++) {
        int c = s - t;
        if (c >= 0 && c < TILE) {
            int up = t ? pub[(s - 1) & 1][t] : top[c + 1];
            uchar bc = bl[c];
            for (int k = 0; k < RPI; k++) {
                int v = x[k] == bc ? dg[k] + 1 : max(up, left[k]);
                dg[k] = up;
                left[k] = v;
                up = v;
                if (R + k == n && c0 + 1 + c == m) score[0] = v;
            }
            pub[s & 1][t + 1] = up;
            if (t == WG - 1) H[c0 + 1 + c] = up;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int k = 0; k < RPI; k++)
        V[R + k] = left[k];
    if (t == WG - 1) K[ti - tj + tc] = left[RPI - 1];
}

/* The bit-parallel kernels take `rows` and `trace`: with trace (--traceback, one pair) each writes V after
 * every character j of b to rows[j nw ..], from which the host walks the LCS back. */

/* bitpar: one work-item sweeps every word for every character of b. */
__kernel void lcs_bitpar(__global const uchar *b, __global const word *masks, __global word *V, int n, int m,
                         int nw, __global int *score, int bstride, int alphabet, __global word *rows, int trace)
{
    size_t pair = get_global_id(0);
    b += pair * bstride, masks += pair * alphabet * nw, V += pair * nw, score += pair;
    for (int w = 0; w < nw; w++)
        V[w] = ~(word)0;
    for (int j = 0; j < m; j++) {
        __global const word *mk = masks + (size_t)b[j] * nw;
        word carry = 0;
        for (int w = 0; w < nw; w++) {
            V[w] = bp_step(V[w], mk[w], &carry);
            if (trace) rows[(size_t)j * nw + w] = V[w];
        }
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
              int per, __global int *score, int bstride, int alphabet, __global word *rows, int trace)
{
    size_t pair = get_group_id(0);
    b += pair * bstride, masks += pair * alphabet * nw, V += pair * nw, score += pair;
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
            for (int w = w0; w < w1; w++) {
                V[w] = bp_step(V[w], mk[w], &carry);
                if (trace) rows[(size_t)j * nw + w] = V[w];
            }
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

/* ---- grid and nv-ballot: a's words striped over many work-groups ---------------------------------------
 * Group g (by ticket: atomic_inc when it starts, so it only waits on groups that have started) owns WG words
 * of V in registers, one per work-item, and sweeps every character of b. The carry into its first word for
 * row j is the carry out of group g - 1's last word for the same row: handed over in chunks of 32 rows, one
 * 64-bit word per chunk (the 32 carry bits, and 1 in the high half once written: the buffer is zeroed before
 * each run, and data and tag travel in one atomic, so no fence is needed). Each group reads chunk c + 1 while
 * it works on chunk c. Waits are bounded (SPIN_MAX polls): a broken predecessor gives a wrong score, no hang.
 * Each group's count of zero bits goes to part[g]; lcs_sum adds them. */
#ifdef GRID
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define SPIN_MAX (1 << 24)

/* Polls *slot, starting from the value x already read, until its tag is set (or SPIN_MAX polls). */
ulong chunk_wait(volatile __global ulong *slot, ulong x)
{
    for (int spins = 0; (x >> 32) == 0 && spins < SPIN_MAX; spins++)
        x = atom_or(slot, 0ul);
    return x;
}

/* The sum of the work-group's z (every work-item calls it). */
int group_sum(__local int *zs, int z)
{
    int t = get_local_id(0);
    zs[t] = z;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = WG / 2; h > 0; h /= 2) {
        if (t < h) zs[t] += zs[t + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return zs[0];
}

/* grid: inside a group, the bitpar-wg wavefront (item t handles row j at step j + t, the carry from item
 * t - 1 through local memory, one barrier per step); item 0 takes the carry from the chunk of group g - 1,
 * item WG - 1 collects its carries out and publishes a chunk every 32 rows. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
lcs_bitpar_grid(__global const uchar *b, __global const word *masks, int n, int m, int nw,
                volatile __global ulong *carry, volatile __global uint *ticket, __global int *part, int bstride,
                int alphabet, __global word *rows, int trace)
{
    __local word cin[2][WG];
    __local int zs[WG];
    __local uint gl;
    int t = get_local_id(0);
    if (t == 0) gl = atomic_inc(ticket);
    barrier(CLK_LOCAL_MEM_FENCE);
    int ng = (nw + WG - 1) / WG, g = gl % ng, w = g * WG + t, chunks = (m + 31) / 32;
    size_t pair = gl / ng;
    b += pair * bstride, masks += pair * alphabet * nw;
    volatile __global ulong *in = carry + (size_t)(g ? gl - 1 : 0) * chunks, *out = carry + (size_t)gl * chunks;
    word v = ~(word)0;
    uint bits_in = 0, bits_out = 0;
    ulong pre = 0;
    if (t == 0 && g) pre = atom_or(in, 0ul);
    for (int s = 0; s < m + WG - 1; s++) {
        int j = s - t, r = j & 31;
        if (j >= 0 && j < m) {
            word mk = w < nw ? masks[(size_t)b[j] * nw + w] : 0, c;
            if (t == 0) {
                if (r == 0 && g) {
                    pre = chunk_wait(in + j / 32, pre);
                    bits_in = (uint)pre;
                    pre = j / 32 + 1 < chunks ? atom_or(in + j / 32 + 1, 0ul) : 0;
                }
                c = (bits_in >> r) & 1;
            } else {
                c = cin[(s - 1) & 1][t - 1];
            }
            v = bp_step(v, mk, &c);
            if (trace && w < nw) rows[(size_t)j * nw + w] = v;
            cin[s & 1][t] = c;
            if (t == WG - 1) {
                bits_out |= (uint)c << r;
                if ((r == 31 || j == m - 1) && g + 1 < ng) {
                    atom_xchg(out + j / 32, (ulong)1 << 32 | bits_out);
                    bits_out = 0;
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    int z = group_sum(zs, w < nw ? bp_zeros(v, w, n) : 0);
    if (t == 0) part[gl] = z;
}

#ifdef USE_PTX
#if WG != 32
#error "lcs_bitpar_ballot is one warp per work-group: WG must be 32"
#endif
/* The lanes of the warp whose p is non-zero, as bits (PTX vote.sync.ballot). */
uint ballot(int p)
{
    uint r;
    asm volatile("{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }"
                 : "=r"(r)
                 : "r"(p));
    return r;
}

/* One row over the warp's 32 words at once: each lane's sum V + (V & M) without a carry in generates a carry
 * (overflow) or propagates one (all ones); with those as the bits of X = gen | prop and Y = gen, the carry into
 * lane k is bit k of (X + Y + cin) ^ X ^ Y (a 32-bit carry-lookahead), and bit 32 is the carry out. */
word ballot_step(word v, word mk, int t, uint cin, uint *cout)
{
    word sm = v + (v & mk);
    uint gen = ballot(sm < v), x = gen | ballot(sm == ~(word)0);
    ulong sum = (ulong)x + gen + cin;
    *cout = (uint)(sum >> 32);
    return (sm + (((uint)sum ^ x ^ gen) >> t & 1)) | (v & ~mk);
}

/* nv-ballot: grid's groups and chunks, one warp per group, and the carries across the warp by ballot_step:
 * every lane works on the same row, no skew and no barrier per row. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
lcs_bitpar_ballot(__global const uchar *b, __global const word *masks, int n, int m, int nw,
                  volatile __global ulong *carry, volatile __global uint *ticket, __global int *part, int bstride,
                  int alphabet, __global word *rows, int trace)
{
    __local int zs[WG];
    __local uint gl, sh;
    int t = get_local_id(0);
    if (t == 0) gl = atomic_inc(ticket);
    barrier(CLK_LOCAL_MEM_FENCE);
    int ng = (nw + WG - 1) / WG, g = gl % ng, w = g * WG + t, chunks = (m + 31) / 32;
    size_t pair = gl / ng;
    b += pair * bstride, masks += pair * alphabet * nw;
    volatile __global ulong *in = carry + (size_t)(g ? gl - 1 : 0) * chunks, *out = carry + (size_t)gl * chunks;
    __global const word *mw = masks + (w < nw ? w : 0);
    word v = ~(word)0, live = w < nw ? ~(word)0 : 0;
    ulong pre = 0;
    if (t == 0 && g) pre = atom_or(in, 0ul);
    for (int c = 0; c < chunks; c++) {
        if (t == 0) {
            if (g) pre = chunk_wait(in + c, pre);
            sh = (uint)pre;
            pre = g && c + 1 < chunks ? atom_or(in + c + 1, 0ul) : 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint bits_in = sh, bits_out = 0, co;
        int j0 = c * 32, nrows = min(32, m - j0);
        word mk = mw[(size_t)b[j0] * nw] & live;
        for (int r = 0; r < nrows; r++) {
            word next = r + 1 < nrows ? mw[(size_t)b[j0 + r + 1] * nw] & live : 0;
            v = ballot_step(v, mk, t, bits_in >> r & 1, &co);
            if (trace && w < nw) rows[(size_t)(j0 + r) * nw + w] = v;
            bits_out |= co << r;
            mk = next;
        }
        if (t == 0 && g + 1 < ng) atom_xchg(out + c, (ulong)1 << 32 | bits_out);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    int z = group_sum(zs, w < nw ? bp_zeros(v, w, n) : 0);
    if (t == 0) part[gl] = z;
}
#endif

/* Each pair's score: the sum of its ng groups' parts (one work-group of WG per pair). */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void lcs_sum(__global const int *part, int ng,
                                                                         __global int *score)
{
    __local int zs[WG];
    size_t pair = get_group_id(0);
    part += pair * ng, score += pair;
    int z = 0;
    for (int i = get_local_id(0); i < ng; i += WG)
        z += part[i];
    z = group_sum(zs, z);
    if (get_local_id(0) == 0) score[0] = z;
}
#endif
