#!/usr/bin/env bash
# `clgauge peak` as a user meets it: its help (every option, every test), every option accepted, bad values with
# exit code 1 and a message naming the problem (an unknown --only name lists the valid ones), unwritable files
# (5), no such device (2), and the roofline cache: `peak --quick` writes the quick one, a full peak the one
# that `run` then prefers. Device work is kept tiny (--only, --quick, --max-time 0.01).
# Usage: bash test_peak.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
man_page=$TESTDATA/../../docs/clgauge.1

# --- help
expect "overview lists peak" 0 "^  peak " -- "$bin" --help
for opt in device only json csv quick max-time timer seed no-cache cache-dir mask-features kernel-dir quiet; do
    expect "peak --help mentions --$opt" 0 "^  (-[a-z], |    )--$opt( |$)" -- "$bin" peak --help
    check "man page documents peak --$opt" -- bash -c 'sed "s/\\\\-/-/g" "$1" | sed -n "/^\.SS Options of peak/,/^\.S[SH] [A-Z]/p" | grep -q -- "--$2"' _ "$man_page" "$opt"
done
for t in read write copy stride gather offset fp32 fp64 fp16 int32 int24 tf32-mma f16-mma crossover chains pageable pinned map \
    launch local-bw bank atomic-global atomic-local image sizes coalescing divergence scatter channels alloc transfers \
    events queues; do
    expect "peak --help lists test $t" 0 "^  [a-z]+ +$t " -- "$bin" peak --help
done
expect "help peak" 0 "^Usage: clgauge peak " -- "$bin" help peak
expect "man page has a peak section" 0 "" -- grep -q "^\.SS Options of peak" "$man_page"

# --- bad input
expect "--only unknown" 1 "unknown peak test 'nosuch'" -- "$bin" peak --only nosuch
expect "--only unknown lists families and tests" 1 "bandwidth read write copy.*compute fp32" -- "$bin" peak --only nosuch
expect "--only unknown lists the seeds' families" 1 "balance crossover chains.*cache sizes; rules coalescing divergence; scatter scatter channels" -- "$bin" peak --only nosuch
check "man page lists every family and test for --only" -- bash -c '
    page=$(sed "s/\\\\-/-/g" "$1" | sed -n "/^\.BI --only/,/^\.TP/p")
    for w in balance crossover chains cache sizes rules coalescing divergence scatter channels overheads alloc transfers \
        events queues; do
        grep -qw -- "$w" <<<"$page" || { echo "man page: --only does not list $w"; exit 1; }
    done' _ "$man_page"
expect "--only with one bad name" 1 "unknown peak test 'fp33'" -- "$bin" peak --only fp32,fp33
expect "--only empty item" 1 "unknown peak test ''" -- "$bin" peak --only fp32,
expect "--only needs a value" 1 "--only needs a value" -- "$bin" peak --only
expect "--max-time 0" 1 "--max-time expects a positive number" -- "$bin" peak --max-time 0
expect "--max-time -1" 1 "--max-time expects a positive number" -- "$bin" peak --max-time -1
expect "--max-time abc" 1 "--max-time expects a positive number" -- "$bin" peak --max-time abc
expect "--seed -3" 1 "--seed expects a non-negative integer" -- "$bin" peak --seed -3
expect "--timer bad value" 1 "unknown --timer 'nosuch': use events, host or both" -- "$bin" peak --timer nosuch --only launch
expect "--timer empty" 1 "--timer needs a non-empty value" -- "$bin" peak --timer= --only launch
expect "--timer needs a value" 1 "--timer needs a value" -- "$bin" peak --timer
expect "--timer is peak's only" 1 "unknown option '--timer'" -- "$bin" run reduction:naive --timer host
expect "--help says which tests honour --timer" 0 "honoured by" -- \
    "$bin" peak --help
expect "--quick takes no value" 1 "takes no value" -- "$bin" peak --quick=1
expect "--mask-features bogus" 1 "unknown feature 'bogus'" -- "$bin" peak --mask-features bogus
expect "stray argument" 1 "unexpected argument 'read'" -- "$bin" peak read
expect "run-only option" 1 "unknown option '--size'" -- "$bin" peak --size 16M
expect "no such device" 2 "" -- "$bin" peak --device no-such-device-xyz --only launch
expect "--kernel-dir without the file: a cl_error row, exit 4" 4 "cannot read kernel source $tmp/nokernels/balance.cl" -- \
    "$bin" peak --quick --only chains --max-time 0.01 --kernel-dir "$tmp/nokernels" --no-cache
expect "unwritable --json" 5 "cannot write --json file" -- "$bin" peak --only launch --json /nonexistent/dir/p.json
expect "unwritable --csv" 5 "cannot write --csv file" -- "$bin" peak --only launch --csv /nonexistent/dir/p.csv

