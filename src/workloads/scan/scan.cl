/* The scan ladder (prefix sum of N int32 or floats, exclusive or inclusive), after the local-memory prefix
 * sum of ../shared/seeds/002 (its up-sweep/down-sweep loop, bank conflicts and padding), then device-wide.
 *
 * Build options (from the rung's parameters and the run's --type, see scan.c):
 *   WG        work-group size, a power of two; every kernel requires exactly this local size
 *   ITEMS     elements per work-item in a tile: a tile is TILE = WG * ITEMS consecutive elements
 *   TYPE_FLOAT  T is float (else uint: int32 sums wrap modulo 2^32, as two's complement does)
 *   PAD       local indices go through IDX(e) = e + (e >> pad), pad a kernel argument (5: one word of
 *             padding every 32 words, so that strided accesses spread over 32 banks; 31: the same
 *             instructions with every offset 0)
 *   USE_PTX   NVIDIA only: the scan of the work-items' totals uses warp shuffles through inline PTX
 *   LB_WINDOW scan_lookback: that many work-items look back at once, one earlier tile each (else one does)
 *   PACKED    with LB_WINDOW: a tile's status and value in one 64-bit word (cl_khr_int64_base_atomics)
 *   REREAD    the register kernels read a work-item's run again from the local tile when they store it,
 *             instead of keeping it in registers from the load on
 *   VLOAD     whole tiles move between global and local memory as coalesced 16-byte vectors (TILE % 4 == 0)
 *   DIRECT    scan_lookback: each work-item loads and stores its ITEMS consecutive elements straight from
 *             and to global memory as 16-byte vectors (ITEMS a multiple of 4), no local-memory tile
 *
 * Every tile kernel writes the scan of its tile (exclusive, or inclusive when incl != 0) and the tile's
 * total. Three ways to join the tiles (scan.c's plans): scan-then-propagate (tile kernel, scan_partials on
 * the totals, scan_add), reduce-then-scan (tile_reduce, scan_partials, a tile kernel with carry-in) and a
 * single pass with decoupled look-back (scan_lookback). Elements past n read as 0 and are never written. */

#ifndef WG
#define WG 256
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
#define TILE (WG * ITEMS)

#ifdef TYPE_FLOAT
typedef float T;
typedef float4 T4;
typedef float8 T8;
#define T_BITS(v) as_uint(v)
#define T_OF(u)   as_float(u)
#else
typedef uint T;
typedef uint4 T4;
typedef uint8 T8;
#define T_BITS(v) (v)
#define T_OF(u)   (u)
#endif

#ifdef PAD
#define IDX(e)     ((e) + ((e) >> pad))
#define PADDED(sz) ((sz) + (sz) / 32)
#else
#define IDX(e)     (e)
#define PADDED(sz) (sz)
#endif

#define REQD_WG __attribute__((reqd_work_group_size(WG, 1, 1)))

/* Copies the tile starting at `base` into local memory at IDX positions, 0 past n (coalesced: work-item lid
 * takes elements lid, lid + WG, ...; with -DVLOAD a whole tile comes as 16-byte vectors, work-item lid taking
 * vectors lid, lid + WG, ..., and regs_store writes it back the same way). */
void load_tile(__global const T *in, uint base, uint n, __local T *s, uint pad)
{
#ifdef VLOAD
    if (base + TILE <= n) {
        for (uint e4 = get_local_id(0); e4 < TILE / 4; e4 += WG) {
            T4 v = vload4(e4, in + base);
            uint e = 4 * e4;
            s[IDX(e)] = v.x;
            s[IDX(e + 1)] = v.y;
            s[IDX(e + 2)] = v.z;
            s[IDX(e + 3)] = v.w;
        }
        return;
    }
#endif
    for (uint e = get_local_id(0); e < TILE; e += WG) {
        uint i = base + e;
        s[IDX(e)] = i < n ? in[i] : (T)0;
    }
    (void)pad;
}

/* 1. Hillis-Steele: log2(TILE) steps, each adding to every element the one `off` before it (double-buffered),
 * O(TILE log TILE) additions. Leaves the inclusive scan in the returned buffer. */
__local T *hs_tile(__local T *a, __local T *b)
{
    for (uint off = 1; off < TILE; off <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint e = get_local_id(0); e < TILE; e += WG)
            b[e] = e >= off ? a[e] + a[e - off] : a[e];
        __local T *t = a;
        a = b;
        b = t;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return a;
}

