#!/usr/bin/env bash
# `run --filter`: every malformed list refused before anything is measured (exit 1, one line naming the problem
# and the fix), --filter without convolution refused, sizes the workload cannot take refused by it, and a
# 2-size sweep kept apart in every report: the table, JSON and CSV (variant), HTML (one section and chart pair
# per size), `report`, `compare` and the progress line. A workload without --filter in the same run runs once.
# Usage: bash test_filter.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
fix="use N, WxH or a range A-B, e.g. 32, 5x3 or 2-32, comma-separated"

# --- malformed lists: refused while parsing, before the device is opened (so no table, nothing written)
# each row: the list, then what the message says about it
while IFS='|' read -r list what; do
    expect "--filter '$list' refused" 1 "^clgauge: error: bad --filter '$(re_quote "$list")': $what" -- \
        "$bin" run convolution --filter "$list" --json "$tmp/bad.json"
    check "--filter '$list': one line, nothing measured or written" -- \
        bash -c 'test "$(wc -l <"$1")" -eq 1 && test ! -s "$2" && test ! -e "$3"' _ "$last_stderr" "$last_stdout" \
        "$tmp/bad.json"
done <<EOF
0|'0' has a side outside 1 to 32: $(re_quote "$fix")
5x0|'5x0' has a side outside 1 to 32
99999|'99999' has a side outside 1 to 32
x5|'x5' is not a size: $(re_quote "$fix")
3x|'3x' lacks the height after the x: $(re_quote "$fix")
3x4x5|'3x4x5' is not a size
abc|'abc' is not a size
-3|'-3' is not a size
3.5|'3\.5' is not a size
3,|an empty item \(a comma at the start or the end, or two in a row\): $(re_quote "$fix")
,3|an empty item
3,,5|an empty item
3,5,3|'3' repeats 3x3: list each size once
5,5x5|'5x5' repeats 5x5
1-32,33|more than 32 sizes: split the sweep over several runs
5-3|'5-3' is not a range from small to large: write A-B with A < B, e.g\. 2-32
3x3-5|'3x3-5' is not a range: $(re_quote "$fix")
2-40|'2-40' has a side outside 1 to 32
EOF
expect "--filter= (empty)" 1 "--filter needs a non-empty value" -- "$bin" run convolution --filter=
expect "--filter without its value" 1 "--filter needs a value \(LIST\)" -- "$bin" run convolution --filter
expect "--filter with reduction only" 1 \
    "^clgauge: error: --filter applies to the convolution workload only; add convolution to the run$" -- \
    "$bin" run reduction --filter 5
expect "--filter with reduction only, even a bad list" 1 "applies to the convolution workload only" -- \
    "$bin" run reduction:naive --filter 3x
expect "--filter is a run option only" 1 "unknown option '--filter' for 'peak'" -- "$bin" peak --filter 3
expect "run --help documents --filter" 0 "^      --filter LIST +convolution: filter sizes, N \(NxN\), WxH or a range" -- \
    "$bin" run --help

# --- sizes the workload refuses (after the device is opened): its own one-line error, exit 1
small=(--size 64 --runs 1 --warmup 0)
expect "--filter 33: above the kernels' largest" 1 "'33' has a side outside 1 to 32" -- \
    "$bin" run convolution:naive --filter 33 "${small[@]}"
expect "--filter 40x2: above the largest one way" 1 "'40x2' has a side outside 1 to 32" -- \
    "$bin" run convolution:naive --filter 40x2 "${small[@]}"

# --- a 2-size sweep, with a workload that takes no --filter in the same run
targets=reduction:naive,convolution:naive,convolution:vec4-pad
expect "sweep --filter 3,5x3" 0 "^convolution\[3x3\]:naive +OK" -- "$bin" run "$targets" --filter 3,5x3 \
    --size 64 --runs 2 --warmup 0 --json "$tmp/sweep.json" --csv "$tmp/sweep.csv" --html "$tmp/sweep.html"
