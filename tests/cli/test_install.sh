#!/usr/bin/env bash
# `cmake --install` with DESTDIR: the binary and the man page land under the staging root, the installed binary
# runs, and the installed man page renders.
# Usage: bash test_install.sh /path/to/clgauge   (the build directory is the binary's directory)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
build=$(dirname "$bin")
root=$tmp/root
expect "DESTDIR=... cmake --install" 0 "" -- env DESTDIR="$root" cmake --install "$build" --prefix /usr/local
check "installed: bin/clgauge" -- test -x "$root/usr/local/bin/clgauge"
check "installed: man page" -- test -s "$root/usr/local/share/man/man1/clgauge.1"
expect "the installed binary runs" 0 "^clgauge [0-9]" -- "$root/usr/local/bin/clgauge" --version
if command -v groff >/dev/null; then
    check "the installed man page renders" -- bash -c 'groff -man -Tutf8 "$1" | grep -q "compare"' _ \
        "$root/usr/local/share/man/man1/clgauge.1"
fi
done_tests
