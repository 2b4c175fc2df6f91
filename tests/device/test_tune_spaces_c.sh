#!/usr/bin/env bash
# Device test of the tuning spaces of blur and opticalflow (`clgauge tune`, issue 20) on the default device, at
# sizes that are not multiples of any group, tile or block: every candidate either runs and passes the check
# with its own values reaching the kernel (its work-group as launched, its local memory as the kernel reports
# it), or is skipped as unsupported with the workload's reason. Nothing is clamped.
#  1. blur:fused: wgx 16 and 10 x py 4 and 33 (wgy 4): 16x4 with 4 rows a work-item launches 16x4 with its
#     LOCAL_FUSED bytes; wgx=10 (not a multiple of 4) and py=33 (over 32) refused;
#  2. blur:recursive-blocks: wg 0 (NULL, "auto") and 48 x blk 4 and 16: blk=4 is shorter than the carries were
#     sized for (8) and refused; blk=16 runs (a wrong -DBLK fails the check: the host's block maps are for 16);
#  2b. blur:rgH-tiles: wg 0, 48 (refused: not a multiple of 32) and 64 (32x2 groups, 64 x 17 floats of tiles)
#     with blocks of 16;
#  2c. blur:recursive-fixl: fy 1 and 3 verified, 0 and 33 refused; chunks of 3 blocks verified, 0 refused;
#  2d. blur:rgH-whole and recursive-whole: a group of 32 on rows of 42 blocks of 8 (two blocks for some
#     work-items) verified, rgH-whole's local row (42 x (8 + 1 + 6) floats) as the kernel reports it (its one
#     kernel: recursive-whole's facts are those of its slowest kernel, which varies); 48 refused (a multiple of
#     32); under a 2000 B local-memory cap the row does not fit and is refused;
#  2e. blur:recursive-colc: groups of 32 and 256 (one and eight warps' tiles) verified; blocks of 64 refused (the
#     columns' blocks are the tiles' 32 rows);
#  3. blur:sep-local 8x64 under a 9000 B local-memory cap: refused for the row kernel's 64 x (8 + 30) floats
#     (9728 B), more than the column kernel's tile;
#  4. opticalflow:best: NULL (wgx=0,wgy=0) runs as "auto", 16x4 as 16x4, one side 0 refused; sparse (--grid-step)
#     NULL and 3x4 are refused (1D groups of a power of two).
#  5. cloth:fma, cloth:colour, cloth:jacobi-once, cloth:interior-2rows, cloth:grid-rsq2 and cloth:merged-cm: the
#     group as given (16x4 and 8x1 for a gather rung, 32x1 for the spring rung, whose second dimension is the
#     cloth; jacobi-once's width and rows, its local memory), every candidate bit for bit against the host's
#     replay.
# Usage: bash test_tune_spaces_c.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

tune_setup tune_spaces_c

# 1. blur:fused: the group's x side, the rows per work-item.
tune blur:fused --size 37x29 --space 'wgx=16,10;wgy=4;py=4,33'
check "blur:fused" '
launched("wgx=16,wgy=4,py=4", "16x4", (4 * 4 + 30) * (((16 + 30) | 1) + 16 + 1) * 4)
for py in (4, 33):
    skip("wgx=10,wgy=4,py=%d" % py, "not a multiple of 4")
skip("wgx=16,wgy=4,py=33", "py=33: 1 to 32")
ok("wgx=32,wgy=8,py=8")
'

# 2. blur:recursive-blocks: NULL and a 48 group, blocks of 16 and a block too short for the carries.
tune blur:recursive-blocks --size 37x29 --space 'wg=0,48;blk=4,16'
check "blur:recursive-blocks" '
launched("wg=0,blk=16", "auto", 0)
# the row facts show the kernel with the most device time: a block pass (48x1) or the 1D fix-up (48), as
# the timing on the machine falls; either way the group of 48 reached the launch
r = ok("wg=48,blk=16")
if r and (r["wg_local"], r["kernel_local_bytes"]) not in (("48x1", 0), ("48", 0)):
    bad.append("wg=48,blk=16: launched %s with %s B local, want 48x1 or 48 with 0" % (r["wg_local"],
                                                                                  r["kernel_local_bytes"]))
