#!/usr/bin/env bash
# Fault battery: runs are killed (SIGKILL, SIGTERM, SIGINT) at random points while they write reports and
# caches. Reports (--json/--csv/--html of `run`, `report --html`) go to files holding old content, next to a
# user's own out.json.tmp: afterwards each holds its old content or its complete new content, the user's file is
# untouched, and after SIGTERM/SIGINT no temporary file is left (next to the reports or in $TMPDIR). Caches
# (program binaries, roofline) are filled from empty: afterwards every entry under its final name is whole, and
# a normal run on that cache passes with no corrupt entry found. The seed of the signals and delays is printed
# (FAULT_SEED=N picks them again); FAULT_SECONDS (default 30) bounds the two loops together (at least 6 report
# and 4 cache runs, at most 40 and 10).
# Usage: bash test_faults.sh /path/to/clgauge   (env from ctest: TESTTMP, TESTDATA, CLGAUGE_CACHE_DIR)
bin=$1
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
seed=${FAULT_SEED:-$(($(date +%s) % 32768))}
RANDOM=$seed
budget=${FAULT_SECONDS:-30}
echo "test_faults: seed $seed (FAULT_SEED=$seed repeats this run)"
export TMPDIR=$tmp/tmpdir # clgauge's own temporaries (the chart directory of --html)
mkdir -p "$TMPDIR"
sigs=(KILL TERM INT)
small=(--size 4096 --runs 2 --warmup 0)
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Starts "$@" in the background, sends signal $sig after $delay ms, waits; appends a sanitizer report or a
# crash other than that signal to $tmp/bad.log.
kill_after() {
    local delay=$1 sig=$2 log=$3
    shift 3
    "$@" >/dev/null 2>"$log" &
    local pid=$!
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null # no "Killed" line from bash
    local rc=$?
    if grep -Eq 'ERROR: (Address|Leak|Memory)Sanitizer|runtime error:' "$log" ||
        { [ "$rc" -gt 128 ] && [ "$rc" -ne $((128 + $(kill -l "$sig"))) ]; }; then
        echo "exit $rc after SIG$sig at ${delay} ms: $* (stderr: $log)" >>"$tmp/bad.log"
    fi
}

# One timed normal run of "$@": prints its wall time in ms; a failure fails the test.
timed() {
    local t0 rc
    t0=$(now_ms)
    "$@" >/dev/null 2>"$tmp/timed.err"
    rc=$?
    [ "$rc" -eq 0 ] || echo "setup run failed (exit $rc): $*" >>"$tmp/bad.log"
    echo $(($(now_ms) - t0))
}

