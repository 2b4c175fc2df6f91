#!/usr/bin/env bash
# Device test of the reduction ladder on the default device against the CPU reference:
#  1. every rung at sizes that take every path of every rung: n % 4 = 0..3 (the float4 rungs' scalar tail),
#     below, at and just past one group (256, 512 elements), one and several multi-pass passes, grids that
#     are not full, and both --check modes (random values in [0.5, 1) under the forward error bound; exact
#     integers with tolerance 0); nv-shfl must be `unsupported` off NVIDIA;
#  2. deliberately broken kernels, each one plausible bug, must fail (exit 3, FAILED): a dropped scalar tail,
#     one lost element, a wrong weight of 1.0001, a grid's dropped remainder loop, a partial that a rung does
#     not write (passes when an earlier rung left the right value there, unless the core poisons
#     intermediates), a tree without its barrier between levels, and the historical wrong kernel
#     (tests/data/wrong/reduction.cl);
#  3. the documented sizes are accepted (--check exact refuses what it cannot do exactly).
# Usage: bash test_reduction.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

run1() { "$BIN" run "$@" --runs 1 --warmup 1; }

# 1. Sizes: 1..5 (less than a float4, one float4 and a tail), 255/256/257 and 511/512/513 (one group of 256 and
#    of 2 x 256 elements, +-1), 65536+0..3 (several passes, every n % 4), 100003 (a prime) and 262147 (three
#    multi-pass passes, grids with a remainder loop).
#    Each list is one sweep: one process, each size its own inputs and check, each program built once.
sizes=1,2,3,4,5,7,255,256,257,511,512,513,65536,65537,65538,65539,100003,262147
expect_ok "reduction --size $sizes" -- run1 reduction --size "$sizes"
expect_ok "reduction --size 1,3,257,513,65539,100003 --check exact" -- \
    run1 reduction --size 1,3,257,513,65539,100003 --check exact

# The JSON of one run: the size and bound_ratio (0 < ratio <= 1 in random mode, 0 in exact mode), nv-shfl.
json=$TESTTMP/red.json
rm -f "$json"
run1 reduction --size 100003 --json "$json" >"$TESTTMP/red.out" 2>&1 || { cat "$TESTTMP/red.out"; fail "run"; }
python3 - "$json" <<'EOF' || fail "JSON checks (above)"
import json, sys
rep = json.load(open(sys.argv[1]))
rows = [r for r in rep["results"] if r["workload"] == "reduction"]
bad = []
names = [r["rung"] for r in rows]
bad += ["rung %s missing" % w for w in ("naive", "strided", "sequential", "first-add", "vec4-many", "best",
                                        "nv-shfl", "chunked") if w not in names]
for r in rows:
    if r["status"] == "ok" and r.get("size") != "100003 floats":
        bad.append("%s: size %r" % (r["rung"], r.get("size")))
    if r["status"] == "ok" and not (0 <= r.get("bound_ratio", -1) <= 1):
        bad.append("%s: bound_ratio %r" % (r["rung"], r.get("bound_ratio")))
nvidia = "NVIDIA" in rep["device"]["platform"].upper()
bad += ["nv-shfl not unsupported off NVIDIA" for r in rows
        if r["rung"] == "nv-shfl" and not nvidia and r["status"] != "unsupported"]
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF

# 2. Broken kernels.
wrong=$TESTTMP/red_wrong
mut() { rm -rf "$wrong"; make_wrong reduction.cl "$wrong"; }
caught() { expect_wrong "$1" -- "$BIN" run "$2" --kernel-dir "$wrong" --size "$3" --runs 1 --warmup 1; }
mut <<'EOF'
[("if (t < n) v += ((__global const float *)in)[t];\n    float r = group_sum(v, s);", "float r = group_sum(v, s);")]
EOF
caught "vec4 without its scalar tail" reduction:vec4-many 100003
caught "vec4 without its scalar tail, 3 elements" reduction:best 7
mut <<'EOF'
[("        if (i < n) v += in[i];", "        if (i + 1 < n) v += in[i];")]
EOF
caught "one lost element" reduction:sequential 100003
mut <<'EOF'
[("        if (i < n) v += in[i];", "        if (i < n) v += in[i] * 1.0001f;")]
EOF
caught "weight 1.0001" reduction:first-add 100003
mut <<'EOF'
[("    for (; i < n4; i += stride)\n        acc[0] += in[i];\n    for (uint k = 1; k < LOADS; k++)\n        acc[0] += acc[k];\n    float v = (acc[0].x + acc[0].y) + (acc[0].z + acc[0].w);\n    uint t = n4 * 4 + gid;\n    if (t < n) v += ((__global const float *)in)[t];\n    float r = group_sum",
  "    for (uint k = 1; k < LOADS; k++)\n        acc[0] += acc[k];\n    float v = (acc[0].x + acc[0].y) + (acc[0].z + acc[0].w);\n    uint t = n4 * 4 + gid;\n    if (t < n) v += ((__global const float *)in)[t];\n    float r = group_sum")]
EOF
caught "grid without its remainder loop" reduction:best 100003
# group 0's partial never written: naive leaves the same partial in the shared buffer first
mut <<'EOF'
[("    float r = tree_sum(v, s);\n    if (lid == 0) out[get_group_id(0)] = r;",
  "    float r = tree_sum(v, s);\n    if (lid == 0 && (get_group_id(0) > 0 || get_num_groups(0) == 1)) out[get_group_id(0)] = r;")]
EOF
caught "unwritten partial after a rung that wrote it" reduction:naive,reduction:sequential 100003
mut <<'EOF'
[("        if (lid < st) s[lid] += s[lid + st];\n        barrier(CLK_LOCAL_MEM_FENCE);", "        if (lid < st) s[lid] += s[lid + st];")]
EOF
caught "no barrier between tree levels" reduction:sequential 100003
expect_wrong "historical wrong kernel" -- \
    "$BIN" run reduction:naive --kernel-dir "$TESTDATA/wrong" --size 4096 --runs 1 --warmup 0

# 3. Sizes: what --check exact cannot do is refused up front (exit 1, the limit named).
expect 1 "2^23" -- "$BIN" run reduction --check exact --size 16M
expect 1 "random or exact" -- "$BIN" run reduction --check bogus --size 4096

finish