for g in (0, 48):
    skip("wg=%d,blk=4" % g, "sized for blocks of 8 or more")
'

# 2b. blur:rgH-tiles: groups of 32 rows x wg/32 blocks (no NULL: -DWGX sizes the tiles); local memory wg x
#     (blk + 1) floats; a group that is not a multiple of 32 refused.
tune blur:rgH-tiles --size 37x29 --space 'wg=0,48,64;blk=16'
check "blur:rgH-tiles" '
r = ok("wg=64,blk=16")
# the row facts show the kernel with the most device time: a tile pass (32x2, its tile) or the fix-up (64)
if r and (r["wg_local"], r["kernel_local_bytes"]) not in (("32x2", 64 * 17 * 4), ("64", 0)):
    bad.append("wg=64,blk=16: launched %s with %s B local, want 32x2 with %d or 64 with 0" % (
        r["wg_local"], r["kernel_local_bytes"], 64 * 17 * 4))
for g in (0, 48):
    skip("wg=%d,blk=16" % g, "a multiple of 32")
'

# 2c. blur:recursive-fixl: its fix-ups' groups of 32 lines x fy work-items (fy 1 and 3 verified, 0 and 33
#     refused: 1 to 32) and chunks of cb blocks (3 verified: rows of 5 blocks of 8 are a chunk of 3 and a short
#     one; 0 refused: 1 to 64).
tune blur:recursive-fixl --size 37x29 --space 'wg=32;fy=1,3,0,33;cb=3,0;blk=8'
check "blur:recursive-fixl" '
ok("wg=32,fy=1,cb=3,blk=8")
ok("wg=32,fy=3,cb=3,blk=8")
for f in (0, 33):
    for c in (3, 0):
        skip("wg=32,fy=%d,cb=%d,blk=8" % (f, c), "1 to 32 work-items a line")
for f in (1, 3):
    skip("wg=32,fy=%d,cb=0,blk=8" % f, "1 to 64 blocks a chunk")
'

# 2d. rgH-whole (one kernel: its facts are the whole-row kernel's) and recursive-whole: the group walks the row's
#     blocks (42 of 8 at 333 px: two for work-items 0-9).
tune blur:rgH-whole --size 333x517 --space 'wg=32,48;blk=8'
check "blur:rgH-whole" '
launched("wg=32,blk=8", "32x1", 42 * (8 + 1 + 6) * 4)
skip("wg=48,blk=8", "a multiple of 32")
'
tune blur:recursive-whole --size 333x517 --space 'wg=32;blk=8'
check "blur:recursive-whole" '
ok("wg=32,blk=8")
'
CLGAUGE_LOCAL_MEM_CAP=2000 tune blur:rgH-whole --size 333x517 --space 'wg=32;blk=8'
check "blur:rgH-whole, 2000 B of local memory" '
skip("wg=32,blk=8", "needs 2520 B of local memory")
'

# 2e. blur:recursive-colc: the columns' carries from the row tiles at 1 and 8 warps a group; blk 64 refused.
tune blur:recursive-colc --size 333x517 --space 'wg=32,256;fy=3;cb=5;blk=32,64'
check "blur:recursive-colc" '
ok("wg=32,fy=3,cb=5,blk=32")
ok("wg=256,fy=3,cb=5,blk=32")
for g in (32, 256):
    skip("wg=%d,fy=3,cb=5,blk=64" % g, "blk 32 only")
'

