#!/usr/bin/env bash
# Device test of the histogram ladder on the default device, checked exactly against the CPU count:
#  1. every rung at sizes with every residue modulo 16 (the uint4 rungs' pixel tail), below one uint4, around
#     one group and one grid step, for each --pattern, and with --check exact (runs of ascending bins, each
#     bin its own count, lanes of a uint4 told apart); the same with --pixel u32 (every residue modulo 4);
#  2. deliberately broken kernels, each one plausible bug, must fail (exit 3, FAILED): a dropped byte tail, a
#     grid's dropped remainder loop, a byte lane counted twice, a sub-histogram left out of the merge, one
#     extra count per merged bin, a missing barrier after zeroing or before merging the local histogram
#     (PoCL's work-item loops split at barriers, so a missing one shows; a plain ++ where the global atomic
#     belongs is a GPU-only mutant, see below); for the seed's rungs a per-work-item row not
#     fully zeroed, a second pass that drops the last row or has no barrier, a two-pass merge that skips
#     zero bins (they keep the poison), and for 32-bit pixels a uint4 lane counted twice;
#     and for the one-launch merges a ticket never reset (the rung's next run finds no last group);
#  3. bad --pattern / --pixel / --check use: exit 1 with one line.
# Usage: bash test_histogram.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

run1() { "$BIN" run "$@" --runs 1 --warmup 0; }

# 1. Every rung at sizes 1..17 (every n % 16, nothing but tail below 16), 4111 (a few groups, tail 15), 65536
#    (aligned), 65551 and 1000003 (grids with remainder loops): one sweep, one process (each size its own
#    inputs, poison and check; each program built once).
n=$(echo $(seq 1 17) 4111 65536 65551 1000003 | tr ' ' ,)
expect_ok "histogram --size $n" -- run1 histogram --size "$n"
n=1,15,17,4111,1000003
expect_ok "histogram --size $n --check exact" -- run1 histogram --size "$n" --check exact
for pat in allequal image; do
    expect_ok "histogram --pattern $pat" -- run1 histogram --size 1000003 --pattern "$pat"
done
# 32-bit pixels: 1..5 (every n % 4, nothing but tail below 4), 4111 and 1000003 pixels.
n=1,2,3,4,5,4111,1000003
expect_ok "histogram --pixel u32 --size $n" -- run1 histogram --pixel u32 --size "$n"
expect_ok "histogram --pixel u32 --check exact" -- run1 histogram --pixel u32 --size 1000003 --check exact
expect_ok "histogram --pixel u32 --pattern allequal" -- run1 histogram --pixel u32 --size 65551 --pattern allequal

json=$TESTTMP/hist.json
rm -f "$json"
run1 histogram --size 1000003 --check exact --json "$json" >"$TESTTMP/hist.out" 2>&1 || { cat "$TESTTMP/hist.out"; fail "run"; }
python3 - "$json" <<'PY' || fail "JSON checks (above)"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["results"] if r["workload"] == "histogram"]
names = [r["rung"] for r in rows]
want = ("seed-subhist", "seed-local", "seed-copies2", "seed-copies4", "seed-copies8", "seed-copies16",
        "seed-copies32", "seed-cu-groups", "global-atomic", "local", "local-copies32", "local-spread",
        "packed-uint4", "packed-1copy", "two-pass", "best", "deep-loads", "one-kernel", "self-zero", "chunked",
        "nv-match", "nc-loads", "cpu-private")
bad = [] if tuple(names) == want else ["rungs %s, want %s" % (names, want)]
# nv-match and nc-loads need inline PTX: unsupported with its reason off NVIDIA (PoCL), ok there.
ptx = [r for r in rows if r["rung"] in ("nv-match", "nc-loads") and r["status"] == "unsupported"]
bad += ["%s: reason %r" % (r["rung"], r.get("reason")) for r in ptx if "nvidia-ptx" not in (r.get("reason") or "")]
bad += ["%s: %s" % (r["rung"], r["status"]) for r in rows if r["status"] != "ok" and r not in ptx]
# Stage times (stages_s): the fill and the kernel of an atomic merge, the two kernels of a two-pass one, the
# one kernel of a one-launch merge.
want_st = {"best": ["zero-bins", "count"], "two-pass": ["count", "merge"], "one-kernel": ["count"],
           "self-zero": ["count"]}
for r in rows:
    if r["rung"] in want_st and sorted(r.get("stages_s") or {}) != sorted(want_st[r["rung"]]):
        bad.append("%s: stages %r, want %r" % (r["rung"], r.get("stages_s"), want_st[r["rung"]]))
