#!/usr/bin/env bash
# `report --html` against hostile run files and a misbehaving gnuplot: no text from a run file ever runs as a
# gnuplot command (every string field of a real PoCL run made hostile in turn: backquotes, system(), newlines,
# quotes, set print, load, !, pipes, HTML, unicode, 1000 characters), the page still holds its charts with the
# text escaped; a workload with no timed rung still gets its page; 20000 rows make a page in seconds; a gnuplot
# that never exits is stopped after $CLGAUGE_GNUPLOT_TIMEOUT seconds (exit 4, one line); SIGINT, SIGTERM and
# SIGHUP while gnuplot runs leave no clgauge-plot-* directory and no gnuplot behind, and end clgauge by that
# signal.
# Usage: bash test_plot_security.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
export CLI_TIMEOUT=60
marker=$tmp/PWNED
export TMPDIR=$tmp/tmpdir
mkdir -p "$TMPDIR"

# no_leftovers: no temporary plot directory is left in $TMPDIR.
no_leftovers() {
    local left
    left=$(find "$TMPDIR" -maxdepth 1 -name 'clgauge-plot-*')
    [ -z "$left" ] || { echo "left behind: $left"; return 1; }
}

expect "a real run on PoCL to start from" 0 "" -- \
    "$bin" run reduction --size 4096 --runs 2 --warmup 0 --quiet --json "$tmp/base.json"

# --- every string field hostile, one payload per file
# (run in $tmp: the payloads name the marker relatively, short enough to survive the loader's field lengths)
python3 - "$tmp/base.json" "$tmp" <<'PY'
import json, sys
base, out = sys.argv[1], sys.argv[2]
marker = "PWNED"
touch = "touch " + marker
payloads = [
    "`%s`" % touch,
    'a" . system("%s") . "b' % touch,
    "x\nset print '%s'\nprint 1\n" % marker,
    "q'; system('%s'); '" % touch,
    '"; !%s; "' % touch,
    "\nload '%s.gp'\n" % marker,
    "< %s | cat" % touch,
    "@m `%s` $(%s) ;|& #" % (touch, touch),
    "\r\n\t\x01\x1b[31m`%s`" % touch,
    "<img src=x onerror=alert(1)>&amp;",
    "`%s` ünïcødé ✓ 日本語" % touch,
    "`%s`" % touch + "A" * 1000,
]
open(out + "/PWNED.gp", "w").write('system("%s")\n' % touch)
keep = {(None, "kind"), ("tool", "name"), ("results", "status"), ("results", "warnings")}  # checked by the loader: kept valid
def hostile(node, p, key=None):
    if isinstance(node, dict):
        return {k: v if (key, k) in keep else hostile(v, p, k) for k, v in node.items()}
    if isinstance(node, list):
        return [hostile(v, p, key) for v in node]
    return p if isinstance(node, str) else node
rep = json.load(open(base))
for i, p in enumerate(payloads):
    doc = hostile(rep, p)
    for n, x in enumerate(doc["results"]):  # distinct rungs: the row index first, so a cut keeps it
        x["rung"] = "%d%s" % (n, p)
    doc["results"][0]["status"] = "wrong_result"
    doc["results"][1]["status"] = "build_failed"
    json.dump(doc, open("%s/hostile%d.json" % (out, i), "w"))
PY
n_payloads=$(find "$tmp" -maxdepth 1 -name 'hostile*.json' | wc -l)
check "twelve hostile run files crafted" -- test "$n_payloads" -eq 12

# page_check PAGE: one ladder and one roofline chart, no element from the run's text, the text escaped.
page_check() {
    python3 - "$1" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8", errors="replace").read()
assert page.rstrip().endswith("</html>"), "not a whole page"
assert len(re.findall(r'<svg data-chart="ladder"', page)) == 1, "no ladder chart"
assert len(re.findall(r'<svg data-chart="roofline"', page)) == 1, "no roofline chart"
assert not re.search(r"<(img|script|iframe)\b", page), "markup from the run file reached the page"
assert "onerror=alert" not in page or "&lt;img src=x onerror=alert(1)&gt;" in page, "not escaped"
PY
}

