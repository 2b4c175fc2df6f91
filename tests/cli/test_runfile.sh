#!/usr/bin/env bash
# Hostile run files for `report` and `compare`: keys of a wrong type or value (strings, negative, zero and
# huge medians, 1e999, arrays and objects where numbers belong, keys given twice, required keys missing) exit 5
# with one line "damaged file: PATH: field X of row N ..."; a directory or FIFO exits 5 at once; escape
# sequences and invalid UTF-8 in a file never reach the terminal; 100,000 rows report and compare in well
# under 20 s of CPU each (they took minutes when every row scanned every other; under the sanitizers 25,000
# rows in 15 s); a long multibyte argument leaves
# the run's command_line valid UTF-8.
# Usage: bash test_runfile.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
gpu=$TESTDATA/../../docs/results/2026-11-22-h100-foundation/clgauge-gpu.json

# craft OUT PYTHON: OUT is the GPU run with the python statement applied to `rep` and `x` (its first row,
# reduction:naive); or `raw`, the text or bytes to write instead.
craft() {
    python3 - "$gpu" "$1" "$2" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
x = rep["results"][0]
raw = None
exec(sys.argv[3])
raw = raw if raw is not None else json.dumps(rep, indent=1)
open(sys.argv[2], "wb").write(raw if isinstance(raw, bytes) else raw.encode())
PY
}

# one_line NAME: the last command wrote exactly one line on stderr.
one_line() {
    check "$1: one line on stderr" -- test "$(wc -l <"$last_stderr")" -eq 1
}

# --- keys of a wrong type or value: exit 5, one line naming the field and the row
bad_cases=(
    't_median_s_string|x["t_median_s"] = "fast"|field t_median_s of row 0 \(reduction:naive\) is "fast", want seconds'
    't_median_s_negative|x["t_median_s"] = -0.001|field t_median_s of row 0 \(reduction:naive\) is -0.001'
    't_median_s_zero|x["t_median_s"] = 0|field t_median_s of row 0 \(reduction:naive\) is not above 0'
    't_median_s_null|x["t_median_s"] = None|field t_median_s of row 0 \(reduction:naive\) is not above 0'
    't_median_s_huge|x["t_median_s"] = 1e308|field t_median_s of row 0 \(reduction:naive\) is 1e\+308'
    't_median_s_array|x["t_median_s"] = [0.1]|field t_median_s of row 0 \(reduction:naive\) is an array'
    't_max_s_object|x["t_max_s"] = {"s": 1}|field t_max_s of row 0 \(reduction:naive\) is an object'
    't_median_s_missing|del x["t_median_s"]|field t_median_s of row 0 \(reduction:naive\) is missing'
    'runs_fraction|x["runs"] = 2.5|field runs of row 0 \(reduction:naive\) is 2.5'
    'status_unknown|x["status"] = "great"|field status of row 0 \(reduction:naive\) is "great", want one of'
    'gbps_inf|raw = json.dumps(rep).replace("\"gbps\": %r" % x["gbps"], "\"gbps\": 1e999", 1)|field gbps of row 0 \(reduction:naive\) is inf'
    'key_twice|raw = json.dumps(rep).replace("\"t_min_s\":", "\"t_median_s\": 1, \"t_min_s\":", 1)|field t_median_s of row 0 is given twice'
    'device_type|rep["device"]["compute_units"] = "132"|field device.compute_units is "132", want a whole number'
)
for c in "${bad_cases[@]}"; do
    IFS='|' read -r name py re <<<"$c"
    craft "$tmp/$name.json" "$py"
    for cmd in report compare; do
        second=()
        [ "$cmd" = compare ] && second=("$gpu")
        expect "$cmd $name: exit 5" 5 "error: damaged file: $(re_quote "$tmp/$name.json"): $re" -- \
            "$bin" $cmd "$tmp/$name.json" "${second[@]}"
        one_line "$cmd $name"
    done
done
craft "$tmp/schema.json" 'rep["schema_version"] = 1.0000000000000002'
expect "schema_version 1.0000000000000002: exit 5, not '1, but this reads 1'" 5 \
    "schema_version 1\.0000000000000002 is not a whole number" -- "$bin" report "$tmp/schema.json"

# --- not a file: a directory, a FIFO (no writer: must not wait for one)
mkdir -p "$tmp/dir.json"
expect "report a directory: exit 5" 5 "error: .*dir.json: cannot read: is a directory" -- "$bin" report "$tmp/dir.json"
mkfifo "$tmp/fifo.json"
CLI_TIMEOUT=20 expect "report a FIFO: exit 5 at once" 5 "error: .*fifo.json: cannot read: not a regular file" -- \
    "$bin" report "$tmp/fifo.json"
CLI_TIMEOUT=20 expect "compare with a FIFO: exit 5 at once" 5 "fifo.json: cannot read: not a regular file" -- \
    "$bin" compare "$gpu" "$tmp/fifo.json"

