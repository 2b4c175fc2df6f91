#!/usr/bin/env bash
# `clgauge report` and `clgauge compare` on saved runs, and `run --json --csv --html` together: the HTML page
# (one ladder chart per workload, roofline, metadata, escaping), compare's verdicts and exit codes on crafted
# runs (regression, within noise, under threshold, a passing rung that now fails, nothing in common, two
# devices side by side), every bad input with its exit code and one-line message, and progress on a terminal.
# Usage: bash test_report.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
res=$TESTDATA/../../docs/results
gpu=$res/2026-11-22-h100-foundation/clgauge-gpu.json
gpu2=$res/2026-11-22-h100-foundation/clgauge-gpu-repeat.json
pocl=$res/2026-11-22-pocl-2core/pocl.json

# craft IN OUT PYTHON: OUT is IN with the python statement applied to `rep` (the parsed run); `row(w, r)` finds
# a row, `scale(row, f)` multiplies its times.
craft() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
def row(w, r):
    return next(x for x in rep["results"] if x["workload"] == w and x["rung"] == r)
def scale(x, f):
    for k in ("t_min_s", "t_median_s", "t_mean_s", "t_max_s", "t_stddev_s"):
        x[k] *= f
exec(sys.argv[3])
json.dump(rep, open(sys.argv[2], "w"), indent=1)
PY
}

# html_check PAGE RUNS...: one ladder chart per workload (per workload and variant for a --filter sweep), the
# metadata and the why-lines are in the page.
html_check() {
    python3 - "$@" <<'PY'
import json, re, sys
page, runs = open(sys.argv[1]).read(), sys.argv[2:]
assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>"), "not a whole HTML page"
reps = [json.load(open(r)) for r in runs]
groups = list(dict.fromkeys((x["workload"], x.get("variant", "")) for rep in reps for x in rep["results"]))
chart = r'<svg data-chart="%s" data-workload="([^"]+)"(?: data-variant="([^"]+)")?'
ladders = re.findall(chart % "ladder", page)
assert ladders == groups, "ladder charts %s, want one per workload (and variant) %s" % (ladders, groups)
roofs = re.findall(chart % "roofline", page)
assert roofs == groups, "roofline charts %s, want %s" % (roofs, groups)
assert "<?xml" not in page and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") \
    .replace('xmlns:xlink="http://www.w3.org/1999/xlink"', ""), "prolog or a link to the network in the page"
assert not re.search(r"<(script|link|img|iframe)\b", page), "the page must hold no script or external resource"
esc = lambda s: s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")
for rep in reps:
    dev = rep["device"]  # a version 1 file (docs/results) names the driver "driver"
    for s in (dev["name"], dev.get("driver_version", dev.get("driver")), rep["tool"]["version"], rep["tool"]["git_commit"],
              rep["command_line"]):
        assert esc(s) in page, "metadata %r missing" % s
    for x in rep["results"]:
        assert esc(x["why"]) in page, "why-line of %s:%s missing" % (x["workload"], x["rung"])
ids = re.findall(r' id="([^"]+)"', page) + re.findall(r" id='([^']+)'", page)
dups = sorted(set(i for i in ids if ids.count(i) > 1))
assert not dups, "ids used twice: %s" % dups[:5]
PY
}

# --- report: text and HTML from the real GPU run
expect "report FILE prints the table" 0 "^reduction:naive +OK" -- "$bin" report "$gpu"
expect "report --html from the GPU run" 0 "" -- "$bin" report "$gpu" --html "$tmp/gpu.html"
check "report --html: charts, metadata, why-lines" -- html_check "$tmp/gpu.html" "$gpu"
check "report --html: the generator is recorded" -- grep -q "Written by clgauge .*report" "$tmp/gpu.html"
expect "report --html from two devices" 0 "" -- "$bin" report "$gpu" "$pocl" --html "$tmp/two.html"
check "report --html two runs: one chart per workload holding both" -- html_check "$tmp/two.html" "$gpu" "$pocl"
check "report --html two runs: the unsupported rung is named on its chart" -- grep -q ">unsupported</text>" "$tmp/two.html"
expect "report --html -: the page on stdout" 0 "^<!DOCTYPE html>" -- "$bin" report "$gpu" --html -

