#!/usr/bin/env bash
# Device test of the verification itself: the quick subset of the kernel mutants (tests/mutation/*.mut,
# `quick: yes`: one per ladder, 11 in all; each ladder's device test breaks its kernels more ways) must
# every one be caught by clgauge's checks on the default device (exit 3, a FAILED row). scripts/mutation.sh runs
# all of them; docs/mutation.md gives the score.
# Usage: bash test_mutation_quick.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
out=$TESTTMP/${test_name}.out

# 1. Every mutant of every ladder applies (its old text occurs exactly once in today's kernels).
python3 "$ROOT/tests/mutation/mutate.py" --apply-only >"$out" 2>&1 ||
    { cat "$out"; fail "a mutant no longer applies to the kernels (above): update tests/mutation"; }

# 2. The quick subset: each one caught.
python3 "$ROOT/tests/mutation/mutate.py" --quick --clgauge "$BIN" >"$out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q "^score: \([0-9]*\) of \1 mutants caught" "$out"; then
    cat "$out"
    fail "mutation.sh --quick exited $rc: a quick mutant survived the checks (above)"
fi

finish
