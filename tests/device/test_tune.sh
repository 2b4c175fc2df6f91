#!/usr/bin/env bash
# Device test of `clgauge tune` (issue 20, docs/tune.md) on the default device, with small spaces (--space):
#  1. an exhaustive search: every candidate of the narrowed space and every baseline (the rung's own values,
#     each seed rule's pick) runs once, verified; the rules with no valid pick are skipped with a reason; one
#     best, the fastest ok row; speedups over the default; the winner stored in the tuning cache;
#  2. run uses the winner (params, params_from "tuned", the table's '*' and footer), --no-tuned does not,
#     --no-cache neither; a damaged or untrusted cache entry is one warning and the rung's own values;
#  3. random and anneal stay within their budget and visit only candidates of the space;
#  4. a kernel wrong for one candidate (WG 64 drops a work-item's sum) is a FAILED row, exit 3, nothing stored;
#  5. a sweep (--size list) tunes each item, keyed by its size class;
#  6. --kernel-dir: the winner keyed by the hash of the kernel file read from there, so that neither the
#     built-in kernels nor an edited file take it.
# Usage: bash test_tune.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

cache=$TESTTMP/tune_cache
rm -rf "$cache"
mkdir -p "$cache"
chmod 700 "$cache"
T() { "$BIN" tune "$@" --runs 1 --warmup 0 --cache-dir "$cache"; }
SPACE='wg=64,128;loads=4,8;grid=4'

# 1. exhaustive over 2 x 2 x 1 candidates plus the baselines
json=$TESTTMP/tune.json
rm -f "$json"
T reduction:best --size 4099 --space "$SPACE" --json "$json" >"$TESTTMP/tune.out" 2>&1 ||
    { cat "$TESTTMP/tune.out"; fail "tune reduction:best exited $?"; }
grep -q "^  best: wg=" "$TESTTMP/tune.out" || fail "tune: no best line"
grep -q "closest rule: " "$TESTTMP/tune.out" || fail "tune: no closest rule"
python3 - "$json" <<'EOF' || fail "tune JSON (above)"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
bad = []
params = [r["params"] for r in rows]
if len(params) != len(set(params)):
    bad.append("a candidate ran twice: %s" % params)
want = {"wg=%d,loads=%d,grid=4" % (w, l) for w in (64, 128) for l in (4, 8)}
bad += ["candidate %s missing" % p for p in want - set(params)]
fr = {r["params"]: r["params_from"].split(",") for r in rows}
dflt = [p for p, f in fr.items() if "default" in f]
if dflt != ["wg=256,loads=8,grid=8"]:
    bad.append("default candidate: %s" % dflt)
for rule in ("amd-wavefront", "nvidia-warps", "report-32x4", "mapping-3waves"):
    if not any("rule:" + rule in f for f in fr.values()):
        bad.append("rule %s did not run" % rule)
if any("rule:null" in f for f in fr.values()):
    bad.append("rule null ran on a kernel that needs a fixed work-group")
m = [r for r in rows if "mapping-3waves" in r["params_from"]][0]
if m["status"] != "unsupported" or "power of two" not in m["reason"]:
    bad.append("wg=192 not skipped with its reason: %s %s" % (m["status"], m["reason"]))
ok = [r for r in rows if r["status"] == "ok"]
bad += ["%s: %s" % (r["params"], r["status"]) for r in rows if r["status"] not in ("ok", "unsupported")]
best = [r for r in rows if "best" in r["params_from"].split(",")]
if len(best) != 1 or best[0]["t_median_s"] != min(r["t_median_s"] for r in ok):
    bad.append("best is not the one fastest ok row")