cd "$tmp" || exit 1
for ((i = 0; i < n_payloads; i++)); do
    rm -f "$marker"
    expect "hostile run file $i: report --html exits 0" 0 "" -- \
        "$bin" report "$tmp/hostile$i.json" --html "$tmp/hostile$i.html"
    check "hostile run file $i: no command ran" -- test ! -e "$marker"
    check "hostile run file $i: charts in the page, text escaped" -- page_check "$tmp/hostile$i.html"
done
check "the hostile rung names reached the chart as data (xtic labels)" -- \
    grep -q "<text>0\`touch PWNED\` ünïcødé ✓ \?</text>" "$tmp/hostile10.html"
check "HTML payload escaped in the table" -- grep -q "&lt;img src=x onerror=alert(1)&gt;" "$tmp/hostile9.html"
check "no temporary directory left after the hostile pages" -- no_leftovers
cd - >/dev/null || exit 1

# --- no timed rung in a workload: the page is still written, the rungs marked
python3 - "$tmp/base.json" "$tmp/untimed.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
for i, x in enumerate(rep["results"]):
    x["status"] = ("unsupported", "build_failed", "cl_error")[i % 3]
    x["reason"] = "crafted: not run"
json.dump(rep, open(sys.argv[2], "w"))
PY
expect "report --html: a workload with no timed rung still gets its page (exit 0)" 0 "" -- \
    "$bin" report "$tmp/untimed.json" --html "$tmp/untimed.html"
check "no timed rung: the ladder chart says so, every rung named, no bar" -- python3 - "$tmp/untimed.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
svg = re.search(r'<svg data-chart="ladder".*?</svg>', page, re.S).group(0)
assert "no rung of this group was timed" in svg, "no note on the chart"
assert svg.count(">unsupported</text>") == 3 and svg.count(">did not run</text>") == 5, "rungs not marked"
assert "No rung of this group was timed" in page, "no note in the caption"
assert "No roofline chart" in page and 'data-chart="roofline"' not in page, "roofline placeholder missing"
PY
expect "run --html with only an unsupported rung: exit 0, page written" 0 "" -- \
    "$bin" run reduction:nv-shfl --size 4096 --runs 1 --quiet --html "$tmp/nv.html"
check "run --html, unsupported only: the ladder chart is there" -- grep -q 'data-chart="ladder"' "$tmp/nv.html"

# --- a large run file (20000 rows of one workload): the page comes in seconds, each chart draws a rung's
# first row only (its SVG stays small), and the table lists every row
python3 - "$tmp/base.json" "$tmp/big.json" <<'PY'
import copy, json, sys
rep = json.load(open(sys.argv[1]))
rows = rep["results"]
rep["results"] = [dict(copy.copy(rows[i % len(rows)]), rung="r%d" % (i % 64)) for i in range(20000)]
json.dump(rep, open(sys.argv[2], "w"))
PY
start=$(date +%s)
expect "report --html on 20000 rows" 0 "" -- "$bin" report "$tmp/big.json" --html "$tmp/big.html"
check "20000 rows: within 30 s" -- test $(($(date +%s) - start)) -lt 30
check "20000 rows: every row in the table, each chart under 200 kB" -- python3 - "$tmp/big.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
assert page.count("<tr><td><code>r") + page.count('<tr class="failed"><td><code>r') == 20000, "rows missing"
for svg in re.findall(r"<svg.*?</svg>", page, re.S):
    assert len(svg) < 200000, "a chart of %d bytes: every row drawn" % len(svg)
PY

