#!/usr/bin/env bash
# Device test of the histogram ladder on the default device, checked exactly against the CPU count:
#  1. every rung at sizes with every residue modulo 16 (the uint4 rungs' byte tail), below one uint4, around
#     one group and one grid step, for each --pattern, and with --check exact (runs of ascending bins, each
#     bin its own count, lanes of a uint4 told apart);
#  2. deliberately broken kernels, each one plausible bug, must fail (exit 3, FAILED): a dropped byte tail, a
#     grid's dropped remainder loop, a byte lane counted twice, a sub-histogram left out of the merge, one
#     extra count per merged bin, a missing barrier after zeroing or before merging the local histogram
#     (PoCL's work-item loops split at barriers, so a missing one shows), and a plain ++ where the global
#     atomic belongs (all-equal bytes: groups on
#     different CPU threads lose counts; races inside one group cannot show on PoCL, see
#     docs/workloads/histogram.md);
#  3. bad --pattern / --check use: exit 1 with one line.
# Usage: bash test_histogram.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

run1() { "$BIN" run "$@" --runs 1 --warmup 1; }

# 1. Sizes 1..17 (every n % 16, nothing but tail below 16), 4111 (a few groups, tail 15), 65536 (aligned),
#    65551 and 1000003 (grids with remainder loops).
for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 4111 65536 65551 1000003; do
    expect_ok "histogram --size $n" -- run1 histogram --size "$n"
done
for n in 1 15 17 4111 1000003; do
    expect_ok "histogram --size $n --check exact" -- run1 histogram --size "$n" --check exact
done
for pat in allequal image; do
    expect_ok "histogram --pattern $pat" -- run1 histogram --size 1000003 --pattern "$pat"
done

json=$TESTTMP/hist.json
rm -f "$json"
run1 histogram --size 1000003 --check exact --json "$json" >"$TESTTMP/hist.out" 2>&1 || { cat "$TESTTMP/hist.out"; fail "run"; }
python3 - "$json" <<'PY' || fail "JSON checks (above)"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["results"] if r["workload"] == "histogram"]
names = [r["rung"] for r in rows]
bad = ["rung %s missing" % w for w in ("global-atomic", "local", "local-spread", "packed-uint4", "best",
                                       "deep-loads") if w not in names]
bad += ["%s: %s" % (r["rung"], r["status"]) for r in rows if r["status"] != "ok"]
bad += ["%s: size %r" % (r["rung"], r.get("size")) for r in rows if r.get("size") != "1000003 B, exact"]
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY

# 2. Broken kernels.
wrong=$TESTTMP/hist_wrong
mut() { rm -rf "$wrong"; make_wrong histogram.cl "$wrong"; }
caught() {
    local what=$1 target=$2 size=$3
    shift 3
    expect_wrong "$what" -- "$BIN" run "$target" --kernel-dir "$wrong" --no-cache --size "$size" --runs 1 \
        --warmup 1 "$@"
}
mut <<'EOF'
[("    if (t < n) COUNT(h, copy, ((__global const uchar *)in)[t]);\n", "")]
EOF
caught "uint4 kernel without its byte tail" histogram:packed-uint4 4111
caught "uint4 kernel without its byte tail, below 16 bytes" histogram:best 15
mut <<'EOF'
[("    for (; i < nv; i += stride)\n        count16(h, copy, in[i]);\n", "")]
EOF
caught "grid without its remainder loop" histogram:best 1000003
mut <<'EOF'
[("    COUNT(h, copy, (x >> 16) & 0xFF);", "    COUNT(h, copy, (x >> 8) & 0xFF);")]
EOF
caught "a byte lane counted twice" histogram:packed-uint4 1000003
caught "a byte lane counted twice (exact)" histogram:packed-uint4 1000003 --check exact
mut <<'EOF'
[("        for (uint c = 0; c < COPIES; c++)", "        for (uint c = 0; c + 1 < COPIES || c < 1; c++)")]
EOF
caught "a sub-histogram left out of the merge" histogram:local-spread 1000003
mut <<'EOF'
[("if (s) atomic_add(&out[b], s);", "if (s) atomic_add(&out[b], s + 1);")]
EOF
caught "one extra count per merged bin" histogram:local 4096
mut <<'EOF'
[("        h[i] = 0;\n    barrier(CLK_LOCAL_MEM_FENCE);", "        h[i] = 0;")]
EOF
caught "no barrier after zeroing the local histogram" histogram:local-spread 100003
mut <<'EOF'
[("void local_merge(__local uint *h, __global uint *out)\n{\n    barrier(CLK_LOCAL_MEM_FENCE);", "void local_merge(__local uint *h, __global uint *out)\n{")]
EOF
caught "no barrier before the merge" histogram:best 100003
mut <<'EOF'
[("    if (i < n) atomic_inc(&out[in[i]]);", "    if (i < n) out[in[i]]++;")]
EOF
caught "plain ++ instead of the global atomic" histogram:global-atomic 1M --pattern allequal

# 3. Bad --pattern / --check use: exit 1 with one line naming the valid values, or naming histogram.
expect 1 "random|allequal|image" -- "$BIN" run histogram --pattern bogus --size 4096
expect 1 "histogram" -- "$BIN" run reduction --pattern random --size 4096
expect 1 "random or exact" -- "$BIN" run histogram --check 1 --size 4096

finish
