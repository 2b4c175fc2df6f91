#!/usr/bin/env bash
# Outputs and caches of `clgauge run`: the JSON and CSV reports (schema, one row per rung, the same per-row fields
# in both), --json -, --quiet, unwritable report paths (exit 5 before any run), the program-binary cache (filled,
# hit, corrupt files rebuilt with a one-line warning), a corrupt roofline cache, --no-cache, --kernel-dir.
# Each cache scenario has its own cache directory under $tmp.
# Usage: bash test_outputs.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
small=(--size 4096 --runs 2 --warmup 0)
tiny=(--size 4096 --runs 1 --warmup 0)

# Python check of a JSON report: every ok row has cache_hit == want ("true"/"false").
rows_cache_hit() {
    python3 - "$@" <<'EOF'
import json, sys
rep = json.load(open(sys.argv[1]))
want = sys.argv[2] == "true"
rows = [r for r in rep["results"] if r["status"] == "ok"]
assert rows, "no ok rows"
bad = [r["rung"] for r in rows if r["cache_hit"] is not want]
assert not bad, "cache_hit is not %s for %s" % (want, bad)
EOF
}

# Every file given starts with the cache magic and is longer than its header.
valid_cache_files() {
    local f
    for f in "$@"; do
        [ "$(head -c 8 "$f")" = CLGCACHE ] || { echo "$f: no CLGCACHE magic"; return 1; }
        [ "$(stat -c %s "$f")" -gt 44 ] || { echo "$f: too short"; return 1; }
    done
}

# --- JSON and CSV reports of the whole reduction ladder
json=$tmp/red.json csv=$tmp/red.csv
expect "run reduction --json --csv" 0 "^reduction:naive +OK" -- \
    "$bin" run reduction "${small[@]}" --json "$json" --csv "$csv"
"$bin" list >"$tmp/list.txt" 2>&1
check "JSON report: schema, one row per rung, required keys" -- python3 - "$json" "$tmp/list.txt" <<'EOF'
import json, re, sys
rep = json.load(open(sys.argv[1]))
assert rep["schema_version"] == 2 and rep["kind"] == "run", (rep["schema_version"], rep["kind"])
for k in ("tool", "time_utc", "command_line", "device", "options", "roofline", "results"):
    assert k in rep, "top-level key %s missing" % k
assert rep["tool"]["name"] == "clgauge"
assert rep["options"]["runs"] == 2 and rep["options"]["warmup"] == 0 and rep["options"]["seed"] == 1
assert rep["roofline"]["copy_gbps"] > 0 and rep["roofline"]["mad_gflops"] > 0
rungs = re.findall(r"^  reduction:(\S+)", open(sys.argv[2]).read(), re.M)
rows = rep["results"]
assert [r["rung"] for r in rows] == rungs, "rows %s, want one per rung %s" % ([r["rung"] for r in rows], rungs)
required = ("workload", "rung", "why", "size", "status", "reason", "runs", "t_min_s", "t_median_s", "t_mean_s",
            "t_stddev_s", "t_cv", "t_max_s", "outliers", "bytes", "flops", "items", "item_unit", "gbps",
            "gflops", "items_per_s", "roofline_pct", "speedup", "check_ok", "max_abs_err", "tolerance",
            "first_mismatch", "mismatches", "build_s", "cache_hit", "warnings", "times_s")
for r in rows:
    missing = [k for k in required if k not in r]
    assert not missing, "row %s lacks %s" % (r["rung"], missing)
    assert r["workload"] == "reduction"
    assert r["status"] in ("ok", "unsupported"), (r["rung"], r["status"], r["reason"])
    if r["status"] == "ok":
        assert r["runs"] == 2 and r["check_ok"] is True and r["t_median_s"] > 0 and r["gbps"] > 0, r
        assert r["size"] == "2^12 floats", r["size"]
        assert r["bytes"] == 4 * 4096, r["bytes"]
    else:
        assert r["reason"], "unsupported row %s without a reason" % r["rung"]
assert rows[0]["status"] == "ok" and rows[0]["speedup"] == 1, rows[0]
EOF
check "CSV: the documented narrow columns, each a JSON row key with its value; one line per row" -- \
    python3 - "$json" "$csv" <<'EOF'
import csv, json, sys
rows = json.load(open(sys.argv[1]))["results"]
with open(sys.argv[2], newline="") as f:
    table = list(csv.reader(f))
header, body = table[0], table[1:]
want = ("workload,variant,rung,status,runs,t_min_s,t_median_s,t_max_s,t_cv,gbps,gflops,items_per_s,item_unit,"
        "roofline_pct,speedup,bound_ratio,warnings,kernel,wg_local,kernel_wg_max,kernel_local_bytes,registers,"
        "occ_groups,occupancy,occ_limit,params,params_from").split(",")
