#!/usr/bin/env bash
# The whole test suite: set-up (scripts/setup.sh), then the tests on the default OpenCL device (PoCL where there
# is no GPU) in two builds, each test where it checks most, and the format check (scripts/check-format.sh):
#   normal build (the binary users run): unit and fuzz tests, the device tests of every ladder (every rung at
#     every residue of its tiles and vectors, over its parameters, right and broken kernels), the tuner's, and
#     the kernel mutants;
#   AddressSanitizer + UndefinedBehaviorSanitizer build: unit and fuzz tests, the CLI tests (every option, file
#     and bad input), the tuner's device tests (test_tune, and test_tune_spaces_a and _b; _c, whose blur, cloth
#     and optical-flow candidates are builds of their own, in the normal build only), test_kfacts, and
#     tests/device/test_host_paths.sh: every rung of every ladder
#     at small sizes with every kind of edge, and each workload's own options. The ladder tests' further sizes,
#     parameters and broken kernels test the kernels, which are the same in both builds.
# The fuzz targets replay their committed corpus as ctest tests (fuzz.*); longer fuzzing (scripts/fuzz.sh) and
# valgrind (scripts/valgrind.sh) are run by hand: docs/robustness.md.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

scripts/setup.sh build

# Test-only packages, installed together (one apt-get update) while the normal build's tests run, which need
# none of them: Chromium, in which tests/cli/test_html_browser.sh loads the HTML report (required: the test fails
# instead of skipping when it is missing); python3-jsonschema, with which tests/cli/test_schema.sh validates the
# JSON outputs against docs/schema/clgauge-v2.schema.json (required: the test fails when it is missing);
# clang-format-15 for the format check (small: PoCL already brings its LLVM 15). Both the CLI tests and the
# format check run after the install has finished.
need=()
command -v chromium >/dev/null || need+=(chromium)
python3 -c 'import jsonschema' 2>/dev/null || need+=(python3-jsonschema)
command -v clang-format-15 >/dev/null || need+=(clang-format-15)
install_pid=
install_log=$(mktemp)
trap 'rm -f "$install_log"' EXIT
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "test.sh: missing ${need[*]}; run as root or: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
  echo "test.sh: installing ${need[*]} (test-only packages) while the normal build's tests run" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${need[@]}") >"$install_log" 2>&1 &
  install_pid=$!
fi
normal_rc=0
(cd build && ctest --output-on-failure -j"$jobs" -E '^cli\.|^device\.test_host_paths$') || normal_rc=$?
if [ -n "$install_pid" ] && ! wait "$install_pid"; then
  cat "$install_log" >&2
  echo "test.sh: installing ${need[*]} failed (above)" >&2
  exit 1
fi
[ "$normal_rc" -eq 0 ] || exit "$normal_rc"
scripts/check-format.sh
export CLGAUGE_REQUIRE_BROWSER=1

# Sanitized build: the OpenCL runtime (PoCL, LLVM) is not built with ASan, so its own allocations are kept out
# of the leak report (tests/lsan.supp); clgauge's own leaks are still reported.
# Built optimised (-O2 -g): the sanitizers check the same code, and the suite runs about 15% faster than at -O0.
scripts/setup.sh build-asan -DCLGAUGE_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_odr_violation=0
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# What runs here is named above; CLGAUGE_TEST_PASS=sanitize tells the device tests (tests/device/lib.sh:
# sanitizer_pass), for a ladder test run here by hand.
export CLGAUGE_TEST_PASS=sanitize
(cd build-asan &&
  ctest --output-on-failure -j"$jobs" -R '^(unit|fuzz|cli)\.|^device\.test_(host_paths|tune|tune_spaces_[ab]|kfacts)$')
echo "test.sh: all tests passed (normal and ASan/UBSan builds)"
