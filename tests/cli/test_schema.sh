#!/usr/bin/env bash
# One JSON Schema (docs/schema/clgauge-v2.schema.json) for the three JSON documents: `devices --json`, a run's
# --json (rows of every status the PoCL run gives: ok and unsupported) and a peak's --json all pass it
# (python3-jsonschema, draft 2020-12), with exactly the keys the schema lists; a key renamed in any of them
# (a row's, the device block's, the metadata's) fails it. Needs python3-jsonschema (scripts/test.sh installs it).
# Usage: bash test_schema.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
schema=$TESTDATA/../../docs/schema/clgauge-v2.schema.json
py=$(dirname "$0")/schema_check.py

check "python3-jsonschema is installed (apt-get install python3-jsonschema)" -- python3 -c 'import jsonschema'
expect "devices --json" 0 '"kind":' -- "$bin" devices --json
cp "$last_stdout" "$tmp/devices.json"
expect "run --json (ok and unsupported rows)" 0 "" -- \
    "$bin" run reduction:naive,reduction:nv-shfl --size 4096 --runs 3 --warmup 0 --json "$tmp/run.json"
expect "peak --json" 0 "" -- "$bin" peak --only fp32,launch --max-time 0.05 --json "$tmp/peak.json"
expect "run --estimate --json (the estimates array)" 0 "" -- \
    "$bin" run blur:sep,blur:fused --size 64 --runs 1 --warmup 0 --estimate --json "$tmp/est.json"
check "run --estimate: its JSON passes the schema, every estimate row with exactly the schema's keys" -- \
    python3 "$py" "$schema" valid "$tmp/est.json"
check "an estimate row with a key renamed fails the schema" -- \
    python3 "$py" "$schema" renamed "$tmp/est.json" estimates.1.cm_ratio

check "the schema itself is valid draft 2020-12, and the three documents pass it" -- \
    python3 "$py" "$schema" valid "$tmp/devices.json" "$tmp/run.json" "$tmp/peak.json"
check "one vocabulary: the device block of run, peak and devices is the same object" -- python3 -c '
import json, sys
run, peak, devs = (json.load(open(p)) for p in sys.argv[1:4])
dev = [d for d in devs["devices"] if d["name"] == run["device"]["name"]][0]
for k in run["device"]:
    if k == "fp16":  # run does not probe fp16: null there
        continue
    assert run["device"][k] == dev[k] == peak["device"][k], (k, run["device"][k], dev[k], peak["device"][k])
assert run["tool"] == peak["tool"] == devs["tool"], (run["tool"], peak["tool"], devs["tool"])
assert [r["status"] for r in run["results"]] == ["ok", "unsupported"], [r["status"] for r in run["results"]]
' "$tmp/run.json" "$tmp/peak.json" "$tmp/devices.json"

# A renamed key fails the schema: in a row, the device block, the metadata, the options, a peak row.
for path in results.0.t_median_s results.1.status device.global_mem_bytes tool.git_commit options.seed \
    command_line roofline.copy_gbps results.0.build_s results.0.warnings; do
    check "run JSON with $path renamed fails the schema" -- python3 "$py" "$schema" renamed "$tmp/run.json" "$path"
done
for path in results.0.t_min_s results.0.value device.driver_version options.max_time_s kind; do
    check "peak JSON with $path renamed fails the schema" -- python3 "$py" "$schema" renamed "$tmp/peak.json" "$path"
done
for path in devices.0.max_alloc_bytes devices.0.selector devices.0.fp16 schema_version; do
    check "devices JSON with $path renamed fails the schema" -- \
        python3 "$py" "$schema" renamed "$tmp/devices.json" "$path"
done

done_tests
