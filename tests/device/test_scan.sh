#!/usr/bin/env bash
# Device test of the scan ladder on the default device against the CPU reference:
#  1. every rung at sizes that take every path of every rung: 1 to 17 (less than one work-item's run, every
#     residue of 4 and 16: the elements per work-item of the 1024- and 4096-element tiles), one work-group of
#     256 +-1, one tile +-1 (1024, 4096, 16384), several tiles with a ragged last one (1000003, a prime);
#     exclusive and inclusive, int32 (exact) and float (forward error bound; --check exact: zero tolerance);
#     the nv- rungs (inline PTX) must be `unsupported` off NVIDIA;
#  2. deliberately broken kernels, each one plausible bug, must fail (exit 3, FAILED): a dropped last element,
#     the exclusive shift off by one, a down-sweep that overwrites, padding applied on the load only, a lost
#     carry between tiles, tile totals left unwritten, a look-back that stops one tile early, a look-back
#     window that leaves out the prefix it stops at, an 8-lane scan missing a step (tests/mutation/scan.mut
#     has more);
#  3. bad input is refused before any device work, one line, exit 1: size 0, beyond the largest allocation,
#     an unknown --type, --inclusive with --exclusive, --inclusive without scan in the run, --check exact with
#     float beyond 2^23.
# Usage: bash test_scan.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

run1() { "$BIN" run "$@" --runs 1 --warmup 0; }

# 1. Sizes and kinds, each list one sweep (one process: a program is built once for all its sizes; every size
# still gets fresh inputs, poisoned outputs and its own check).
n=$(echo $(seq 1 17) 255 256 257 1023 1024 1025 4095 4096 4097 16383 16385 1000003 | tr ' ' ,)
expect_ok "scan --size $n" -- run1 scan --size "$n"
n=1,2,257,1025,4097,1000003
expect_ok "scan --size $n --inclusive" -- run1 scan --size "$n" --inclusive
expect_ok "scan --size $n --type float" -- run1 scan --size "$n" --type float
expect_ok "scan --size $n --type float --inclusive" -- run1 scan --size "$n" --type float --inclusive
n=3,1025,1000003
expect_ok "scan --size $n --type float --check exact" -- run1 scan --size "$n" --type float --check exact
expect_ok "scan --size $n --exclusive --check exact" -- run1 scan --size "$n" --exclusive --check exact

# The JSON of one float run: every rung, the size, 0 < bound_ratio <= 1, the nv- rungs unsupported off NVIDIA.
json=$TESTTMP/scan.json
rm -f "$json"
run1 scan --size 100003 --type float --inclusive --json "$json" >"$TESTTMP/scan.out" 2>&1 ||
    { cat "$TESTTMP/scan.out"; fail "run"; }
python3 - "$json" <<'EOF' || fail "JSON checks (above)"
import json, sys
rep = json.load(open(sys.argv[1]))
rows = [r for r in rep["results"] if r["workload"] == "scan"]
bad = []
names = [r["rung"] for r in rows]
bad += ["rung %s missing" % w for w in ("hillis-steele", "blelloch", "pad-arith", "padded", "registers",
                                        "reduce-then-scan", "look-back", "look-back-32", "best", "packed", "vec",
                                        "reread", "vload", "nv-shfl", "nv-reread", "nv-vload", "nv-wide",
                                        "chunked", "chunked-vec8")
        if w not in names]
for r in rows:
    if r["status"] == "ok" and r.get("size") != "100003 float, inclusive":
        bad.append("%s: size %r" % (r["rung"], r.get("size")))
    if r["status"] == "ok" and not (0 < r.get("bound_ratio", -1) <= 1):
        bad.append("%s: bound_ratio %r" % (r["rung"], r.get("bound_ratio")))
stages = {"hillis-steele": ["scan-tiles", "scan-totals", "add-carries"],
          "reduce-then-scan": ["tile-totals", "scan-totals", "scan-tiles"], "best": ["zero-flags", "one-pass"],
          "vload": ["zero-flags", "one-pass"]}
for r in rows:
    if r["status"] == "ok" and r["rung"] in stages and list(r.get("stages_s", {})) != stages[r["rung"]]:
        bad.append("%s: stages_s %r, want %r" % (r["rung"], r.get("stages_s"), stages[r["rung"]]))
nvidia = "NVIDIA" in rep["device"]["platform"].upper()
bad += ["%s not unsupported off NVIDIA" % r["rung"] for r in rows
        if r["rung"].startswith("nv-") and not nvidia and r["status"] != "unsupported"]
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF

# 2. Broken kernels.
wrong=$TESTTMP/scan_wrong
mut() { rm -rf "$wrong"; make_wrong scan.cl "$wrong"; }
caught() { expect_wrong "$1" -- "$BIN" run "$2" --kernel-dir "$wrong" --size "$3" --runs 1 --warmup 1 "${@:4}"; }
mut <<'EOF'
[("        if (base + e < n) out[base + e] = s[IDX(e)];", "        if (base + e + 1 < n) out[base + e] = s[IDX(e)];")]
EOF
caught "last element never written" scan:registers 1000003
caught "last element never written, one element" scan:best 1
mut <<'EOF'
[("        if (base + e < n) out[base + e] = incl ? s[e] : (e ? s[e - 1] : (T)0);",
  "        if (base + e < n) out[base + e] = incl ? s[e] : (e > 1 ? s[e - 2] : (T)0);")]
EOF
caught "exclusive shift by two" scan:hillis-steele 1025
mut <<'EOF'
[("            s[IDX(bi)] += t;", "            s[IDX(bi)] = t;")]
EOF
caught "down-sweep overwrites instead of adding" scan:blelloch 1025
mut <<'EOF'
[("        s[IDX(e)] = i < n ? in[i] : (T)0;", "        s[e] = i < n ? in[i] : (T)0;")]
EOF
caught "padding applied to the loads only" scan:padded 4097
mut <<'EOF'
[("    if (i < n && i >= TILE) out[i] += carries[i / TILE];", "    if (i < n && i >= TILE) out[i] += carries[i / TILE - 1];")]
EOF
caught "carry of the previous tile" scan:padded 1000003 --inclusive
mut <<'EOF'
[("    regs_store(out, base, n, incl, pad, s, x, acc + carries[get_group_id(0)]);", "    regs_store(out, base, n, incl, pad, s, x, acc);")]
EOF
caught "reduce-then-scan drops the carry" scan:reduce-then-scan 4097
# the last two tiles' totals are never written (the core poisons the totals buffer before every run)
mut <<'EOF'
[("    if (lid == 0) sums[get_group_id(0)] = w[0];", "    if (lid == 0 && get_group_id(0) + 2 < get_num_groups(0)) sums[get_group_id(0)] = w[0];")]
EOF
caught "unwritten tile total after a rung that wrote it" scan:registers,scan:reduce-then-scan 1000003 --type float
mut <<'EOF'
[("    for (uint p = tile; p-- > 0;) {", "    for (uint p = tile; p-- > 1;) {")]
EOF
caught "look-back stops before the first tile" scan:look-back 1000003
caught "look-back stops before the first tile (chunks)" scan:chunked 1000003 --type float --inclusive
mut <<'EOF'
[("        for (uint j = 0; j <= stop; j++)", "        for (uint j = 0; j < stop; j++)")]
EOF
caught "the look-back window leaves out the nearest inclusive prefix" scan:look-back-32 1000003
mut <<'EOF'
[("        p += (T8)(0, 0, 0, 0, p.s0123);\n", "")]
EOF
caught "the 8-lane scan without its last step" scan:chunked-vec8 1000003
caught "the 8-lane scan without its last step, float" scan:chunked-vec8 100003 --type float

# 3. Bad input: one line, exit 1, before any device work.
expect 1 "size must be positive" -- "$BIN" run scan --size 0
big=$("$BIN" devices --json | python3 -c 'import json, sys
d = json.load(sys.stdin)
d = d["devices"] if isinstance(d, dict) else d
print(min(x["max_alloc_bytes"] for x in d) // 4 + 1)') || fail "devices --json"
if [ "$big" -le 2147483647 ]; then
    expect 1 "max allocation" -- "$BIN" run scan --size "$big"
fi
expect 1 "exceeds this device's limit" -- "$BIN" run scan --size 3G
expect 1 "use one of int32|float" -- "$BIN" run scan --type int64 --size 1024
expect 1 "both given" -- "$BIN" run scan --inclusive --exclusive --size 1024
expect 1 "applies to the scan workload only" -- "$BIN" run saxpy --inclusive --size 1024
expect 1 "2^23" -- "$BIN" run scan --check exact --type float --size 16M
for args in "--size 0" "--type int64" "--inclusive --exclusive"; do
    # shellcheck disable=SC2086 # the arguments are words
    [ "$("$BIN" run scan $args 2>&1 | wc -l)" -eq 1 ] || fail "run scan $args: not one line"
done

# A device without 64-bit global atomics: packed (and nv-shfl) unsupported with the reason, the rest runs.
out=$("$BIN" run scan:best,scan:packed --size 4099 --mask-features int64-atomics 2>&1) ||
    { echo "$out"; fail "masked int64-atomics: exit $?"; }
grep -q "scan:packed unsupported: device lacks int64-atomics" <<<"$out" || { echo "$out"; fail "packed not unsupported"; }
grep -Eq "^scan:best +OK" <<<"$out" || { echo "$out"; fail "best did not run"; }

finish