assert header == want, "CSV header %s\nwant %s" % (header, want)
assert len(body) == len(rows), "%d CSV rows, %d JSON rows" % (len(body), len(rows))
for line, row in zip(body, rows):
    assert len(line) == len(header), "ragged CSV line %s" % line
    got = dict(zip(header, line))
    assert got["rung"] == row["rung"] and got["status"] == row["status"], (got, row)
    assert got["warnings"] == ";".join(row["warnings"]), (got["warnings"], row["warnings"])
    for k in ("t_median_s", "gbps", "speedup"):  # the same number, to the last digit
        assert (got[k] == "" and row[k] is None) or float(got[k]) == row[k], (k, got[k], row[k])
EOF

# --- warnings: at most one stderr line per kind (count, worst rung, fix), "!" on the rows, none on stdout
expect "run reduction again (its table and warnings)" 0 "^reduction:naive +OK" -- "$bin" run reduction "${small[@]}"
check "run: no Warning line on stdout" -- bash -c '! grep -q "Warning" "$1"' _ "$last_stdout"
check "run: at most one Warning line per kind on stderr" -- bash -c \
    'test "$(grep -c "^Warning: " "$1")" -le 4 && ! grep "^Warning: " "$1" | cut -d" " -f2-3 | sort | uniq -d | grep -q .' \
    _ "$last_stderr"
python3 - "$json" "$tmp/warn.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
ok = [r for r in rep["results"] if r["status"] == "ok"]
for i, r in enumerate(ok):
    r["warnings"], r["t_cv"] = ["high_cv"], 0.06 + (0.2 if i == 1 else 0)
json.dump(rep, open(sys.argv[2], "w"))
PY
n_ok=$(python3 -c 'import json,sys; print(sum(r["status"] == "ok" for r in json.load(open(sys.argv[1]))["results"]))' "$json")
worst=$(python3 -c 'import json,sys; print([r["rung"] for r in json.load(open(sys.argv[1]))["results"] if r["status"] == "ok"][1])' "$json")
expect "report: high CV on every ok rung: one stderr line naming the count, the worst and the fix" 0 \
    "^Warning: timings vary on $n_ok of $n_ok rungs \(worst reduction:$worst: CV 26\.0%\): close other programs" -- \
    "$bin" report "$tmp/warn.json"
check "report: that is the only Warning line, and none on stdout" -- bash -c \
    'test "$(grep -c Warning "$2")" = 1 && ! grep -q Warning "$1"' _ "$last_stdout" "$last_stderr"
check "report: every warned row marked OK!, the legend under the table" -- bash -c \
    'test "$(grep -Ec "^reduction:[^ ]+ +OK! " "$1")" = "$2" && grep -q "^!: warnings: high_cv on $2 rows " "$1"' \
    _ "$last_stdout" "$n_ok"

# --- table width: on a terminal narrower than the table the why column is left out (script(1) gives a
# pseudo-terminal, $COLUMNS its width; the table without why is about 100 columns); into a pipe or a file the
# table is whole
why0=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["why"])' "$json")
expect "report to a pipe: the why column kept" 0 "$(re_quote "$why0")" -- "$bin" report "$json"
expect "report on a 120-column terminal: no why column" 0 "why column left out to fit 120 columns" -- \
    env COLUMNS=120 script -qec "$bin report $json" /dev/null
check "report on a 120-column terminal: the why text is gone, every table line fits" -- bash -c \
    '! grep -qF "$2" "$1" && test "$(tr -d "\r" <"$1" | awk "/^(workload:rung|reduction:)/ && length > 120" | wc -l)" = 0' \
    _ "$last_stdout" "$why0"
expect "report on a 300-column terminal: the why column kept" 0 "$(re_quote "$why0")" -- \
    env COLUMNS=300 script -qec "$bin report $json" /dev/null

# --- --json -, --csv -, --quiet
expect "--json - prints JSON on stdout" 0 '"schema_version"' -- "$bin" run reduction:naive "${tiny[@]}" --json -
check "--json -: stdout is one valid JSON document" -- python3 -c '
import json, sys; rep = json.load(open(sys.argv[1])); assert rep["results"][0]["rung"] == "naive"' "$last_stdout"
expect "--csv - prints CSV on stdout" 0 "^workload,variant,rung,status," -- "$bin" run reduction:naive "${tiny[@]}" --csv -
check "--csv -: header and one row" -- test "$(wc -l <"$last_stdout")" -eq 2
expect "--quiet" 0 "" -- "$bin" run reduction:naive "${tiny[@]}" --quiet
check "--quiet prints nothing on stdout" -- test ! -s "$last_stdout"
check "--quiet prints only its one-line summary on stderr" -- \
  bash -c '[ "$(wc -l < "$1")" -eq 1 ] && grep -q "^clgauge: 1 rung: 1 ok" "$1"' _ "$last_stderr"
