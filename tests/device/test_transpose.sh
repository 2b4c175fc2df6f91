#!/usr/bin/env bash
# Device test of the transpose ladder on the default device against the exact CPU reference:
#  1. every rung at every w % 4 and h % 4 (0..3 each way, non-square, crossing 16-, 32- and 64-wide tiles),
#     one element, one row, one column, a row of tiles with a ragged float4 edge (1001x3), an aligned
#     non-square size (the float4 fast path), with random data and with --check exact (each element its own
#     index, so a misplaced one says where);
#  2. deliberately broken kernels, each one plausible bug, must fail (exit 3, FAILED): a skipped element, a
#     tile not transposed inside, a wrong lane at the ragged edge, a ragged-edge lane not loaded or not
#     stored, an off-by-one vector bound, x and y swapped in a store, a skipped tile row, a missing barrier;
#  3. sizes that cannot run: exit 1 with the limit named.
# Usage: bash test_transpose.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

run1() { "$BIN" run "$@" --runs 1 --warmup 1; }

# 1. w = 64..67 by h = 36..39: every (w % 4, h % 4); then the odd shapes. Each list is one sweep (one process:
#    every size its own inputs, poison and check; each program built once).
size=$(for w in 64 65 66 67; do for h in 36 37 38 39; do echo "${w}x$h"; done; done | paste -sd,)
expect_ok "transpose --size $size" -- run1 transpose --size "$size"
size=1x1,1x67,67x1,2x3,3x2,333x517,1001x3,256x64,130x70
expect_ok "transpose --size $size" -- run1 transpose --size "$size"
expect_ok "transpose --size $size --check exact" -- run1 transpose --size "$size" --check exact

json=$TESTTMP/tr.json
rm -f "$json"
run1 transpose --size 333x517 --json "$json" >"$TESTTMP/tr.out" 2>&1 || { cat "$TESTTMP/tr.out"; fail "run"; }
python3 - "$json" "333x517 floats" <<'EOF' || fail "JSON checks (above)"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["results"] if r["workload"] == "transpose"]
names = [r["rung"] for r in rows]
bad = [n for n in ("naive", "seed-local16", "seed-skew16", "local16", "diag16", "pad16", "tile32", "vec4", "best") if n not in names]
bad += ["%s: %s %s" % (r["rung"], r["status"], r.get("reason", "")) for r in rows if r["status"] != "ok"]
bad += ["%s: size %r" % (r["rung"], r.get("size")) for r in rows if r.get("size") != sys.argv[2]]
bad += ["%s: %s mismatches" % (r["rung"], r.get("mismatches")) for r in rows if r.get("mismatches", 1) != 0]
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF

# 2. Broken kernels: each must fail at the sizes given (exit 3, FAILED).
wrong=$TESTTMP/tr_wrong
mut() { rm -rf "$wrong"; make_wrong transpose.cl "$wrong"; }
caught() {
    local what=$1 rung=$2
    shift 2
    for size in "$@"; do
        expect_wrong "$what ($rung, $size)" -- \
            "$BIN" run "transpose:$rung" --kernel-dir "$wrong" --size "$size" --runs 1 --warmup 1
    done
}
mut <<'EOF'
[("if (x < w && y < h) out[x * h + y]", "if (x < w && y < h && !(x == 5 && y == 3)) out[x * h + y]")]
EOF
caught "a skipped element" naive 333x517
mut <<'EOF'
[("out[(oy0 + j) * h + ox] = tile[lx][ly + j];", "out[(oy0 + j) * h + ox] = tile[ly + j][lx];")]
EOF
caught "a tile not transposed inside" pad16 333x517
mut <<'EOF'
[("    out[y * w + x] = v.s0;", "    out[y * w + x] = v.s1;")]
EOF
caught "a wrong lane at the ragged edge" vec4 333x517
mut <<'EOF'
[("    if (x + 2 < w) v.s2 = in[y * w + x + 2];\n", "")]
EOF
caught "ragged-edge lane 2 not loaded" vec4 67x36 3x2
mut <<'EOF'
[("    if (x + 2 < w) out[y * w + x + 2] = v.s2;\n", "")]
EOF
caught "ragged-edge lane 2 not stored" best 64x39 2x3
mut <<'EOF'
[("    if (x + 3 < w) {\n#if ALIGN4\n        return", "    if (x + 4 < w) {\n#if ALIGN4\n        return")]
EOF
caught "off-by-one float4 bound" vec4 64x36 64x37
mut <<'EOF'
[("store4(out, v, ox, oy0 + j, h, w);", "store4(out, v, ox, oy0 + j, w, h);")]
EOF
caught "x and y swapped in the store" best 66x37 1x67
mut <<'EOF'
[("    for (int j = 0; j < TILE; j += ROWS)\n        if (ox < h", "    for (int j = 0; j < TILE - ROWS; j += ROWS)\n        if (ox < h")]
EOF
caught "a skipped tile row" tile32 65x38
mut <<'EOF'
[("    barrier(CLK_LOCAL_MEM_FENCE);\n    int ox = by * TILE + lx,", "    int ox = by * TILE + lx,")]
EOF
caught "a missing barrier" local16 333x517

# 3. Sizes that cannot run: exit 1 with the limit named.
expect 1 "2^31-1 elements" -- "$BIN" run transpose --size 70000x70000
side=$(alloc_side) || fail "could not read max_alloc from clgauge devices --json"
[ -z "$side" ] || expect 1 "largest allocation" -- "$BIN" run transpose --size "${side}x${side}"

finish
