#!/usr/bin/env bash
# The program and roofline caches and --kernel-dir against hostile files: a cache directory writable by others
# (with crafted entries that would abort PoCL) is not used, with one warning; an unusable cache location is one
# warning per run; an entry that is a FIFO, a directory, group-writable or cut short is refused and rebuilt; a
# roofline cache file that is a directory is measured again; runs killed mid-write leave no entry that is used
# afterwards; --kernel-dir with a missing file, a directory or a FIFO is one line and exit 5 before any device
# work; an empty .cl names the kernel and the file; `devices` under a memory limit never exits silently.
# Usage: bash test_cache.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
tiny=(run reduction:naive --size 4096 --runs 1 --warmup 0)
export CLI_TIMEOUT=90
export CLGAUGE_PROGRAM_CACHE=on # the program cache is off by default on PoCL, the device of these tests

# Rewrites every entry of a programs/ directory as an attacker would: the binary cut to half, with the size
# field and the XXH64 checksum made to match (PoCL asserts on such a binary).
craft() {
    python3 - "$1" <<'EOF'
import ctypes, glob, struct, sys
x = ctypes.CDLL("libxxhash.so.0")
x.XXH64.restype = ctypes.c_uint64
x.XXH64.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64]
for p in glob.glob(sys.argv[1] + "/*.bin"):
    d = open(p, "rb").read()
    size = struct.unpack_from("<Q", d, 28)[0]
    b = d[36:36 + size][: size // 2]
    open(p, "wb").write(d[:28] + struct.pack("<Q", len(b)) + b + struct.pack("<Q", x.XXH64(b, len(b), 0)))
EOF
}
# Counts the lines of $last_stderr matching an extended regex.
count_err() { grep -Ec -- "$1" "$last_stderr"; }

# --- a fresh cache is private: 0700 directories, 0600 entries
c=$tmp/cache
expect "fresh cache" 0 "^reduction:naive +OK" -- env CLGAUGE_CACHE_DIR="$c" "$bin" "${tiny[@]}"
check "cache directories are 0700" -- test "$(stat -c %a "$c")/$(stat -c %a "$c/programs")" = 700/700
check "entries are 0600" -- bash -c '! find "$1" -type f ! -perm 600 | grep -q .' _ "$c"
check "no temporary left" -- bash -c '! ls "$1/programs" | grep -v "^[0-9a-f]\{32\}\.bin$"' _ "$c"
expect "second run hits the cache, no warning" 0 "!warning" -- env CLGAUGE_CACHE_DIR="$c" "$bin" "${tiny[@]}"

# --- crafted entries in a directory others can write: never used, one warning naming the dir and the fix
craft "$c/programs"
chmod 0777 "$c"
expect "group/other-writable cache dir not used" 0 "^reduction:naive +OK" -- \
    env CLGAUGE_CACHE_DIR="$c" "$bin" "${tiny[@]}"
check "one warning naming the directory and chmod go-w" -- \
    test "$(count_err "not using the cache directory $(re_quote "$c"):.*chmod go-w")/$(count_err warning)" = 1/1
chmod 0700 "$c"
chmod 0777 "$c/programs"
expect "writable programs/ not used" 0 "not using the cache directory .*programs" -- \
    env CLGAUGE_CACHE_DIR="$c" "$bin" "${tiny[@]}"
