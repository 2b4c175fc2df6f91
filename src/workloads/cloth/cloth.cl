/* The cloth ladder: mass-spring cloths of W x H particles each (float4: position xyz, inverse mass w, 0 when
 * pinned), stored one after another; the last global dimension of every launch is the cloth. One frame = cloth_integrate (wind from the particle's normal, gravity, Verlet) then the host's K
 * iterations of spring relaxation by one of the schemes below. Every kernel uses +, - and * only (no
 * division, no sqrt, no built-in dot or length) with contraction off, so that the host reference
 * (cloth_ref.c) computing the same operations in the same order gets the same bits. With -DFMA (the `fma`
 * rung) every multiply followed by an add or subtract of the spring arithmetic is one fma(): one rounding and
 * one instruction where there were two; the host replays it with fmaf, which rounds once as fma() must. */
#pragma OPENCL FP_CONTRACT OFF

/* MADD(a, b, c): a * b + c rounded once (-DFMA only); ACC(s, d, f): s += d * f, one fma() with -DFMA, else a
 * product and a sum (s - d * f is ACC(s, -d, f): the same bits either way). */
#ifdef FMA
#define MADD(a, b, c) fma(a, b, c) /* a * b + c, rounded once */
#define ACC(s, d, f)  s = MADD(d, f, s)
#else
#define ACC(s, d, f) s = s + (d) * (f)
#endif

/* 1/sqrt(x) for x > 0: a bit-level first guess and three Newton steps (cloth_ref.c: cloth_rsqrt); with
 * -DRSQ2 two (relative error 4.6e-6 instead of the float's rounding). */
#ifdef RSQ2
#define NEWTON 2
#else
#define NEWTON 3
#endif
static float rsq(float x)
{
    float y = as_float(0x5f3759df - (as_int(x) >> 1));
    float h = 0.5f * x;
#pragma unroll
    for (int k = 0; k < NEWTON; k++) {
#ifdef FMA
        y = y * MADD(-h, y * y, 1.5f);
#else
        y = y * (1.5f - h * y * y);
#endif
    }
    return y;
}

/* The share of a spring's correction that the particle of inverse mass wa takes, against wb: all of it when
 * the other is pinned, half when both move, none when itself pinned. */
static float share(float wa, float wb)
{
    float ws = wa + wb;
    return wa * (ws > 1.5f ? 0.5f : 1.0f);
}

/* The correction factor of the spring from a to b (rest length L, stiffness k): (len - L) / len * k, or 0
 * when the two coincide. */
static float spring_factor(float4 a, float4 b, float L, float k)
{
    float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
#ifdef FMA
    float l2 = MADD(dz, dz, MADD(dy, dy, dx * dx));
#else
    float l2 = dx * dx + dy * dy + dz * dz;
#endif
    if (!(l2 > 0.0f)) return 0.0f;
    float r = rsq(l2);
#ifdef FMA
    return MADD(l2, r, -L) * r * k;
#else
    return (l2 * r - L) * r * k;
#endif
}

/* Where particle (x, y) of a cloth lives, and the slots a cloth takes (W, H in scope). Row-major; with -DCM
 * (the `merged-cm` rung) colour-major: the particles of colour (x + 2y) mod 5 first, a colour's row y in
 * ceil(W / 5) slots (one may stay empty), x / 5 in it. The particles of a colour batch are then consecutive,
 * and so are each of their neighbours: a neighbour of (x, y) at (x + dx, y + dy) sits at x / 5 + 0 or +-1. */
#ifdef CM
#define P5          ((W + 4) / 5)
#define IDX(x, y)   ((((x) + 2 * (y)) % 5) * P5 * H + (y) * P5 + (x) / 5)
#define CLOTH_SLOTS ((size_t)5 * P5 * H)
#else
#define IDX(x, y)   ((y) * W + (x))
#define CLOTH_SLOTS ((size_t)W * H)
#endif

/* With -DGW=w -DGH=h (the host's, for a rung built with -DGRID) the grid's size is a compile-time constant
 * in the kernels that take it: row offsets and bounds fold into the instructions. */
