#!/usr/bin/env bash
# `cmake --install` with DESTDIR: the binary, the man page, the bash and zsh completions and the documentation
# land under the staging root; the installed binary runs, the installed man page renders, every document path it
# names exists under the doc directory (for --prefix /usr/local and /usr), and the installed bash completion
# registers itself.
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
check "installed: bash completion" -- test -s "$root/usr/local/share/bash-completion/completions/clgauge"
check "installed: zsh completion" -- test -s "$root/usr/local/share/zsh/site-functions/_clgauge"
check "installed bash completion: complete -p clgauge" -- \
    bash -c '. "$1" && complete -p clgauge' _ "$root/usr/local/share/bash-completion/completions/clgauge"
check "installed bash completion offers a known rung" -- \
    grep -q "reduction:naive" "$root/usr/local/share/bash-completion/completions/clgauge"
for doc in report-schema.md reports.md peak.md workloads/reduction.md workloads/convolution.md; do
    check "installed: doc $doc" -- test -s "$root/usr/local/share/doc/clgauge/$doc"
done
check "installed: no man page among the docs" -- test ! -e "$root/usr/local/share/doc/clgauge/clgauge.1"

# Every share/doc/clgauge path the installed man page names exists under the staging root (a trailing / a
# directory), and the man page names no docs/ path of the source tree.
# Usage: man_paths_exist STAGING_ROOT PREFIX
man_paths_exist() {
    local root=$1 prefix=$2 man=$1$2/share/man/man1/clgauge.1 n=0 p
    while read -r p; do
        n=$((n + 1))
        [ -e "$root$p" ] || { echo "the man page names $p, not installed"; return 1; }
    done < <(sed 's/\\-/-/g' "$man" | grep -o "$prefix/share/doc/clgauge/[A-Za-z0-9_./-]*" | sed 's/[.,]$//' | sort -u)
    [ "$n" -ge 4 ] || { echo "only $n doc paths in the man page"; return 1; }
    ! grep -n 'I docs/\|IR docs/' "$man"
}
check "installed man page: every doc path exists (/usr/local)" -- \
    man_paths_exist "$root" /usr/local
root2=$tmp/root2
expect "DESTDIR=... cmake --install --prefix /usr" 0 "" -- env DESTDIR="$root2" cmake --install "$build" --prefix /usr
check "installed man page: every doc path exists (/usr)" -- man_paths_exist "$root2" /usr
check "installed man page under /usr names no /usr/local path" -- \
    bash -c '! grep -q /usr/local/share/doc "$1"' _ "$root2/usr/share/man/man1/clgauge.1"
if command -v groff >/dev/null; then
    check "the installed man page renders" -- bash -c 'groff -man -Tutf8 "$1" | grep -q "compare"' _ \
        "$root/usr/local/share/man/man1/clgauge.1"
fi
done_tests
