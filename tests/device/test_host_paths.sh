#!/usr/bin/env bash
# Device test of the host code's paths, for the ASan/UBSan build (scripts/test.sh runs it there and the ladder
# tests in the normal build only): every rung of every workload, each in one process per check mode, at small
# sizes with every kind of edge the ladder tests sweep (one row, one column, one element, tails of the vector
# widths and tiles), and each workload's own options (inputs and outputs, patterns, pixel and scan types,
# filters, sigmas, grids and cloths, sparse points, traceback, the estimate table). Each row must be ok or
# unsupported with a reason, each size of a sweep ran (expect_ok); under the sanitizers any memory error, leak
# or undefined behaviour in a reference, a check, a report or a workload's setup fails it. What the ladder tests
# add (more sizes, sigmas and grids, and kernels broken on purpose) tests the kernels, which are the same in
# both builds. The parameters that are compiled in (sigmas, filters, windows, grids) are the ladder tests', whose
# builds the OpenCL runtime has cached by then: a build under the sanitizers costs twice its time.
# Usage: bash test_host_paths.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

run1() { "$BIN" run "$@" --runs 1 --warmup 0; }

for check in random exact; do
    expect_ok "saxpy $check" -- run1 saxpy --size 1,5,1023 --alpha 0.5 --check "$check"
    expect_ok "reduction $check" -- run1 reduction --size 1,3,257,513,65539 --check "$check"
    expect_ok "scan $check" -- run1 scan --size 1,3,257,1025,4097 --check "$check"
    expect_ok "scan float inclusive $check" -- run1 scan --size 1,1025 --type float --inclusive --check "$check"
    expect_ok "histogram $check" -- run1 histogram --size 1,17,4111 --check "$check"
    expect_ok "histogram u32 $check" -- run1 histogram --size 1,5,4111 --pixel u32 --check "$check"
    expect_ok "transpose $check" -- run1 transpose --size 1x1,1x67,67x1,65x37 --check "$check"
    expect_ok "filter3x3 $check" -- run1 filter3x3 --size 67x43,13x6,1x37,45x1,1x1 --check "$check"
    expect_ok "convolution $check" -- run1 convolution --size 66x39 --filter 3x2,1x4,5x3 --check "$check"
    expect_ok "convolution one row $check" -- run1 convolution --size 1x37,45x1,1x1 --filter 1 --check "$check"
    expect_ok "blur $check" -- run1 blur --size 67x66,1x37,45x1,1x1 --sigma 2 --check "$check"
    expect_ok "lcs $check" -- run1 lcs --size 1,33,1x7,7x1,257 --check "$check"
done
expect_ok "histogram all-equal" -- run1 histogram --size 65551 --pattern allequal
expect_ok "histogram image" -- run1 histogram --size 65551 --pattern image
expect_ok "convolution 32x32" -- run1 convolution --size 64x64 --filter 32
expect_ok "blur sigma 32, estimate" -- run1 blur --size 131x197 --sigma 32 --estimate
expect_ok "blur PNG in and out" -- run1 blur:fused --input "$TESTDATA/rgb_13x7.png" --output "$TESTTMP/hp_blur.png"
expect_ok "filter3x3 PNG in and out" -- run1 filter3x3 --input "$TESTDATA/rgb_13x7.png" --output "$TESTTMP/hp_f3.png"
expect_ok "filter3x3 without images" -- run1 filter3x3 --size 64x48 --mask-features images
g=2x2,17x5,5x17,33x31,63x4,9x2 # the colouring of the springs: grids of every shape (the grid rungs' own)
expect_ok "cloth grids" -- run1 cloth --grid "$g" --steps 3 --iterations 3
expect_ok "cloth cloths and output" -- run1 cloth --grid 17x15 --cloths 3 --steps 2 --iterations 3 \
    --output "$TESTTMP/hp_cloth.png"
expect_ok "lcs traceback" -- run1 lcs --size 1,63x65,65x63 --traceback
expect_ok "lcs pairs" -- run1 lcs --size 65 --pairs 3
printf 'ACGTTGCA' >"$TESTTMP/hp_a.txt"
printf 'GATTACA' >"$TESTTMP/hp_b.txt"
expect_ok "lcs files, traceback, output" -- run1 lcs --input "$TESTTMP/hp_a.txt,$TESTTMP/hp_b.txt" --traceback \
    --output "$TESTTMP/hp_lcs.txt"
expect_ok "opticalflow dense" -- run1 opticalflow --size 45x37 --levels 1 --window 5 --iterations 5
expect_ok "opticalflow sparse grid" -- run1 opticalflow --size 61x47 --levels 2 --window 9 --iterations 5 \
    --grid-step 4
expect_ok "opticalflow points, output" -- run1 opticalflow --size 61x47 --levels 2 --window 9 --iterations 5 \
    --points 50 --seed 1 --output "$TESTTMP/hp_of.png"
expect_ok "opticalflow early exit" -- run1 opticalflow:unorm16,opticalflow:early-exit --size 61x47 --window 9 \
    --epsilon 0.5

# peak: every family (the CLI tests take its options and outputs), --quick (each test's smallest form)
out=$TESTTMP/hp_peak.out
"$BIN" peak --quick --max-time 0.01 --json "$TESTTMP/hp_peak.json" \
    --only bandwidth,compute,balance,transfer,latency,local,atomics,image,cache,rules,scatter,overheads >"$out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { cat "$out"; fail "peak --quick, every family: exit $rc (want 0)"; }

finish
