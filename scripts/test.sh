#!/usr/bin/env bash
# The whole test suite: set-up (scripts/setup.sh), then unit, CLI and device tests on the default OpenCL device
# (PoCL where there is no GPU), once in a normal build and once under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

scripts/setup.sh build
(cd build && ctest --output-on-failure -j"$jobs")

# Sanitized build: the OpenCL runtime (PoCL, LLVM) is not built with ASan, so its own allocations are kept out
# of the leak report (tests/lsan.supp); clgauge's own leaks are still reported.
scripts/setup.sh build-asan -DCLGAUGE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_odr_violation=0
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ctest --output-on-failure -j"$jobs")
echo "test.sh: all tests passed (normal and ASan/UBSan builds)"