# --- every option, on the device (tiny)
cache=$tmp/cache
expect "quick read with every output option" 0 "" -- "$bin" peak --quick --only read --max-time 0.01 --seed 7 \
    --json "$tmp/q.json" --csv "$tmp/q.csv" --cache-dir "$cache" --device "${CLGAUGE_DEVICE:-0:0}"
check "JSON names the quick run" -- grep -q '"quick":	true' "$tmp/q.json"
check "JSON has the read row" -- grep -q '"test":	"read"' "$tmp/q.json"
check "CSV header: the peak row's keys, no run metadata" -- \
    grep -qx 'family,test,variant,value,unit,status,amount,t_min_s,runs,counts,reason' "$tmp/q.csv"
check "CSV read row" -- grep -q '^bandwidth,read,float4,' "$tmp/q.csv"
check "JSON: the shared metadata (schema_version 2, tool object) and device block" -- python3 -c '
import json, sys
rep = json.load(open(sys.argv[1]))
assert rep["schema_version"] == 2 and rep["kind"] == "peak", rep
assert rep["tool"]["name"] == "clgauge" and rep["tool"]["version"], rep["tool"]
assert rep["options"]["quick"] is True and rep["options"]["max_time_s"] > 0, rep["options"]
assert isinstance(rep["device"]["fp16"], bool) and rep["device"]["driver_version"], rep["device"]
assert all(r["status"] in ("ok", "unsupported", "zero_copy", "wrong_result", "cl_error") for r in rep["results"])
' "$tmp/q.json"
expect "table to stdout" 0 "^bandwidth +read +float4 +[0-9.]+ GB/s" -- "$bin" peak --quick --only read --max-time 0.01 \
    --no-cache
expect "--quiet: no table" 0 "!GB/s" -- "$bin" peak --quick --only read --max-time 0.01 --quiet --no-cache
expect "--json - prints JSON only" 0 '^	"kind":	"peak",' -- "$bin" peak --quick --only launch --max-time 0.01 --json -
# --only picks a family or a test of the seeds' families, and nothing else runs
expect "--only balance" 0 "" -- "$bin" peak --quick --only balance --max-time 0.01 --no-cache --json "$tmp/bal.json" \
    --csv "$tmp/bal.csv"
check "--only balance: crossover and chains rows, no other test" -- python3 -c '
import json, sys
tests = {r["test"] for r in json.load(open(sys.argv[1]))["results"]}
assert tests == {"crossover", "chains"}, tests
' "$tmp/bal.json"
check "CSV: the crossover's rows" -- grep -q '^balance,crossover,k 3 flops,[0-9.e+-]*,GP/s,ok,' "$tmp/bal.csv"
check "CSV: the balance point" -- grep -q '^balance,crossover,balance point,[0-9.e+-]*,flop/B,ok,' "$tmp/bal.csv"
expect "--only sizes,divergence" 0 "" -- "$bin" peak --quick --only sizes,divergence --max-time 0.01 --no-cache \
    --json "$tmp/sd.json" --csv "$tmp/sd.csv"
check "--only sizes,divergence: those two tests only" -- python3 -c '
import json, sys
tests = {r["test"] for r in json.load(open(sys.argv[1]))["results"]}
assert tests == {"sizes", "divergence"}, tests
' "$tmp/sd.json"
# sizes: the single-pass rows and the repeated reads (read-rep), 4 KiB x4 with --quick, bytes = size x passes
check "JSON: sizes has read, read-rep and copy rows, read-rep checked and counting size x passes" -- python3 -c '
import json, re, sys
rows = [r for r in json.load(open(sys.argv[1]))["results"] if r["test"] == "sizes"]
ops = [r["variant"].split()[0] for r in rows]
assert ops == sorted(ops, key=["read", "read-rep", "copy"].index), ops
rep = [r for r in rows if r["variant"].startswith("read-rep ")]
assert [r["variant"] for r in rep[:3]] == ["read-rep 4 KiB", "read-rep 16 KiB", "read-rep 64 KiB"], rep
for r in rep:
    assert r["status"] == "ok" and r["unit"] == "GB/s" and r["value"] > 0, r
    n, u = r["variant"].split()[1:]
    size = int(n) << {"KiB": 10, "MiB": 20, "GiB": 30}[u]
    m = re.search(r"bytes read: (\d+) x the buffer in one launch; checked", r["counts"])
    assert m and int(m.group(1)) >= 1 and abs(r["amount"] / size - int(m.group(1))) <= 0.5, (r, size)
' "$tmp/sd.json"
check "CSV: the read-rep rows" -- grep -q '^cache,sizes,read-rep 4 KiB,[0-9.e+-]*,GB/s,ok,[0-9]*,.*x the buffer in one launch; checked' \
    "$tmp/sd.csv"
