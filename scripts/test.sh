#!/usr/bin/env bash
# The whole test suite: set-up (scripts/setup.sh), the format check (scripts/check-format.sh), then unit, CLI
# and device tests on the default OpenCL device (PoCL where there is no GPU), once in a normal build and once
# under AddressSanitizer + UndefinedBehaviorSanitizer. The fuzz targets replay their committed corpus as ctest
# tests (fuzz.*); longer fuzzing (scripts/fuzz.sh) and valgrind (scripts/valgrind.sh) are run by hand:
# docs/robustness.md.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

scripts/setup.sh build

# Test-only packages: Chromium, in which tests/cli/test_html_browser.sh loads the HTML report (required from here
# on: the test fails instead of skipping when it is missing).
if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "test.sh: chromium is missing; run as root or: sudo apt-get install chromium" >&2
    exit 1
  fi
  echo "test.sh: installing chromium (for the HTML report's browser test)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
# Test-only packages: python3-jsonschema, with which tests/cli/test_schema.sh validates the JSON outputs against
# docs/schema/clgauge-v2.schema.json (required: the test fails when it is missing).
if ! python3 -c 'import jsonschema' 2>/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "test.sh: python3-jsonschema is missing; run as root or: sudo apt-get install python3-jsonschema" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-jsonschema >/dev/null
fi
# Test-only packages: clang-format-15 for the format check (small: PoCL already brings its LLVM 15).
if ! command -v clang-format-15 >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "test.sh: clang-format-15 is missing; run as root or: sudo apt-get install clang-format-15" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-format-15 >/dev/null
fi
scripts/check-format.sh
export CLGAUGE_REQUIRE_BROWSER=1
(cd build && ctest --output-on-failure -j"$jobs")

# Sanitized build: the OpenCL runtime (PoCL, LLVM) is not built with ASan, so its own allocations are kept out
# of the leak report (tests/lsan.supp); clgauge's own leaks are still reported.
# Built optimised (-O2 -g): the sanitizers check the same code, and the suite runs about 15% faster than at -O0.
scripts/setup.sh build-asan -DCLGAUGE_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_odr_violation=0
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The kernel mutants (device.test_mutation_quick) test the kernels' checks, not host code: the device tests
# already run every host path they take, so they run in the normal pass only.
# Likewise the device tests' sections of further broken kernels (tests/device/lib.sh: sanitizer_pass).
export CLGAUGE_TEST_PASS=sanitize
(cd build-asan && ctest --output-on-failure -j"$jobs" -E '^device\.test_mutation_quick$')
echo "test.sh: all tests passed (normal and ASan/UBSan builds)"
