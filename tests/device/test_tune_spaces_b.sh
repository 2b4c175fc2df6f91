#!/usr/bin/env bash
# Device test of the tuning spaces of transpose, convolution and filter3x3 (`clgauge tune`, issue 20) on the
# default device, at sizes that are not multiples of any tile or block: every candidate either runs and
# passes the check with its own values reaching the kernel (its work-group as launched, its local memory as
# the kernel reports it), or is skipped as unsupported with the workload's reason. Nothing is clamped.
#  1. transpose:best, tiles 8, 64, 128 x rows 2, 16 (exhaustive, --check exact), local memory capped at 48 KiB: the
#     float4 kernel's group is tile/4 x rows and its local tile tile x (tile + 1) floats; rows that do not
#     divide the tile and the 128 tile (66048 B) are skipped with their reasons;
#  2. transpose:naive: local size NULL (tile=0,rows=0) runs as "auto"; one side 0 is refused;
#  3. filter3x3:f32-vec: NULL and 16x4 with 16 px; one side 0 and px=2 refused; filter3x3:u8-local:
#     NULL refused (its tile is the group), a tile over a 256 B local-memory cap refused with its bytes;
#  4. convolution:best (3x3 filter, --check exact): bx not a multiple of 4 and a block wider than the input's
#     padding refused; the rules' groups (64x1, 32x4, 64x3) run and pass.
# Usage: bash test_tune_spaces_b.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

tune_setup tune_spaces_b

# 1. transpose:best: the smallest and largest tiles, rows dividing them or not (3 tiles x 4 rows, and the
#    rung's own tile=64,rows=16).
CLGAUGE_LOCAL_MEM_CAP=49152 tune transpose:best --size 65x37 --check exact --space 'tile=8,64,128;rows=2,16'
check "transpose:best space" '
if len(rows) != 6: bad.append("want 6 candidates, got %d" % len(rows))
for t in (8, 64):
    for n in (2, 16):
        p = "tile=%d,rows=%d" % (t, n)
        if t % n:
            skip(p, "does not divide tile=%d" % t)
            continue
        r = ok(p)
        if r and (r["wg_local"], r["kernel_local_bytes"]) != ("%dx%d" % (t // 4, n), t * (t + 1) * 4):
            bad.append("%s: launched %s with %s B local" % (p, r["wg_local"], r["kernel_local_bytes"]))
for n in (2, 16):
    skip("tile=128,rows=%d" % n, "needs 66048 B of local memory")
'

# 2. transpose:naive: NULL, one side 0, any group.
tune transpose:naive --size 67x5 --space 'tile=0,64;rows=0,8'
check "transpose:naive NULL" '
r = ok("tile=0,rows=0")
if r and r["wg_local"] != "auto": bad.append("tile=0,rows=0 launched %s, not NULL" % r["wg_local"])
for p in ("tile=0,rows=8", "tile=64,rows=0"):
    skip(p, "local size NULL needs both 0")
for t in (64,):
    for n in (8,):
        r = ok("tile=%d,rows=%d" % (t, n))
        if r and r["wg_local"] != "%dx%d" % (t, n): bad.append("tile=%d,rows=%d launched %s" % (t, n, r["wg_local"]))
'

# 3. filter3x3: the vec kernel with NULL and each vector width; the local kernel's tile.
tune filter3x3:f32-vec --size 37x7 --space 'wgx=0,16;wgy=0,4;px=2,16'
check "filter3x3:f32-vec" '
for px in (16,):
    r = ok("wgx=0,wgy=0,px=%d" % px)
    if r and r["wg_local"] != "auto": bad.append("px=%d NULL launched %s" % (px, r["wg_local"]))
    r = ok("wgx=16,wgy=4,px=%d" % px)
    if r and r["wg_local"] != "16x4": bad.append("px=%d 16x4 launched %s" % (px, r["wg_local"]))
    skip("wgx=0,wgy=4,px=%d" % px, "local size NULL needs both 0")
    skip("wgx=16,wgy=0,px=%d" % px, "local size NULL needs both 0")
skip("wgx=16,wgy=4,px=2", "built for 4, 8 or 16 pixels")
'
CLGAUGE_LOCAL_MEM_CAP=256 tune filter3x3:u8-local --size 37x7 --space 'wgx=0,8,64;wgy=0,2,4'
check "filter3x3:u8-local" '
skip("wgx=0,wgy=0", "sizes its local tile by the work-group")
skip("wgx=64,wgy=4", "needs 396 B of local memory")
skip("wgx=64,wgy=2", "needs 264 B of local memory")
for p, b in (("wgx=8,wgy=2", 40), ("wgx=8,wgy=4", 60)):
    r = ok(p)
    if r and r["kernel_local_bytes"] != b: bad.append("%s: %s B local, want %d" % (p, r["kernel_local_bytes"], b))
'

# 4. convolution:best: the block kernel's constraints and the rules' groups.
tune convolution:best --size 35x9 --filter 3 --check exact --space 'bx=4,6,8;by=1;lx=128;ly=4'
check "convolution:best" '
skip("bx=6,by=1,lx=128,ly=4", "not a multiple of 4")
skip("bx=8,by=1,lx=128,ly=4", "read past the input")
r = ok("bx=4,by=1,lx=128,ly=4")
if r and (r["wg_local"], r["kernel_local_bytes"]) != ("128x4", 48):
    bad.append("bx=4,by=1,lx=128: launched %s with %s B local" % (r["wg_local"], r["kernel_local_bytes"]))
for g in ("lx=64,ly=1", "lx=32,ly=4", "lx=64,ly=3"):
    ok("bx=8,by=4," + g)
'

finish