# --- file text never reaches the terminal raw: no escape sequence, no invalid UTF-8
craft "$tmp/escape.json" 'x["why"] = "\x1b]0;pwned\x07\x1b[2J clear"; x["reason"] = "\x9b31m"; rep["device"]["name"] = "gpu\r\n\x1b[31m"
raw = json.dumps(rep, ensure_ascii=False).encode().replace(b"clear", b"\xff\xc0\xaf \xed\xa0\x80", 1)'
expect "report with escape sequences and invalid UTF-8 in the file" 0 "^reduction:naive +OK" -- "$bin" report "$tmp/escape.json"
check "report: no control character or invalid UTF-8 on the terminal" -- python3 -c '
import sys
data = open(sys.argv[1], "rb").read()
data.decode("utf-8")
bad = [c for c in data if (c < 0x20 and c != 0x0a) or c == 0x7f]
assert not bad, "control bytes %r" % bad[:5]
assert "\u009b" not in data.decode("utf-8"), "a C1 control (CSI)"' "$last_stdout"
expect "compare with escape sequences in the file" 0 "" -- "$bin" compare "$tmp/escape.json" "$gpu"
check "compare: no escape sequence on the terminal" -- python3 -c '
import sys
assert b"\x1b" not in open(sys.argv[1], "rb").read()' "$last_stdout"

# --- 100,000 rows: near-linear (was 198 s for report and 125 s for compare on 2 cores). Under the sanitizers,
# which slow everything down 3 to 5 times, 25,000 rows within 15 s (the quadratic version: about 16 times less
# than at 100,000 rows, still over 30 s there).
nrows=100000 limit=20
ldd "$bin" 2>/dev/null | grep -q libasan && nrows=25000 limit=15
last=w$((nrows / 100 - 1))
python3 - "$tmp/big.json" "$nrows" <<'PY'
import json, sys
rows = []
for i in range(int(sys.argv[2])):
    w, r = i // 100, i % 100
    rows.append({"workload": "w%d" % w, "rung": "r%d" % r, "variant": "", "why": "rung %d" % r, "size": "2^20 floats",
                 "status": "ok", "runs": 10, "t_min_s": 1e-3, "t_median_s": 1e-3 * (1 + r), "t_mean_s": 1e-3,
                 "t_stddev_s": 1e-6, "t_cv": 0.001, "t_max_s": 2e-3, "outliers": 0, "bytes": 1e6, "gbps": 1.0,
                 "speedup": 1.0 / (1 + r), "bytes_note": "note %d" % (w % 7), "check_ok": True, "warnings": []})
rep = {"schema_version": 1, "tool": {"name": "clgauge", "version": "0", "git_commit": "x"},
       "device": {"name": "dev", "platform": "p"}, "results": rows}
json.dump(rep, open(sys.argv[1], "w"))
rep["device"]["name"] = "other"
json.dump(rep, open(sys.argv[1].replace("big", "big-other"), "w"))
PY
# timed NAME CODE REGEX -- cmd...: the exit code, a line of stdout matching REGEX, and under $limit s of CPU
# time (user + sys: other programs on a shared machine do not count; the quadratic version took 125-200 s)
timed() {
    local name=$1 code=$2 re=$3
    shift 4
    local rc wall user sys
    { TIMEFORMAT='%R %U %S'; time timeout 300 "$@" >"$tmp/timed.out" 2>"$tmp/timed.err"; } 2>"$tmp/timed.time"
    rc=$?
    read -r wall user sys < <(tail -n 1 "$tmp/timed.time") # the last line: bash -x traces come before it
    check "$name: exit $code" -- test "$rc" -eq "$code"
    check "$name: output" -- grep -Eq -- "$re" "$tmp/timed.out"
    check "$name: ${user}+${sys} s CPU (${wall} s wall), under $limit s" -- \
        awk -v u="$user" -v s="$sys" -v l="$limit" 'BEGIN { exit !(u ~ /^[0-9.]+$/ && s ~ /^[0-9.]+$/ && u + s < l) }'
}
timed "report $nrows rows" 0 "^$last:r99 +OK" -- "$bin" report "$tmp/big.json"
timed "compare $nrows rows, same device" 0 "^0 regressed, 0 now failing, 0 faster, $nrows same" -- \
    "$bin" compare "$tmp/big.json" "$tmp/big.json"
timed "compare $nrows rows, two devices" 0 "^  $last: best on A: r0" -- \
    "$bin" compare "$tmp/big.json" "$tmp/big-other.json"

# --- the command line recorded in a run stays valid UTF-8 when cut (1024 bytes), for either parity of the cut
deep=$tmp/$(printf 'é%.0s' $(seq 100))
deep=$deep/$(printf 'é%.0s' $(seq 100))/$(printf 'é%.0s' $(seq 100))/$(printf 'é%.0s' $(seq 100))
mkdir -p "$deep/a" "$deep/ab"
for sub in a ab; do
    expect "run --json under a long multibyte path ($sub)" 0 "" -- "$bin" run reduction:naive --size 4096 --runs 2 \
        --warmup 0 --quiet --json "$deep/$sub/$(printf 'é%.0s' $(seq 100)).json"
    check "command_line is valid UTF-8, cut at 1023 bytes ($sub)" -- python3 -c '
import json, sys
line = json.load(open(sys.argv[1], encoding="utf-8"))["command_line"]
assert len(line.encode()) >= 1020, len(line.encode())' "$deep/$sub/$(printf 'é%.0s' $(seq 100)).json"
done

done_tests