for name in 'reduction:naive' 'convolution\[3x3\]:vec4-pad' 'convolution\[5x3\]:naive' 'convolution\[5x3\]:vec4-pad'; do
    check "sweep table has $name" -- grep -Eq "^$name +OK!? " "$last_stdout"
done
check "sweep table: 5 rows, reduction once and without a size" -- \
    bash -c 'test "$(grep -Ec "^[a-z0-9]+(\[[0-9]+x[0-9]+\])?:[a-z0-9-]+ +OK!? " "$1")" -eq 5 &&
             ! grep -q "^reduction\[" "$1"' _ "$last_stdout"
check "sweep: JSON and CSV rows carry the variant, in run order" -- python3 - "$tmp/sweep.json" "$tmp/sweep.csv" <<'PY'
import csv, json, sys
want = [("reduction", "", "naive"), ("convolution", "3x3", "naive"), ("convolution", "3x3", "vec4-pad"),
        ("convolution", "5x3", "naive"), ("convolution", "5x3", "vec4-pad")]
rows = json.load(open(sys.argv[1]))["results"]
got = [(x["workload"], x["variant"], x["rung"]) for x in rows]
assert got == want, "JSON rows %s, want %s" % (got, want)
assert all(x["status"] == "ok" for x in rows), [x["status"] for x in rows]
assert all(x["speedup"] == 1 for x in rows if x["rung"] == "naive"), "each group's first rung is its own base"
got = [(x["workload"], x["variant"], x["rung"]) for x in csv.DictReader(open(sys.argv[2], newline=""))]
assert got == want, "CSV rows %s, want %s" % (got, want)
PY
check "sweep: HTML has one section and one ladder and roofline chart per group" -- python3 - "$tmp/sweep.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
groups = [("reduction", ""), ("convolution", "3x3"), ("convolution", "5x3")]
for kind in ("ladder", "roofline"):
    got = re.findall(r'<svg data-chart="%s" data-workload="([^"]+)"(?: data-variant="([^"]+)")?' % kind, page)
    assert got == groups, "%s charts %s, want %s" % (kind, got, groups)
# the sweep chart: once, for convolution (two items), in its first section; none for reduction (one run)
sw = re.findall(r'<svg data-chart="sweep" data-workload="([^"]+)"', page)
assert sw == ["convolution"], "sweep charts %s" % sw
svg = page[page.index('data-chart="sweep"'):]
svg = svg[:svg.index("</svg>")]
for label in ("3x3", "5x3", "naive", "vec4-pad"):
    assert label in svg, "the sweep chart lacks %s" % label
assert page.index('data-chart="sweep"') > page.index('id="w-convolution-3x3"') > page.index('id="w-reduction"')
sections = re.findall(r'<section class="workload" id="([^"]+)"><h2>([^<]+)</h2>', page)
want = [("w-reduction", "reduction"), ("w-convolution-3x3", "convolution[3x3]"),
        ("w-convolution-5x3", "convolution[5x3]")]
assert sections == want, "sections %s, want %s" % (sections, want)
for anchor, _ in want:
    assert 'href="#%s"' % anchor in page, "no link to #%s" % anchor
for i, (anchor, _) in enumerate(want):  # each section's table holds its own group's two or one rungs
    start = page.index('id="%s"' % anchor)
    end = page.index("</section>", start)
    rungs = re.findall(r"<tr[^>]*><td><code>([^<]+)</code>", page[start:end])
    assert rungs == (["naive"] if i == 0 else ["naive", "vec4-pad"]), "%s table: %s" % (anchor, rungs)
PY
expect "report on the sweep: the groups apart" 0 "^convolution\[5x3\]:vec4-pad +OK" -- "$bin" report "$tmp/sweep.json"
expect "compare the sweep with itself: every group matched" 0 "^convolution\[5x3\]:vec4-pad .*same" -- \
    "$bin" compare "$tmp/sweep.json" "$tmp/sweep.json"
