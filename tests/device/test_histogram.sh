#!/usr/bin/env bash
# Device test of the histogram ladder: every rung at an awkward size (1000003, a prime: no multiple of any
# work-group size or of 16) for each --pattern on the default device, checked exactly against the CPU count; a
# deliberately wrong kernel (made here from the real histogram.cl: each group adds 1 to every non-empty bin it
# merges) must fail the check with exit code 3 and FAILED; --pattern bogus and --pattern without histogram
# selected are usage errors (exit 1).
# Usage: bash test_histogram.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

# 1. Every rung, odd size, each pattern: ok everywhere.
for pat in random allequal image; do
    json=$TESTTMP/hist-$pat.json
    rm -f "$json"
    "$BIN" run histogram --size 1000003 --pattern "$pat" --runs 2 --warmup 1 --json "$json" \
        >"$TESTTMP/hist-$pat.out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || { cat "$TESTTMP/hist-$pat.out"; fail "run histogram --pattern $pat exited $rc, want 0"; }
    [ -s "$json" ] || { fail "no JSON report at $json"; continue; }
    python3 - "$json" "$pat" <<'PY' || fail "JSON checks for --pattern $pat (above)"
import json, sys
rep = json.load(open(sys.argv[1]))
pat = sys.argv[2]
rows = [r for r in rep["results"] if r["workload"] == "histogram"]
names = [r["rung"] for r in rows]
bad = 0
for want in ("global-atomic", "local", "local-spread", "packed-uint4", "best"):
    if want not in names:
        print("  rung %s missing from the report (have %s)" % (want, names))
        bad += 1
for r in rows:
    if r["status"] != "ok":
        print("  rung %s: status %s (%s)" % (r["rung"], r["status"], r.get("reason", "")))
        bad += 1
    elif r.get("size") != "1000003 B, " + pat:
        print("  rung %s: size %r, want '1000003 B, %s'" % (r["rung"], r.get("size"), pat))
        bad += 1
sys.exit(1 if bad else 0)
PY
done

# 2. A wrong merge (one extra count per bin per group) must be caught: exit code 3 and a FAILED row.
make_wrong histogram.cl "$TESTTMP/hist-wrong" <<'EOF'
[("if (s) atomic_add(&out[b], s);", "if (s) atomic_add(&out[b], s + 1);")]
EOF
expect_wrong "wrong kernel" -- \
    "$BIN" run histogram:local --kernel-dir "$TESTTMP/hist-wrong" --size 4096 --runs 1 --warmup 0 --no-cache

# 3. Bad --pattern use: exit 1 with one line naming the valid patterns, or naming histogram.
expect 1 "random|allequal|image" -- "$BIN" run histogram --pattern bogus --size 4096
expect 1 "histogram" -- "$BIN" run reduction --pattern random --size 4096

finish
