#!/usr/bin/env bash
# Mutation testing of clgauge's verification: each mutant in tests/mutation/*.mut is one small plausible bug in
# one kernel file; the harness applies it to a copy of the kernels, runs `clgauge run ... --kernel-dir` on it and
# counts it caught when clgauge exits 3 (a FAILED row). Prints a table and the score; exits 1 when a mutant
# marked `expect: caught` survives. tests/mutation/README.md describes the format, docs/mutation.md the score.
#   scripts/mutation.sh [--quick] [--only ID,...] [--class CLASS,...] [--clgauge PATH] [--device SEL] [--races]
#                       [--list] [--apply-only] [--show DIR] [--md FILE]
set -euo pipefail
exec python3 "$(dirname "$0")/../tests/mutation/mutate.py" "$@"
