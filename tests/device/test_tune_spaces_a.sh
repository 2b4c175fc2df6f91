#!/usr/bin/env bash
# Device test of the tuning spaces of reduction, histogram and scan (`clgauge tune`, issue 20) on the default
# device, at sizes that are not multiples of any group or tile: every candidate either runs and passes the
# check with its own values reaching the kernel (its work-group as launched, its local memory as the kernel
# reports it), or is skipped as unsupported with the workload's reason. Nothing is clamped or rounded.
#  1. reduction:best at the extremes (wg 32 and 1024, loads 16, grid 16) under a 2 KiB local-memory cap (wg
#     1024 refused with its bytes), and values no kernel takes (wg 48, loads 0, grid 0) refused with their
#     reasons (test_tune.sh checks the mapping-3waves rule's wg=192 refusal and a whole small space);
#  2. histogram:best at the extremes on u32 all-equal pixels: 256 x copies x 4 B of local memory as launched;
#     copies above the work-group, a wg that is no power of two and a grid of another kind refused;
#     histogram:cpu-private (one work-item a group) with 1 and 8 private copies and 1 and 8 groups a compute
#     unit on a size with a tail of 3 pixels, 9 copies refused;
#  3. scan:best (float, inclusive) at the extremes under a 48 KiB cap: a tile over it refused, every other
#     one runs; wg 16 (narrower than the look-back window) and items 0 refused; scan:chunked, its whole space.
# Usage: bash test_tune_spaces_a.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

tune_setup tune_spaces_a

# 1. reduction.
CLGAUGE_LOCAL_MEM_CAP=2048 tune reduction:best --size 100003 --space 'wg=32,48,1024;loads=0,16;grid=0,16'
check "reduction:best extremes" '
for w in (32, 48, 1024):
    for l in (0, 16):
        for g in (0, 16):
            p = "wg=%d,loads=%d,grid=%d" % (w, l, g)
            if w == 48: skip(p, "wg=48: the kernels need a power of two")
            elif w == 1024: skip(p, "needs 4096 B of local memory")
            elif l == 0: skip(p, "loads=0: each work-item needs at least 1")
            elif g == 0: skip(p, "grid=0: the rung")
            else: launched(p, w, 4 * w)
'

# 2. histogram.
tune histogram:best --size 100003 --pixel u32 --pattern allequal \
    --space 'wg=64,96,1024;copies=1,128;loads=0,4;grid=0,6'
check "histogram:best extremes" '
for w in (64, 96, 1024):
    for c in (1, 128):
        for l in (0, 4):
            for g in (0, 6):
                p = "wg=%d,copies=%d,loads=%d,grid=%d" % (w, c, l, g)
                if w == 96: skip(p, "wg=96: the kernels need a power of two")
                elif c > w: skip(p, "copies=%d: 1 to wg=%d" % (c, w))
                elif l == 0: skip(p, "loads=0: the rung")
                elif g == 0: skip(p, "grid=0: the rung runs a grid")
                else: launched(p, w, 1024 * c)
'

tune histogram:cpu-private --size 100003 --space 'copies=1,8,9;grid=1,8'
check "histogram:cpu-private" '
for c in (1, 8):
    for g in (1, 8):
        launched("copies=%d,grid=%d" % (c, g), 1, 0)
for g in (1, 8):
    skip("copies=9,grid=%d" % g, "copies=9: 1 to 8 private copies")
ok("copies=4,grid=4")
'

# 3. scan.
CLGAUGE_LOCAL_MEM_CAP=49152 tune scan:best --size 100003 --type float --inclusive --space 'wg=16,1024;items=0,32'
check "scan:best extremes" '
for w in (16, 1024):
    for i in (0, 32):
        p = "wg=%d,items=%d" % (w, i)
        t = w * i
        need = (t + t // 32 + w + w // 32 + 33) * 4 + 256
        if w == 16: skip(p, "the look-back window polls 32 tiles")
        elif i == 0: skip(p, "items=0: at least 1")
        elif need > 49152: skip(p, "needs %d B of local memory" % need)
        else: ok(p)
ok("wg=128,items=16")
'
tune scan:chunked --size 100003 --space 'items=1024,131072'
check "scan:chunked space" '
for i in (1024, 131072):
    launched("items=%d" % i, 1, 0)
'

finish