# fused-ring: cx (0, 1, 2, 4) and blk (a multiple of 8) refused otherwise; local memory blk x (wgx + NV - 1) x cx
# floats, NV = (2R + 2cx - 1) / cx vectors. Under a 4000 B cap only wgx=8,cx=2,py=16,blk=16 fits (2944 B), so it
# wins; a run with --sigma 5.0 (the default, spelled otherwise) must find that winner, a run at sigma 4 not.
CLGAUGE_LOCAL_MEM_CAP=4000 tune blur:fused-ring --size 37x29 --space 'wgx=8;cx=3,2;py=16;blk=12,16'
check "blur:fused-ring" '
launched("wgx=8,cx=2,py=16,blk=16", "8x1", 16 * (8 + 16 - 1) * 2 * 4)
skip("wgx=8,cx=3,py=16,blk=16", "cx=3: 1, 2, 4 or 8")
skip("wgx=8,cx=2,py=16,blk=12", "blk=12: a multiple of 8")
skip("wgx=32,cx=0,py=0,blk=0", "needs 20480 B of local memory")  # cx 0: 4 on a CPU
'
# fused-ring with 8 columns a work-item (float8): widths of residues 5, 3 and 0 of 8, strips of 16 rows
tune blur:fused-ring --size 37x29,43x29,8x29 --sigma 3 --space 'wgx=8;cx=8;py=16;blk=8'
check "blur:fused-ring cx=8" '
r = [x for x in rows if x["params"] == "wgx=8,cx=8,py=16,blk=8"]
if len(r) != 3 or any(x["status"] != "ok" or not x["check_ok"] for x in r):
    bad.append("cx=8: %r" % [(x["size"], x["status"]) for x in r])
'
for sg in 5.0 4; do
    CLGAUGE_LOCAL_MEM_CAP=4000 "$BIN" run blur:fused-ring --size 37x29 --sigma $sg --runs 1 --warmup 0 \
        --cache-dir "$cache" --json "$TESTTMP/ring-key.json" >"$out" 2>&1
    python3 - "$TESTTMP/ring-key.json" $sg <<'EOF' || { cat "$out"; fail "fused-ring at sigma $sg: the tuning cache's key"; }
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
got = (r["status"], r["params"], r["params_from"])
want = ("ok", "wgx=8,cx=2,py=16,blk=16", "tuned") if sys.argv[2] == "5.0" else ("unsupported", "", "")
if got != want:
    print("got %s, want %s" % (got, want))
    sys.exit(1)
EOF
done

# fused-ring with 2 and 1 columns a work-item (test_blur covers the radius's own: 4 on a CPU up to radius 24,
# then 1), 8-row loads, 16-row strips: 61 rows are 3 strips and 13; 70 columns are 4 groups of 16 and 6 (cx
# 2), 8 groups of 8 and 6 (cx 1)
tune blur:fused-ring --size 70x61 --sigma 2 --space 'wgx=8;cx=1,2;py=16;blk=8'
check "blur:fused-ring cx" '
for cx in (1, 2):
    ok("wgx=8,cx=%d,py=16,blk=8" % cx)
'

# 3. blur:sep-local: the larger of its two kernels' tiles counts.
CLGAUGE_LOCAL_MEM_CAP=9000 tune blur:sep-local --size 37x29 --space 'wgx=8;wgy=64'
check "blur:sep-local" '
skip("wgx=8,wgy=64", "needs 9728 B of local memory")
'

# 4. opticalflow:best, dense then sparse.
tune opticalflow:best --size 67x45 --window 7 --space 'wgx=0,16;wgy=0,4'
check "opticalflow:best" '
launched("wgx=0,wgy=0", "auto", 0)
launched("wgx=16,wgy=4", "16x4", 0)
skip("wgx=0,wgy=4", "local size NULL needs both 0")
skip("wgx=16,wgy=0", "local size NULL needs both 0")
'
tune opticalflow:best --size 67x45 --window 7 --grid-step 5 --space 'wgx=0,3;wgy=0,4'
check "opticalflow:best sparse" '
for p in ("wgx=0,wgy=0", "wgx=3,wgy=4"):
    skip(p, "a power of two")
