#!/usr/bin/env bash
# The HTML report in a real headless browser (Chromium, driven over the DevTools protocol by browser_check.py):
# the page loads with no console error and no request outside the file, holds one ladder chart and one roofline
# per workload, and a full-page screenshot is kept in $TESTTMP/test_html_browser/; on a page where one workload
# has no roofline (transpose) every chart keeps the same size, and the roofline's key sits outside the plot. A
# page with a deliberate console error is checked too, so that a blind checker cannot pass.
# Skips (exit 0, with a message) only when Chromium is absent and CLGAUGE_REQUIRE_BROWSER is unset;
# scripts/test.sh installs Chromium and sets CLGAUGE_REQUIRE_BROWSER=1.
# Usage: bash test_html_browser.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
res=$TESTDATA/../../docs/results
gpu=$res/2026-11-22-h100-foundation/clgauge-gpu.json
pocl=$res/2026-11-22-pocl-2core/pocl.json

chrome=${CHROMIUM:-}
for c in chromium chromium-browser google-chrome; do
    [ -z "$chrome" ] && command -v "$c" >/dev/null && chrome=$(command -v "$c")
done
if [ -z "$chrome" ]; then
    if [ -n "${CLGAUGE_REQUIRE_BROWSER:-}" ]; then
        echo "FAIL: Chromium not found but CLGAUGE_REQUIRE_BROWSER is set: apt-get install chromium"
        exit 1
    fi
    echo "SKIP: Chromium not found (apt-get install chromium, or run scripts/test.sh): HTML not checked in a browser"
    exit 0
fi

# browse PAGE SHOT WANT_CHARTS: loads PAGE; no console error, no request off the file, WANT_CHARTS ladder and
# roofline charts, a PNG screenshot.
browse() {
    local out
    out=$(python3 "$here/browser_check.py" "$chrome" "$1" "$2" 'svg[data-chart="ladder"]' \
        'svg[data-chart="roofline"]' 'section.workload') || { echo "$out"; return 1; }
    python3 - "$out" "$3" <<'PY'
import json, sys
r, want = json.loads(sys.argv[1]), int(sys.argv[2])
assert not r["errors"], "console errors: %s" % r["errors"]
assert not r["requests"], "requests outside the file: %s" % r["requests"]
c = r["counts"]
assert c['svg[data-chart="ladder"]'] == want, "ladder charts %s, want %d" % (c, want)
assert c['svg[data-chart="roofline"]'] == want, "roofline charts %s, want %d" % (c, want)
assert c["section.workload"] == want, "workload sections %s, want %d" % (c, want)
assert open(r["screenshot"], "rb").read(8) == b"\x89PNG\r\n\x1a\n", "no PNG screenshot"
assert r["height"] > 1000, "page only %d px high" % r["height"]
PY
}

expect "report --html (GPU run)" 0 "" -- "$bin" report "$gpu" --html "$tmp/gpu.html"
check "browser: GPU run page loads clean, 2 workloads, screenshot" -- browse "$tmp/gpu.html" "$tmp/gpu.png" 2
expect "report --html (GPU and PoCL runs)" 0 "" -- "$bin" report "$gpu" "$pocl" --html "$tmp/two.html"
check "browser: two-device page loads clean, screenshot" -- browse "$tmp/two.html" "$tmp/two.png" 2
expect "run --html (PoCL, one workload)" 0 "" -- \
    "$bin" run reduction --size 4096 --runs 2 --warmup 0 --quiet --html "$tmp/run.html"
check "browser: fresh run page loads clean, screenshot" -- browse "$tmp/run.html" "$tmp/run.png" 1

# A workload without FLOPs (transpose: no roofline) next to one with: every chart (and the roofline's
# placeholder) the same size at 1280 px, and every roofline key entry below the plot area (under its x tic
# labels).
expect "run transpose (PoCL)" 0 "" -- \
    "$bin" run transpose --size 256x256 --runs 2 --warmup 0 --quiet --json "$tmp/t.json"
expect "run reduction (PoCL)" 0 "" -- "$bin" run reduction:naive,reduction:best --size 4096 --runs 2 --warmup 0 \
    --quiet --json "$tmp/r.json"
python3 -c 'import json, sys; t, r = (json.load(open(f)) for f in sys.argv[1:3]); t["results"] += r["results"]
json.dump(t, open(sys.argv[3], "w"))' "$tmp/t.json" "$tmp/r.json" "$tmp/mixed.json"
expect "report --html (transpose and reduction in one run)" 0 "" -- \
    "$bin" report "$tmp/mixed.json" --html "$tmp/mixed.html"
sizes='JSON.stringify([...document.querySelectorAll(".charts figure > svg, .charts figure > .nochart")].map(
    e => { const r = e.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; }))'
keys='JSON.stringify([...document.querySelectorAll("svg[data-chart=roofline]")].map(svg => {
    const t = [...svg.querySelectorAll("text")], box = e => e.getBoundingClientRect();
    const num = t.filter(e => /^[-0-9.e+ ]*$/.test(e.textContent)), bottom = Math.max(...num.map(e => box(e).bottom));
    const key = t.filter(e => !num.includes(e) && !/^(arithmetic intensity|GFLOP)/.test(e.textContent));
    return [key.length, key.filter(e => box(e).top < bottom - 1).map(e => e.textContent)]; }))'
check "browser: every chart the same size, roofline key outside the plot" -- bash -c '
    out=$(python3 "$1" "$2" "$3" "$4" "js:$5" "js:$6") || { echo "$out"; exit 1; }
    python3 - "$out" "$5" "$6" <<"PY"
import json, sys
r = json.loads(sys.argv[1])
assert not r["errors"], r["errors"]
sizes, keys = json.loads(r["values"][sys.argv[2]]), json.loads(r["values"][sys.argv[3]])
assert len(sizes) == 4 and all(max(d) - min(d) <= 2 for d in zip(*sizes)), "charts of different sizes: %s" % sizes
assert sizes[0][0] < 640, "a chart stretched to %d px" % sizes[0][0]
assert keys and all(n >= 3 and not inside for n, inside in keys), "key entries inside the plot: %s" % keys
PY' _ "$here/browser_check.py" "$chrome" "$tmp/mixed.html" "$tmp/mixed.png" "$sizes" "$keys"

printf '<!DOCTYPE html><html><body><script>console.error("boom")</script><img src="missing.png"></body></html>' \
    >"$tmp/bad.html"
check "browser checker sees a console error and a failed load" -- bash -c '
    out=$(python3 "$1" "$2" "$3" "$4") || exit 1
    python3 -c "import json, sys; e = json.loads(sys.argv[1])[\"errors\"]; \
assert any(\"boom\" in x for x in e) and any(\"missing.png\" in x for x in e), e" "$out"' \
    _ "$here/browser_check.py" "$chrome" "$tmp/bad.html" "$tmp/bad.png"
echo "screenshots: $tmp/gpu.png $tmp/two.png $tmp/run.png $tmp/mixed.png"
done_tests