check "compare: 5 rows judged" -- grep -q "^0 regressed, 0 now failing, 0 faster, 5 same" "$last_stdout"
python3 - "$tmp/sweep.json" "$tmp/other-dev.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
rep["device"]["name"] = "another device"
for x in rep["results"]:
    if x["variant"] == "5x3" and x["rung"] == "naive":
        for k in ("t_min_s", "t_median_s", "t_mean_s", "t_max_s"):
            x[k] *= 100
json.dump(rep, open(sys.argv[2], "w"))
PY
expect "compare on two devices: one summary per group" 0 "^  convolution\[3x3\]: best on A: " -- \
    "$bin" compare "$tmp/sweep.json" "$tmp/other-dev.json"
check "two devices: the 5x3 group has its own summary, after its rows" -- \
    bash -c 'grep -A1 "^convolution\[5x3\]:vec4-pad " "$1" | grep -q "^  convolution\[5x3\]: best on A: .*best on B: vec4-pad"' \
    _ "$last_stdout"
expect "report --html of two sweeps: the groups merged over the runs" 0 "" -- \
    "$bin" report "$tmp/sweep.json" "$tmp/other-dev.json" --html "$tmp/two.html"
check "two sweeps: 3 sections, each chart holding both runs" -- python3 - "$tmp/two.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
assert page.count('<section class="workload"') == 3, "want 3 sections"
assert len(re.findall(r'data-chart="ladder" data-workload="convolution" data-variant="5x3"', page)) == 1
start = page.index('id="w-convolution-5x3"')
table = page[start:page.index("</section>", start)]
assert table.count("<td>another device</td>") == 2, "the 5x3 table lacks run B's 2 rows"
PY
if command -v script >/dev/null; then
    expect "progress on a terminal names the group" 0 "\[1/4\] convolution\[3x3\]:naive \(1/2 of the ladder\).*\[3/4\] convolution\[5x5\]:naive \(1/2 of the ladder\)" -- \
        script -qec "$(printf '%q ' "$bin" run convolution:naive,convolution:vec4-pad --filter 3,5 "${small[@]}")" /dev/null
fi

# --- --size lists (issue 15): a size sweep, each size its own group (variant), like a --filter list
expect "--size list: transpose at three sizes" 0 "" -- \
    "$bin" run transpose:naive,transpose:best --size 256x128,300x200,64 --runs 2 --warmup 0 --json "$tmp/sizes.json"
check "--size list: six rows, each size its own variant and size" -- python3 - "$tmp/sizes.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
got = [(r["variant"], r["rung"], r["status"], r["items"]) for r in rows]
want = [("256x128", "naive", "ok", 32768), ("256x128", "best", "ok", 32768), ("300x200", "naive", "ok", 60000),
        ("300x200", "best", "ok", 60000), ("64", "naive", "ok", 4096), ("64", "best", "ok", 4096)]
assert got == want, got
PY
expect "--size list with a --filter list" 1 "^clgauge: error: --size 256,512 and a --filter list both given: sweep one of them per run$" -- \
    "$bin" run convolution --size 256,512 --filter 3,5
expect "--size list with one filter: both in the variant" 0 "convolution\[300 5x5\]:naive" -- \
    "$bin" run convolution:naive --size 256,300 --filter 5 --runs 1 --warmup 0
while IFS='|' read -r list what; do
    expect "--size '$list' refused" 1 "^clgauge: error: bad --size '$(re_quote "$list")': $what" -- \
        "$bin" run transpose --size "$list" --json "$tmp/bad.json"
    check "--size '$list': one line, nothing written" -- \
        bash -c 'test "$(wc -l <"$1")" -eq 1 && test ! -e "$2"' _ "$last_stderr" "$tmp/bad.json"
done <<EOF
64,,128|item '': expected a count
64,0|item '0': size must be positive
64,|item '': expected a count
1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33|more than 32 sizes in one sweep
EOF

done_tests
