#!/usr/bin/env bash
# Device test of the kernel facts and occupancy estimate of every run row (docs/tune.md, "Kernel facts and
# occupancy") on the default device:
#  1. reduction (every rung uses local memory): each row that ran names its kernel (one of the .cl file's),
#     launched with a work-group no larger than CL_KERNEL_WORK_GROUP_SIZE, local memory above 0, an estimate
#     whose model fits the device (on a CPU: one group per core); the unsupported rung has no facts;
#  2. transpose: the naive rung uses no local memory, the tiled ones do; filter3x3's NULL local size is
#     "auto" (0 work-items), its 32x4 rungs "32x4";
#  3. the CSV's facts columns equal the JSON's; the HTML report has the kernel and occupancy columns;
#     `compare` of the file with itself and `report` still work; the JSON validates against the schema.
# Usage: bash test_kfacts.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

json=$TESTTMP/kfacts_red.json csv=$TESTTMP/kfacts_red.csv html=$TESTTMP/kfacts_red.html
rm -f "$json" "$csv" "$html"
"$BIN" run reduction --size 100000 --runs 1 --warmup 1 --json "$json" --csv "$csv" >"$TESTTMP/kfacts.out" 2>&1 ||
    {
        cat "$TESTTMP/kfacts.out"
        fail "run reduction"
    }
python3 - "$json" "$csv" "$SRC/workloads/reduction/reduction.cl" <<'EOF' || fail "reduction facts (above)"
import csv, json, re, sys
rep = json.load(open(sys.argv[1]))
kernels = set(re.findall(r"__kernel\s+(?:\w+\s+)*void\s+(\w+)", open(sys.argv[3]).read()))
cpu = rep["device"]["type"] == "CPU"
bad = []
for r in rep["results"]:
    name = r["rung"]
    if r["status"] == "unsupported":
        if r["kernel"] or r["occ_groups"] or r["occupancy"] is not None:
            bad.append("%s: unsupported, but has facts %s" % (name, r["kernel"]))
        continue
    if r["kernel"] not in kernels:
        bad.append("%s: kernel %r is not a kernel of reduction.cl" % (name, r["kernel"]))
    if not 0 < r["wg_size"] <= r["kernel_wg_max"]:
        bad.append("%s: wg_size %d not in 1..kernel_wg_max %d" % (name, r["wg_size"], r["kernel_wg_max"]))
    if r["wg_local"] != str(r["wg_size"]):
        bad.append("%s: wg_local %r for a 1-D group of %d" % (name, r["wg_local"], r["wg_size"]))
    if r["kernel_local_bytes"] <= 0:
        bad.append("%s: a local-memory tree with kernel_local_bytes %d" % (name, r["kernel_local_bytes"]))
    if r["kernel_wg_multiple"] < 1 or r["kernels"] < 1:
        bad.append("%s: kernel_wg_multiple %d, kernels %d" % (name, r["kernel_wg_multiple"], r["kernels"]))
    if cpu and (r["occ_model"], r["occ_groups"], r["occ_limit"], r["occupancy"]) != ("cpu", 1, "groups", None):
        bad.append("%s: CPU estimate %s" % (name, [r[k] for k in ("occ_model", "occ_groups", "occ_limit")]))
    if not cpu and r["occ_groups"] and r["occ_limit"] not in ("local", "registers", "threads", "groups"):
        bad.append("%s: occ_limit %r" % (name, r["occ_limit"]))
with open(sys.argv[2], newline="") as f:
    rows = list(csv.DictReader(f))
for line, r in zip(rows, rep["results"]):
    for k in ("kernel", "wg_local", "kernel_wg_max", "kernel_local_bytes", "registers", "occ_groups",
              "occ_limit"):
        if line[k] != str(r[k]):
            bad.append("%s: CSV %s %r, JSON %r" % (r["rung"], k, line[k], r[k]))
    if (line["occupancy"] == "") != (r["occupancy"] is None):
        bad.append("%s: CSV occupancy %r, JSON %r" % (r["rung"], line["occupancy"], r["occupancy"]))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF

# 2. Local memory 0 and above 0 on the same ladder; the runtime's choice of work-group.
tj=$TESTTMP/kfacts_tr.json
rm -f "$tj"
"$BIN" run transpose:naive,transpose:local16,filter3x3:u8-buf-div,filter3x3:u8-buf-32x4 --size 256 --runs 1 --warmup 0 \
    --json "$tj" >"$TESTTMP/kfacts.out" 2>&1 || {
    cat "$TESTTMP/kfacts.out"
    fail "run transpose, filter3x3"
}
python3 - "$tj" <<'EOF' || fail "transpose and filter3x3 facts (above)"
import json, sys
rows = {(r["workload"], r["rung"]): r for r in json.load(open(sys.argv[1]))["results"]}
bad = []
want = {("transpose", "naive"): lambda r: r["kernel_local_bytes"] == 0 and r["wg_size"] > 0,
        ("transpose", "local16"): lambda r: r["kernel_local_bytes"] >= 16 * 16 * 4 and r["wg_local"] == "16x16",
        ("filter3x3", "u8-buf-div"): lambda r: r["wg_local"] == "auto" and r["wg_size"] == 0,
        ("filter3x3", "u8-buf-32x4"): lambda r: r["wg_local"] == "32x4" and r["wg_size"] == 128}
for key, ok in want.items():
    r = rows.get(key)
    if r is None or r["status"] != "ok" or not ok(r):
        bad.append("%s:%s: %s" % (key + ({k: r[k] for k in ("status", "kernel", "wg_local", "wg_size",
                                                            "kernel_local_bytes")} if r else "missing",)))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF

# 3. The other readers of a run file.
"$BIN" report "$json" --html "$html" >/dev/null 2>&1 || fail "report --html"
grep -q "<th>kernel</th><th>occupancy</th>" "$html" || fail "HTML report without the kernel and occupancy columns"
grep -q "<code>reduce_" "$html" || fail "HTML report without a kernel name"
"$BIN" compare "$json" "$json" >/dev/null 2>&1 || fail "compare of a run with itself"
"$BIN" report "$json" >/dev/null 2>&1 || fail "report of the run"
if python3 -c 'import jsonschema' 2>/dev/null; then
    python3 -c 'import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' \
        "$SRC/../docs/schema/clgauge-v2.schema.json" "$json" || fail "the run does not validate against the schema"
fi
finish