# the row facts show the kernel with the most device time: the 1D tracking kernel (256) or, as the timing on the
# machine falls, a 2D pyramid kernel (16x16); either way the 16x16 group reached the launch
r = ok("wgx=16,wgy=16")
if r and (str(r["wg_local"]), r["kernel_local_bytes"]) not in (("256", 0), ("16x16", 0)):
    bad.append("wgx=16,wgy=16: launched %s with %s B local, want 256 or 16x16 with 0" % (r["wg_local"],
                                                                                       r["kernel_local_bytes"]))
'

# 5. cloth: a gather rung's group (3D: the cloths are the third dimension) and the spring rung's.
tune cloth:fma --grid 37x29 --steps 2 --iterations 3 --space 'wgx=16,8;wgy=4,1'
check "cloth:fma" '
launched("wgx=16,wgy=4", "16x4x1", 0)
launched("wgx=8,wgy=1", "8x1x1", 0)
ok("wgx=16,wgy=16")
'
tune cloth:colour --grid 37x29 --steps 2 --iterations 3 --space 'wgx=32'
# the row's facts show the kernel with the most device time: the colour batches' (32x1) or, on a loaded machine
# where 72 tiny launches can sum to less, the integration's (32x1x1); either way wgx=32 reached the launch
check "cloth:colour" '
r = ok("wgx=32")
if r and (str(r["wg_local"]), r["kernel_local_bytes"]) not in (("32x1", 0), ("32x1x1", 0)):
    bad.append("wgx=32: launched %s with %s B local, want 32x1 or 32x1x1 with 0" % (r["wg_local"],
                                                                                r["kernel_local_bytes"]))
ok("wgx=64")
'
# jacobi-once: its group's width (TX - 3 columns out) and its strip's rows, over 3 groups across, strips of 4
# and 16 rows (45 leaves a short last strip of each), 2 cloths; local memory 5 (TX + 1) float4 + 6 TX floats.
tune cloth:jacobi-once --grid 67x45 --cloths 2 --steps 2 --iterations 3 --space 'wgx=32,64;rows=4,16'
check "cloth:jacobi-once" '
launched("wgx=32,rows=4", "32x1x1", 5 * 33 * 16 + 6 * 32 * 4)
launched("wgx=64,rows=16", "64x1x1", 5 * 65 * 16 + 6 * 64 * 4)
ok("wgx=32,rows=16")
ok("wgx=128,rows=16")
'
# interior-2rows: groups of work-items that take 2 rows each (29 rows: 15 rows of work-items, the last one
# particle short), and grid-rsq2's compiled-in grid, 2 cloths
tune cloth:interior-2rows --grid 37x29 --cloths 2 --steps 2 --iterations 3 --space 'wgx=16;wgy=4,1'
check "cloth:interior-2rows" '
launched("wgx=16,wgy=4", "16x4x1", 0)
launched("wgx=16,wgy=1", "16x1x1", 0)
ok("wgx=16,wgy=16")
'
tune cloth:grid-rsq2 --grid 37x29 --cloths 2 --steps 2 --iterations 3 --space 'wgx=8;wgy=4'
check "cloth:grid-rsq2" '
launched("wgx=8,wgy=4", "8x4x1", 0)
ok("wgx=16,wgy=16")
'
# merged-cm: a gather rung's group over the colour-major store
tune cloth:merged-cm --grid 37x29 --cloths 2 --steps 2 --iterations 3 --space 'wgx=16,8;wgy=4,1'
check "cloth:merged-cm" '
launched("wgx=16,wgy=4", "16x4x1", 0)
launched("wgx=8,wgy=1", "8x1x1", 0)
ok("wgx=64,wgy=1")
'

finish