expect "--quiet with --json FILE" 0 "" -- "$bin" run reduction:naive "${tiny[@]}" --quiet --json "$tmp/q.json"
check "--quiet still writes the JSON file" -- python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/q.json"

# --- unwritable report files: exit 5, the path named, before any run (so: fast, and no table)
for args in "--json /nonexistent/dir/x.json" "--csv /proc/x.csv" "--json $tmp --csv $tmp/ok.csv"; do
    path=${args#--* }
    path=${path%% *}
    start=$(date +%s%N)
    # shellcheck disable=SC2086
    expect "unwritable: $args" 5 "$(re_quote "$path")" -- "$bin" run reduction --size 2^20 $args
    ms=$((($(date +%s%N) - start) / 1000000))
    check "unwritable: $args: no table (refused before running)" -- test ! -s "$last_stdout"
    check "unwritable: $args: refused within 3 s (took $ms ms)" -- test "$ms" -lt 3000
done
check "unwritable: no stray file left" -- test ! -e "$tmp/ok.csv"

# --- program cache: off by default on PoCL (auto), a bad CLGAUGE_PROGRAM_CACHE warned about once
export CLGAUGE_CACHE_DIR=$tmp/cache-auto
expect "cache auto: run" 0 "^reduction:naive +OK" -- "$bin" run reduction "${tiny[@]}"
if "$bin" devices 2>/dev/null | grep -q "Portable Computing Language"; then
    check "cache auto: no program stored on PoCL" -- bash -c '! compgen -G "$1/programs/*.bin"' _ "$tmp/cache-auto"
fi
expect "cache: bad CLGAUGE_PROGRAM_CACHE" 0 "CLGAUGE_PROGRAM_CACHE=maybe: not on, off or auto; using auto" -- \
    env CLGAUGE_PROGRAM_CACHE=maybe "$bin" run reduction "${tiny[@]}"
export CLGAUGE_CACHE_DIR=$tmp/cache-off
expect "cache off: run" 0 "^reduction:naive +OK" -- env CLGAUGE_PROGRAM_CACHE=off "$bin" run reduction "${tiny[@]}"
check "cache off: no program stored" -- bash -c '! compgen -G "$1/programs/*.bin"' _ "$tmp/cache-off"

# --- program cache: filled, then hit
cache=$tmp/cache-programs
export CLGAUGE_CACHE_DIR=$cache
export CLGAUGE_PROGRAM_CACHE=on
expect "cache: first run" 0 "^reduction:naive +OK" -- "$bin" run reduction "${tiny[@]}" --json "$tmp/c1.json"
bins=("$cache"/programs/*.bin)
check "cache: first run fills programs/*.bin" -- test -s "${bins[0]}"
check "cache: first run: the first rung was built, not loaded" -- python3 -c '
import json, sys; rows = json.load(open(sys.argv[1]))["results"]; assert rows[0]["cache_hit"] is False, rows[0]' \
    "$tmp/c1.json"
check "cache: files are valid" -- valid_cache_files "${bins[@]}"
check "cache: roofline cached" -- compgen -G "$cache/roofline-*.json"
expect "cache: second run" 0 "!rebuilding" -- "$bin" run reduction "${tiny[@]}" --json "$tmp/c2.json"
check "cache: second run reports cache hits" -- rows_cache_hit "$tmp/c2.json" true
expect "cache: --cache-dir beats CLGAUGE_CACHE_DIR" 0 "" -- \
    "$bin" run reduction:naive "${tiny[@]}" --cache-dir "$tmp/cache-flag" --json "$tmp/c2b.json"
check "cache: --cache-dir filled" -- compgen -G "$tmp/cache-flag/programs/*.bin"

# --- program cache: every file garbage, one truncated to 5 bytes; the roofline is measured again too, so that
# its program is rebuilt as well
for f in "${bins[@]}"; do
    head -c 3000 /dev/urandom >"$f"
done
head -c 4096 /dev/zero | tr '\0' 'A' | head -c 5 >"${bins[0]}"
rm -f "$cache"/roofline-*.json
expect "cache: corrupt files: exit 0" 0 "^reduction:naive +OK" -- \
    "$bin" run reduction "${tiny[@]}" --json "$tmp/c3.json"
check "cache: corrupt files: a warning with 'rebuilding' on stderr" -- grep -q "rebuilding" "$last_stderr"
check "cache: corrupt files: each warning is one line naming the file" -- awk '
    /rebuilding/ && !/^clgauge: warning: program cache file .*\/programs\/[0-9a-f]+\.bin: / { print; bad = 1 }
    END { exit bad }' "$last_stderr"
check "cache: corrupt files: one warning per run, however many files" -- \
    test "$(grep -c rebuilding "$last_stderr")" -eq 1
check "cache: corrupt files: results still verified" -- python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
assert all(r["status"] in ("ok", "unsupported") for r in rows), [(r["rung"], r["status"]) for r in rows]' \
    "$tmp/c3.json"
check "cache: corrupt files rewritten valid" -- valid_cache_files "${bins[@]}"
expect "cache: run after repair" 0 "!rebuilding|clgauge: warning" -- "$bin" run reduction "${tiny[@]}" --json "$tmp/c4.json"
check "cache: run after repair has cache hits again" -- rows_cache_hit "$tmp/c4.json" true

# --- a stale entry (valid file, other key) is refused too (the roofline is measured again: every program is built)
cp "${bins[1]}" "${bins[0]}"
rm -f "$cache"/roofline-*.json
expect "cache: stale key: warning, exit 0" 0 "key mismatch.*rebuilding" -- \
    "$bin" run reduction "${tiny[@]}" --json "$tmp/c5.json"

# --- corrupt roofline cache
export CLGAUGE_CACHE_DIR=$tmp/cache-roofline
expect "roofline cache: first run" 0 "" -- "$bin" run reduction:naive "${tiny[@]}"
roof=("$CLGAUGE_CACHE_DIR"/roofline-*.json)
check "roofline cache: written" -- test -s "${roof[0]}"
printf '{garbage' >"${roof[0]}"
expect "roofline cache: corrupt: warning" 0 "warning: .*roofline.*corrupt" -- \
    "$bin" run reduction:naive "${tiny[@]}" --json "$tmp/r.json"
check "roofline cache: corrupt: measured again" -- python3 -c '
import json, sys; assert json.load(open(sys.argv[1]))["roofline"]["source"] == "measured"' "$tmp/r.json"
check "roofline cache: rewritten as JSON" -- python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "${roof[0]}"
printf '{"copy_gbps": -1, "read_gbps": "x"}' >"${roof[0]}"
expect "roofline cache: nonsense values: warning" 0 "warning: .*roofline.*corrupt" -- \
    "$bin" run reduction:naive "${tiny[@]}"

# --- --no-cache writes nothing
export CLGAUGE_CACHE_DIR=$tmp/cache-none
expect "--no-cache run" 0 "^reduction:naive +OK" -- "$bin" run reduction:naive "${tiny[@]}" --no-cache
check "--no-cache writes nothing into the cache dir" -- test ! -e "$CLGAUGE_CACHE_DIR"
expect "--no-cache reports no cache use" 0 '"no_cache":[[:space:]]*true' -- \
    "$bin" run reduction:naive "${tiny[@]}" --no-cache --json -
check "--no-cache still writes nothing" -- test ! -e "$CLGAUGE_CACHE_DIR"

# --- --kernel-dir
export CLGAUGE_CACHE_DIR=$tmp/cache-kernels
expect "--kernel-dir /nonexistent: exit 5 naming the path" 5 "/nonexistent" -- \
    "$bin" run reduction:naive "${tiny[@]}" --kernel-dir /nonexistent
check "--kernel-dir /nonexistent: one error line" -- test "$(grep -c 'error:' "$last_stderr")" -eq 1
# A fresh cache: the roofline is measured with the built-in roofline.cl even though DIR holds only reduction.cl.
expect "--kernel-dir wrong (fresh cache): exit 3, FAILED" 3 "FAILED" -- \
    "$bin" run reduction:naive --size 4096 --runs 1 --warmup 0 --kernel-dir "$TESTDATA/wrong"
"$bin" run reduction:naive "${tiny[@]}" >/dev/null 2>&1 # the roofline now comes from the cache
expect "--kernel-dir wrong (cached roofline): exit 3, FAILED" 3 "FAILED" -- \
    "$bin" run reduction:naive --size 4096 --runs 1 --warmup 0 --kernel-dir "$TESTDATA/wrong"
expect "--kernel-dir wrong: the wrong kernel is not cached as the right one" 0 "^reduction:naive +OK" -- \
    "$bin" run reduction:naive "${tiny[@]}"
expect "--kernel-dir with the real sources: exit 0" 0 "^reduction:naive +OK" -- \
    "$bin" run reduction:naive "${tiny[@]}" --kernel-dir "$TESTDATA/../../src/workloads/reduction"

done_tests
