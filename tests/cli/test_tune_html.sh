#!/usr/bin/env bash
# The HTML page of a `clgauge tune` report (issue 20): per search (workload, rung) a chart of every verified
# candidate's median time, fastest first, with the best, the default and each seed rule's pick marked and
# named; the table of every candidate (skipped ones with their reason); the line saying which rule came
# closest to the best. From a hand-written fixture (tests/data/tune-reduction.json: a default, rules, a
# best, a skipped rule pick, a FAILED candidate, a rule name full of HTML and shell): the text is escaped in
# the table and in the chart and never runs. A `run` page stays a ladder page and shows a tuned row's
# parameters; `tune --html` and `report tune.json --html` give the same page.
# Usage: bash test_tune_html.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
fixture=$TESTDATA/tune-reduction.json

cd "$tmp" || exit 1 # the fixture's rule name runs `touch PWNED` if anything executes it
expect "report --html of a tune fixture: exit 0" 0 "" -- "$bin" report "$fixture" --html "$tmp/tune.html"
check "the fixture's hostile rule name ran nothing" -- test ! -e "$tmp/PWNED"
check "tune page: one chart and one table per search, no ladder" -- python3 - "$tmp/tune.html" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
assert page.rstrip().endswith("</html>"), "not a whole page"
assert "<h1>clgauge tune report</h1>" in page, "no tune heading"
secs = re.findall(r'<section class="tune" id="([^"]*)">(.*?)</section>', page, re.S)
assert [s[0] for s in secs] == ["t-reduction-best", "t-reduction-first-add"], [s[0] for s in secs]
assert 'data-chart="ladder"' not in page and 'data-chart="roofline"' not in page, "a ladder page"
best = secs[0][1]
charts = re.findall(r'<svg data-chart="tune" data-workload="reduction" data-rung="best".*?</svg>', best, re.S)
assert len(charts) == 1, "no tune chart for reduction:best"
svg = charts[0]
texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
for want in ("best", "default", "rule:nvidia-warps", "rule:null", "verified candidate"):
    assert want in texts, "%r not named on the chart: %s" % (want, texts)
# the hostile rule reaches the chart as data: escaped by gnuplot, its double quote made a single one by
# cg_plot_label
assert "rule:evil&lt;script>&amp;''`touch PWNED`" in svg, "hostile label not escaped in the chart"
assert "<script" not in svg, "markup in the chart"
assert "rule:mapping-3waves" not in svg, "a skipped rule pick drawn"
# the table: every candidate in rank order, skipped and FAILED last with their reasons
rows = re.findall(r"<tr( class=\"[a-z]+\")?><td class=\"n\">([0-9-]+)</td><td><code>([^<]*)</code>", best)
params = [r[2] for r in rows]
assert params == ["wg=32,loads=16,grid=4", "wg=128,loads=8,grid=4", "wg=64,loads=&lt;8&gt;&amp;&quot;q&quot;",
                  "wg=0,loads=8,grid=8", "wg=256,loads=8,grid=8", "wg=1024,loads=16,grid=16",
                  "wg=16,loads=4,grid=4", "wg=192,loads=8,grid=2"], params
assert [r[1] for r in rows] == ["1", "2", "3", "4", "5", "6", "-", "-"], [r[1] for r in rows]
assert rows[0][0] == ' class="best"' and rows[4][0] == ' class="mark"' and rows[6][0] == ' class="failed"'
assert '<td class="n">7.25x</td>' in best and '<td class="n">1.00x</td>' in best, "speedup over default"
assert "rule:evil&lt;script&gt;&amp;&#39;&quot;`touch PWNED`" in best, "hostile rule name not escaped"
assert re.search(r'st-skip">unsupported</td>.*wg=192: the kernels need a power of two', best), "skip reason"
assert re.search(r'st-failed">FAILED</td>.*crafted: 3 of 10007 elements differ', best), "FAILED reason"
assert "1 wg/CU (groups; cpu)" in best, "no occupancy"
# the verdict: best 20 us vs nvidia-warps 48 us -> 42%
v = re.search(r'<p class="verdict">(.*?)</p>', best, re.S).group(1)
assert "Best: <code>wg=32,loads=16,grid=4</code>, 20.0 us, 7.25x the default" in v, v
assert "Closest rule: <b>rule:nvidia-warps</b> (<code>wg=128,loads=8,grid=4</code>, 48.0 us), at 42% of the best" in v, v
assert "rule:mapping-3waves not verified" in v, v
local = secs[1][1]
assert "No seed rule made a pick for this rung." in local, "local: no rule line"
assert not re.search(r"<(script|img|iframe)\b", page), "markup from the file reached the page"
PY

# a run page: rows with params_from "" or "tuned" are ladders; a tuned row shows its parameters
python3 - "$fixture" "$tmp/run.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [r for r in doc["results"] if "default" in r["params_from"].split(",")]
rows[0]["params_from"], rows[1]["params_from"], rows[1]["params"] = "", "tuned", "wg=64"
doc["results"] = rows
json.dump(doc, open(sys.argv[2], "w"))
PY
expect "report --html of a run with a tuned row: exit 0" 0 "" -- "$bin" report "$tmp/run.json" --html "$tmp/run.html"
check "run page: a ladder page, the tuned row's parameters shown" -- python3 - "$tmp/run.html" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
assert page.count('<svg data-chart="ladder"') == 1 and 'data-chart="tune"' not in page, "not a ladder page"
assert "<h1>clgauge report</h1>" in page
assert "<code>first-add</code><br>tuned: <code>wg=64</code></td>" in page, "tuned parameters not shown"
assert page.count("tuned:") == 1, "an untuned row marked tuned"
PY

# tune --html and report tune.json --html: the same page (but for the footer's command line)
expect "tune --html on PoCL (small space)" 0 "" -- "$bin" tune reduction:first-add --size 4096 --runs 1 --warmup 0 \
    --budget 5 --no-cache --quiet --json "$tmp/live.json" --html "$tmp/live.html"
expect "report of the tune run: exit 0" 0 "" -- "$bin" report "$tmp/live.json" --html "$tmp/again.html"
check "tune --html and report --html agree" -- python3 - "$tmp/live.html" "$tmp/again.html" <<'PY'
import re, sys
a, b = (re.sub(r"<footer>.*?</footer>", "", open(f).read(), flags=re.S) for f in sys.argv[1:3])
assert a == b, "the pages differ"
assert a.count('<svg data-chart="tune"') == 1 and ("Closest rule" in a or "No seed rule" in a), "no tune section"
PY

chrome=${CHROMIUM:-}
for c in chromium chromium-browser google-chrome; do
    [ -z "$chrome" ] && command -v "$c" >/dev/null && chrome=$(command -v "$c")
done
if [ -n "$chrome" ]; then
    check "browser: the tune page loads clean, its charts and tables there" -- bash -c '
        out=$(python3 "$1" "$2" "$3" "$4" "svg[data-chart=tune]" "table.candidates" "section.tune") || exit 1
        python3 -c "import json, sys; r = json.loads(sys.argv[1]); assert not r[\"errors\"] and not r[\"requests\"], r
c = r[\"counts\"]; assert c[\"svg[data-chart=tune]\"] == 2 and c[\"table.candidates\"] == 2, c" "$out"' \
        _ "$here/browser_check.py" "$chrome" "$tmp/tune.html" "$tmp/tune.png"
else
    echo "note: Chromium not found: the tune page is not checked in a browser"
fi
cd - >/dev/null || exit 1
done_tests
