# shellcheck shell=bash
# Helpers for the device test scripts, sourced first thing by each one: . "$(dirname "$0")/lib.sh"
#
#   BIN                            the clgauge binary (the script's first argument)
#   SRC                            the checkout's src/ (kernels to copy and break); TESTTMP, TESTDATA from ctest
#   fail MSG...                    counts a failure and prints it
#   expect RC PATTERN -- cmd...    cmd must exit RC and print a line matching PATTERN (grep, basic regex)
#   make_wrong FILE.cl DIR         writes DIR/FILE.cl: the kernel file src/workloads/<name>/FILE.cl with each
#                                  (old, new) of the Python list on stdin replaced; each old must occur once
#   expect_wrong WHAT -- cmd...    cmd must exit 3 with a FAILED row: a deliberately wrong kernel was caught
#   expect_wrong_each WHAT RUNGS -- cmd...   the same with a FAILED row for each of the comma-separated RUNGS
#   expect_ok WHAT -- cmd...       cmd (a `run` without --json) must exit 0 with every row ok or unsupported
#                                  (checked in its JSON, which expect_ok adds); prints the bad rows
#   alloc_side                     prints the side of the smallest square of floats above the device's largest
#                                  allocation, or nothing when that side squared passes 2^31 (int indexing
#                                  refuses it first); exits 1 when `devices --json` gives no max allocation
#   tune_setup, tune, check        the tuning-space tests' search and row checks (below)
#   sanitizer_pass                 the ASan/UBSan pass (below): what it leaves to the normal pass
#   finish                         prints the summary; exits 1 when anything failed
#
# Scratch files: $TESTTMP/<script name>_*.out.

set -u
test_name=$(basename "$0" .sh)
BIN=${1:?usage: bash $0 /path/to/clgauge}
: "${TESTTMP:?set TESTTMP to a scratch directory (ctest does)}"
: "${TESTDATA:?set TESTDATA to tests/data (ctest does)}"
mkdir -p "$TESTTMP"
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../src" && pwd)
fails=0

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

expect() {
    local want=$1 pat=$2 out=$TESTTMP/${test_name}_err.out
    shift 3
    "$@" >"$out" 2>&1
    local rc=$?
    if [ "$rc" -ne "$want" ] || ! grep -q -- "$pat" "$out"; then
        cat "$out"
        fail "$* : exit $rc (want $want), message must match '$pat'"
    fi
}