#ifdef GW
#define FIX_GRID                                                                                             \
    W = GW;                                                                                                  \
    H = GH;
#else
#define FIX_GRID
#endif

/* Frame step, one work-item per particle: reads the current and previous states, writes the next ones; with
 * -DNOPREV the next state only (the host keeps the current one as the next frame's previous state). */
__kernel void cloth_integrate(__global const float4 *cur, __global const float4 *prev, __global float4 *ncur,
                              __global float4 *nprev, int W, int H, float4 wind, float grav, float damp)
{
    FIX_GRID
    int x = get_global_id(0), y = get_global_id(1);
#ifdef CM
    if (x >= 5 * P5) return;
    x = ((x / P5 - 2 * y) % 5 + 5) % 5 + 5 * (x % P5); /* work-items in the order of the store */
#endif
    if (x >= W || y >= H) return;
    size_t base = get_global_id(2) * CLOTH_SLOTS;
    cur += base;
    prev += base;
    ncur += base;
    nprev += base;
    int i = IDX(x, y);
    float4 p = cur[i], o = prev[i];
    int xl = max(x - 1, 0), xr = min(x + 1, W - 1), yu = max(y - 1, 0), yd = min(y + 1, H - 1);
    float4 tx = cur[IDX(xr, y)] - cur[IDX(xl, y)], ty = cur[IDX(x, yd)] - cur[IDX(x, yu)];
    float nx = tx.y * ty.z - tx.z * ty.y, ny = tx.z * ty.x - tx.x * ty.z, nz = tx.x * ty.y - tx.y * ty.x;
    float n2 = nx * nx + ny * ny + nz * nz;
    float ax = 0.0f, ay = grav, az = 0.0f;
    if (n2 > 0.0f) {
        float r = rsq(n2);
        float s = (wind.x * nx + wind.y * ny + wind.z * nz) * (r * r);
        ax = ax + nx * s;
        ay = ay + ny * s;
        az = az + nz * s;
    }
    float4 q;
    q.x = p.x + ((p.x - o.x) * damp + ax) * p.w;
    q.y = p.y + ((p.y - o.y) * damp + ay) * p.w;
    q.z = p.z + ((p.z - o.z) * damp + az) * p.w;
    q.w = p.w;
    ncur[i] = q;
#ifndef NOPREV
    nprev[i] = p;
#endif
}

/* The anchor coordinate of the na-th spring of parity `par` along the coloured axis: every other anchor for
 * structural and shear springs, pairs of anchors four apart for bend springs. */
static int colour_coord(int fam, int par, int t)
{
    return fam >= 4 ? 4 * (t >> 1) + 2 * par + (t & 1) : 2 * t + par;
}

/* One colour of springs, one work-item per spring: springs of a colour share no particle, so each moves both
 * of its particles in place. fam 1 and 5 are coloured along y (x runs fastest), the others along x. */
__kernel void cloth_colour(__global float4 *pos, int W, int H, int fam, int par, int na, int total, float L,
                           float k)
{
    int g = get_global_id(0);
    if (g >= total) return;
    pos += get_global_id(1) * (size_t)W * H;
    int x, y;
    if (fam == 1 || fam == 5) {
        x = g % W;
        y = colour_coord(fam, par, g / W);
    } else {
        x = colour_coord(fam, par, g % na);
        y = g / na;
    }
    int a = y * W + x, b;
    switch (fam) {
    case 0:
        b = a + 1;
        break;
    case 1:
        b = a + W;
        break;
    case 2:
        b = a + W + 1;
        break;
    case 3:
        b = a + W;
        a = a + 1;
        break;
    case 4:
        b = a + 2;
        break;
    default:
        b = a + 2 * W;
        break;
    }
    float4 pa = pos[a], pb = pos[b];
    float c = spring_factor(pa, pb, L, k);
    float fa = c * share(pa.w, pb.w), fb = c * share(pb.w, pa.w);
    float dx = pb.x - pa.x, dy = pb.y - pa.y, dz = pb.z - pa.z;
    ACC(pa.x, dx, fa);
    ACC(pa.y, dy, fa);
    ACC(pa.z, dz, fa);
    ACC(pb.x, -dx, fb);
    ACC(pb.y, -dy, fb);
    ACC(pb.z, -dz, fb);
    pos[a] = pa;
    pos[b] = pb;
}