# --- reports: a warm cache, then runs killed around the time they write
export CLGAUGE_CACHE_DIR=$tmp/warm-cache
ref=$tmp/ref.json
t_run=$(timed "$bin" run reduction "${small[@]}" --json "$ref" --html "$tmp/ref.html")
t_run=$(timed "$bin" run reduction "${small[@]}" --json "$ref" --html "$tmp/ref.html")
t_rep=$(timed "$bin" report "$ref" --html "$tmp/ref2.html")
echo "test_faults: run ${t_run} ms, report --html ${t_rep} ms"
end=$((SECONDS + budget / 2))
i=0
while [ $i -lt 6 ] || { [ $SECONDS -lt $end ] && [ $i -lt 40 ]; }; do
    d=$tmp/rep$i
    mkdir -p "$d"
    for f in out.json out.csv out.html out.json.tmp; do echo "old $f $i" >"$d/$f"; done
    sig=${sigs[RANDOM % 3]}
    if [ $((i % 3)) -eq 2 ]; then # report --html: the chart directory and the page
        t=$t_rep
        cmd=("$bin" report "$ref" --html "$d/out.html")
    else
        t=$t_run
        cmd=("$bin" run reduction "${small[@]}" --json "$d/out.json" --csv "$d/out.csv" --html "$d/out.html")
    fi
    delay=$((t / 3 + RANDOM % (t * 3 / 4 + 1))) # from a third of the run to past its end
    kill_after "$delay" "$sig" "$d/stderr" "${cmd[@]}"
    echo "$d $sig $delay" >>"$tmp/reports.txt"
    if [ "$sig" != KILL ] && [ -n "$(ls -A "$TMPDIR")" ]; then
        echo "SIG$sig at ${delay} ms left $(ls -A "$TMPDIR") in \$TMPDIR" >>"$tmp/bad.log"
    fi
    rm -rf "${TMPDIR:?}"/*
    i=$((i + 1))
done
echo "test_faults: $i report runs killed"
check "reports: old or complete new content, the user's .tmp file kept, no temporary left after TERM/INT" -- \
    python3 - "$tmp/reports.txt" <<'EOF'
import csv, json, os, sys
bad = []
for line in open(sys.argv[1]):
    d, sig, delay = line.split()
    i = d.rsplit("rep", 1)[1]
    def old(f):
        try:
            return open(os.path.join(d, f)).read() == "old %s %s\n" % (f, i)
        except OSError:
            return False
    def new(f):
        text = open(os.path.join(d, f)).read()
        if f == "out.json":
            return json.loads(text)["results"] != []
        if f == "out.csv":
            rows = list(csv.reader(text.splitlines()))
            return text.endswith("\n") and len(rows) > 1 and all(len(r) == len(rows[0]) for r in rows)
        return text.rstrip().endswith("</html>")
    for f in ("out.json", "out.csv", "out.html"):
        try:
            ok = old(f) or new(f)
        except Exception as e:
            ok = False
        if not ok:
            bad.append("%s/%s after SIG%s at %s ms: neither the old nor a complete new file" % (d, f, sig, delay))
    if not old("out.json.tmp"):
        bad.append("%s/out.json.tmp (the user's file) changed or removed after SIG%s" % (d, sig))
    extra = sorted(set(os.listdir(d)) - {"out.json", "out.csv", "out.html", "out.json.tmp", "stderr"})
    if extra and sig != "KILL":
        bad.append("%s: temporary files left after SIG%s at %s ms: %s" % (d, sig, delay, extra))
print("\n".join(bad[:20]))
sys.exit(1 if bad else 0)
EOF

# --- caches: program binaries and the roofline filled from empty, killed at random points
t_cold=$(timed "$bin" run reduction --size 4096 --runs 1 --warmup 0 --cache-dir "$tmp/cold0")
echo "test_faults: cold-cache run ${t_cold} ms"
end=$((SECONDS + budget / 2))
i=1
while [ $i -le 4 ] || { [ $SECONDS -lt $end ] && [ $i -le 10 ]; }; do
    c=$tmp/cache$i
    sig=${sigs[RANDOM % 3]}
    delay=$((RANDOM % (t_cold + 1)))
    kill_after "$delay" "$sig" "$tmp/cache$i.stderr" "$bin" run reduction --size 4096 --runs 1 --warmup 0 \
        --cache-dir "$c"
    echo "$c $sig $delay" >>"$tmp/caches.txt"
    i=$((i + 1))
done
echo "test_faults: $((i - 1)) cache runs killed"
check "caches: every entry under its final name is whole; no temporary left after TERM/INT" -- \
    python3 - "$tmp/caches.txt" "$(dirname "$0")/../fuzz" <<'EOF'
import json, os, struct, sys
sys.path.insert(0, sys.argv[2])
from seeds import xxh64
bad = []
for line in open(sys.argv[1]):
    c, sig, delay = line.split()
    for root, _, files in os.walk(c):
        for f in files:
            p = os.path.join(root, f)
            data = open(p, "rb").read()
            if f.endswith(".bin") and len(f) == 36:
                n = struct.unpack_from("<Q", data, 28)[0] if len(data) >= 36 else -1
                whole = (data[:8] == b"CLGCACHE" and len(data) == 44 + n and
                         xxh64(data[36:36 + n]) == struct.unpack_from("<Q", data, 36 + n)[0])
                what = "corrupt entry under its final name"
            elif f.startswith("roofline-") and f.endswith(".json"):
                try:
                    whole = json.loads(data)["copy_gbps"] > 0
                except Exception:
                    whole = False
                what = "corrupt entry under its final name"
            else:
                whole = sig == "KILL"  # a temporary file: only SIGKILL may leave one
                what = "temporary file left"
            if not whole:
                bad.append("%s after SIG%s at %s ms: %s" % (p, sig, delay, what))
print("\n".join(bad[:20]))
sys.exit(1 if bad else 0)
EOF
while read -r c sig delay; do
    expect "normal run on the cache of a run killed by SIG$sig at ${delay} ms" 0 "!corrupt|stale|truncated" -- \
        "$bin" run reduction --size 4096 --runs 1 --warmup 0 --cache-dir "$c"
done <"$tmp/caches.txt"
check "no crash or sanitizer report in a killed run, nothing left in \$TMPDIR after TERM/INT" -- bash -c "! grep . '$tmp/bad.log' 2>/dev/null"
done_tests