# --only overheads: the four tests of the family and nothing else; the ratio rows
expect "--only overheads" 0 "" -- "$bin" peak --quick --only overheads --max-time 0.01 --no-cache --json "$tmp/ovh.json" \
    --csv "$tmp/ovh.csv"
check "--only overheads: alloc, transfers, events, queues only" -- python3 -c '
import json, sys
tests = {r["test"] for r in json.load(open(sys.argv[1]))["results"]}
assert tests == {"alloc", "transfers", "events", "queues"}, tests
' "$tmp/ovh.json"
check "CSV: the transfers ratio row" -- grep -q '^overheads,transfers,write small/large,[0-9.e+-]*,x,ok,' "$tmp/ovh.csv"
expect "--only events,alloc: tests under overheads" 0 "^overheads +events +event/NULL" -- "$bin" peak --quick \
    --only events,alloc --max-time 0.01 --no-cache
expect "--mask-features images: the image rows of alloc unsupported" 0 "^overheads +alloc +image +unsupported" -- \
    "$bin" peak --quick --only alloc --max-time 0.01 --mask-features images --no-cache
# --timer both: a host-timer row after each read/copy/fp32 figure; host: the figure itself host-timed
expect "--timer both" 0 "" -- "$bin" peak --quick --only read,fp32 --max-time 0.01 --timer both --no-cache \
    --json "$tmp/tb.json" --cache-dir "$tmp/tbcache"
check "--timer both: each figure and its host-timer row with the ratio" -- python3 -c '
import json, re, sys
rows = json.load(open(sys.argv[1]))["results"]
for t in ("read", "fp32"):
    ev = [r for r in rows if r["test"] == t and not r["variant"].endswith("host-timer")]
    ho = [r for r in rows if r["test"] == t and r["variant"].endswith("host-timer")]
    assert len(ev) == len(ho) >= 1, (t, ev, ho)
    for e, h in zip(ev, ho):
        assert h["variant"] == e["variant"] + " host-timer" and h["status"] == "ok" and h["value"] > 0, h
        assert h["amount"] == e["amount"] and h["runs"] == 10, h
        assert re.search(r"10 runs after 2 warm-ups.*events/host time [0-9.]+", h["counts"]), h
' "$tmp/tb.json"
check "--timer both writes no roofline cache" -- test ! -e "$tmp/tbcache"
expect "--timer host: the figure is host-timed" 0 "^bandwidth +read +float4 +[0-9.]+ GB/s .*host timer \(10 runs" -- \
    "$bin" peak --quick --only read --max-time 0.01 --timer host --no-cache
expect "--timer host: other tests unchanged (events)" 0 "!host-timer" -- "$bin" peak --quick --only launch \
    --max-time 0.01 --timer both --no-cache
expect "--mask-features fp64: fp64 unsupported" 0 "^compute +fp64 +double +unsupported" -- "$bin" peak --only fp64 \
    --max-time 0.01 --mask-features fp64 --no-cache
expect "--mask-features images: image unsupported" 0 "^image +image .*unsupported" -- "$bin" peak --only image \
    --max-time 0.01 --mask-features images --no-cache

# --- the roofline cache: quick, then full (read, copy, fp32 at every width), which `run` then uses
expect "peak --quick (read,copy,fp32) writes the quick roofline" 0 "" -- "$bin" peak --quick --max-time 0.01 \
    --cache-dir "$cache" --quiet
check "quick roofline cached" -- compgen -G "$cache/roofline-quick-*.json"
expect "--no-cache writes no roofline" 0 "" -- "$bin" peak --quick --max-time 0.01 --no-cache --cache-dir "$tmp/none" \
    --quiet
check "--no-cache: no cache directory" -- test ! -e "$tmp/none"
expect "full peak of the roofline tests" 0 "" -- "$bin" peak --only read,copy,fp32 --max-time 0.01 --cache-dir "$cache" \
    --json "$tmp/full.json" --quiet
check "full roofline cached" -- compgen -G "$cache/roofline-peak-*.json"
expect "run uses the cached peak roofline" 0 "" -- "$bin" run reduction:naive --size 4096 --runs 1 --warmup 0 \
    --cache-dir "$cache" --json "$tmp/run.json" --quiet
check "run's roofline = peak's best read" -- python3 - "$tmp/full.json" "$tmp/run.json" <<'PY'
import json, sys
peak, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
best = max(r["value"] for r in peak["results"] if r["test"] == "read" and r["status"] == "ok")
got = run["roofline"]["read_gbps"]
assert abs(got - best) <= 1e-9 * best, (got, best)
assert run["roofline"]["source"] == "peak cache", run["roofline"]
PY

done_tests
