#!/usr/bin/env bash
# Device test of `clgauge peak` on the default device (PoCL in CI): every family runs and each of its figures is
# positive and finite (or unsupported / zero-copy, with a reason), at a tiny --max-time; and `peak --quick`, with
# no program cache, finishes in under 30 seconds and gives the roofline's three figures.
# Usage: bash test_peak.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

# 1. Every family, every test.
json=$TESTTMP/peak.json
rm -f "$json"
"$BIN" peak --max-time 0.01 --json "$json" >"$TESTTMP/peak.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { cat "$TESTTMP/peak.out"; fail "peak exited $rc, want 0"; }
if [ -s "$json" ]; then
    python3 - "$json" <<'EOF_PY' || fail "JSON checks (above)"
import json, math, sys
rep = json.load(open(sys.argv[1]))
rows = rep["results"]
bad = 0
def no(msg):
    global bad
    print("  " + msg)
    bad += 1
families = {"bandwidth", "compute", "transfer", "latency", "local", "atomics", "image"}
tests = {"read", "write", "copy", "stride", "gather", "offset", "fp32", "fp64", "fp16", "int32", "int24",
         "pageable", "pinned", "map", "launch", "local-bw", "bank", "atomic-global", "atomic-local", "image"}
seen_f = {r["family"] for r in rows}
seen_t = {r["test"] for r in rows}
if families - seen_f:
    no("families missing: %s" % sorted(families - seen_f))
if tests - seen_t:
    no("tests missing: %s" % sorted(tests - seen_t))
for r in rows:
    name = "%s/%s/%s" % (r["family"], r["test"], r["variant"])
    if r["status"] == "ok":
        v = r["value"]
        if v is None or not math.isfinite(v) or v <= 0:
            no("%s: value %r is not positive and finite" % (name, v))
        if r["unit"] not in ("GB/s", "GFLOP/s", "GIOP/s", "us"):
            no("%s: unit %r" % (name, r["unit"]))
    elif r["status"] in ("unsupported", "zero_copy"):
        if not r["reason"]:
            no("%s: %s without a reason" % (name, r["status"]))
    else:
        no("%s: status %s (%s)" % (name, r["status"], r["reason"]))
for t in ("read", "copy", "fp32", "int32", "launch", "local-bw", "atomic-global", "atomic-local"):
    if not any(r["test"] == t and r["status"] == "ok" for r in rows):
        no("test %s gave no figure" % t)
sys.exit(1 if bad else 0)
EOF_PY
else
    fail "no JSON report at $json"
fi

# 2. `peak --quick` with cold builds: under 30 s, and the three roofline figures.
start=$EPOCHREALTIME
"$BIN" peak --quick --no-cache --json "$TESTTMP/quick.json" >"$TESTTMP/quick.out" 2>&1
rc=$?
secs=$(python3 -c "print(round($EPOCHREALTIME - $start, 1))")
[ "$rc" -eq 0 ] || { cat "$TESTTMP/quick.out"; fail "peak --quick exited $rc, want 0"; }
echo "peak --quick took $secs s"
python3 -c "import sys; sys.exit(0 if $secs < 30 else 1)" || fail "peak --quick took $secs s, want under 30"
for t in read copy fp32; do
    grep -q "\"test\":	\"$t\"" "$TESTTMP/quick.json" || fail "peak --quick: no $t row"
done

finish