d = [r for r in rows if r["params"] == "wg=256,loads=8,grid=8"][0]
for r in ok:
    if abs(r["speedup"] - d["t_median_s"] / r["t_median_s"]) > 1e-6 * r["speedup"]:
        bad.append("%s: speedup %s is not over the default" % (r["params"], r["speedup"]))
    if not r["check_ok"]:
        bad.append("%s: not verified" % r["params"])
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF
entries=("$cache"/tuned/*.json)
[ ${#entries[@]} -eq 1 ] && [ -f "${entries[0]}" ] || fail "tune: want one tuning-cache entry, found ${entries[*]}"
entry=${entries[0]}
winner=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["entry"]["params"])' "$entry" 2>/dev/null)
best=$(python3 -c 'import json,sys; print([r["params"] for r in json.load(open(sys.argv[1]))["results"] if "best" in r["params_from"]][0])' "$json" 2>/dev/null)
[ -n "$winner" ] && [ "$winner" = "$best" ] || fail "cache entry '$winner' is not the best '$best'"

# 2. run with the winner: a winner that is the rung's own runs as the rung itself (no params)
rj=$TESTTMP/tuned-run.json
"$BIN" run reduction:best --size 4099 --runs 1 --warmup 0 --cache-dir "$cache" --json "$rj" >"$TESTTMP/run.out" 2>&1 ||
    { cat "$TESTTMP/run.out"; fail "run with the tuning cache"; }
python3 - "$rj" "$winner" <<'EOF' || fail "run did not use the winner (above)"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
want = sys.argv[2]
own = want == "wg=256,loads=8,grid=8"
ok = r["status"] == "ok" and (r["params"], r["params_from"]) == (("", "") if own else (want, "tuned"))
print("" if ok else "  row: %s %r %r, want %r" % (r["status"], r["params"], r["params_from"], want))
sys.exit(0 if ok else 1)
EOF
if [ "$winner" != "wg=256,loads=8,grid=8" ]; then
    grep -q "^reduction:best\* " "$TESTTMP/run.out" || fail "run table: no '*' on the tuned rung"
    grep -q "reduction:best\* ran with tuned parameters $winner" "$TESTTMP/run.out" || fail "run table: no footer"
fi
for flag in --no-tuned --no-cache; do
    "$BIN" run reduction:best --size 4099 --runs 1 --warmup 0 --cache-dir "$cache" $flag --json "$rj" \
        >"$TESTTMP/run.out" 2>&1 || fail "run $flag"
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; sys.exit(r["params"] != "" or r["params_from"] != "")' \
        "$rj" || fail "run $flag used the tuning cache"
done
# another size class or other options: no entry applies
"$BIN" run reduction:best --size 1000003 --runs 1 --warmup 0 --cache-dir "$cache" --json "$rj" >"$TESTTMP/run.out" 2>&1
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; sys.exit(r["params_from"] != "")' "$rj" ||
    fail "run at another size class used the entry"
# damaged entries: each one warning, the rung's own values, exit 0; the entry is restored after each
cp "$entry" "$TESTTMP/entry.bak"
damage() {
    cp "$TESTTMP/entry.bak" "$entry"
    chmod 600 "$entry"
    eval "$1"
    "$BIN" run reduction:best --size 4099 --runs 1 --warmup 0 --cache-dir "$cache" --json "$rj" >"$TESTTMP/run.out" 2>&1
    local rc=$?
    if [ $rc -ne 0 ] || ! grep -q "warning: .*tuned" "$TESTTMP/run.out" ||
        ! python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; sys.exit(r["params_from"] != "")' "$rj"; then
        cat "$TESTTMP/run.out"
        fail "damaged entry ($2): exit $rc, want 0, one warning and the rung's own values"
    fi
}
damage "sed -i 's/\"params\":[^,]*,/\"params\": \"wg=64,loads=4,grid=4\",/' '$entry'" "a value edited: checksum"
damage "head -c 100 '$TESTTMP/entry.bak' >'$entry'" "truncated"
damage "printf 'not json' >'$entry'" "not JSON"
damage "chmod 666 '$entry'" "writable by others"
cp "$TESTTMP/entry.bak" "$entry" && chmod 600 "$entry"

# 3. random and anneal: within the budget (plus one candidate's time), only the space's candidates (the
#    programs of section 1, from the program cache)
for st in random anneal; do
    rm -f "$json"
    s0=$(date +%s)
    T reduction:best --size 4099 --strategy $st --budget 2 --space "$SPACE" \
        --json "$json" >"$TESTTMP/tune.out" 2>&1 || { cat "$TESTTMP/tune.out"; fail "tune --strategy $st"; }
    el=$(($(date +%s) - s0))
    [ $el -le 60 ] || fail "tune --strategy $st --budget 2 took $el s"
    python3 - "$json" <<'EOF' || fail "tune --strategy $st: candidates (above)"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
bad = []
for r in rows:
    if "search" in r["params_from"]:
        wg, loads, grid = [int(kv.split("=")[1]) for kv in r["params"].split(",")]
        if wg not in (64, 128) or loads not in (4, 8) or grid != 4:
            bad.append("outside the space: " + r["params"])
if not any("default" in r["params_from"] for r in rows):
    bad.append("no default")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
done

# 4. a kernel wrong for one candidate only: caught (exit 3, FAILED), the search goes on, nothing stored
wrong=$TESTTMP/wrong_tune
make_wrong reduction.cl "$wrong" <<'EOF'
[("    float r = group_sum(v, s);\n    if (get_local_id(0) == 0) out[get_group_id(0)] = r;\n}\n\n/* ",
  "    if (WG == 64 && get_local_id(0) == 5) v = 0.0f;\n    float r = group_sum(v, s);\n    if (get_local_id(0) == 0) out[get_group_id(0)] = r;\n}\n\n/* ")]
EOF
rm -rf "$cache/tuned"
"$BIN" tune reduction:best --size 20011 --runs 1 --warmup 0 --space 'wg=64,128;loads=8;grid=4' --kernel-dir "$wrong" \
    --cache-dir "$cache" >"$TESTTMP/wrong.out" 2>&1
rc=$?
[ $rc -eq 3 ] && grep -q "FAILED" "$TESTTMP/wrong.out" || { cat "$TESTTMP/wrong.out"; fail "wrong candidate: exit $rc, want 3 and FAILED"; }
grep -q "wg=128,loads=8,grid=4 .*ms" "$TESTTMP/wrong.out" ||
    fail "wrong candidate: the search did not go on to wg=128"
[ -z "$(ls -A "$cache/tuned" 2>/dev/null)" ] || fail "wrong candidate: a winner was stored"

# 5. a --size sweep: each item tuned, each its own entry (its size class in the key)
rm -rf "$cache/tuned"
T reduction:best --size 4099,16411 --budget 1 --space "$SPACE" --json "$json" \
    >"$TESTTMP/tune.out" 2>&1 || { cat "$TESTTMP/tune.out"; fail "tune a --size sweep"; }
n=$(ls "$cache/tuned" 2>/dev/null | wc -l)
[ "$n" -eq 2 ] || fail "a --size sweep of 2 items: $n cache entries, want 2"

# 6. --kernel-dir: the winner is keyed by the kernel file's hash (options "kernels=..."): a run of the built-in
#    kernels does not take it, a run of the same dir does, and a run of the dir after an edit does not
kd=$TESTTMP/tune_kd
rm -rf "$kd" "$cache/tuned"
mkdir -p "$kd"
cp "$SRC"/workloads/reduction/reduction.cl "$kd"/
T reduction:best --size 300007 --space 'wg=64;loads=4;grid=4' --kernel-dir "$kd" >"$TESTTMP/tune.out" 2>&1 ||
    { cat "$TESTTMP/tune.out"; fail "tune --kernel-dir"; }
grep -q "stored in the tuning cache (size class 2^18, options kernels=[0-9a-f]\{16\})" "$TESTTMP/tune.out" ||
    { cat "$TESTTMP/tune.out"; fail "tune --kernel-dir: the winner not keyed by the kernels' hash"; }
# found ARGS...: the tuning-cache lookup of run reduction:best at 300007 with ARGS (CLGAUGE_DEBUG's line): "entry"
# or "none"
found() {
    CLGAUGE_DEBUG=1 "$BIN" run reduction:best --size 300007 --runs 1 --warmup 0 --cache-dir "$cache" "$@" \
        >"$TESTTMP/run.out" 2>&1 || { cat "$TESTTMP/run.out"; fail "run reduction:best $*"; }
    if grep -q "reduction:best: tuning-cache entry .* options 'kernels=[0-9a-f]\{16\}'" "$TESTTMP/run.out"; then
        echo entry
    elif grep -q "reduction:best: no tuning-cache entry for size class 2^18" "$TESTTMP/run.out"; then
        echo none
    else
        cat "$TESTTMP/run.out" >&2
        echo unknown
    fi
}
[ "$(found)" = none ] || fail "run of the built-in kernels found the --kernel-dir winner"
[ "$(found --kernel-dir "$kd")" = entry ] || fail "run --kernel-dir of the same dir did not find its winner"
echo "/* edited */" >>"$kd"/reduction.cl
[ "$(found --kernel-dir "$kd")" = none ] || fail "run --kernel-dir found the winner of the file before its edit"

finish
