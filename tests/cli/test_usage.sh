#!/usr/bin/env bash
# The command line as a user meets it: help and version, every kind of bad input with its exit code (1) and a
# message that names the problem, `list`, `devices` as text and JSON, and the man page naming every option.
# Usage: bash test_usage.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
man_page=$TESTDATA/../../docs/clgauge.1

# --- help and version
expect "no arguments: overview" 0 "Usage: clgauge COMMAND" -- "$bin"
expect "--help: overview lists run" 0 "^  run " -- "$bin" --help
expect "--help: overview lists devices" 0 "^  devices " -- "$bin" --help
expect "--help: exit codes" 0 "5 file I/O" -- "$bin" --help
expect "--version" 0 "^clgauge 0\.[0-9]+" -- "$bin" --version
expect "-V" 0 "^clgauge 0\." -- "$bin" -V
for opt in device size runs warmup seed json csv input output no-cache cache-dir kernel-dir mask-features quiet \
    sigma pattern filter estimate check; do
    expect "run --help mentions --$opt" 0 "^  (-[a-z], |    )--$opt( |$)" -- "$bin" run --help
done
expect "run -h" 0 "^Usage: clgauge run " -- "$bin" run -h
expect "run --help needs no targets" 0 "^Usage: clgauge run " -- "$bin" run --help
expect "devices --help mentions --json" 0 "^  (-[a-z], |    )--json " -- "$bin" devices --help
expect "devices --help mentions --quiet" 0 "^  (-[a-z], |    )--quiet " -- "$bin" devices --help
expect "list --help" 0 "^Usage: clgauge list" -- "$bin" list --help
expect "list --help mentions --quiet" 0 "^  (-[a-z], |    )--quiet " -- "$bin" list --help
expect "help run: the run options" 0 "^  (-[a-z], |    )--size SIZE " -- "$bin" help run
expect "help devices" 0 "^Usage: clgauge devices" -- "$bin" help devices
expect "help (no command): overview" 0 "^Commands:" -- "$bin" help
expect "help nosuch" 1 "unknown command 'nosuch'" -- "$bin" help nosuch

# --- tune: its own options and what it refuses before any device work
expect "tune --help" 0 "^Usage: clgauge tune " -- "$bin" tune --help
expect "tune --help mentions --strategy" 0 "^      --strategy HOW " -- "$bin" tune --help
expect "tune --help mentions --budget" 0 "^      --budget S " -- "$bin" tune --help
expect "run --help mentions --no-tuned" 0 "^      --no-tuned " -- "$bin" run --help
expect "tune without targets" 1 "tune needs a workload" -- "$bin" tune
expect "tune --budget 0" 1 "--budget expects a positive number, not '0'" -- "$bin" tune reduction:best --budget 0
expect "tune --budget -5" 1 "--budget expects a positive number, not '-5'" -- "$bin" tune reduction:best --budget -5
expect "tune --budget x" 1 "--budget expects a positive number" -- "$bin" tune reduction:best --budget 1e999
expect "tune --strategy unknown" 1 "unknown --strategy 'greedy': use exhaustive, random or anneal" -- \
    "$bin" tune reduction:best --strategy greedy
expect "tune a rung with no parameters" 1 "reduction:naive has no tunable parameters: tune one of its rungs" -- \
    "$bin" tune reduction:naive
expect "tune a workload with none" 1 "saxpy has no rung with tunable parameters" -- "$bin" tune saxpy
expect "tune --output is run's" 1 "unknown option '--output'" -- "$bin" tune reduction:best --output x.png
expect "run --strategy is tune's" 1 "unknown option '--strategy'" -- "$bin" run reduction --strategy random
expect "tune --space unknown parameter" 1 "bad --space 'foo=1' for reduction:best: no parameter 'foo' .its parameters: wg, loads, grid." -- \
    "$bin" tune reduction:best --space foo=1
expect "tune --space bad value" 1 "wg: 'x' is not a whole number" -- "$bin" tune reduction:best --space 'wg=64,x'
expect "tune --space twice" 1 "parameter 'wg' given twice" -- "$bin" tune reduction:best --space 'wg=64;wg=128'
expect "tune an unknown rung" 1 "unknown rung 'nosuch' of reduction" -- "$bin" tune reduction:nosuch

