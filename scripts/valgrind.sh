#!/usr/bin/env bash
# clgauge under valgrind memcheck on the default OpenCL device (PoCL): `run all` at a small size, `peak
# --quick`, then `report` (text and --html) and `compare` of the run it wrote. Passes when memcheck finds no
# error and no definite leak in clgauge's own code; tests/valgrind.supp hides only the OpenCL runtime's (PoCL,
# LLVM, ocl-icd), each suppression explained there. Every command is run once without valgrind first, so the
# program and roofline caches (and PoCL's kernel cache) are warm and LLVM does not compile under valgrind.
# Not part of scripts/test.sh (several minutes); docs/robustness.md says how to read a failure.
#
# Usage: scripts/valgrind.sh [BUILD_DIR]     a normal (not sanitized) build, default: build
# Env:   VALGRIND_ARGS (more valgrind flags, e.g. --gen-suppressions=all)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
bin=$build/clgauge
[ -x "$bin" ] || { echo "valgrind.sh: no $bin: build first (scripts/setup.sh $build)" >&2; exit 1; }
if ! command -v valgrind >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "valgrind.sh: valgrind is missing; run as root or: sudo apt-get install valgrind" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends valgrind >/dev/null
fi

out=$(cd "$build" && pwd)/valgrind
rm -rf "$out"
mkdir -p "$out"
export CLGAUGE_CACHE_DIR=$out/cache
# name | clgauge arguments (the run file run.json is written by the first and read by the last three)
cmds=(
  "run-all|run all --size 256 --filter 5 --runs 2 --warmup 1 --quiet --json $out/run.json --csv $out/run.csv --html $out/run.html"
  "peak-quick|peak --quick --max-time 0.05 --json $out/peak.json --csv $out/peak.csv"
  "report|report $out/run.json $out/run.json"
  "report-html|report $out/run.json --html $out/report.html"
  "compare|compare $out/run.json $out/run.json"
)
failed=0
for c in "${cmds[@]}"; do
  name=${c%%|*}
  read -r -a args <<<"${c#*|}"
  "$bin" "${args[@]}" >/dev/null 2>"$out/$name.warm.err" || {
    echo "valgrind.sh: $name fails even without valgrind (see $out/$name.warm.err)" >&2
    exit 1
  }
  start=$SECONDS
  rc=0
  # shellcheck disable=SC2086
  valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
    --error-exitcode=99 --num-callers=40 --suppressions=tests/valgrind.supp --log-file="$out/$name.log" \
    ${VALGRIND_ARGS:-} "$bin" "${args[@]}" >/dev/null 2>"$out/$name.err" || rc=$?
  summary=$(grep -h "ERROR SUMMARY" "$out/$name.log" | sed 's/^==[0-9]*== //')
  echo "valgrind.sh: $name: exit $rc, $((SECONDS - start)) s, $summary" >&2
  if [ "$rc" -ne 0 ]; then
    failed=1
    echo "valgrind.sh: $name FAILED: see $out/$name.log and $out/$name.err" >&2
  fi
done
[ "$failed" -eq 0 ] || exit 1
echo "valgrind.sh: no memcheck error and no definite leak in clgauge (logs in $out)" >&2
