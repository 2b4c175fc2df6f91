#!/usr/bin/env bash
# `clgauge compare` deciding on raw per-run times (times_s): a real H100 run given 10 runs of GPU-like noise
# per rung (CV 0.3-1%, an occasional late run) flags a planted 3% slowdown of one rung, that rung only, with
# its interval; a noisy run with no change and a run against itself are never flagged; a file without
# times_s is judged by the old rule; a damaged times_s is exit 5; a fresh run writes times_s and speed-up
# intervals. Usage: bash test_compare_stats.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, ...)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
gpu=$TESTDATA/../../docs/results/2026-11-22-h100-foundation/clgauge-gpu.json

# synth IN OUT SEED [CV] [PLANT]: OUT is IN with 10 raw times per ok row around its median (relative noise
# CV, default the row's own t_cv kept within 0.3-1%; every 7th run 4% late), the summary times recomputed
# from them; PLANT "workload:rung" multiplies that rung's times by 1.03.
synth() {
    python3 - "$@" <<'PY'
import json, random, statistics, sys
src, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
cv = float(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else None
plant = sys.argv[5] if len(sys.argv) > 5 else ""
rnd = random.Random(seed)
rep = json.load(open(src))
for x in rep["results"]:
    if x["status"] != "ok":
        continue
    c = cv if cv is not None else min(max(x["t_cv"], 0.003), 0.01)
    f = 1.03 if "%s:%s" % (x["workload"], x["rung"]) == plant else 1.0
    t = [x["t_median_s"] * f * rnd.gauss(1, c) * (1.04 if i % 7 == 3 else 1) for i in range(10)]
    x.update(runs=10, times_s=t, t_min_s=min(t), t_max_s=max(t), t_median_s=statistics.median(t),
             t_mean_s=statistics.mean(t), t_stddev_s=statistics.stdev(t), t_cv=statistics.stdev(t) / statistics.mean(t))
json.dump(rep, open(out, "w"), indent=1)
PY
}

synth "$gpu" "$tmp/old.json" 1
synth "$gpu" "$tmp/new.json" 2
synth "$gpu" "$tmp/slow.json" 2 "" reduction:sequential
expect "a run against itself: nothing flagged, even at a 0.001% threshold" 0 "^0 regressed, 0 now failing, 0 faster" -- \
    "$bin" compare "$tmp/old.json" "$tmp/old.json" --threshold 0.001
check "against itself: every rung within noise, p 1" -- \
    test "$(grep -c ' 1\.000  same (within noise)$' "$last_stdout")" -eq 18
expect "fresh noise, no change: nothing flagged at --threshold 2" 0 "^0 regressed, 0 now failing, 0 faster, 18 same" -- \
    "$bin" compare "$tmp/old.json" "$tmp/new.json" --threshold 2
expect "a planted 3% slowdown at 10 runs: exit 3 naming the rung" 3 \
    "^reduction:sequential .* \+[0-9.]+% \[\+[0-9.]+, \+[0-9.]+\] +(<0\.001|0\.00[0-9]) +REGRESSED$" -- \
    "$bin" compare "$tmp/old.json" "$tmp/slow.json" --threshold 2
check "the planted rung and no other" -- \
    bash -c 'test "$(grep -c REGRESSED "$1")" -eq 1 && grep -q "^1 regressed, 0 now failing, 0 faster, 17 same" "$1"' \
    _ "$last_stdout"
expect "the same 3% at the default threshold (2%): flagged" 3 \
    "^reduction:sequential .*REGRESSED$" -- "$bin" compare "$tmp/old.json" "$tmp/slow.json"
expect "the same 3% under --threshold 5: significant, not counted" 0 \
    "^reduction:sequential .*same \(under threshold\)$" -- "$bin" compare "$tmp/old.json" "$tmp/slow.json" --threshold 5
synth "$gpu" "$tmp/noisy-old.json" 3 0.01
synth "$gpu" "$tmp/noisy-new.json" 4 0.01
expect "CV 1% on every rung, no change: nothing flagged at --threshold 1" 0 "^0 regressed, 0 now failing, 0 faster" -- \
    "$bin" compare "$tmp/noisy-old.json" "$tmp/noisy-new.json" --threshold 1
expect "CV 1% on every rung, no change: nothing flagged at the default threshold" 0 "^0 regressed, 0 now failing, 0 faster" -- \
    "$bin" compare "$tmp/noisy-old.json" "$tmp/noisy-new.json"

# --- a file without times_s (written before they were kept): the old rule, its noise shown with "~"
expect "old file against new: the old rule, noise shown" 0 "^reduction:naive .* ~[0-9.]+% +same" -- \
    "$bin" compare "$gpu" "$tmp/new.json"
python3 - "$tmp/new.json" "$tmp/new50.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
x = next(r for r in rep["results"] if r["rung"] == "naive")
x["times_s"] = [t * 1.5 for t in x["times_s"]]
for k in ("t_min_s", "t_median_s", "t_mean_s", "t_max_s", "t_stddev_s"):
    x[k] *= 1.5
json.dump(rep, open(sys.argv[2], "w"))
PY
expect "old file against a 50% slower rung: regressed by the old rule" 3 "^reduction:naive .*\+(49|50)\.[0-9]% .*REGRESSED" -- \
    "$bin" compare "$gpu" "$tmp/new50.json"

# --- 3 runs a side: the rank test cannot reach p < 0.01, so the noise rule judges a 10x slowdown
python3 - "$tmp/new.json" "$tmp/r3.json" "$tmp/r3slow.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
for x in rep["results"]:
    x["times_s"] = x["times_s"][:3]
    x["runs"] = 3
json.dump(rep, open(sys.argv[2], "w"))
x = next(r for r in rep["results"] if r["rung"] == "naive")
x["times_s"] = [t * 10 for t in x["times_s"]]
for k in ("t_min_s", "t_median_s", "t_mean_s", "t_max_s", "t_stddev_s"):
    x[k] *= 10
json.dump(rep, open(sys.argv[3], "w"))
PY
expect "3 runs a side, a 10x slower rung: regressed (noise rule)" 3 "^reduction:naive .*\+900\.0% .*REGRESSED" -- \
    "$bin" compare "$tmp/r3.json" "$tmp/r3slow.json"

# --- damaged times_s (and stages_s, below): exit 5, one line naming the field and the row
damaged() { # FIELD NAME PYTHON-EXPRESSION-FOR-THE-FIELD MESSAGE
    python3 - "$tmp/new.json" "$tmp/bad.json" "$1" "$3" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
rep["results"][0][sys.argv[3]] = eval(sys.argv[4])
json.dump(rep, open(sys.argv[2], "w"))
PY
    expect "$1 $2: exit 5" 5 "error: damaged file: .*bad.json: field $1 of row 0 \(reduction:naive\) $4" -- \
        "$bin" compare "$tmp/old.json" "$tmp/bad.json"
    check "$1 $2: one line" -- test "$(wc -l <"$last_stderr")" -eq 1
}
bad() { damaged times_s "$@"; }
bad "with a negative time" '[-1e-3] * 10' "is an array, want"
bad "with a zero" '[1e-3] * 9 + [0]' "is an array, want"
bad "with a string" '[1e-3] * 9 + ["1"]' "is an array, want"
bad "as a number" '1e-3' "is 0.001, want"
bad "shorter than runs" '[1e-3] * 9' "has 9 entries, but runs is 10"
bad "longer than runs" '[1e-3] * 11' "has 11 entries, but runs is 10"

# --- damaged stages_s: exit 5, one line naming the field and the row
badstages() { damaged stages_s "$1" "$2" "is"; }
badstages "as an array" '[1e-3]'
badstages "with a negative time" '{"solve": -1e-3}'
badstages "with a string" '{"solve": "1"}'
badstages "with nine stages" '{"s%d" % i: 1e-3 for i in range(9)}'
badstages "with a 24-byte name" '{"x" * 24: 1e-3}'
python3 - "$tmp/new.json" "$tmp/good.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
rep["results"][0]["stages_s"] = {"pyramid": 1e-4, "solve": 2e-3}
json.dump(rep, open(sys.argv[2], "w"))
PY
expect "stages_s well formed: read" 0 "" -- "$bin" report "$tmp/good.json"

# --- a fresh run keeps its raw times and gives each speedup its interval
expect "run --json" 0 "" -- "$bin" run reduction:naive,reduction:best --size 65536 --runs 7 --warmup 1 \
    --json "$tmp/run.json" --quiet
check "times_s: one per run, above 0, their median is t_median_s; speedup inside its interval" -- \
    python3 - "$tmp/run.json" <<'PY'
import json, statistics, sys
rep = json.load(open(sys.argv[1]))
for x in rep["results"]:
    t = x["times_s"]
    assert x["runs"] == 7 and len(t) == 7 and all(v > 0 for v in t), x
    assert abs(statistics.median(t) - x["t_median_s"]) <= 1e-12 * x["t_median_s"], (t, x["t_median_s"])
    assert x["speedup_lo"] <= x["speedup"] <= x["speedup_hi"], x
first = rep["results"][0]
assert first["speedup"] == first["speedup_lo"] == first["speedup_hi"] == 1, first
PY
expect "the fresh run against itself" 0 "^0 regressed" -- "$bin" compare "$tmp/run.json" "$tmp/run.json"

done_tests
