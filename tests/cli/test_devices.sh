#!/usr/bin/env bash
# Device selection: by type, by P:D, by name, through $CLGAUGE_DEVICE; a selector that matches nothing (exit 2, the
# available devices listed), a malformed P:D (exit 1), and a machine with no OpenCL platform at all (exit 2, a
# message naming the fix, no crash).
# Usage: bash test_devices.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
tiny=(run reduction:naive --size 4096 --runs 1 --warmup 0)

# --- selectors that match nothing, or are malformed
expect "--device nosuchdevice" 2 "no device matches 'nosuchdevice'" -- "$bin" "${tiny[@]}" --device nosuchdevice
expect "--device nosuchdevice lists what exists" 2 "available: [0-9]+:[0-9]+ " -- \
    "$bin" "${tiny[@]}" --device nosuchdevice
expect "--device 9:9" 2 "no device matches '9:9'" -- "$bin" "${tiny[@]}" --device 9:9
expect "--device 0:x malformed" 1 "malformed device selector '0:x'" -- "$bin" "${tiny[@]}" --device 0:x
expect "--device 0: malformed" 1 "malformed device selector" -- "$bin" "${tiny[@]}" --device 0:
expect "--device 0:0x malformed" 1 "malformed device selector" -- "$bin" "${tiny[@]}" --device 0:0x
expect "--device accelerator (none here)" 2 "no device matches 'accelerator'" -- \
    "$bin" "${tiny[@]}" --device accelerator
expect "bad selector refused before any run" 2 "!reduction:naive +OK" -- "$bin" "${tiny[@]}" --device 9:9

# --- selectors that match
expect "--device cpu" 0 "^reduction:naive +OK" -- "$bin" "${tiny[@]}" --device cpu
expect "--device 0:0" 0 "^reduction:naive +OK" -- "$bin" "${tiny[@]}" --device 0:0
# The first device's name, from `devices --json`; a case-changed part of it must select it too.
"$bin" devices --json >"$tmp/devices.json" 2>/dev/null
name=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["devices"][0]["name"])' "$tmp/devices.json" 2>/dev/null)
check "devices --json gives a device name" -- test -n "$name"
if [ -n "$name" ]; then
    part=$(printf '%s' "${name:0:6}" | tr '[:lower:][:upper:]' '[:upper:][:lower:]')
    expect "--device '$part' (name part, other case)" 0 "\"schema_version\"" -- "$bin" "${tiny[@]}" --device "$part" --json -
    check "name selector picked that device" -- python3 -c '
import json, sys
rep = json.load(open(sys.argv[1]))
assert rep["device"]["name"] == sys.argv[2], (rep["device"]["name"], sys.argv[2])
' "$last_stdout" "$name"
fi

# --- the facts the seeds query: local memory type, global cache type and line, preferred work-group multiple
expect "devices: local memory type" 0 "^  Local memory type +(local|global|none)$" -- "$bin" devices
expect "devices: global cache type" 0 "^  Global cache type +(none|read-only|read-write)$" -- "$bin" devices
expect "devices: global cache line" 0 "^  Global cache line \(B\) +[0-9]+$" -- "$bin" devices
expect "devices: preferred work-group multiple" 0 "^  Preferred WG multiple +[1-9][0-9]*$" -- "$bin" devices
check "devices --json: the new facts" -- python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
assert d["local_mem_type"] in ("local", "global", "none"), d
assert d["global_cache_type"] in ("none", "read-only", "read-write"), d
assert isinstance(d["global_cacheline_bytes"], int) and d["global_cacheline_bytes"] >= 0, d
assert isinstance(d["preferred_work_group_multiple"], int) and d["preferred_work_group_multiple"] >= 1, d
' "$tmp/devices.json"

# --- $CLGAUGE_DEVICE
expect "CLGAUGE_DEVICE=nosuchdevice" 2 "no device matches 'nosuchdevice'" -- \
    env CLGAUGE_DEVICE=nosuchdevice "$bin" "${tiny[@]}"
expect "CLGAUGE_DEVICE=cpu" 0 "^reduction:naive +OK" -- env CLGAUGE_DEVICE=cpu "$bin" "${tiny[@]}"
expect "--device beats CLGAUGE_DEVICE" 0 "^reduction:naive +OK" -- \
    env CLGAUGE_DEVICE=nosuchdevice "$bin" "${tiny[@]}" --device cpu
expect "empty CLGAUGE_DEVICE: the default device" 0 "^reduction:naive +OK" -- env CLGAUGE_DEVICE= "$bin" "${tiny[@]}"

# --- no OpenCL platform at all: an ICD loader with an empty vendor directory
empty=$tmp/no-vendors
mkdir -p "$empty"
noplat=(env -u OCL_ICD_FILENAMES OCL_ICD_VENDORS="$empty")
expect "no platform: devices" 2 "no OpenCL platform" -- "${noplat[@]}" "$bin" devices
expect "no platform: devices --json" 2 "no OpenCL platform" -- "${noplat[@]}" "$bin" devices --json
expect "no platform: run" 2 "no OpenCL platform" -- "${noplat[@]}" "$bin" "${tiny[@]}"
expect "no platform: run --device cpu" 2 "no OpenCL platform" -- "${noplat[@]}" "$bin" "${tiny[@]}" --device cpu
expect "no platform: one line naming the fix" 2 "OCL_ICD_VENDORS|install" -- "${noplat[@]}" "$bin" devices
check "no platform: nothing on stdout" -- test ! -s "$last_stdout"
# Usage errors are found before the platform is needed: still exit 1.
expect "no platform: usage error first" 1 "bad --size" -- "${noplat[@]}" "$bin" run reduction --size abc
expect "no platform: list needs no platform" 0 "^reduction: " -- "${noplat[@]}" "$bin" list

done_tests