/* Particle p relaxed against its spring to q alone, moving only itself by its share (the neighbour's own
 * work-item computes the same spring again for its side). */
static float4 own_step(float4 p, float4 q, float L, float k)
{
    float fa = spring_factor(p, q, L, k) * share(p.w, q.w);
    ACC(p.x, q.x - p.x, fa);
    ACC(p.y, q.y - p.y, fa);
    ACC(p.z, q.z - p.z, fa);
    return p;
}

/* A particle's 12 springs in the order every gather walks them (cloth_ref.c: OX, OY): structural, shear,
 * bend; STEP(dx, dy, family) is applied to each neighbour inside the grid. */
/* clang-format off */
#define FOR_SPRINGS(STEP)                                                                                   \
    STEP(1, 0, x) STEP(-1, 0, x) STEP(0, 1, x) STEP(0, -1, x) STEP(1, 1, y) STEP(-1, -1, y) STEP(1, -1, y)   \
    STEP(-1, 1, y) STEP(2, 0, z) STEP(-2, 0, z) STEP(0, 2, z) STEP(0, -2, z)
/* clang-format on */
#define INSIDE(dx, dy) (x + (dx) >= 0 && x + (dx) < W && y + (dy) >= 0 && y + (dy) < H)

/* SEQ(dx, dy, f): particle p relaxed against its neighbour AT(dx, dy) when that one is inside the grid (x, y:
 * p's place in the grid). */
#define SEQ(dx, dy, f)                                                                                       \
    if (INSIDE(dx, dy)) p = own_step(p, AT(dx, dy), rest.f, stiff.f);

/* With -DINTERIOR: a particle 2 or more from every edge has all 12 neighbours inside the grid, and takes a
 * path without the 12 inside-the-grid tests (the same terms in the same order: the same bits), on which
 * nothing stops the compiler from issuing its 12 loads at once. INNER: whether (x, y) may take it. */
#ifdef INTERIOR
#define INNER (x >= 2 && x < W - 2 && y >= 2 && y < H - 2)
#else
#define INNER 0
#endif
#define SEQ_ALL(dx, dy, f) p = own_step(p, AT(dx, dy), rest.f, stiff.f);

/* Particle (x, y) after relaxing each of its springs in turn against its neighbours as they are now. */
static float4 gather_seq(__global const float4 *buf, int x, int y, int W, int H, float4 rest, float4 stiff)
{
    float4 p = buf[IDX(x, y)];
#define AT(dx, dy) buf[IDX(x + (dx), y + (dy))]
    if (INNER) {
        FOR_SPRINGS(SEQ_ALL)
    } else {
        FOR_SPRINGS(SEQ)
    }
#undef AT
    return p;
}

/* One particle colour in place ((x + 2y) mod 5 == colour: no two of them share a spring), or with colour -1
 * every particle in one launch, where a neighbour may be read before or after its own update (the talk's
 * single non-deterministic batch). Global: (ceil(W / 5), H), or (W, H) for colour -1. */
__kernel void cloth_vertex(__global float4 *pos, int W, int H, int colour, float4 rest, float4 stiff)
{
    int gx = get_global_id(0), y = get_global_id(1);
    int x = colour < 0 ? gx : ((colour - 2 * y) % 5 + 5) % 5 + 5 * gx;
    if (x >= W || y >= H) return;
    pos += get_global_id(2) * CLOTH_SLOTS;
    pos[IDX(x, y)] = gather_seq(pos, x, y, W, H, rest, stiff);
}

/* The particle p moved by its springs' summed corrections (sx, sy, sz) times its scale s = jscale[its spring
 * count]: the last step of every Jacobi update (cloth_jacobi, cloth_jtile). */
