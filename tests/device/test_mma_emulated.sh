#!/usr/bin/env bash
# Device test of convolution's tensor-core rungs (tf32x3, tf32x3-rows, f16x3-split, f16x3-halves, f16x3-order;
# tf32 and f16x3 share their kernels, below) and blur's f16x3 rungs on a device without nvidia-mma (PoCL in
# CI), through CLGAUGE_EMULATE_MMA=1: their kernels built with -DEMULATE_MMA, an OpenCL C stand-in for the
# inline PTX (mma.sync, shfl.sync, the fp16 and TF32 conversions: docs/workloads/convolution.md, "Checked
# without an NVIDIA GPU"). Every convolution rung listed at an odd size (67x45: no multiple of any block)
# with a filter whose sides are not multiples of 8 (7x13), with --check exact and with random data, must run
# (not be unsupported) and pass; kernels broken on purpose must fail: the fp16 kernel's small products scaled
# back by 2^-14 (random data: exact data have no lo pieces) and the row-product kernel's first product of a row
# added to a stale ring slot (exact); and the row-product kernel's split over 2 warps (a tuning candidate),
# right and with a warp's part skipped. Blur's f16x3 rungs (section 4, normal pass only: below). On a device
# with nvidia-mma the variable changes nothing and the same checks run on the tensor cores. Slow on PoCL (each
# kernel's barriers): about 6 minutes on 2 cores.
# Usage: bash test_mma_emulated.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"
export CLGAUGE_EMULATE_MMA=1
# Emulated here unless the device has nvidia-mma (then the rungs run on its tensor cores).
if "$BIN" devices 2>&1 | grep -q "nvidia-mma"; then emu=no; else emu=yes; fi
# tf32 and f16x3 are left out of CI: tf32x3 and f16x3-split build the same kernels (conv_mma, conv_mma16)
# with one flag more, and every PoCL build of these kernels costs CI tens of seconds (session 22: the suite
# came near its 15 minutes); scripts/mutation.sh and the GPU jobs run them.
R=convolution:tf32x3,convolution:tf32x3-rows,convolution:f16x3-split,convolution:f16x3-halves
R=$R,convolution:f16x3-order

# 1. Every tensor-core rung runs and passes both checks.
for check in exact random; do
    json=$TESTTMP/mma_emu_$check.json out=$TESTTMP/mma_emu_$check.out
    rm -f "$json"
    "$BIN" run "$R" --size 67x45 --filter 7x13 --check "$check" --runs 1 --warmup 0 --json "$json" >"$out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || { cat "$out"; fail "run of the tensor-core rungs, --check $check: exit $rc (want 0)"; }
    python3 - "$json" "$R" "$emu" <<'PY' || fail "tensor-core rungs under emulation, --check $check (above)"
import json, sys
rows = {r["rung"]: r for r in json.load(open(sys.argv[1]))["results"]}
bad = []
for name in sys.argv[2].split(","):
    r = rows.get(name.split(":")[1])
    if r is None:
        bad.append("%s: no row" % name)
    elif r["status"] != "ok" or r.get("mismatches", 1) != 0:
        bad.append("%s: %s %s" % (name, r["status"], r.get("reason", "")))
    elif ("emulated" in r.get("warnings", [])) != (sys.argv[3] == "yes"):
        bad.append("%s: warnings %s (emulated: %s)" % (name, r.get("warnings"), sys.argv[3]))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
done
# where the device lacks nvidia-mma, the run says its times are not tensor-core times: once at the start, and
# under the table as the rows' warning (each row's JSON names it: above)
if [ "$emu" = yes ]; then
    grep -q "CLGAUGE_EMULATE_MMA=1: the nvidia-mma rungs run an OpenCL C emulation" "$TESTTMP/mma_emu_exact.out" ||
        fail "no emulation warning in the run's output"
    grep -q "^Warning: emulated tensor cores (CLGAUGE_EMULATE_MMA=1) on 5 of 5 rungs" "$TESTTMP/mma_emu_exact.out" ||
        { cat "$TESTTMP/mma_emu_exact.out"; fail "no emulated-rows warning under the table"; }
fi
# The emulation sums in double: without fp64 (masked here) the variable is ignored, with one warning, and the
# rungs are unsupported again.
expect 0 "CLGAUGE_EMULATE_MMA=1 ignored on .*: the emulation sums in double" -- "$BIN" run convolution:f16x3 \
    --size 67x45 --filter 3 --runs 1 --warmup 0 --mask-features fp64
grep -q "unsupported: device lacks nvidia-mma" "$TESTTMP/${test_name}_err.out" ||
    { cat "$TESTTMP/${test_name}_err.out"; fail "f16x3 not unsupported with fp64 masked"; }

# 2. Kernels broken on purpose fail under the emulation as on the GPU (exit 3, FAILED rows).
wrong=$TESTTMP/mma_emu_wrong_scale
make_wrong convolution_mma.cl "$wrong" <<'PY'
[("fma(small[m][nb][e], 0x1p-15f, acc[m][nb][e])", "fma(small[m][nb][e], 0x1p-14f, acc[m][nb][e])")]
PY
expect_wrong_each "the fp16 small products scaled back by 2^-14" convolution:f16x3-split -- "$BIN" run \
    convolution:f16x3-split --kernel-dir "$wrong" --size 67x45 --filter 7x13 --runs 1 --warmup 0
wrong=$TESTTMP/mma_emu_wrong_ring
make_wrong convolution_mma.cl "$wrong" <<'PY'
[("            if (nt == 0 && e == 0) { /* lane t's first row", "            if (0) { /* lane t's first row")]
PY
expect_wrong_each "a row's first product added to a stale slot" convolution:tf32x3-rows -- "$BIN" run \
    convolution:tf32x3-rows --kernel-dir "$wrong" --size 67x45 --filter 7x13 --check exact --runs 1 --warmup 0

