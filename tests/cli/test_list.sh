#!/usr/bin/env bash
# `clgauge list` and `list --json`: the JSON parses and holds every workload with its rungs (name, why, kernel,
# needs, params) and options, and the option table; it matches the text listing; no OpenCL platform needed.
# `run --quiet` ends with its one-line summary on stderr and prints nothing on stdout.
# Usage: bash test_list.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

expect "list --json" 0 '"schema_version"' -- "$bin" list --json
cp "$last_stdout" "$tmp/list.json"
expect "list -j (short form)" 0 '"workloads"' -- "$bin" list -j
expect "list" 0 "^  reduction:naive " -- "$bin" list
cp "$last_stdout" "$tmp/list.txt"
expect "list: blur's options (capabilities, then its own)" 0 "^  options: --input, --output, --estimate, --sigma$" -- \
    "$bin" list
expect "list --json --quiet still prints the JSON" 0 '"rungs"' -- "$bin" list --json --quiet
expect "list --json takes no value" 1 "--json takes no value" -- "$bin" list --json=x

check "list --json: schema, a known rung, options, same rungs as the text" -- \
    python3 - "$tmp/list.json" "$tmp/list.txt" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["schema_version"] == 2 and d["tool"]["name"] == "clgauge", (d["schema_version"], d["tool"])
ws = {w["name"]: w for w in d["workloads"]}
for name in ("reduction", "filter3x3", "transpose", "blur", "histogram", "convolution", "saxpy"):
    assert name in ws, "workload %s missing" % name
naive = [r for r in ws["reduction"]["rungs"] if r["name"] == "naive"]
assert len(naive) == 1, "reduction:naive missing"
r = naive[0]
assert r["kernel"] == "reduce_naive", r
assert r["why"] and isinstance(r["needs"], list) and r["needs"] == [], r
assert isinstance(r["params"], list) and len(r["params"]) == 5 and r["params"][0] == 256, r
assert "build_options" in r and "local_bytes" in r, r
img = [r for r in ws["filter3x3"]["rungs"] if r["name"] == "u8-img-expr"][0]
assert "images" in img["needs"], img
assert "sigma" in ws["blur"]["options"] and ws["reduction"]["options"] == [], (ws["blur"], ws["reduction"])
own = {(w["name"], o["name"]): o for w in d["workloads"] for o in w["own_options"]}
assert sorted(own) == [("blur", "sigma"), ("cloth", "cloths"), ("cloth", "grid"), ("cloth", "iterations"),
                     ("cloth", "steps"), ("convolution", "filter"), ("histogram", "pattern"), ("histogram", "pixel"),
                     ("lcs", "alphabet"), ("lcs", "pairs"), ("lcs", "traceback"), ("opticalflow", "epsilon"), ("opticalflow", "grid-step"), ("opticalflow", "iterations"),
                     ("opticalflow", "levels"), ("opticalflow", "points"), ("opticalflow", "window"), ("saxpy", "alpha"), ("scan", "exclusive"), ("scan", "inclusive"),
                     ("scan", "type")], \
    sorted(own)
pat = own[("histogram", "pattern")]
assert pat["kind"] == "word" and pat["values"] == ["random", "allequal", "image"] and pat["default"] == "random", pat
flt = own[("convolution", "filter")]
assert flt["kind"] == "extents" and flt["default"] == "32" and flt["max"] == 32 and flt["sweep"] is True, flt
sg = own[("blur", "sigma")]
assert sg["kind"] == "number" and sg["values"] is None and sg["max"] is None and not sg["sweep"], sg
for w in d["workloads"]:  # a workload's own options are among its options
    assert all(o["name"] in w["options"] for o in w["own_options"]), w["name"]
opts = {(o["name"], tuple(o["commands"])): o for o in d["options"]}
dev = [o for o in d["options"] if o["name"] == "device"][0]
assert dev["short"] == "d" and dev["value"] == "SEL" and "run" in dev["commands"] and dev["workloads"] is None
sig = [o for o in d["options"] if o["name"] == "sigma"][0]
assert sig["workloads"] == ["blur"] and sig["commands"] == ["run", "tune"], sig
inp = [o for o in d["options"] if o["name"] == "input"][0]
assert inp["workloads"] == ["filter3x3", "blur", "lcs", "opticalflow"], inp
text = open(sys.argv[2]).read()
for w in d["workloads"]:
    want = re.findall(r"^  %s:(\S+)" % re.escape(w["name"]), text, re.M)
    got = [r["name"] for r in w["rungs"]]
    assert got == want, (w["name"], got, want)
PY

# No OpenCL platform: list --json still works (it reads only the registry).
empty=$tmp/no-vendors
mkdir -p "$empty"
expect "no platform: list --json" 0 '"reduction"' -- env -u OCL_ICD_FILENAMES OCL_ICD_VENDORS="$empty" \
    "$bin" list --json

# --- run --quiet: nothing on stdout, one summary line on stderr
expect "run --quiet: the summary line" 0 \
    "^clgauge: 2 rungs: 2 ok, 0 failed, 0 unsupported; fastest reduction:(naive|strided) .*s, slowest reduction:" -- \
    "$bin" run reduction:naive,reduction:strided --size 4096 --runs 1 --warmup 0 --quiet
check "run --quiet: nothing on stdout" -- test ! -s "$last_stdout"
check "run --quiet: one line on stderr" -- test "$(wc -l <"$last_stderr")" -eq 1
expect "run without --quiet: no summary line" 0 "!^clgauge: [0-9]+ rungs?:" -- \
    "$bin" run reduction:naive --size 4096 --runs 1 --warmup 0
done_tests