static float4 jacobi_move(float4 p, float sx, float sy, float sz, float s)
{
    ACC(p.x, sx, s);
    ACC(p.y, sy, s);
    ACC(p.z, sz, s);
    return p;
}

/* JTERM(buf, stride, dx, dy, f): Jacobi's term of the spring to the neighbour (dx, dy) of the particle p at
 * buf[i] (rows `stride` apart): its correction added to (sx, sy, sz), n counted. JSUM: the same when the
 * neighbour is inside the grid. cloth_jacobi (global memory) and cloth_jtile (local memory) compute every
 * particle with them. */
#define JTERM(buf, stride, dx, dy, f)                                                                        \
    {                                                                                                        \
        float4 q = buf[i + (dy) * (stride) + (dx)];                                                          \
        float fa = spring_factor(p, q, rest.f, stiff.f) * share(p.w, q.w);                                   \
        ACC(sx, q.x - p.x, fa);                                                                              \
        ACC(sy, q.y - p.y, fa);                                                                              \
        ACC(sz, q.z - p.z, fa);                                                                              \
        n++;                                                                                                 \
    }
#define JSUM(buf, stride, dx, dy, f)                                                                         \
    if (INSIDE(dx, dy)) JTERM(buf, stride, dx, dy, f)

/* Jacobi: every particle from the previous iterate src into dst: the sum of its springs' corrections, all
 * computed from src, scaled by jscale[its spring count]. With -DPR=n (n > 1) a work-item takes n particles
 * one above the other (global: W x ceil(H / n)); with -DINTERIOR too, a column of n interior particles first
 * loads the window of src their springs reach (PR + 4 rows, 1, 3 or 5 wide: 18 loads for 2 particles' 26
 * reads, 28 for 4's 52) and computes each from registers, the same terms in the same order: the same bits. */
#ifndef PR
#define PR 1
#endif
/* Of the window's row j (src row y0 - 2 + j), the columns x - WR(j) .. x + WR(j) are read. */
#define WR(j) ((j) < 2 ? (j) : (j) > PR + 1 ? PR + 3 - (j) : 2)
__kernel void cloth_jacobi(__global const float4 *src, __global float4 *dst, int W, int H, float4 rest,
                           float4 stiff, __global const float *jscale)
{
    FIX_GRID
    int x = get_global_id(0), y0 = get_global_id(1) * PR;
    if (x >= W || y0 >= H) return;
    size_t base = get_global_id(2) * (size_t)W * H;
    src += base;
    dst += base;
#if PR > 1 && defined(INTERIOR)
    if (x >= 2 && x < W - 2 && y0 >= 2 && y0 + PR - 1 < H - 2) {
        float4 win[(PR + 4) * 5];
        int i0 = (y0 - 2) * W + x;
#pragma unroll
        for (int j = 0; j < PR + 4; j++)
#pragma unroll
            for (int c = -2; c <= 2; c++)
                if (c >= -WR(j) && c <= WR(j)) win[j * 5 + 2 + c] = src[i0 + j * W + c];
#pragma unroll
        for (int r = 0; r < PR; r++) {
            int i = (r + 2) * 5 + 2, n = 0;
            float4 p = win[i];
            float sx = 0.0f, sy = 0.0f, sz = 0.0f;
#define WIN(dx, dy, f) JTERM(win, 5, dx, dy, f)
            FOR_SPRINGS(WIN)
#undef WIN
            dst[i0 + (r + 2) * W] = jacobi_move(p, sx, sy, sz, jscale[n]);
        }
        return;
    }
#endif
    for (int y = y0; y < y0 + PR && y < H; y++) {
        int i = y * W + x, n = 0;
        float4 p = src[i];
        float sx = 0.0f, sy = 0.0f, sz = 0.0f;
#define SUM(dx, dy, f) JSUM(src, W, dx, dy, f)
#define ALL(dx, dy, f) JTERM(src, W, dx, dy, f)
        if (INNER) {
            FOR_SPRINGS(ALL)
        } else {
            FOR_SPRINGS(SUM)
        }
#undef ALL
#undef SUM
        dst[i] = jacobi_move(p, sx, sy, sz, jscale[n]);
    }
}