# 3. The row-product kernel's split of the filter rows over 2 warps (the parts through local memory, a barrier
# every 4 steps), as a tuning candidate with strips of 16 rows (several strips, a last one of 13), exact; then
# with the last warp skipping warp 0's part.
tune_ly() { # tune_ly OUT [--kernel-dir DIR]
    local out=$1
    shift
    "$BIN" tune convolution:tf32x3-rows --size 67x45 --filter 7x13 --check exact --space 'by=16;ly=2' --runs 1 \
        --cache-dir "$TESTTMP/mma_emu_cache" "$@" >"$out" 2>&1
}
out=$TESTTMP/mma_emu_ly.out
tune_ly "$out"
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q "by=16,ly=2  " "$out" || grep -q FAILED "$out"; then
    cat "$out"
    fail "tf32x3-rows with ly=2 under emulation: exit $rc, want 0 and the candidate ok"
fi
wrong=$TESTTMP/mma_emu_wrong_parts
make_wrong convolution_mma.cl "$wrong" <<'PY'
[("for (int k = 0; k < LY - 1; k++)", "for (int k = 1; k < LY - 1; k++)")]
PY
out=$TESTTMP/mma_emu_ly_wrong.out
tune_ly "$out" --kernel-dir "$wrong"
rc=$?
if [ "$rc" -ne 3 ] || ! grep -q "by=16,ly=2 .*FAILED" "$out"; then
    cat "$out"
    fail "tf32x3-rows with ly=2, warp 0's part skipped: exit $rc, want 3 and the candidate FAILED"
fi

# 4. blur's f16x3-sep (both passes on tensor cores, H in registers between them) at sigma 5: its own values (4
# warps a group, 128-row strips: one group, one strip) with random data, and a candidate of 2 warps and 16-row
# strips (2 groups across, 3 strips down, the last of 5 rows) with --check exact (H scaled by 2^7, not 2^10),
# and a register cap, unsupported there;
# then its taps one place off, caught; f16x3-vec (float4 loads) and its row order broken; f16x3-st4 (float4
# stores) and its store rows unpermuted. Seven emulated builds, each slow on PoCL: the normal pass only.
if ! sanitizer_pass; then
    expect 0 "^blur:f16x3-sep  *OK" -- "$BIN" run blur:f16x3-sep --size 37x37 --sigma 5 --runs 1 --warmup 0
    out=$TESTTMP/mma_emu_blur_tune.out
    "$BIN" tune blur:f16x3-sep --size 37x37 --sigma 5 --check exact --space 'ly=2;py=16;regs=0,96' --runs 1 \
        --cache-dir "$TESTTMP/mma_emu_cache" >"$out" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ] || ! grep -q "ly=2,py=16,regs=0  *[0-9.]* ms" "$out" || grep -q FAILED "$out"; then
        cat "$out"
        fail "blur:f16x3-sep with ly=2, py=16 under emulation: exit $rc, want 0 and the candidate ok"
    fi
    # the register cap is NVIDIA's build option: refused on PoCL, not passed to its compiler
    if ! grep -q "ly=2,py=16,regs=96  *unsupported" "$out"; then
        cat "$out"
        fail "blur:f16x3-sep with regs=96 on a device without cl_nv_compiler_options: want unsupported"
    fi
    wrong=$TESTTMP/mma_emu_wrong_blur
    make_wrong blur_mma.cl "$wrong" <<'PY'
[("- M_OF(g + 8 * (q & 1)) - KOFF + R;", "- M_OF(g + 8 * (q & 1)) - KOFF + R + 1;")]
PY
    expect_wrong_each "blur's taps one place off" blur:f16x3-sep -- "$BIN" run blur:f16x3-sep --kernel-dir "$wrong" \
        --size 37x37 --sigma 5 --check exact --runs 1 --warmup 0
    # f16x3-vec at 68 columns: warps 1 and 2 take the float4 loads, 0, 3 and 4 the clamped ones; then its row
    # order broken (half 1 one row down, not two), caught
    expect 0 "^blur:f16x3-vec  *OK" -- "$BIN" run blur:f16x3-vec --size 68x37 --sigma 5 --runs 1 --warmup 0
    wrong=$TESTTMP/mma_emu_wrong_blur_vec
    make_wrong blur_mma.cl "$wrong" <<'PY'
[("(g & 1) + 2 * (i))", "(g & 1) + (i))")]
PY
    expect_wrong_each "f16x3-vec's row order off" blur:f16x3-vec -- "$BIN" run blur:f16x3-vec --kernel-dir "$wrong" \
        --size 68x37 --sigma 5 --runs 1 --warmup 0
    # f16x3-st4 at 68 columns, exact: warps 0 to 3 store float4s, warp 4 (columns 64 .. 67 of its 16) scalars;
    # then storing each row where the unpermuted products would have it, caught. (f16x3-pf is f16x3-st4 plus an
    # L2 prefetch, which the emulation leaves out: the same code here, so not built twice.)
    expect 0 "^blur:f16x3-st4  *OK" -- "$BIN" run blur:f16x3-st4 --size 68x37 --sigma 5 --check exact --runs 1 \
        --warmup 0
    wrong=$TESTTMP/mma_emu_wrong_blur_st4
    make_wrong blur_mma.cl "$wrong" <<'PY'
[("int yo = y + M_OF(g + 8 * i)", "int yo = y + g + 8 * i")]
PY
    expect_wrong_each "f16x3-st4's store rows unpermuted" blur:f16x3-st4 -- "$BIN" run blur:f16x3-st4 \
        --kernel-dir "$wrong" --size 68x37 --sigma 5 --check exact --runs 1 --warmup 0
fi

finish