# --- unknown commands and options
expect "unknown command" 1 "unknown command 'frobnicate'" -- "$bin" frobnicate
expect "unknown command lists the commands" 1 "devices, list, run" -- "$bin" frobnicate
expect "unknown flag for run" 1 "unknown option '--frob'" -- "$bin" run reduction --frob
expect "unknown flag for devices" 1 "unknown option '--frob'.*devices" -- "$bin" devices --frob
expect "run-only flag given to devices" 1 "unknown option '--size'" -- "$bin" devices --size 4096
expect "devices --json=x: a flag takes no value" 1 "takes no value" -- "$bin" devices --json=x
expect "flag missing its value" 1 "--size needs a value" -- "$bin" run reduction --size
expect "flag missing its value (--device)" 1 "--device needs a value" -- "$bin" run reduction --device
expect "empty value" 1 "--json needs a non-empty value" -- "$bin" run reduction --json=
expect "stray argument to list" 1 "unexpected argument 'extra'" -- "$bin" list extra
expect "second target list" 1 "unexpected argument 'filter3x3'" -- "$bin" run reduction filter3x3

# --- targets
expect "run without targets" 1 "run needs workloads" -- "$bin" run
expect "run without targets, with options" 1 "run needs workloads" -- "$bin" run --runs 3
expect "unknown workload" 1 "unknown workload 'nosuch'" -- "$bin" run nosuch
expect "unknown workload lists reduction" 1 "workloads: .*reduction" -- "$bin" run nosuch
expect "unknown rung" 1 "unknown rung 'nope' of reduction" -- "$bin" run reduction:nope
expect "unknown rung lists the rungs" 1 "rungs: .*naive.*sequential" -- "$bin" run reduction:nope
expect "unknown item after a good one" 1 "unknown workload 'bogus'" -- "$bin" run reduction:naive,bogus
expect "empty item in the list" 1 "empty item" -- "$bin" run reduction,,reduction:naive
expect "all:rung is refused" 1 "'all'" -- "$bin" run all:naive

# --- values
for bad in abc 0 12x 2^99 x5 -5 4096x 99999999999999999999; do
    expect "--size $bad" 1 "bad --size '$(re_quote "$bad")'" -- "$bin" run reduction --size "$bad"
done
expect "--size=abc form" 1 "bad --size 'abc'" -- "$bin" run reduction --size=abc
expect "--runs 0" 1 "--runs expects a whole number from 1" -- "$bin" run reduction --runs 0
expect "--runs -3" 1 "--runs .*'-3'" -- "$bin" run reduction --runs -3
expect "--runs 3x" 1 "--runs .*'3x'" -- "$bin" run reduction --runs 3x
expect "--warmup x" 1 "--warmup .*'x'" -- "$bin" run reduction --warmup x
expect "--seed -1" 1 "--seed .*'-1'" -- "$bin" run reduction --seed -1
expect "--mask-features bogus" 1 "unknown feature 'bogus'" -- "$bin" run reduction --mask-features bogus
expect "--mask-features names the features" 1 "images, fp64" -- "$bin" run reduction --mask-features fp64,bogus
expect "--input without a picture workload" 1 \
    "^clgauge: error: --input applies to picture workloads and lcs \(filter3x3, blur, lcs, opticalflow\) only; add one to the run$" -- \
    "$bin" run reduction --input "$tmp/in.png"
expect "--output without a picture workload" 1 "--output applies to picture workloads, lcs and cloth \(filter3x3, blur, lcs, cloth, opticalflow\)" -- \
    "$bin" run reduction:naive --output "$tmp/out.png"
check "--output without a picture workload: one line" -- test "$(wc -l <"$last_stderr")" -eq 1
# the workloads' own options (declared in their descriptors): refused without a workload taking them, naming it
expect "--sigma without blur" 1 "^clgauge: error: --sigma applies to the blur workload only; add blur to the run$" -- \
    "$bin" run reduction --sigma 2
expect "--pattern without histogram" 1 \
    "^clgauge: error: --pattern applies to the histogram workload only; add histogram to the run$" -- \
    "$bin" run transpose:naive --pattern random
expect "--estimate without blur" 1 \
    "^clgauge: error: --estimate applies to workloads with a speed estimate \(blur\) only; add one to the run$" -- \
    "$bin" run reduction --estimate
expect "--pattern bogus names the values" 1 "unknown --pattern 'bogus' for histogram: use one of random\|allequal\|image" -- \
    "$bin" run histogram --pattern bogus