bad += ["%s: size %r" % (r["rung"], r.get("size")) for r in rows if r.get("size") != "1000003 B, exact"]
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY

if ! sanitizer_pass; then # more broken kernels: the kernels' checks, tested in the normal pass
# 2. Broken kernels.
wrong=$TESTTMP/hist_wrong
mut() { rm -rf "$wrong"; make_wrong histogram.cl "$wrong"; }
caught() {
    local what=$1 target=$2 size=$3
    shift 3
    expect_wrong "$what" -- "$BIN" run "$target" --kernel-dir "$wrong" --size "$size" --runs 1 \
        --warmup 1 "$@"
}
mut <<'EOF'
[("    if (t < n) COUNT(h, copy, ((__global const pixel *)in)[t]);\n", "")]
EOF
caught "uint4 kernel without its byte tail" histogram:packed-uint4 4111
caught "uint4 kernel without its byte tail, below 16 bytes" histogram:best 15
mut <<'EOF'
[("    for (; i < end; i += stride)\n        count_vec(h, copy, LOAD4(in + i));\n", "")]
EOF
caught "grid without its remainder loop" histogram:best 1000003
mut <<'EOF'
[("    if (lid == 0) atomic_xchg(&state[TICKET], 0u);\n", "")]
EOF
caught "a one-launch merge that never resets its ticket (after the warm-up)" histogram:one-kernel,histogram:self-zero 100003
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
# A plain ++ instead of the global atomic is not tested here: on PoCL it loses updates only when two worker
# threads happen to run at once, which a 2-core machine gave in some runs and not in others (even idle), so
# the check could not be made reliable. It is the mutant hist-global-race (expect: race-gpu), caught on a GPU
# by scripts/gpu-ladders.sh's `races` job (tests/mutation, docs/mutation.md).
mut <<'EOF'
[("        for (uint c = 0; c < COPIES; c++)", "        for (uint c = 0; c + 1 < COPIES || c < 1; c++)")]
EOF
R=histogram:seed-copies2,histogram:seed-copies4,histogram:seed-copies8,histogram:seed-copies16
R=$R,histogram:seed-copies32,histogram:seed-cu-groups,histogram:local-copies32
expect_wrong_each "a sub-histogram left out of the merge" "$R" -- "$BIN" run "$R" --kernel-dir "$wrong" \
    --size 100003 --runs 1 --warmup 1
mut <<'EOF'
[("    for (uint b = 0; b < 256; b++)\n        row[b] = 0;", "    for (uint b = 1; b < 256; b++)\n        row[b] = 0;")]
EOF
caught "a per-work-item row with bin 0 not zeroed" histogram:seed-subhist 4111
mut <<'EOF'
[("    for (uint r = lid; r < nrows; r += WG)", "    for (uint r = lid; r + 1 < nrows; r += WG)")]
EOF
R=histogram:seed-subhist,histogram:seed-local,histogram:seed-cu-groups,histogram:two-pass
expect_wrong_each "the second pass drops the last row" "$R" -- "$BIN" run "$R" --kernel-dir "$wrong" \
    --size 1000003 --runs 1 --warmup 1
mut <<'EOF'
[("        barrier(CLK_LOCAL_MEM_FENCE);\n        if (lid < w)", "        if (lid < w)")]
EOF
caught "no barrier in the second pass's tree sum" histogram:two-pass 100003
mut <<'EOF'
[("        out[get_group_id(0) * 256 + b] = s;", "        if (s) out[get_group_id(0) * 256 + b] = s;")]
EOF
caught "a two-pass merge that writes only non-zero bins" histogram:seed-copies4 100003 --pattern image
mut <<'EOF'
[("    COUNT(h, copy, v.w);", "    COUNT(h, copy, v.z);"), ("        (row)[(v).w]++;", "        (row)[(v).z]++;")]
EOF
caught "a u32 lane counted twice (local)" histogram:packed-1copy 1000003 --pixel u32
caught "a u32 lane counted twice (global rows)" histogram:seed-subhist 1000003 --pixel u32

fi
# 3. Bad --pattern / --pixel / --check use: exit 1 with one line naming the valid values, or naming histogram.
expect 1 "random|allequal|image" -- "$BIN" run histogram --pattern bogus --size 4096
expect 1 "histogram" -- "$BIN" run reduction --pattern random --size 4096
expect 1 "random or exact" -- "$BIN" run histogram --check 1 --size 4096
expect 1 "u8|u32" -- "$BIN" run histogram --pixel u16 --size 4096
expect 1 "histogram" -- "$BIN" run reduction --pixel u32 --size 4096

finish
