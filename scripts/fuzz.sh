#!/usr/bin/env bash
# Builds the fuzz targets (tests/fuzz/fuzz_*.c) with clang's libFuzzer + ASan + UBSan and runs each for a set
# time, seeded with its committed corpus (tests/fuzz/corpus/TARGET, never written to) and a scratch corpus for
# the inputs it finds (BUILD/corpus/TARGET). A crash, leak, sanitizer report, timeout or out-of-memory leaves its
# input in BUILD/crashes/TARGET/ and makes this script fail. docs/robustness.md says what to do with it.
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]     SECONDS per target (default 60); TARGET: load, png, cache,
#                                                  roofline (default: all of tests/fuzz/fuzz_*.c)
# Env:   FUZZ_BUILD (default build-fuzz), FUZZ_ARGS (more libFuzzer flags, e.g. -max_len=65536).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
[[ $secs =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a whole number, not '$secs'" >&2; exit 1; }
shift || true
build=${FUZZ_BUILD:-build-fuzz}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in tests/fuzz/fuzz_*.c; do t=${f##*/fuzz_}; targets+=("${t%.c}"); done
fi
for t in "${targets[@]}"; do
  [ -f "tests/fuzz/fuzz_$t.c" ] || { echo "fuzz.sh: no target '$t' (tests/fuzz/fuzz_$t.c)" >&2; exit 1; }
done

# clang 14 and its libFuzzer runtime (Debian: clang-14, libclang-rt-14-dev).
if ! command -v clang-14 >/dev/null || ! ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a \
  >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "fuzz.sh: clang-14 with libFuzzer is missing; run as root or: sudo apt-get install clang-14 libclang-rt-14-dev" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-14 libclang-rt-14-dev >/dev/null
fi

flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1"
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=Debug -DCLGAUGE_FUZZ=ON \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_odr_violation=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=()
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t" "$build/crashes/$t"
  echo "fuzz.sh: $t for ${secs}s" >&2
  # -timeout: an input that takes 10 s counts as a hang; -rss_limit_mb: 2 GB counts as out of memory.
  # shellcheck disable=SC2086
  if ! "$build/tests/fuzz_$t" "$build/corpus/$t" "tests/fuzz/corpus/$t" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/crashes/$t/" ${FUZZ_ARGS:-} \
    >"$build/fuzz-$t.log" 2>&1; then
    failed+=("$t")
  fi
  grep -E '^stat::number_of_executed_units|^stat::new_units_added' "$build/fuzz-$t.log" | sed "s/^/  $t /" >&2
done
for t in "${targets[@]}"; do
  for f in "$build/crashes/$t"/*; do
    [ -e "$f" ] && echo "fuzz.sh: $t found $f (log: $build/fuzz-$t.log)" >&2
  done
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: FAILED: ${failed[*]}; replay one input: $build/tests/fuzz_TARGET FILE" >&2
  exit 1
fi
echo "fuzz.sh: ${targets[*]}: no crash in ${secs}s each" >&2