# --- FAILED rungs and escaping
craft "$gpu" "$tmp/failed.json" 'x = row("reduction", "best"); x["status"] = "wrong_result"; x["check_ok"] = False; x["reason"] = "sum 1 <> 2 & \"quoted\""; row("filter3x3", "u8-img")["why"] = "<script>alert(1)</script>"'
expect "report --html with a FAILED rung" 0 "" -- "$bin" report "$tmp/failed.json" --html "$tmp/failed.html"
check "FAILED rung: marked on its chart and in the table" -- \
    bash -c 'grep -q ">FAILED</text>" "$1" && grep -q "st-failed\">FAILED<" "$1"' _ "$tmp/failed.html"
check "strings from the run are escaped" -- \
    bash -c '! grep -q "<script>alert" "$1" && grep -q "&lt;script&gt;alert(1)&lt;/script&gt;" "$1" &&
             grep -q "sum 1 &lt;&gt; 2 &amp; &quot;quoted&quot;" "$1"' _ "$tmp/failed.html"
expect "report text with a FAILED rung" 0 "^reduction:best +FAILED" -- "$bin" report "$tmp/failed.json"

# --- compare: same device
expect "compare: the GPU run and its repeat are the same" 0 "0 regressed, 0 now failing" -- \
    "$bin" compare "$gpu" "$gpu2"
check "compare: every rung matched" -- test "$(grep -c 'same (within noise)' "$last_stdout")" -eq 18
craft "$gpu" "$tmp/slow.json" 'scale(row("reduction", "naive"), 1.5)'
expect "compare: a rung 50% slower regresses: exit 3" 3 "^reduction:naive .*\+50\.0%.*REGRESSED" -- \
    "$bin" compare "$gpu" "$tmp/slow.json"
check "compare: the summary counts it" -- grep -q "^1 regressed, 0 now failing" "$last_stdout"
expect "compare: faster is not a regression" 0 "^reduction:naive .*faster" -- "$bin" compare "$tmp/slow.json" "$gpu"
craft "$gpu" "$tmp/noisy.json" 'scale(row("filter3x3", "u8-vec"), 1.2)'
expect "compare: +20% inside the runs' spread (CV 14%) is noise" 0 "^filter3x3:u8-vec .*\+20\.0%.*within noise" -- \
    "$bin" compare "$gpu" "$tmp/noisy.json"
craft "$gpu" "$tmp/3pct.json" 'scale(row("reduction", "naive"), 1.03)'
expect "compare --threshold 5: +3% beyond the noise but under the threshold" 0 \
    "^reduction:naive .*under threshold" -- "$bin" compare "$gpu" "$tmp/3pct.json" --threshold 5
expect "compare: the same +3% regresses at the default 2%" 3 "^reduction:naive .*REGRESSED" -- \
    "$bin" compare "$gpu" "$tmp/3pct.json"
expect "compare --threshold 1: the same +3% regresses" 3 "^reduction:naive .*REGRESSED" -- \
    "$bin" compare "$gpu" "$tmp/3pct.json" --threshold 1
expect "compare: a passing rung that now fails: exit 3" 3 "^reduction:best .*NOW FAILS" -- \
    "$bin" compare "$gpu" "$tmp/failed.json"
expect "compare: a rung fixed is no failure" 0 "^reduction:best .*fixed" -- "$bin" compare "$tmp/failed.json" "$gpu"
expect "compare --threshold 0: usage" 1 "--threshold expects a positive number" -- \
    "$bin" compare "$gpu" "$gpu2" --threshold 0
expect "compare with one file: usage" 1 "compare needs two run files" -- "$bin" compare "$gpu"
craft "$gpu" "$tmp/other-size.json" 'for x in rep["results"]: x["size"] = "2^10 floats"'
expect "compare: nothing in common: exit 1, one line" 1 "error: .* have no rung in common" -- \
    "$bin" compare "$gpu" "$tmp/other-size.json"
