#!/usr/bin/env bash
# Checks that every C source and header under src/ and tests/ is formatted by the repo's .clang-format (the
# house rule: applied to every file). Uses clang-format-15, the version whose LLVM PoCL already brings on
# Debian 12; run `clang-format-15 -i FILE` to fix what it reports.
set -euo pipefail
cd "$(dirname "$0")/.."
cf=$(command -v clang-format-15 || true)
if [ -z "$cf" ]; then
  echo "check-format.sh: clang-format-15 is missing: apt-get install clang-format-15" >&2
  exit 1
fi
mapfile -t files < <(find src tests -name '*.c' -o -name '*.h' | sort)
if ! "$cf" --dry-run -Werror "${files[@]}" 2>/tmp/clgauge-format.$$; then
  grep -o '^[^:]*:[0-9]*' /tmp/clgauge-format.$$ | sort -u -t: -k1,1 | sed 's/^/  not formatted: /' >&2
  rm -f /tmp/clgauge-format.$$
  echo "check-format.sh: run: clang-format-15 -i FILE... (the files above)" >&2
  exit 1
fi
rm -f /tmp/clgauge-format.$$
echo "check-format.sh: ${#files[@]} files formatted"
