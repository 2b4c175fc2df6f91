#!/usr/bin/env bash
# Device test of the convolution ladder on the default device: every rung, in one filter sweep, at an odd size
# (67x45: no multiple of any block or of 4, so the scalar stores and ragged blocks run) with a non-square, a
# 1x1 and a 32-wide filter, and at an aligned one (64x64, the float4 stores) with the largest filter (32x32),
# against the CPU reference; every residue of the size modulo 4 each way, one row, one column, one pixel,
# with --check random and exact; deliberately wrong kernels (an unwritten output, a dropped tap in the
# register-blocked kernel, a lost float4 lane; one tap of a 32x32 filter off by 0.1% under --check exact)
# caught with exit 3; and the bad filters and sizes with exit 1. The tensor-core rungs (tf32, tf32x3,
# tf32x3-rows, f16x3, f16x3-split, f16x3-halves, f16x3-order) must be in every sweep, unsupported with
# "nvidia-mma" in the reason where the device lacks it (their kernels are checked on NVIDIA:
# scripts/gpu-ladders.sh conv-mma, conv-rows, conv-f16, conv-order, and the caught-ptx mutants; and on PoCL
# through their OpenCL C emulation: test_mma_emulated.sh).
# Usage: bash test_convolution.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

# 1. Every rung ok for every filter of the sweep, rows labelled by filter, no mismatch.
check_json() { # check_json FILE SIZE_DESC VARIANT...
    python3 - "$@" <<'EOF'
import json, sys
rep = json.load(open(sys.argv[1]))
size, variants = sys.argv[2], sys.argv[3:]
want = ("naive", "global-filter", "unroll4", "unroll4-if", "define", "define-unroll4-if", "float4", "float4-if",
        "define-float4", "define-float4-if", "unroll-full", "vec4-pad", "local", "regblock", "slide", "slide4x4", "best",
        "tf32", "tf32x3", "tf32x3-rows", "f16x3", "f16x3-split", "f16x3-halves", "f16x3-order")
mma = ("tf32", "tf32x3", "tf32x3-rows", "f16x3", "f16x3-split", "f16x3-halves", "f16x3-order")  # tensor cores: unsupported where the device lacks nvidia-mma (PoCL), with that reason
rows = [r for r in rep["results"] if r["workload"] == "convolution"]
bad = []
for v in variants:
    names = [r["rung"] for r in rows if r.get("variant") == v]
    bad += ["%s: missing rung %s" % (v, n) for n in want if n not in names]
bad += ["unexpected variant %r" % r.get("variant") for r in rows if r.get("variant") not in variants]
bad += ["%s[%s]: %s %s" % (r["rung"], r.get("variant"), r["status"], r.get("reason", "")) for r in rows
        if r["status"] != "ok" and not (r["rung"] in mma and r["status"] == "unsupported" and
                                        "nvidia-mma" in (r.get("reason") or ""))]
rows = [r for r in rows if r["status"] == "ok"]
bad += ["%s: size %r" % (r["rung"], r.get("size")) for r in rows if r.get("size") != size]
bad += ["%s: %s mismatches" % (r["rung"], r.get("mismatches")) for r in rows if r.get("mismatches", 1) != 0]
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF
}
run_ok() { # run_ok SIZE FILTERS VARIANT...
    local size=$1 filters=$2 json=$TESTTMP/conv_$1.json
    shift 2
    rm -f "$json"
    "$BIN" run convolution --size "$size" --filter "$filters" --runs 2 --warmup 1 --json "$json" \
        >"$TESTTMP/conv.out" 2>&1
    local rc=$?
    [ "$rc" -eq 0 ] || { cat "$TESTTMP/conv.out"; fail "run convolution --size $size --filter $filters: exit $rc"; }
    [ -s "$json" ] || { fail "no JSON report at $json"; return; }
    check_json "$json" "$size px" "$@" || fail "JSON checks at $size --filter $filters (above)"
}
run_ok 67x45 5x3,1,32x7 5x3 1x1 32x7
run_ok 64x64 32 32x32

# 1b. Tails and both checks: w % 4 and h % 4 = 0..3, one row, one column, one pixel.
for check in random exact; do
    for case in 66x39:3x2 33x22:32x5 64x64:32 1x37:1x4 45x1:7x1 1x1:1; do
        size=${case%%:*} filt=${case##*:}
        "$BIN" run convolution --size "$size" --filter "$filt" --check "$check" --runs 1 --warmup 0 \
            >"$TESTTMP/conv_tail.out" 2>&1
        rc=$?
        if [ "$rc" -ne 0 ] || grep -q FAILED "$TESTTMP/conv_tail.out"; then
            cat "$TESTTMP/conv_tail.out"
            fail "run convolution --size $size --filter $filt --check $check: exit $rc, want 0 and no FAILED row"
        fi
    done
done

# 2. Wrong kernels must be caught (exit 3, FAILED).
wrong=$TESTTMP/conv_wrong
make_wrong convolution.cl "$wrong" <<'EOF'
[("    out[y * w + x] = sum;\n}\n\n/* Taps i .. FWID - 1",
  "    if (!(x == 5 && y == 3)) out[y * w + x] = sum;\n}\n\n/* Taps i .. FWID - 1"),
 ("if (i4 * 4 + c >= FW) break;", "if (i4 * 4 + c >= FW - 1) break;"),
 ("out[y * w + x] = sum.x + sum.y + sum.z + sum.w;", "out[y * w + x] = sum.x + sum.y + sum.z;")]
EOF
R=convolution:naive,convolution:best,convolution:vec4-pad
expect_wrong_each "wrong kernels" "$R" -- "$BIN" run "$R" --kernel-dir "$wrong" --size 67x45 --filter 7x5 \
    --runs 1 --warmup 0
# One tap of a 32x32 filter off by 0.1% (in naive and in the register-blocked kernel): below the rounding
# bound of 1024 random terms, an exact mismatch under --check exact.
wrongt=$TESTTMP/conv_wrong_tap
make_wrong convolution.cl "$wrongt" <<'EOF'
[("            sum += in[(y + j) * ip + x + i] * filt[j * FWID + i];",
  "            sum += in[(y + j) * ip + x + i] * filt[j * FWID + i] * (i == 3 && j == 2 ? 1.001f : 1.0f);"),
 ("                float4 f = lf[j * (FW4 / 4) + i4];",
  "                float4 f = lf[j * (FW4 / 4) + i4] * (j == 2 && i4 == 1 ? 1.001f : 1.0f);")]
EOF
expect_wrong_each "a tap off by 0.1% (exact)" convolution:naive,convolution:best -- "$BIN" run \
    convolution:naive,convolution:best --kernel-dir "$wrongt" --size 67x45 --filter 32 --check exact --runs 1 \
    --warmup 0

# 3. Filters and sizes that cannot run: exit 1, one line naming the limit.
expect 1 "has a side outside 1 to 32" -- "$BIN" run convolution --size 64 --filter 33
expect 1 "has a side outside 1 to 32" -- "$BIN" run convolution --size 64 --filter 3x40
expect 1 "larger than the 16x16 image" -- "$BIN" run convolution --size 16 --filter 17
expect 1 "larger than the 40x8 image" -- "$BIN" run convolution --size 40x8 --filter 3x9
expect 1 "bad --filter '0'" -- "$BIN" run convolution --size 64 --filter 0
expect 1 "2^31" -- "$BIN" run convolution --size 50000x50000
expect 1 "--filter applies to the convolution workload only" -- "$BIN" run reduction --filter 3

finish