check "compare: nothing in common: one line, no table" -- \
    bash -c 'test "$(wc -l <"$1")" -eq 1 && test ! -s "$2"' _ "$last_stderr" "$last_stdout"
craft "$pocl" "$tmp/pocl-other.json" 'for x in rep["results"]: x["workload"] = "other"'
expect "compare two devices with no ladder in common: exit 1" 1 "have no rung in common" -- \
    "$bin" compare "$gpu" "$tmp/pocl-other.json"

# --- compare: two devices
expect "compare two devices: side by side" 0 "two devices, side by side" -- "$bin" compare "$gpu" "$pocl"
check "side by side: which rung wins where" -- \
    grep -q "reduction: best on A: best .*; best on B: chunked .*: the best rung depends on the device" "$last_stdout"
check "side by side: a rung the device cannot run" -- grep -Eq "^reduction:nv-shfl .* unsupported" "$last_stdout"

# --- bad input: each one line with its exit code
printf '{"name": "not clgauge", "results": []}\n' >"$tmp/other.json"
craft "$gpu" "$tmp/schema0.json" 'rep["schema_version"] = 0'
craft "$gpu" "$tmp/schema99.json" 'rep["schema_version"] = 99'
head -c 2000 "$gpu" >"$tmp/truncated.json"
printf '\x00\x01garbage' >"$tmp/binary.json"
craft "$gpu" "$tmp/badstatus.json" 'row("reduction", "naive")["status"] = "great"'
for cmd in report compare; do
    second=()
    [ $cmd = compare ] && second=("$gpu")
    expect "$cmd: missing file: exit 5" 5 "error: $tmp/none.json: cannot read: No such file" -- \
        "$bin" $cmd "$tmp/none.json" "${second[@]}"
    expect "$cmd: JSON that is not a clgauge run: exit 5" 5 "error: .*other.json: not a clgauge run" -- \
        "$bin" $cmd "$tmp/other.json" "${second[@]}"
    expect "$cmd: schema_version 0 (older): exit 5" 5 \
        "error: .*schema0.json: schema_version 0, but this clgauge reads schema_version 1 to 2; .*\(older\)" -- \
        "$bin" $cmd "$tmp/schema0.json" "${second[@]}"
    expect "$cmd: schema_version 99 (newer): exit 5" 5 \
        "error: .*schema99.json: schema_version 99, but this clgauge reads schema_version 1 to 2; .*\(newer\)" -- \
        "$bin" $cmd "$tmp/schema99.json" "${second[@]}"
    expect "$cmd: truncated JSON: exit 5" 5 "error: .*truncated.json: not valid JSON \(truncated" -- \
        "$bin" $cmd "$tmp/truncated.json" "${second[@]}"
    expect "$cmd: binary garbage: exit 5" 5 "error: .*binary.json: not valid JSON" -- \
        "$bin" $cmd "$tmp/binary.json" "${second[@]}"
    expect "$cmd: unknown status in a row: exit 5" 5 "error: damaged file: .*badstatus.json: field status of row 0 \(reduction:naive\) is \"great\"" -- \
        "$bin" $cmd "$tmp/badstatus.json" "${second[@]}"
    check "$cmd: the error is one line" -- test "$(wc -l <"$last_stderr")" -eq 1
done
expect "report: a directory: exit 5" 5 "error: .*: cannot read" -- "$bin" report "$tmp"
expect "report: no file: usage" 1 "report needs run files" -- "$bin" report
seventeen=()
for _ in $(seq 17); do seventeen+=("$gpu"); done
expect "report with 17 files: usage naming the limit and the fix" 1 \
    "error: report takes at most 16 run files.*report them in groups of 16" -- "$bin" report "${seventeen[@]}"
check "17 files: one line, nothing on stdout" -- \
    bash -c 'test "$(wc -l <"$1")" -eq 1 && test ! -s "$2"' _ "$last_stderr" "$last_stdout"