make_wrong() {
    local name=$1 dir=$2 src f
    src=$(ls "$SRC"/workloads/*/"$name" 2>/dev/null | head -1)
    [ -n "$src" ] || fail "no kernel file src/workloads/*/$name"
    mkdir -p "$dir"
    for f in "$(dirname "$src")"/*.cl; do # the workload's other .cl files, which --kernel-dir must hold too
        [ -e "$dir/$(basename "$f")" ] || cp "$f" "$dir/"
    done
    python3 -c '
import ast, sys
s = open(sys.argv[1]).read()
for old, new in ast.literal_eval(sys.stdin.read()):
    if s.count(old) != 1:
        sys.exit("cannot make the wrong kernel: %r not found once" % old)
    s = s.replace(old, new)
open(sys.argv[2], "w").write(s)' "$src" "$dir/$name" || fail "could not write $dir/$name"
}

expect_wrong() {
    local what=$1 out=$TESTTMP/${test_name}_wrong.out
    shift 2
    "$@" >"$out" 2>&1
    local rc=$?
    if [ "$rc" -ne 3 ] || ! grep -q FAILED "$out"; then
        cat "$out"
        fail "$what: exit $rc (want 3) or no FAILED row"
    fi
}

# expect_wrong_each WHAT RUNGS -- cmd...: cmd (a `run` of the comma-separated RUNGS, wl:rung each, with one
# broken --kernel-dir) must exit 3 with a FAILED row for every one of RUNGS (a row may carry a variant,
# wl[7x5]:rung): one process and one build of each program instead of a run per rung.
expect_wrong_each() {
    local what=$1 rungs=$2 out=$TESTTMP/${test_name}_wrong.out r
    shift 3
    "$@" >"$out" 2>&1
    local rc=$?
    [ "$rc" -eq 3 ] || { cat "$out"; fail "$what: exit $rc (want 3)"; return; }
    for r in ${rungs//,/ }; do
        grep -q "^${r%%:*}\(\[[^]]*\]\)*:${r#*:}  *FAILED" "$out" || { cat "$out"; fail "$what: no FAILED row for $r"; }
    done
}

# The sanitizer pass (scripts/test.sh exports CLGAUGE_TEST_PASS=sanitize for its ASan/UBSan build, which runs
# test_host_paths.sh and the tuner's tests; a ladder test run there by hand): the sections that break more
# kernels on purpose test the kernels' checks, not host code, and are skipped (each test's first broken kernel,
# or blur's, still takes the FAILED path under the sanitizers).
sanitizer_pass() { [ "${CLGAUGE_TEST_PASS:-}" = sanitize ]; }

expect_ok() {
    local what=$1 out=$TESTTMP/${test_name}_ok.out json=$TESTTMP/${test_name}_ok.json
    shift 2
    rm -f "$json"
    "$@" --json "$json" >"$out" 2>&1
    local rc=$?
    if [ "$rc" -ne 0 ] || [ ! -s "$json" ]; then
        cat "$out"
        fail "$what: exit $rc (want 0) or no JSON"
        return
    fi
    python3 - "$json" <<'PY' || fail "$what: rows not ok (above)"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
bad = ["%s:%s %s %s" % (r["workload"], r["rung"], r["status"], r.get("reason", "")) for r in rows
       if r["status"] not in ("ok", "unsupported")]
bad += ["no rung ran"] if not any(r["status"] == "ok" for r in rows) else []
# a sweep (--size A,B,...): every size ran at least one rung
variants = {r.get("variant") for r in rows}
bad += ["no rung ran at %s" % v for v in sorted(variants - {None})
        if not any(r["status"] == "ok" and r.get("variant") == v for r in rows)]
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
}

alloc_side() {
    python3 - "$BIN" <<'PY'
import json, math, subprocess, sys
try:
    d = json.loads(subprocess.run([sys.argv[1], "devices", "--json"], capture_output=True, text=True).stdout)
    d = d["devices"] if isinstance(d, dict) else d  # schema 2: {"kind": "devices", "devices": [...]}
    side = math.isqrt(min(dev["max_alloc_bytes"] for dev in d) // 4) + 1
except (ValueError, KeyError):
    sys.exit(1)
if side * side < 2 ** 31:
    print(side)
PY
}


# Tuning-space tests (test_tune_spaces_*.sh): tune_setup NAME makes a private cache (the tuning cache's winners
# must not reach the other tests' runs) and the files below; tune ARGS... runs one exhaustive search into $json,
# exit 0 wanted; check WHAT PYTHON runs the Python body over its rows (below).
tune_setup() {
    cache=$TESTTMP/$1_cache
    rm -rf "$cache"
    mkdir -p "$cache"
    chmod 700 "$cache"
    json=$TESTTMP/$1.json
    out=$TESTTMP/$1.out
}

tune() {
    rm -f "$json"
    "$BIN" tune "$@" --strategy exhaustive --budget 600 --runs 1 --warmup 0 --cache-dir "$cache" \
        --json "$json" >"$out" 2>&1
    local rc=$?
    [ "$rc" -eq 0 ] || { cat "$out"; fail "tune $* exited $rc"; }
}

# check WHAT PYTHON: runs the Python body with rows (the results), ok(params), skip(params, reason part) and
# bad (a list of failures) defined; every row must be ok (and verified) or unsupported with a reason.
check() {
    local what=$1
    python3 - "$json" "$2" <<'EOF' || fail "$what (above)"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
bad = ["%s %s: %s %s" % (r["rung"], r.get("params"), r["status"], r.get("reason", "")) for r in rows
       if r["status"] not in ("ok", "unsupported") or (r["status"] == "unsupported" and not r.get("reason"))]
bad += ["%s %s: not verified" % (r["rung"], r["params"]) for r in rows if r["status"] == "ok" and not r["check_ok"]]
by = {}
for r in rows:
    by.setdefault(r["params"], r)
def ok(p):
    r = by.get(p)
    if not r or r["status"] != "ok":
        bad.append("%s: want ok, got %s" % (p, r and (r["status"], r["reason"])))
        return None
    return r
def skip(p, part):
    r = by.get(p)
    if not r or r["status"] != "unsupported" or part not in r["reason"]:
        bad.append("%s: want unsupported '%s', got %s" % (p, part, r and (r["status"], r["reason"])))
def launched(p, wg, local):
    r = ok(p)
    if r and (str(r["wg_local"]), r["kernel_local_bytes"]) != (str(wg), local):
        bad.append("%s: launched %s with %s B local, want %s with %s" % (p, r["wg_local"], r["kernel_local_bytes"],
                                                                         wg, local))
exec(sys.argv[2])
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF
}

finish() {
    if [ "$fails" -ne 0 ]; then
        echo "$test_name: $fails failure(s)"
        exit 1
    fi
    echo "$test_name: ok"
}
