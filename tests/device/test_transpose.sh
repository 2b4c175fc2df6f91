#!/usr/bin/env bash
# Device test of the transpose ladder on the default device: every rung at odd non-square sizes (333x517: no
# multiple of any tile or of 4; 1001x3: one row of tiles, a ragged float4 edge) and at an aligned non-square
# one (256x64: the float4 fast path) against the exact CPU reference; three deliberately wrong kernels (a
# skipped element, a tile not transposed inside, a wrong lane at the ragged float4 edge) caught with exit 3;
# and the size errors (beyond the int index range, beyond the largest allocation) with exit 1.
# Usage: bash test_transpose.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

# 1. Every rung ok at each size, with the size in every row and no mismatch.
for size in 333x517 1001x3 256x64; do
    json=$TESTTMP/tr_$size.json
    rm -f "$json"
    "$BIN" run transpose --size "$size" --runs 2 --warmup 1 --json "$json" >"$TESTTMP/tr.out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || { cat "$TESTTMP/tr.out"; fail "run transpose --size $size exited $rc, want 0"; }
    [ -s "$json" ] || { fail "no JSON report at $json"; continue; }
    python3 - "$json" "$size floats" <<'EOF' || fail "JSON checks at $size (above)"
import json, sys
rep = json.load(open(sys.argv[1]))
rows = [r for r in rep["results"] if r["workload"] == "transpose"]
names = [r["rung"] for r in rows]
bad = [n for n in ("naive", "local16", "diag16", "pad16", "tile32", "vec4", "best") if n not in names]
bad += ["%s: %s %s" % (r["rung"], r["status"], r.get("reason", "")) for r in rows if r["status"] != "ok"]
bad += ["%s: size %r" % (r["rung"], r.get("size")) for r in rows if r.get("size") != sys.argv[2]]
bad += ["%s: %s mismatches" % (r["rung"], r.get("mismatches")) for r in rows if r.get("mismatches", 1) != 0]
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF
done

# 2. Wrong kernels must be caught (exit 3, FAILED).
wrong=$TESTTMP/tr_wrong
make_wrong transpose.cl "$wrong" <<'EOF'
[("if (x < w && y < h) out[x * h + y]", "if (x < w && y < h && !(x == 5 && y == 3)) out[x * h + y]"),
 ("out[(oy0 + j) * h + ox] = tile[lx][ly + j];", "out[(oy0 + j) * h + ox] = tile[ly + j][lx];"),
 ("    out[y * w + x] = v.s0;", "    out[y * w + x] = v.s1;")]
EOF
for rung in naive pad16 vec4; do
    expect_wrong "wrong $rung kernel" -- \
        "$BIN" run "transpose:$rung" --kernel-dir "$wrong" --no-cache --size 333x517 --runs 1 --warmup 0
done

# 3. Sizes that cannot run: exit 1 with the limit named.
expect 1 "2^31-1 elements" -- "$BIN" run transpose --size 70000x70000
side=$(alloc_side) || fail "could not read max_alloc from clgauge devices --json"
[ -z "$side" ] || expect 1 "largest allocation" -- "$BIN" run transpose --size "${side}x${side}"

finish