expect "report with 16 files: one page" 0 "" -- "$bin" report "${seventeen[@]:1}" --html "$tmp/sixteen.html"
expect "report --html to an unwritable path: exit 5" 5 "cannot write --html file /nonexistent/dir/r.html" -- \
    "$bin" report "$gpu" --html /nonexistent/dir/r.html
check "unwritable --html: one line" -- test "$(wc -l <"$last_stderr")" -eq 1
mkdir -p "$tmp/empty-path"
expect "report --html without gnuplot: exit 4, names the package" 4 "gnuplot not found.*apt-get install gnuplot-nox" -- \
    env PATH="$tmp/empty-path" "$bin" report "$gpu" --html "$tmp/nognuplot.html"
check "without gnuplot: no file written" -- test ! -e "$tmp/nognuplot.html"
expect "report without gnuplot but without --html still works" 0 "^reduction:naive +OK" -- \
    env PATH="$tmp/empty-path" "$bin" report "$gpu"
expect "run --html without gnuplot: exit 4 before measuring" 4 "gnuplot not found" -- \
    env PATH="$tmp/empty-path" "$bin" run reduction:naive --size 4096 --runs 1 --html "$tmp/x.html"
check "run --html without gnuplot: no table" -- test ! -s "$last_stdout"
expect "run --html to an unwritable path: exit 5 before measuring" 5 "cannot write --html file /proc/x.html" -- \
    "$bin" run reduction:naive --size 4096 --runs 1 --html /proc/x.html

# --- run with --json --csv --html together
expect "run --json --csv --html" 0 "^reduction:naive +OK" -- "$bin" run reduction:naive,reduction:best \
    --size 4096 --runs 2 --warmup 0 --json "$tmp/all.json" --csv "$tmp/all.csv" --html "$tmp/all.html"
check "run --html: the page from the run" -- html_check "$tmp/all.html" "$tmp/all.json"
check "JSON and HTML record tool version, git commit, command line, device and driver; the CSV its columns" -- \
    python3 - "$tmp/all.json" "$tmp/all.csv" "$tmp/all.html" <<'PY'
import csv, json, sys
rep = json.load(open(sys.argv[1]))
want = {"tool_version": rep["tool"]["version"], "git_commit": rep["tool"]["git_commit"],
        "command_line": rep["command_line"], "device": rep["device"]["name"],
        "driver": rep["device"]["driver_version"]}
assert "--html" in want["command_line"] and all(want.values()), want
rows = list(csv.DictReader(open(sys.argv[2], newline="")))  # narrow: the run's metadata is in the JSON only
assert [r["rung"] for r in rows] == [r["rung"] for r in rep["results"]], rows
assert all(r["workload"] == "reduction" and r["status"] == "ok" for r in rows), rows
page = open(sys.argv[3]).read()
for k, v in want.items():
    assert v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") in page, "HTML lacks %s %r" % (k, v)
PY
# --- progress: on a terminal (script(1) gives a pseudo-terminal) "[n/m] workload:rung" on stderr; nothing of it
# with --quiet or when stderr is not a terminal
if command -v script >/dev/null; then
    two=(run reduction:naive,reduction:best --size 4096 --runs 1 --warmup 0)
    expect "progress on a terminal" 0 "\[1/2\] reduction:naive .*\[2/2\] reduction:best" -- \
        script -qec "$(printf '%q ' "$bin" "${two[@]}")" /dev/null
    expect "no progress on a terminal with --quiet" 0 "!\[[0-9]+/[0-9]+\]" -- \
        script -qec "$(printf '%q ' "$bin" "${two[@]}" --quiet)" /dev/null
fi
expect "no progress when stderr is not a terminal" 0 "!\[[0-9]+/[0-9]+\]" -- \
    "$bin" run reduction:naive,reduction:best --size 4096 --runs 1 --warmup 0

expect "compare the fresh run with itself" 0 "0 regressed" -- "$bin" compare "$tmp/all.json" "$tmp/all.json"

done_tests