# --- a gnuplot that never exits, or that is interrupted
fake=$tmp/fakebin
mkdir -p "$fake"
cat >"$fake/gnuplot" <<'SH'
#!/bin/sh
# a gnuplot that hangs (a child of its own, too); with FAKE_SIG it first sends that signal to clgauge
sleep 50 &
echo $! >"$FAKE_PID.child"
echo $$ >"$FAKE_PID"
[ -n "${FAKE_SIG:-}" ] && kill -s "$FAKE_SIG" "$PPID"
wait
SH
chmod +x "$fake/gnuplot"
export FAKE_PID=$tmp/fake.pid
# alive PID: the process runs (a zombie, dead but not yet reaped by its new parent, does not count).
alive() {
    [ -n "$1" ] && [ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat"
}
# fake_gone: the fake gnuplot and its child are no longer running (within 5 s).
fake_gone() {
    local p c
    p=$(cat "$FAKE_PID") c=$(cat "$FAKE_PID.child")
    for _ in $(seq 50); do
        alive "$p" || alive "$c" || return 0
        sleep 0.1
    done
    echo "still running: $(ps -o pid,stat,cmd -p "$p" -p "$c")"
    return 1
}

start=$(date +%s)
expect "a gnuplot that hangs: stopped after CLGAUGE_GNUPLOT_TIMEOUT, exit 4" 4 \
    "error: gnuplot did not finish within 1 s and was stopped: set CLGAUGE_GNUPLOT_TIMEOUT" -- \
    env PATH="$fake:$PATH" CLGAUGE_GNUPLOT_TIMEOUT=1 "$bin" report "$tmp/base.json" --html "$tmp/hang.html"
check "hanging gnuplot: within seconds, not the hang" -- test $(($(date +%s) - start)) -lt 15
check "hanging gnuplot: one line on stderr" -- test "$(wc -l <"$last_stderr")" -eq 1
check "hanging gnuplot: no page written" -- test ! -e "$tmp/hang.html"
check "hanging gnuplot: it and its child were killed" -- fake_gone
check "hanging gnuplot: no temporary directory left" -- no_leftovers
expect "a bad CLGAUGE_GNUPLOT_TIMEOUT: usage, before anything" 1 "CLGAUGE_GNUPLOT_TIMEOUT=soon is not a number" -- \
    env CLGAUGE_GNUPLOT_TIMEOUT=soon "$bin" report "$tmp/base.json" --html "$tmp/soon.html"
expect "CLGAUGE_GNUPLOT_TIMEOUT=0 is refused too" 1 "CLGAUGE_GNUPLOT_TIMEOUT=0 is not a number" -- \
    env CLGAUGE_GNUPLOT_TIMEOUT=0 "$bin" report "$tmp/base.json" --html "$tmp/soon.html"
expect "CLGAUGE_GNUPLOT_TIMEOUT in hex is refused" 1 "CLGAUGE_GNUPLOT_TIMEOUT=0x10 is not a number" -- \
    env CLGAUGE_GNUPLOT_TIMEOUT=0x10 "$bin" report "$tmp/base.json" --html "$tmp/soon.html"

for sig in TERM INT HUP; do
    code=$((128 + $(kill -l "$sig")))
        rm -f "$FAKE_PID" "$FAKE_PID.child"
    expect "SIG$sig while gnuplot runs: clgauge ends by the signal" "$code" "" -- \
        env PATH="$fake:$PATH" FAKE_SIG="$sig" "$bin" report "$tmp/base.json" --html "$tmp/sig.html"
    check "SIG$sig: no clgauge-plot-* left in TMPDIR" -- no_leftovers
    check "SIG$sig: gnuplot and its child were killed" -- fake_gone
    check "SIG$sig: no page written" -- test ! -e "$tmp/sig.html"
done

# --- an unusable TMPDIR: the charts are drawn in /tmp instead
expect "TMPDIR that does not exist: the page is still written" 0 "" -- \
    env TMPDIR="$tmp/no/such/dir" "$bin" report "$tmp/base.json" --html "$tmp/tmpdir.html"
check "TMPDIR that does not exist: both charts drawn" -- test "$(grep -c '<svg' "$tmp/tmpdir.html")" -ge 2

done_tests
