#!/usr/bin/env bash
# Device test of the saxpy ladder (the example of docs/adding-a-workload.md) on the default device against the
# CPU reference and its error bound:
#  1. every rung at sizes around the float4 width and the grid (1, 2, 3, 4, 5, 1023, 1000003), with random
#     data and --alpha 0.5, and with --check exact (small integers, zero tolerance);
#  2. deliberately broken kernels must fail (exit 3, FAILED): y dropped, the float4 tail skipped, the grid
#     stride one short;
#  3. bad --alpha use: exit 1 with one line.
# Usage: bash test_saxpy.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

run1() { "$BIN" run "$@" --runs 1 --warmup 1; }

# 1. Every rung ok.
#    Each list is one sweep: one process, each size its own inputs and check (expect_ok: every size ran).
expect_ok "saxpy --size 1,2,3,4,5,1023,1000003" -- run1 saxpy --size 1,2,3,4,5,1023,1000003
expect_ok "saxpy --size 1,2,3,4,5,1023,1000003 --alpha 0.5 --check exact" -- \
    run1 saxpy --size 1,2,3,4,5,1023,1000003 --alpha 0.5 --check exact
expect_ok "saxpy --alpha 1e6" -- run1 saxpy --size 4099 --alpha 1e6

# 2. Broken kernels.
wrong=$TESTTMP/saxpy_wrong
mut() { rm -rf "$wrong"; make_wrong saxpy.cl "$wrong"; }
caught() {
    local what=$1 rung=$2
    shift 2
    for size in "$@"; do
        expect_wrong "$what ($rung, $size)" -- \
            "$BIN" run "saxpy:$rung" --kernel-dir "$wrong" --size "$size" --runs 1 --warmup 1
    done
}
mut <<'EOF_M'
[("if (i < n) out[i] = a * x[i] + y[i];", "if (i < n) out[i] = a * x[i];")]
EOF_M
caught "y dropped" naive 1 1023
mut <<'EOF_M'
[("for (; j < n; j++)", "for (; j + 1 < n; j++)")]
EOF_M
caught "the last element of a ragged tail skipped" vec4 5 1023
mut <<'EOF_M'
[("i += get_global_size(0))", "i += get_global_size(0) + 1)")]
EOF_M
caught "a grid stride one too long" stride 1000003

# 3. Bad --alpha use.
expect 1 "--alpha applies to the saxpy workload only; add saxpy to the run" -- "$BIN" run reduction --alpha 2
expect 1 "--alpha expects a positive number" -- "$BIN" run saxpy --alpha 0
expect 1 "saxpy: --alpha 1e+07 is above" -- "$BIN" run saxpy --alpha 1e7 --size 64
expect 1 "saxpy: --alpha 1e-46 is below the smallest normal float" -- "$BIN" run saxpy --alpha 1e-46 --size 64
expect 1 "needs --alpha a multiple of 1/256" -- "$BIN" run saxpy --alpha 0.3 --check exact --size 64

finish