chmod 0700 "$c/programs"
# the same entries made group-writable in a trusted dir: refused and rebuilt, then trusted again
chmod 0666 "$c"/programs/*.bin
expect "group-writable entry refused and rebuilt" 0 "not trusted" -- env CLGAUGE_CACHE_DIR="$c" "$bin" "${tiny[@]}"
expect "rebuilt entry used without warning" 0 "!warning" -- env CLGAUGE_CACHE_DIR="$c" "$bin" "${tiny[@]}"
# a file cut short (killed writer of another tool, disk full): refused by its length, rebuilt
for f in "$c"/programs/*.bin; do truncate -s 100 "$f"; done
expect "truncated entry refused and rebuilt" 0 "program cache file .*truncated or corrupt" -- \
    env CLGAUGE_CACHE_DIR="$c" "$bin" "${tiny[@]}"
expect "then clean" 0 "!warning" -- env CLGAUGE_CACHE_DIR="$c" "$bin" "${tiny[@]}"

# --- an entry that is a FIFO or a directory: refused at once (no hang), the FIFO replaced
for f in "$c"/programs/*.bin; do rm -f "$f" && mkfifo "$f"; done
expect "FIFO entry: no hang" 0 "FIFO" -- env CLGAUGE_CACHE_DIR="$c" "$bin" "${tiny[@]}"
check "the used FIFO entry replaced by a regular file" -- bash -c 'find "$1/programs" -type f | grep -q .' _ "$c"
for f in "$c"/programs/*.bin; do rm -f "$f" && mkdir "$f"; done
expect "directory entry: refused, run goes on" 0 "is a directory" -- env CLGAUGE_CACHE_DIR="$c" "$bin" "${tiny[@]}"
check "directory entry: at most one write warning" -- test "$(count_err "cannot write program cache")" -le 1

# --- the roofline cache file a directory: measured again, no crash
for f in "$c"/roofline-*.json; do rm -f "$f" && mkdir "$f"; done
expect "roofline cache a directory" 0 "roofline cache .*is a directory" -- \
    env CLGAUGE_CACHE_DIR="$c" "$bin" "${tiny[@]}"

# --- an unusable cache location: one warning per run, not two per program
plain=$tmp/plain-file
: >"$plain"
expect "cache under a regular file" 0 "^reduction:naive +OK" -- \
    env CLGAUGE_CACHE_DIR="$plain/cache" "$bin" run reduction --size 4096 --runs 1 --warmup 0
check "one warning for the whole run" -- test "$(count_err warning)" = 1
check "the warning names the fix" -- test "$(count_err "cannot use the cache directory .*--cache-dir")" = 1

# --- runs killed at random points while writing the cache: no entry is used corrupt afterwards
k=$tmp/killed
(for delay in 0.2 0.5 0.9 1.4; do
    env CLGAUGE_CACHE_DIR="$k" timeout -s KILL "$delay" "$bin" run reduction --size 4096 --runs 1 --warmup 0 \
        >/dev/null 2>&1
done) 2>/dev/null
expect "after killed runs: every rung OK, no corrupt entry" 0 "!program cache file|FAILED|error" -- \
    env CLGAUGE_CACHE_DIR="$k" "$bin" run reduction --size 4096 --runs 1 --warmup 0

# --- --kernel-dir: every needed .cl checked before any device work, one line, exit 5
kd=$tmp/kernels
mkdir -p "$kd"
expect "--kernel-dir missing file" 5 "cannot read kernel source $(re_quote "$kd")/reduction.cl" -- \
    "$bin" run reduction --size 4096 --runs 1 --warmup 0 --kernel-dir "$kd"
check "missing file: one line, no rows" -- test "$(wc -l <"$last_stderr")/$(wc -c <"$last_stdout")" = 1/0
cp "$TESTDATA/../../src/workloads/blur/blur.cl" "$kd/" # blur builds two files: every rung needs both there
expect "--kernel-dir without blur's second file" 5 "cannot read kernel source $(re_quote "$kd")/blur_rec.cl" -- \
    "$bin" run blur:sep --size 64 --runs 1 --warmup 0 --kernel-dir "$kd"
rm -f "$kd/blur.cl"
mkdir "$kd/reduction.cl"
expect "--kernel-dir reduction.cl a directory" 5 "reduction.cl: is a directory" -- \
    "$bin" "${tiny[@]}" --kernel-dir "$kd"
rmdir "$kd/reduction.cl"
mkfifo "$kd/reduction.cl"
expect "--kernel-dir reduction.cl a FIFO: no hang" 5 "reduction.cl: not a regular file" -- \
    "$bin" "${tiny[@]}" --kernel-dir "$kd"
rm -f "$kd/reduction.cl"
echo old >"$tmp/prev.json"
truncate -s 17M "$kd/reduction.cl"
expect "--kernel-dir reduction.cl of 17 MiB: refused before running" 5 "reduction.cl: file too large" -- \
    "$bin" "${tiny[@]}" --kernel-dir "$kd" --json "$tmp/prev.json"
check "--kernel-dir too large: the old report is kept" -- grep -qx old "$tmp/prev.json"
rm -f "$kd/reduction.cl"
: >"$kd/reduction.cl"
expect "--kernel-dir empty .cl names the kernel and the file" 4 \
    "kernel '[a-z_0-9]+' not found in $(re_quote "$kd")/reduction.cl \(empty file" -- \
    "$bin" "${tiny[@]}" --kernel-dir "$kd" --no-cache
expect "--kernel-dir all: the first missing file, before running" 5 "cannot read kernel source .*\.cl" -- \
    "$bin" run all --runs 1 --warmup 0 --kernel-dir "$kd"
check "all: nothing ran" -- test ! -s "$last_stdout"

# --- `devices` under a memory limit: works, or says why on stderr; never silent (under ASan, which cannot map
# its shadow memory there, it says so on stderr)
for kb in 150000 300000 450000 600000; do
    { (ulimit -v "$kb" && exec timeout 60 "$bin" devices) >"$last_stdout" 2>"$last_stderr"; } 2>/dev/null
    rc=$?
    n_checks=$((n_checks + 1))
    if ! { [ "$rc" -eq 0 ] && [ -s "$last_stdout" ]; } && [ ! -s "$last_stderr" ]; then
        report_failure "devices under ulimit -v $kb" "exit $rc with nothing on stderr" devices
    fi
done
# core/ never hides the process's stderr (a probe's log is read through the API, never by redirecting fd 2)
src=$(dirname "$0")/../../src
check "core/ never redirects stderr" -- bash -c '! grep -nE "dup2|freopen|STDERR_FILENO" "$1"/core/*.c' _ "$src"

done_tests