expect "--sigma 0 refused while parsing" 1 "--sigma expects a positive number, not '0'" -- "$bin" run blur --sigma 0
expect "run --help: a workload's own option, prefixed by its workload" 0 "^      --sigma S +blur: the Gaussian's sigma" -- \
    "$bin" run --help
expect "run --help: a capability option, prefixed by its workloads" 0 "^      --input FILE.png +filter3x3, blur, lcs, opticalflow: the picture" -- \
    "$bin" run --help
# Bigger than the device's max allocation: refused in setup, naming the limit (after device selection).
expect "--size 2^40 too large" 1 "exceeds this device's limit of [0-9]+ floats" -- \
    "$bin" run reduction --size 2^40 --runs 1 --warmup 0
expect "--size 2^40 says what to use" 1 "use --size <= [0-9]+" -- "$bin" run reduction:naive --size 2^40 --runs 1

# --- list
expect "list" 0 "^reduction: " -- "$bin" list
expect "list: filter3x3 workload" 0 "^filter3x3: " -- "$bin" list
expect "list: size help" 0 "^  --size: " -- "$bin" list
expect "list: reduction rung with its why" 0 "^  reduction:naive +[a-z].{10,}" -- "$bin" list
expect "list: filter3x3 rung with its why" 0 "^  filter3x3:[a-z0-9-]+ +[a-z].{10,}" -- "$bin" list
expect "list: needs shown" 0 "reduction:nv-shfl .*\[needs nvidia-ptx\]" -- "$bin" list
check "list: every rung has a why" -- awk '/^  [a-z0-9]+:[a-z0-9-]+/ && NF < 3 { print "no why: " $0; bad = 1 }
    END { exit bad }' "$last_stdout"
expect "list --quiet" 0 "" -- "$bin" list --quiet
check "list --quiet prints nothing" -- test ! -s "$last_stdout"

# --- devices
expect "devices" 0 "^Device [0-9]+:[0-9]+" -- "$bin" devices
expect "devices: compute units" 0 "Compute units +[1-9]" -- "$bin" devices
expect "devices --json" 0 "\"compute_units\"" -- "$bin" devices --json
check "devices --json is valid JSON with compute_units and fp16" -- python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
devs = doc["devices"] if isinstance(doc, dict) else doc  # schema 2: {"kind": "devices", "devices": [...]}
assert isinstance(devs, list) and devs, "want a non-empty array, got %r" % (devs,)
for d in devs:
    for k in ("selector", "name", "platform", "compute_units", "fp16", "images", "fp64", "max_alloc_bytes"):
        assert k in d, "key %s missing in %s" % (k, sorted(d))
    assert isinstance(d["compute_units"], int) and d["compute_units"] > 0, d["compute_units"]
    assert isinstance(d["images"], bool), d["images"]
' "$last_stdout"
expect "devices --quiet" 0 "" -- "$bin" devices --quiet
check "devices --quiet prints nothing" -- test ! -s "$last_stdout"

# --- the man page names every command and every option that --help prints
check "man page exists" -- test -s "$man_page"
if [ -s "$man_page" ]; then
    plain=$tmp/clgauge.1.txt
    sed 's/\\-/-/g; s/\\f[BIRP]//g' "$man_page" >"$plain"
    for cmd in devices run list help report compare tune; do
        expect "help of $cmd" 0 "" -- "$bin" "$cmd" --help
        for opt in $(grep -oE -- '--[a-z][a-z-]*' "$last_stdout" | sort -u); do
            check "man page documents $opt (from $cmd --help)" -- grep -qF -- "$opt" "$plain"
        done
        check "man page documents the $cmd command" -- grep -qE "^\.B $cmd( |$)" "$plain"
    done
    if command -v groff >/dev/null; then
        check "man page renders without warnings" -- bash -c 'test -z "$(groff -man -ww -z "$1" 2>&1)"' _ "$man_page"
    fi
    for word in CLGAUGE_DEVICE CLGAUGE_CACHE_DIR XDG_CACHE_HOME CLGAUGE_DEBUG OCL_ICD_VENDORS \
        'roofline-' 'programs/' '2^24' 'EXIT STATUS'; do
        check "man page mentions $word" -- grep -qF -- "$word" "$plain"
    done
fi

done_tests