__kernel REQD_WG void scan_hs(__global const T *in, __global T *out, __global T *sums, uint n, uint incl,
                              uint pad)
{
    __local T buf[2][TILE];
    uint base = get_group_id(0) * TILE;
    load_tile(in, base, n, buf[0], 0);
    __local T *s = hs_tile(buf[0], buf[1]);
    for (uint e = get_local_id(0); e < TILE; e += WG)
        if (base + e < n) out[base + e] = incl ? s[e] : (e ? s[e - 1] : (T)0);
    if (get_local_id(0) == 0) sums[get_group_id(0)] = s[TILE - 1];
    (void)pad;
}

/* 2-4. The seed's Blelloch scan over m elements: an up-sweep that halves the active pairs per level and a
 * down-sweep that pushes the sums back, each level a loop of the work-items over the pairs with stride WG;
 * leaves the exclusive scan in s and returns the total. The accesses of one level are offset*(2e+1)-1 apart
 * by 2*offset: without padding they pile onto a few banks. */
T blelloch(__local T *s, uint m, uint pad)
{
    uint offset = 1;
    for (uint level = m / 2; level > 0; level /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint e = get_local_id(0); e < level; e += WG) {
            uint ai = offset * (2 * e + 1) - 1, bi = offset * (2 * e + 2) - 1;
            s[IDX(bi)] += s[IDX(ai)];
        }
        offset *= 2;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    T total = s[IDX(m - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) s[IDX(m - 1)] = 0;
    for (uint level = 1; level < m; level *= 2) {
        offset /= 2;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint e = get_local_id(0); e < level; e += WG) {
            uint ai = offset * (2 * e + 1) - 1, bi = offset * (2 * e + 2) - 1;
            T t = s[IDX(ai)];
            s[IDX(ai)] = s[IDX(bi)];
            s[IDX(bi)] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    (void)pad;
    return total;
}

__kernel REQD_WG void scan_blelloch(__global const T *in, __global T *out, __global T *sums, uint n,
                                    uint incl, uint pad)
{
    __local T s[PADDED(TILE)];
    uint base = get_group_id(0) * TILE;
    T x[ITEMS];
    load_tile(in, base, n, s, pad);
    for (uint k = 0; k < ITEMS; k++)
        x[k] = s[IDX(get_local_id(0) + k * WG)];
    T total = blelloch(s, TILE, pad);
    for (uint k = 0; k < ITEMS; k++) {
        uint e = get_local_id(0) + k * WG;
        if (base + e < n) out[base + e] = incl ? s[IDX(e)] + x[k] : s[IDX(e)];
    }
    if (get_local_id(0) == 0) sums[get_group_id(0)] = total;
}

#ifdef USE_PTX
#if WG % 32 != 0 || WG > 1024
#error "USE_PTX needs WG a multiple of 32 and at most 1024"
#endif
/* The value of the lane `off` below (shfl.sync.up; lanes below `off` get their own). */
T shfl_up(T v, uint off)
{
    uint r;
    asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(r) : "r"(T_BITS(v)), "r"(off));
    return T_OF(r);
}

/* Inclusive scan over the 32 lanes of a warp (5 shuffles, no local memory). */
T warp_scan(T v)
{
    uint lane = get_local_id(0) & 31;
    for (uint off = 1; off < 32; off <<= 1) {
        T r = shfl_up(v, off);
        if (lane >= off) v += r;
    }
    return v;
}

/* The exclusive scan of one value per work-item and the group's total: warp scans, the warp totals through
 * local memory (w: at least 33 words), scanned by the first warp. */
T group_scan(T v, __local T *w, T *total, uint pad)
{
    uint lid = get_local_id(0);
    T inc = warp_scan(v), ex = shfl_up(inc, 1);
    if ((lid & 31) == 0) ex = 0;
    if ((lid & 31) == 31) w[lid >> 5] = inc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 32) {
        T t = lid < WG / 32 ? w[lid] : (T)0;
        T i2 = warp_scan(t), e2 = shfl_up(i2, 1);
        if (lid < WG / 32) w[lid] = lid ? e2 : (T)0;
        if (lid == 31) w[32] = i2;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    T r = w[lid >> 5] + ex;
    *total = w[32];
    barrier(CLK_LOCAL_MEM_FENCE);
    (void)pad;
    return r;
}
#else
/* The exclusive scan of one value per work-item and the group's total, by the padded Blelloch over WG. */
T group_scan(T v, __local T *w, T *total, uint pad)
{
    w[IDX(get_local_id(0))] = v;
    *total = blelloch(w, WG, pad);
    T r = w[IDX(get_local_id(0))];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
#endif

/* 5-9. ITEMS consecutive elements per work-item scanned in registers. regs_scan: the tile comes in coalesced
 * through local memory, each work-item keeps its ITEMS elements in x and adds them up, the WG sums are
 * scanned (group_scan); returns the work-item's offset in the tile and the tile's total. */
T regs_scan(__global const T *in, uint base, uint n, uint pad, __local T *s, __local T *w, T *x, T *total)
{
    uint lid = get_local_id(0);
    T sum = 0;
    load_tile(in, base, n, s, pad);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < ITEMS; k++) {
        x[k] = s[IDX(lid * ITEMS + k)];
        sum += x[k];
    }
    return group_scan(sum, w, total, pad);
}

/* regs_store: each work-item writes its run's prefixes from `acc` (its offset plus the tile's carry) back to
 * local memory, and the tile leaves coalesced. With -DREREAD the run is read again from the local tile (still
 * there: the group scan and the look-back use other arrays) instead of from x, so x need not stay in registers
 * across the look-back. */
void regs_store(__global T *out, uint base, uint n, uint incl, uint pad, __local T *s, const T *x, T acc)
{
    uint lid = get_local_id(0);
    for (uint k = 0; k < ITEMS; k++) {
        T ex = acc;
#ifdef REREAD
        acc += s[IDX(lid * ITEMS + k)];
        (void)x;
#else
        acc += x[k];
#endif
        s[IDX(lid * ITEMS + k)] = incl ? acc : ex;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#ifdef VLOAD
    if (base + TILE <= n) {
        for (uint e4 = lid; e4 < TILE / 4; e4 += WG) {
            uint e = 4 * e4;
            vstore4((T4)(s[IDX(e)], s[IDX(e + 1)], s[IDX(e + 2)], s[IDX(e + 3)]), e4, out + base);
        }
        return;
    }
#endif
    for (uint e = lid; e < TILE; e += WG)
        if (base + e < n) out[base + e] = s[IDX(e)];
}

#define WORDS_W (PADDED(WG) > 33 ? PADDED(WG) : 33)

#ifdef DIRECT
#if ITEMS % 4 != 0 || !defined(LB_WINDOW)
#error "DIRECT needs ITEMS a multiple of 4 and LB_WINDOW"
#endif
/* 10. The same register tile without the local-memory staging: work-item lid owns elements
 * base + lid * ITEMS .. + ITEMS - 1 and reads them as ITEMS / 4 vloads of 16 bytes (a warp's loads cover
 * 32 x 16 B at a 16 * ITEMS-byte stride; the lines come back from L1 for the next vector). Only the last
 * tile, which may end past n, goes element by element. Returns the work-item's offset and the tile's total. */
T direct_scan(__global const T *in, uint base, uint n, uint pad, __local T *w, T *x, T *total)
{
    uint first = base + get_local_id(0) * ITEMS;
    T sum = 0;
    if (base + TILE <= n) {
        for (uint j = 0; j < ITEMS / 4; j++) {
            T4 v = vload4(0, in + first + 4 * j);
            x[4 * j] = v.x;
            x[4 * j + 1] = v.y;
            x[4 * j + 2] = v.z;
            x[4 * j + 3] = v.w;
        }
    } else {
        for (uint k = 0; k < ITEMS; k++)
            x[k] = first + k < n ? in[first + k] : (T)0;
    }
    for (uint k = 0; k < ITEMS; k++)
        sum += x[k];
    return group_scan(sum, w, total, pad);
}

/* direct_store: the work-item's prefixes from `acc` (its offset plus the tile's carry), stored as it loaded. */
void direct_store(__global T *out, uint base, uint n, uint incl, T *x, T acc)
{
    uint first = base + get_local_id(0) * ITEMS;
    for (uint k = 0; k < ITEMS; k++) {
        T v = x[k];
        x[k] = incl ? acc + v : acc;
        acc += v;
    }
    if (base + TILE <= n) {
        for (uint j = 0; j < ITEMS / 4; j++)
            vstore4((T4)(x[4 * j], x[4 * j + 1], x[4 * j + 2], x[4 * j + 3]), 0, out + first + 4 * j);
    } else {
        for (uint k = 0; k < ITEMS; k++)
            if (first + k < n) out[first + k] = x[k];
    }
}
#endif

__kernel REQD_WG void scan_regs(__global const T *in, __global T *out, __global T *sums, uint n, uint incl,
                                uint pad)
{
    __local T s[PADDED(TILE)], w[WORDS_W];
    T x[ITEMS], total;
    uint base = get_group_id(0) * TILE;
    T acc = regs_scan(in, base, n, pad, s, w, x, &total);
    regs_store(out, base, n, incl, pad, s, x, acc);
    if (get_local_id(0) == 0) sums[get_group_id(0)] = total;
}

/* Reduce-then-scan, last pass: the tile scanned as scan_regs does, plus the scanned total of the tiles
 * before it (carries[group]). */
__kernel REQD_WG void scan_regs_carry(__global const T *in, __global T *out, __global const T *carries,
                                      uint n, uint incl, uint pad)
{
    __local T s[PADDED(TILE)], w[WORDS_W];
    T x[ITEMS], total;
    uint base = get_group_id(0) * TILE;
    T acc = regs_scan(in, base, n, pad, s, w, x, &total);
    regs_store(out, base, n, incl, pad, s, x, acc + carries[get_group_id(0)]);
}

/* Reduce-then-scan, first pass: each tile's total only (reads the input, writes one value per tile). */
__kernel REQD_WG void tile_reduce(__global const T *in, __global T *sums, uint n)
{
    __local T w[WG];
    uint lid = get_local_id(0), base = get_group_id(0) * TILE;
    T v = 0;
    for (uint k = 0; k < ITEMS; k++) {
        uint i = base + lid + k * WG;
        if (i < n) v += in[i];
    }
    w[lid] = v;
    for (uint st = WG / 2; st > 0; st >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < st) w[lid] += w[lid + st];
    }
    if (lid == 0) sums[get_group_id(0)] = w[0];
}

/* Middle pass of both three-kernel plans, one work-group: the exclusive scan, in place, of the g tile totals.
 * Each work-item owns a contiguous run of them: it adds its run up, the WG run totals are scanned in local
 * memory (Hillis-Steele), then it rewrites its run as prefixes from its offset. */
__kernel REQD_WG void scan_partials(__global T *sums, uint g)
{
    __local T w[2][WG];
    uint lid = get_local_id(0);
    uint per = (g + WG - 1) / WG, lo = min(lid * per, g), hi = min(lo + per, g);
    T v = 0;
    for (uint i = lo; i < hi; i++)
        v += sums[i];
    w[0][lid] = v;
    uint a = 0;
    for (uint off = 1; off < WG; off <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        w[a ^ 1][lid] = lid >= off ? w[a][lid] + w[a][lid - off] : w[a][lid];
        a ^= 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    T acc = lid ? w[a][lid - 1] : (T)0;
    for (uint i = lo; i < hi; i++) {
        T t = sums[i];
        sums[i] = acc;
        acc += t;
    }
}

/* Scan-then-propagate, last pass: adds the scanned total of the tiles before it to every element of a tile.
 */
__kernel REQD_WG void scan_add(__global T *out, __global const T *carries, uint n)
{
    uint i = get_global_id(0);
    if (i < n && i >= TILE) out[i] += carries[i / TILE];
}

/* Decoupled look-back state (uint words): [0] the tile ticket counter, [1, 1+g) each tile's status (0 none,
 * 1 its total published, 2 its inclusive prefix published), then g totals and g inclusive prefixes. The host
 * zeroes the first 1 + g words before every run (a fill, timed with the rung). */
#define ST_AGG  1u
#define ST_INCL 2u
#ifndef SPIN_MAX
#define SPIN_MAX (1u << 24) /* polls before a wait gives up (a broken predecessor: wrong result, no hang) */
#endif

/* The fence between a tile's value and its flag (release, in publish) and between reading a flag and the
 * value it guards (acquire, in the look-backs), at device scope. OpenCL 1.2's mem_fence only orders a
 * work-item's accesses as its own work-group sees them; NVIDIA compiles it to membar.cta, and at 2^28
 * elements an H100 showed a flag before its value (wrong carries in 1 or 2 of 16384 tiles). There
 * membar.gl orders them for the whole device. */
#ifdef NV_FENCE
#define DEVICE_FENCE() asm volatile("membar.gl;" ::: "memory")
#else
#define DEVICE_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

#ifdef PACKED
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
/* PACKED: each tile's status and value in one 64-bit word (status in the high half), the words from byte 8
 * of the state on (word 0 the ticket, word 1 unused): one atomic writes or reads both, so no fence has to
 * order a value before its flag. The host zeroes 2 + 2 g words. */
#define WORD64(st) ((volatile __global ulong *)((st) + 2))

void publish(volatile __global uint *st, uint g, uint tile, uint status, T v)
{
    atom_xchg(&WORD64(st)[tile], (ulong)status << 32 | T_BITS(v));
    (void)g;
}
#else
void publish(volatile __global uint *st, uint g, uint tile, uint status, T v)
{
    atomic_xchg(&st[1 + (status == ST_AGG ? g : 2 * g) + tile], T_BITS(v));
    DEVICE_FENCE();
    atomic_xchg(&st[1 + tile], status);
}
#endif

/* The sum of every tile before `tile`, by walking back over the predecessors' published totals until one
 * with its inclusive prefix; each wait is bounded by SPIN_MAX polls (then the result is poisoned). */
T look_back(volatile __global uint *st, uint g, uint tile)
{
    T excl = 0;
    for (uint p = tile; p-- > 0;) {
        uint f, spins = 0;
        while ((f = atomic_or(&st[1 + p], 0u)) == 0 && ++spins < SPIN_MAX)
            ;
        DEVICE_FENCE();
        if (f == ST_INCL) return excl + T_OF(atomic_or(&st[1 + 2 * g + p], 0u));
        if (f != ST_AGG) return T_OF(0x7fc0dead); /* gave up: NaN (float), a wrong sum (int) */
        excl += T_OF(atomic_or(&st[1 + g + p], 0u));
    }
    return excl;
}

#ifdef LB_WINDOW
/* The same sum, computed by the whole group (every work-item gets it): work-items 0..LB_WINDOW-1 each poll
 * one of the LB_WINDOW tiles before `top`, all wait in parallel; the window's values are added up to the
 * nearest tile with its inclusive prefix (tiles before 0 count as such, with 0), else the next window further
 * back. */
T look_back_window(volatile __global uint *st, uint g, uint tile, __local uint *wf, __local T *wv)
{
    uint lid = get_local_id(0);
    T excl = 0;
    for (uint top = tile; top > 0; top = top > LB_WINDOW ? top - LB_WINDOW : 0) {
        if (lid < LB_WINDOW) {
            uint f = ST_INCL, spins = 0;
            T v = 0;
            if (lid < top) {
                uint p = top - 1 - lid;
#ifdef PACKED
                ulong word;
                while ((word = atom_or(&WORD64(st)[p], 0ul)) >> 32 == 0 && ++spins < SPIN_MAX)
                    ;
                f = (uint)(word >> 32);
                v = T_OF(f == ST_INCL || f == ST_AGG ? (uint)word : 0x7fc0deadu);
#else
                while ((f = atomic_or(&st[1 + p], 0u)) == 0 && ++spins < SPIN_MAX)
                    ;
                DEVICE_FENCE();
                v = T_OF(f == ST_INCL  ? atomic_or(&st[1 + 2 * g + p], 0u)
                         : f == ST_AGG ? atomic_or(&st[1 + g + p], 0u)
                                       : 0x7fc0deadu); /* gave up: NaN (float), a wrong sum (int) */
#endif
                f = f == ST_AGG ? ST_AGG : ST_INCL;
            }
            wf[lid] = f;
            wv[lid] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint stop = 0;
        while (stop < LB_WINDOW - 1 && wf[stop] != ST_INCL)
            stop++;
        T sum = 0;
        for (uint j = 0; j <= stop; j++)
            sum += wv[j];
        excl += sum;
        bool done = wf[stop] == ST_INCL;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (done) break;
    }
    return excl;
}
#endif

/* Single pass: each group takes the next tile by ticket (atomic_inc), so it only ever waits on tiles whose
 * groups have already started: no deadlock whatever order the device runs groups in, as long as a started
 * group keeps running. It scans its tile, publishes the tile's total, looks back for its carry, publishes its
 * inclusive prefix and writes the tile with the carry added. */
__kernel REQD_WG void scan_lookback(__global const T *in, __global T *out, volatile __global uint *st, uint n,
                                    uint incl, uint pad, uint g)
{
#ifdef DIRECT
    __local T w[WORDS_W], carry;
#else
    __local T s[PADDED(TILE)], w[WORDS_W], carry;
#endif
    __local uint ticket;
#ifdef LB_WINDOW
    __local uint wf[LB_WINDOW];
    __local T wv[LB_WINDOW];
#endif
    if (get_local_id(0) == 0) ticket = atomic_inc(&st[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint tile = ticket, base = tile * TILE;
    T x[ITEMS], total;
#ifdef DIRECT
    T acc = direct_scan(in, base, n, pad, w, x, &total);
#else
    T acc = regs_scan(in, base, n, pad, s, w, x, &total);
#endif
#ifdef LB_WINDOW
    if (get_local_id(0) == 0 && tile > 0) publish(st, g, tile, ST_AGG, total);
    T c = tile > 0 ? look_back_window(st, g, tile, wf, wv) : (T)0;
    if (get_local_id(0) == 0) publish(st, g, tile, ST_INCL, c + total);
#ifdef DIRECT
    direct_store(out, base, n, incl, x, acc + c);
#else
    regs_store(out, base, n, incl, pad, s, x, acc + c);
#endif
    (void)carry;
#else
    if (get_local_id(0) == 0) {
        T c = 0;
        if (tile > 0) {
            publish(st, g, tile, ST_AGG, total);
            c = look_back(st, g, tile);
        }
        publish(st, g, tile, ST_INCL, c + total);
        carry = c;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    regs_store(out, base, n, incl, pad, s, x, acc + carry);
#endif
}

/* The CPU's layout (WG 1): a group is one work-item that walks one contiguous tile of TILE elements as a
 * plain loop: its total, the look-back of scan_lookback, then the tile again (from the cache) with its carry.
 * A CPU runs that loop at a few cycles per element; a GPU runs one thread per group and loses coalescing. */
__kernel REQD_WG void scan_chunks(__global const T *in, __global T *out, volatile __global uint *st, uint n,
                                  uint incl, uint pad, uint g)
{
    uint tile = atomic_inc(&st[0]);
    uint lo = min(tile * TILE, n), hi = min(lo + TILE, n);
    T sum = 0, c = 0;
    for (uint i = lo; i < hi; i++)
        sum += in[i];
    if (tile > 0) {
        publish(st, g, tile, ST_AGG, sum);
        c = look_back(st, g, tile);
    }
    publish(st, g, tile, ST_INCL, c + sum);
    for (uint i = lo; i < hi; i++) {
        T v = in[i];
        out[i] = incl ? c + v : c;
        c += v;
    }
    (void)pad;
}

/* As scan_chunks, 8 elements per step: vload8, an inclusive scan of the 8 lanes in 3 shifted adds, the carry
 * added to all 8, vstore8; the total by 8 lane accumulators. The tail of the input (n % 8) goes one by one.
 */
__kernel REQD_WG void scan_chunks8(__global const T *in, __global T *out, volatile __global uint *st, uint n,
                                   uint incl, uint pad, uint g)
{
    uint tile = atomic_inc(&st[0]);
    uint lo = min(tile * TILE, n), hi = min(lo + TILE, n), hi8 = lo + (hi - lo) / 8 * 8;
    T8 acc = 0;
    T sum = 0, c = 0;
    for (uint i = lo; i < hi8; i += 8)
        acc += vload8(0, in + i);
    for (uint i = hi8; i < hi; i++)
        sum += in[i];
    sum += ((acc.s0 + acc.s1) + (acc.s2 + acc.s3)) + ((acc.s4 + acc.s5) + (acc.s6 + acc.s7));
    if (tile > 0) {
        publish(st, g, tile, ST_AGG, sum);
        c = look_back(st, g, tile);
    }
    publish(st, g, tile, ST_INCL, c + sum);
    for (uint i = lo; i < hi8; i += 8) {
        T8 v = vload8(0, in + i), p = v;
        p += (T8)(0, p.s0, p.s1, p.s2, p.s3, p.s4, p.s5, p.s6);
        p += (T8)(0, 0, p.s0, p.s1, p.s2, p.s3, p.s4, p.s5);
        p += (T8)(0, 0, 0, 0, p.s0123);
        vstore8((incl ? p : (T8)(0, p.s0, p.s1, p.s2, p.s3, p.s4, p.s5, p.s6)) + c, 0, out + i);
        c += p.s7;
    }
    for (uint i = hi8; i < hi; i++) {
        T v = in[i];
        out[i] = incl ? c + v : c;
        c += v;
    }
    (void)pad;
}