#ifndef TX
#define TX 16
#endif
#ifndef TY
#define TY 16
#endif
#define TW (TX + 4)

/* As gather_seq, over the tile in local memory (row stride TW, the particle at t[i]). */
static float4 gather_tile(__local const float4 *buf, int i, int x, int y, int W, int H, float4 rest,
                          float4 stiff)
{
    float4 p = buf[i];
#define AT(dx, dy) buf[i + (dy)*TW + (dx)]
    FOR_SPRINGS(SEQ)
#undef AT
    return p;
}

/* One iteration, a TX x TY tile per work-group: the tile and a 2-particle halo from src into local memory,
 * then the 5 particle colours in turn inside the group (a barrier between colours), the halo held at src's
 * values; the tile written to dst. Gauss-Seidel inside a tile, Jacobi across tiles: deterministic. */
__kernel __attribute__((reqd_work_group_size(TX, TY, 1))) void
cloth_tile(__global const float4 *src, __global float4 *dst, int W, int H, float4 rest, float4 stiff)
{
    __local float4 t[(TY + 4) * TW];
    size_t base = get_global_id(2) * (size_t)W * H;
    src += base;
    dst += base;
    int lx = get_local_id(0), ly = get_local_id(1);
    int x0 = (int)get_group_id(0) * TX - 2, y0 = (int)get_group_id(1) * TY - 2;
    for (int k = ly * TX + lx; k < (TY + 4) * TW; k += TX * TY) {
        int u = x0 + k % TW, v = y0 + k / TW;
        if (u >= 0 && u < W && v >= 0 && v < H) t[k] = src[v * W + u];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int x = x0 + 2 + lx, y = y0 + 2 + ly, i = (ly + 2) * TW + lx + 2;
    bool in = x < W && y < H;
    int mine = (x + 2 * y) % 5;
    for (int c = 0; c < 5; c++) {
        if (in && mine == c) t[i] = gather_tile(t, i, x, y, W, H, rest, stiff);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (in) dst[y * W + x] = t[i];
}

#ifdef JK
/* Jacobi, JK iterations per launch (the last launch of a frame may do fewer: iters <= JK) on a TX x TY tile
 * with a halo of 2 JK particles (bend springs reach 2): the tile and halo from src into local memory, then
 * each iteration from one local buffer into the other over a region that shrinks by 2 a side (the cells the
 * next iteration still reads), the tile written to dst. Every cell is computed as cloth_jacobi computes it
 * (the same springs in the same order, the same operations), so the result is the same bits; the halo's
 * cells are computed by every tile that holds them (extra work for fewer launches and local gathers). */
#define JH  (2 * JK)
#define JW  (TX + 2 * JH)
#define JHT (TY + 2 * JH)

/* As cloth_jacobi's SUM over a local buffer of row stride JW, the particle at t[i]. */
static float4 jacobi_local(__local const float4 *t, int i, int x, int y, int W, int H, float4 rest,
                           float4 stiff, __global const float *jscale)
{
    float4 p = t[i];
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    int n = 0;
#define LSUM(dx, dy, f) JSUM(t, JW, dx, dy, f)
    FOR_SPRINGS(LSUM)
#undef LSUM
    return jacobi_move(p, sx, sy, sz, jscale[n]);
}

__kernel __attribute__((reqd_work_group_size(TX, TY, 1))) void
cloth_jtile(__global const float4 *src, __global float4 *dst, int W, int H, float4 rest, float4 stiff,
            __global const float *jscale, int iters)
{
    __local float4 buf[2][JHT * JW];
    size_t base = get_global_id(2) * (size_t)W * H;
    src += base;
    dst += base;
    int lid = (int)(get_local_id(1) * TX + get_local_id(0));
    int x0 = (int)get_group_id(0) * TX - JH, y0 = (int)get_group_id(1) * TY - JH;
    for (int k = lid; k < JHT * JW; k += TX * TY) {
        int u = x0 + k % JW, v = y0 + k / JW;
        if (u >= 0 && u < W && v >= 0 && v < H) buf[0][k] = src[v * W + u];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int a = 0;
    for (int j = 0; j < iters; j++) {
        int h = 2 * (iters - 1 - j), lo = JH - h, rw = TX + 2 * h, rh = TY + 2 * h;
        for (int k = lid; k < rw * rh; k += TX * TY) {
            int u = lo + k % rw, v = lo + k / rw, x = x0 + u, y = y0 + v;
            if (x >= 0 && x < W && y >= 0 && y < H)
                buf[a ^ 1][v * JW + u] = jacobi_local(buf[a], v * JW + u, x, y, W, H, rest, stiff, jscale);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        a ^= 1;
    }
    int x = x0 + JH + (int)get_local_id(0), y = y0 + JH + (int)get_local_id(1);
    if (x < W && y < H) dst[y * W + x] = buf[a][(JH + (int)get_local_id(1)) * JW + JH + (int)get_local_id(0)];
}
#endif

#ifdef SR
/* Jacobi with every spring computed once (the `jacobi-once` rung; cloth_jacobi computes each spring twice,
 * once for each of its particles). A group of TX work-items, one per column, walks a strip of SR rows (and 2
 * rows above it first); its TX - 3 middle columns are its output, the 2 columns left of them and the one right
 * of them only lend their springs. At row r each work-item computes the 6 springs its particle (x, r) starts:
 * to (x+1, r), (x+2, r), (x, r+1), (x, r+2), (x+1, r+1), (x-1, r+1); the other 6 of its springs are these of
 * its neighbours: the 2 to the left from this row and the 2 diagonals from the row above (through local
 * memory), the 2 above from its own earlier rows (registers). A spring's factor has the same bits from
 * either end (the squared length of b - a and of a - b are the same), and every particle sums its 12 springs
 * in cloth_jacobi's order with the same operations, so the result is the same bits as jacobi's. Positions:
 * 5 rows in local memory (a ring: a slot is rewritten two steps after its last read, with a step's two
 * barriers between; with 4, a step would rewrite the slot the step before read after its last barrier),
 * TX + 1 columns of each (one column right of the group for the (x+2, r) springs). */
#define RING 5
__kernel __attribute__((reqd_work_group_size(TX, 1, 1))) void
cloth_jonce(__global const float4 *src, __global float4 *dst, int W, int H, float4 rest, float4 stiff,
            __global const float *jscale)
{
    __local float4 P[RING][TX + 1];
    __local float F10[TX], F20[TX], F11[2][TX], FM11[2][TX];
    size_t base = get_global_id(2) * (size_t)W * H;
    src += base;
    dst += base;
    int lx = (int)get_local_id(0), x0 = (int)get_group_id(0) * (TX - 3) - 2, x = x0 + lx;
    int y0 = (int)get_group_id(1) * SR, yend = min(y0 + SR, H);
    bool col = x >= 0 && x < W, out = col && lx >= 2 && lx <= TX - 2;
    int xe = x0 + TX; /* the extra column, loaded by work-item 0 */
    /* Own column, rows r - 2 .. r + 2; the own vertical springs of rows r - 2 and r - 1. */
    float4 c0 = (float4)(0.0f), c1 = (float4)(0.0f), c2 = (float4)(0.0f), c3 = (float4)(0.0f), c4;
    float f01u = 0.0f, f02uu = 0.0f, f02u = 0.0f;
    for (int v = y0 - 2; v < y0; v++) {
        if (v >= 0 && v < H) {
            float4 q = col ? src[v * W + x] : (float4)(0.0f);
            if (col) P[(v - y0 + 2) % RING][lx] = q;
            if (lx == 0 && xe < W) P[(v - y0 + 2) % RING][TX] = src[v * W + xe];
            if (v == y0 - 2) c2 = q;
            else c3 = q;
        }
    }
    for (int r = y0 - 2, s = 0; r < yend; r++, s++) {
        int s0 = s % RING, s1 = (s + 1) % RING, s2 = (s + 2) % RING, sm = (s + RING - 1) % RING;
        int v = r + 2, y = r; /* INSIDE reads x, y */
        c4 = (float4)(0.0f);
        if (v < H) {
            if (col) c4 = P[s2][lx] = src[v * W + x];
            if (lx == 0 && xe < W) P[s2][TX] = src[v * W + xe];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* The springs (x, r) starts, where both ends are in the grid and someone reads them. */
        float f10 = 0.0f, f20 = 0.0f, f01 = 0.0f, f02 = 0.0f, f11 = 0.0f, fm11 = 0.0f;
        float4 p = c2, e10 = (float4)(0.0f), e20 = e10, e11 = e10, em11 = e10;
        bool row = col && r >= 0;
        if (row) {
            if (lx <= TX - 2 && INSIDE(1, 0)) {
                e10 = P[s0][lx + 1];
                f10 = spring_factor(p, e10, rest.x, stiff.x);
            }
            if (lx <= TX - 2 && INSIDE(2, 0)) {
                e20 = P[s0][lx + 2];
                f20 = spring_factor(p, e20, rest.z, stiff.z);
            }
            if (lx <= TX - 2 && INSIDE(1, 1)) {
                e11 = P[s1][lx + 1];
                f11 = spring_factor(p, e11, rest.y, stiff.y);
            }
            if (lx >= 1 && INSIDE(-1, 1)) {
                em11 = P[s1][lx - 1];
                fm11 = spring_factor(p, em11, rest.y, stiff.y);
            }
            if (out && INSIDE(0, 1)) f01 = spring_factor(p, c3, rest.x, stiff.x);
            if (out && INSIDE(0, 2)) f02 = spring_factor(p, c4, rest.z, stiff.z);
            F10[lx] = f10;
            F20[lx] = f20;
            F11[s & 1][lx] = f11;
            FM11[s & 1][lx] = fm11;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (out && r >= y0) {
            int n = 0;
            float sx = 0.0f, sy = 0.0f, sz = 0.0f;
            float4 q;
            /* TERM(q, f): the spring to q with factor f, as JSUM adds it. */
#define TERM(qq, ff)                                                                                         \
    {                                                                                                        \
        q = qq;                                                                                              \
        float fa = (ff) * share(p.w, q.w);                                                                   \
        ACC(sx, q.x - p.x, fa);                                                                              \
        ACC(sy, q.y - p.y, fa);                                                                              \
        ACC(sz, q.z - p.z, fa);                                                                              \
        n++;                                                                                                 \
    }
            /* cloth_jacobi's order (FOR_SPRINGS) */
            if (INSIDE(1, 0)) TERM(e10, f10)
            if (INSIDE(-1, 0)) TERM(P[s0][lx - 1], F10[lx - 1])
            if (INSIDE(0, 1)) TERM(c3, f01)
            if (INSIDE(0, -1)) TERM(c1, f01u)
            if (INSIDE(1, 1)) TERM(e11, f11)
            if (INSIDE(-1, -1)) TERM(P[sm][lx - 1], F11[(s + 1) & 1][lx - 1])
            if (INSIDE(1, -1)) TERM(P[sm][lx + 1], FM11[(s + 1) & 1][lx + 1])
            if (INSIDE(-1, 1)) TERM(em11, fm11)
            if (INSIDE(2, 0)) TERM(e20, f20)
            if (INSIDE(-2, 0)) TERM(P[s0][lx - 2], F20[lx - 2])
            if (INSIDE(0, 2)) TERM(c4, f02)
            if (INSIDE(0, -2)) TERM(c0, f02uu)
#undef TERM
            dst[r * W + x] = jacobi_move(p, sx, sy, sz, jscale[n]);
        }
        c0 = c1;
        c1 = c2;
        c2 = c3;
        c3 = c4;
        f02uu = f02u;
        f02u = f02;
        f01u = f01;
    }
}
#endif
