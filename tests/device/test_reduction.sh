#!/usr/bin/env bash
# Device test of the reduction ladder: every rung at an awkward size (1000003, a prime: no multiple of any work-group
# size or of 4) on the default device against the CPU reference; nv-shfl must be `unsupported` off NVIDIA; and a
# deliberately wrong kernel (tests/data/wrong/reduction.cl) must make the check fail with exit code 3 and FAILED.
# Usage: bash test_reduction.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

# 1. Every rung, odd size: ok everywhere, or unsupported where the device lacks what the rung needs.
json=$TESTTMP/red.json
rm -f "$json"
"$BIN" run reduction --size 1000003 --runs 2 --warmup 1 --json "$json" >"$TESTTMP/red.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { cat "$TESTTMP/red.out"; fail "run reduction exited $rc, want 0"; }
if [ -s "$json" ]; then
    python3 - "$json" <<'EOF' || fail "JSON checks (above)"
import json, sys
rep = json.load(open(sys.argv[1]))
rows = [r for r in rep["results"] if r["workload"] == "reduction"]
bad = 0
def no(msg):
    global bad
    print("  " + msg)
    bad += 1
names = [r["rung"] for r in rows]
for want in ("naive", "strided", "sequential", "first-add", "vec4-many", "best", "nv-shfl", "chunked"):
    if want not in names:
        no("rung %s missing from the report (have %s)" % (want, names))
for r in rows:
    if r["status"] not in ("ok", "unsupported"):
        no("rung %s: status %s (%s)" % (r["rung"], r["status"], r.get("reason", "")))
    if r["status"] == "ok" and r.get("size") != "1000003 floats":
        no("rung %s: size %r, want '1000003 floats'" % (r["rung"], r.get("size")))
nvidia = "NVIDIA" in rep["device"]["platform"].upper()
for r in rows:
    if r["rung"] == "nv-shfl" and not nvidia and r["status"] != "unsupported":
        no("nv-shfl on a non-NVIDIA platform: status %s, want unsupported" % r["status"])
if not any(r["status"] == "ok" for r in rows):
    no("no rung ran")
sys.exit(1 if bad else 0)
EOF
else
    fail "no JSON report at $json"
fi

# 2. The wrong kernel (adds 1.0f per group) must be caught: exit code 3 and a FAILED row.
expect_wrong "wrong kernel" -- \
    "$BIN" run reduction:naive --kernel-dir "$TESTDATA/wrong" --size 4096 --runs 1 --warmup 0

finish
