# shellcheck shell=bash
# Helpers for the CLI test scripts, sourced by each one right after `bin=$1`:
#     bin=$1; . "$(dirname "$0")/lib.sh"
#
#   expect NAME CODE REGEX -- cmd...   runs cmd with stdout and stderr captured apart; the check fails when the exit
#                                      code is not CODE or when no line of the output (stdout, then stderr) matches
#                                      the extended REGEX. REGEX "" matches anything; "!RE" means no line may match RE.
#                                      Output of any sanitizer report fails the check whatever the code.
#                                      Afterwards $last_stdout and $last_stderr name the captured files.
#   check NAME -- cmd...               the check fails when cmd exits non-zero (for python checks, file tests).
#   done_tests                         prints the summary; exits 1 if any check failed.
#   re_quote STRING                    prints STRING with extended-regex metacharacters escaped.
#
# Scratch space: $tmp = $TESTTMP/<script name>, emptied at start. Environment from ctest: TESTTMP, TESTDATA,
# CLGAUGE_CACHE_DIR. Each command gets at most $CLI_TIMEOUT seconds (default 120).

set -u
: "${bin:?usage: bash $0 /path/to/clgauge}"
: "${TESTTMP:?set TESTTMP to a scratch directory (ctest does)}"
: "${TESTDATA:?set TESTDATA to tests/data (ctest does)}"
test_name=$(basename "$0" .sh)
tmp=$TESTTMP/$test_name
rm -rf "$tmp"
mkdir -p "$tmp"
last_stdout=$tmp/last.stdout
last_stderr=$tmp/last.stderr
n_checks=0
n_failed=0

# Prints a captured file indented, or "(empty)".
show_file() {
    if [ -s "$1" ]; then
        sed 's/^/    | /' "$1" | head -n 60
    else
        echo "    (empty)"
    fi
}

report_failure() {
    local name=$1 why=$2
    shift 2
    n_failed=$((n_failed + 1))
    echo "FAIL: $name: $why"
    echo "  command: $*"
    echo "  stdout:"
    show_file "$last_stdout"
    echo "  stderr:"
    show_file "$last_stderr"
}

# Runs "$@" into $last_stdout / $last_stderr; sets rc.
run_once() {
    if [ "$(type -t "$1")" = file ] && command -v timeout >/dev/null; then
        timeout "${CLI_TIMEOUT:-120}" "$@" >"$last_stdout" 2>"$last_stderr"
    else
        "$@" >"$last_stdout" 2>"$last_stderr"
    fi
    rc=$?
}

# As run_once, but when LeakSanitizer itself crashed ("has encountered a fatal error": its stop-the-world
# tracer can fault while the OpenCL runtime's worker threads exit), the check did not happen: run it once more.
# A leak LeakSanitizer does find is still a failure.
run_captured() {
    run_once "$@"
    if grep -q "LeakSanitizer has encountered a fatal error" "$last_stderr" 2>/dev/null; then
        echo "note: LeakSanitizer crashed (not a leak report); running once more: $*"
        run_once "$@"
    fi
}

expect() {
    local name=$1 code=$2 re=$3
    shift 3
    [ "${1-}" = "--" ] && shift
    n_checks=$((n_checks + 1))
    run_captured "$@"
    local matched=0
    if [ "${re#!}" != "$re" ]; then
        cat "$last_stdout" "$last_stderr" | grep -Eq -- "${re#!}" || matched=1
    elif [ -z "$re" ] || cat "$last_stdout" "$last_stderr" | grep -Eq -- "$re"; then
        matched=1
    fi
    if [ "$rc" -eq 124 ] && [ "$code" -ne 124 ]; then
        report_failure "$name" "timed out after ${CLI_TIMEOUT:-120} s" "$@"
    elif [ "$rc" -gt 128 ] && [ "$rc" -ne "$code" ]; then
        report_failure "$name" "crashed: killed by signal $((rc - 128)), want exit code $code" "$@"
    elif grep -Eq 'ERROR: (Address|Leak|Memory|Thread)Sanitizer|runtime error:' "$last_stderr"; then
        report_failure "$name" "sanitizer report (exit code $rc)" "$@"
    elif [ "$rc" -ne "$code" ]; then
        report_failure "$name" "exit code $rc, want $code" "$@"
    elif [ "$matched" -ne 1 ]; then
        if [ "${re#!}" != "$re" ]; then
            report_failure "$name" "output matches /${re#!}/ but must not" "$@"
        else
            report_failure "$name" "no line of the output matches /$re/" "$@"
        fi
    fi
}

check() {
    local name=$1 out
    shift
    [ "${1-}" = "--" ] && shift
    n_checks=$((n_checks + 1))
    if ! out=$("$@" 2>&1); then
        n_failed=$((n_failed + 1))
        echo "FAIL: $name"
        echo "  command: $*"
        [ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/    | /' | head -n 60
    fi
    return 0
}

re_quote() {
    printf '%s' "$1" | sed 's/[][\\.^$*+?(){}|]/\\&/g'
}

done_tests() {
    if [ "$n_failed" -ne 0 ]; then
        echo "$test_name: $n_failed of $n_checks checks failed"
        exit 1
    fi
    echo "$test_name: all $n_checks checks passed"
    exit 0
}
