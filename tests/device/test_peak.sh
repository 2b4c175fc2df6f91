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
families = {"bandwidth", "compute", "balance", "transfer", "latency", "local", "atomics", "image", "cache", "rules",
            "scatter", "overheads"}
tests = {"read", "write", "copy", "stride", "gather", "offset", "fp32", "fp64", "fp16", "int32", "int24", "tf32-mma", "f16-mma",
         "crossover", "chains", "pageable", "pinned", "map", "launch", "local-bw", "bank", "atomic-global",
         "atomic-local", "image", "sizes", "coalescing", "divergence", "scatter", "channels", "alloc", "transfers",
         "events", "queues"}
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
        if r["unit"] not in ("GB/s", "GFLOP/s", "GIOP/s", "us", "GP/s", "flop/B", "GOP/s", "items", "x"):
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
# (the time is printed, not asserted: speed is checked by benchmarks, and a loaded machine would fail here)
for t in read copy fp32; do
    grep -q "\"test\":	\"$t\"" "$TESTTMP/quick.json" || fail "peak --quick: no $t row"
done

# 3. The seeds' families in the full run of step 1: every figure there, in order, checked, and sane.
if [ -s "$json" ]; then
    python3 - "$json" <<'EOF_PY' || fail "the seeds' families (above)"
import json, re, sys
rows = json.load(open(sys.argv[1]))["results"]
bad = 0
def no(msg):
    global bad
    print("  " + msg)
    bad += 1
def of(test):
    return [r for r in rows if r["test"] == test]
def ok_checked(r):
    name = "%s/%s" % (r["test"], r["variant"])
    if r["status"] != "ok":
        no("%s: %s (%s)" % (name, r["status"], r["reason"]))
    elif "checked" not in r["counts"]:
        no("%s: no 'checked' in %r" % (name, r["counts"]))
    elif r["unit"] == "GB/s" and not r["value"] < 1e5:
        no("%s: %r GB/s is not believable" % (name, r["value"]))
# crossover: k 0, 3, 6, 12 .. doubling, each checked, flop/B = k / 8, then the balance point within the sweep
cross = of("crossover")
ks = [r for r in cross if r["variant"].startswith("k ")]
want = ["k 0 (copy)"] + ["k %d flops" % (3 << i) for i in range(len(ks) - 1)]
if [r["variant"] for r in ks] != want or len(ks) < 4:
    no("crossover variants %s, want %s (at least k 12)" % ([r["variant"] for r in ks], want))
for r in ks:
    ok_checked(r)
    m = re.search(r"(\d+) flops each = ([0-9.e+-]+) flop/B", r["counts"])
    if r["variant"] != "k 0 (copy)" and (not m or abs(float(m.group(2)) - int(m.group(1)) / 8) > 1e-3 * int(m.group(1))):
        no("crossover %s: flop/B not k / 8 in %r" % (r["variant"], r["counts"]))
    if r["amount"] != ks[0]["amount"] or r["unit"] != "GP/s":
        no("crossover %s: %r pixels in %s, want %r GP/s" % (r["variant"], r["amount"], r["unit"], ks[0]["amount"]))
bp = [r for r in cross if r["variant"] == "balance point"]
kmax = 3 << (len(ks) - 2)
if len(bp) != 1 or bp[0]["status"] != "ok" or not 0 < bp[0]["value"] <= kmax / 8 or "flops/pixel" not in bp[0]["counts"]:
    no("crossover: balance point row %r, want one ok row in (0, %g] flop/B" % (bp, kmax / 8))
# chains: 1 .. 16, checked
ch = of("chains")
if [r["variant"] for r in ch] != ["1 chain", "2 chains", "4 chains", "8 chains", "16 chains"]:
    no("chains variants %s" % [r["variant"] for r in ch])
for r in ch:
    ok_checked(r)
# sizes: read, the repeated read (read-rep), then copy, 4 KiB doubling to at least 16 MiB, checked
for op in ("read", "read-rep", "copy"):
    sz = [r for r in of("sizes") if r["variant"].startswith(op + " ")]
    names = [r["variant"] for r in sz]
    if names[:3] != [op + " 4 KiB", op + " 8 KiB", op + " 16 KiB"] or op + " 16 MiB" not in names:
        no("sizes %s: %s" % (op, names))
    for r in sz:
        ok_checked(r)
k = len(names)  # the same sizes for each op
if [r["variant"].split()[0] for r in of("sizes")] != ["read"] * k + ["read-rep"] * k + ["copy"] * k:
    no("sizes: not the read rows, then read-rep, then copy: %s" % [r["variant"] for r in of("sizes")])
# read-rep moves far more than the buffer per launch, so at 4 KiB it beats the launch-bound single pass
rep, one = ({r["variant"]: r for r in of("sizes")}.get(v) for v in ("read-rep 4 KiB", "read 4 KiB"))
if rep and one and rep["status"] == one["status"] == "ok":
    if not rep["amount"] >= 1000 * 4096:
        no("read-rep 4 KiB: %r bytes a launch, want the buffer read at least 1000 times" % rep["amount"])
    if not rep["value"] > 2 * one["value"]:
        no("read-rep 4 KiB: %r GB/s, not above twice the single pass's %r" % (rep["value"], one["value"]))
co = of("coalescing")
if [r["variant"] for r in co] != ["coalesced", "1 in 16 idle", "permuted in 128 B", "misaligned by 1 float",
                                  "float3 direct", "float3 via local"]:
    no("coalescing variants %s" % [r["variant"] for r in co])
for r in co:
    ok_checked(r)
    if not re.search(r"x[0-9.]+ the time per byte of coalesced", r["counts"]):
        no("coalescing %s: no ratio to coalesced in %r" % (r["variant"], r["counts"]))
dv = of("divergence")
if [r["variant"] for r in dv] != ["granularity %d" % (1 << i) for i in range(8)] + ["SIMD width"]:
    no("divergence variants %s" % [r["variant"] for r in dv])
for r in dv[:-1]:
    ok_checked(r)
if dv:
    w = dv[-1]
    if "PREFERRED_WORK_GROUP_SIZE_MULTIPLE" not in w["counts"] + w["reason"]:
        no("SIMD width: the preferred multiple is not beside it: %r" % w)
    if not (w["status"] == "ok" and w["value"] in (2, 4, 8, 16, 32, 64) or w["status"] == "unsupported" and w["reason"]):
        no("SIMD width: %s %r (%s)" % (w["status"], w["value"], w["reason"]))
if [r["variant"] for r in of("scatter")] != ["linear", "random gather", "random scatter"]:
    no("scatter variants %s" % [r["variant"] for r in of("scatter")])
pitches = ["pitch %d KiB%s" % (k, t) for k in (1, 2, 4, 8, 16, 32, 64) for t in ("", " + 4 B")]
if [r["variant"] for r in of("channels")] != pitches:
    no("channels variants %s" % [r["variant"] for r in of("channels")])
for r in of("scatter") + of("channels"):
    ok_checked(r)
sys.exit(1 if bad else 0)
EOF_PY
fi

# 4. The seeds' families with --quick and cold builds: each about 2 s on PoCL, 20 s for the seven.
start=$EPOCHREALTIME
"$BIN" peak --quick --no-cache --only balance,cache,rules,scatter --json "$TESTTMP/seeds.json" \
    >"$TESTTMP/seeds.out" 2>&1
rc=$?
secs=$(python3 -c "print(round($EPOCHREALTIME - $start, 1))")
[ "$rc" -eq 0 ] || { cat "$TESTTMP/seeds.out"; fail "peak --quick --only balance,cache,rules,scatter exited $rc"; }
echo "peak --quick --only balance,cache,rules,scatter took $secs s"
# (printed, not asserted, as above)

if ! sanitizer_pass; then # more broken kernels: the kernels' checks, tested in the normal pass
# 5. A wrong kernel is caught: each checked kernel broken in a copy of its .cl file (--kernel-dir), exit 3.
peak_wrong() { # FILE.cl DIR: src/peak/FILE.cl with each (old, new) of the Python list on stdin replaced once
    mkdir -p "$2"
    cp "$SRC"/peak/*.cl "$2"/ # the others unchanged (every test fills its input with bandwidth.cl)
    python3 -c '
import ast, sys
s = open(sys.argv[1]).read()
for old, new in ast.literal_eval(sys.stdin.read()):
    if s.count(old) != 1:
        sys.exit("cannot break the kernel: %r not found once" % old)
    s = s.replace(old, new)
open(sys.argv[2], "w").write(s)' "$SRC/peak/$1" "$2/$1" || fail "could not write $2/$1"
}
wrong_case() { # NAME FILE.cl TEST: stdin = the replacements
    local dir=$TESTTMP/wrong-$1
    peak_wrong "$2" "$dir"
    expect_wrong "broken $1 caught" -- "$BIN" peak --quick --only "$3" --max-time 0.01 --kernel-dir "$dir"
}
wrong_case crossover balance.cl crossover <<<'[("x = r * x * (c - x);", "x = r * x * (c + x);")]'
wrong_case chains balance.cl chains <<<'[("sum += x[j];", "sum += 0.5f * x[j];")]'
wrong_case sizes-copy bandwidth.cl sizes <<<'[("out[i] = in[i];", "out[i] = in[i ^ 1];")]'
wrong_case sizes-read bandwidth.cl sizes <<<'[("for (; i + 4 <= hi; i += 4) {", "for (; i + 8 <= hi; i += 8) {"),
    ("for (; i + 7 * g < n; i += 8 * g) {", "for (; i + 7 * g < n; i += 9 * g) {")]'
wrong_case sizes-rep-lane sizes_rep.cl sizes <<<'[("h += in[(i + 7 * w) & mask];", "h += in[(i + 6 * w) & mask];")]'
wrong_case sizes-rep-shift sizes_rep.cl sizes <<<'[("a += in[i & mask];", "a += in[(i + 1) & mask];")]'
# read_rep_perm (the GPU's read-rep: each work-group its own order of the blocks) on PoCL, right and broken
CLGAUGE_REP_PERM=1 "$BIN" peak --quick --no-cache --only sizes --max-time 0.01 --json "$TESTTMP/perm.json" \
    >"$TESTTMP/perm.out" 2>&1 || { cat "$TESTTMP/perm.out"; fail "CLGAUGE_REP_PERM=1 peak --only sizes failed"; }
python3 - "$TESTTMP/perm.json" <<'PY' || fail "CLGAUGE_REP_PERM=1: read-rep rows (above)"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["results"] if r["variant"].startswith("read-rep")]
bad = [r["variant"] for r in rows if r["status"] != "ok" or "checked" not in r.get("counts", "")]
print("\n".join("  " + b for b in bad))
sys.exit(1 if bad or len(rows) < 7 else 0)
PY
perm_wrong() { # NAME: stdin = the replacements
    local dir=$TESTTMP/wrong-$1
    peak_wrong sizes_rep.cl "$dir"
    expect_wrong "broken $1 caught" -- env CLGAUGE_REP_PERM=1 "$BIN" peak --quick --only sizes --max-time 0.01 \
        --kernel-dir "$dir"
}
perm_wrong perm-lane <<<'[("h += in[((blk + 7 * stride) & bmask) * w + lane];", "h += in[((blk + 6 * stride) & bmask) * w + lane];")]'
perm_wrong perm-start <<<'[("uint blk = (uint)((ulong)u * (bmask + 1) / units);", "uint blk = 0;")]'
wrong_case permuted rules.cl coalescing <<<'[("((i * 7u + 3u) & 31u)", "((i * 7u + 3u) & 15u)")]'
wrong_case float3-local rules.cl coalescing <<<'[("vstore3(vload3(l, buf) + 1.0f, l, buf);", "vstore3(vload3(l, buf) + 2.0f, l, buf);")]'
wrong_case overheads-events overheads.cl events <<<'[("x = x * 1664525u + 1013904223u;", "x = x * 1664525u + 1u;"), ("out[slot * get_global_size(0) + i] = x;", "if (slot != 7u) out[slot * get_global_size(0) + i] = x;")]'
wrong_case overheads-queues overheads.cl queues <<<'[("x = x * 1664525u + 1013904223u;", "x = x * 1664525u + 1013904222u;")]'
wrong_case divergence rules.cl divergence <<<'[("r = -(float)(u >> 8);", "r = -(float)(u >> 9);")]'
wrong_case scatter scatter.cl scatter <<<'[("out[perm(i, m)] = in[i] + 1.0f;", "out[perm(i, m) ^ 1u] = in[i] + 1.0f;")]'
wrong_case channels scatter.cl channels <<<'[("in[(i % rows) * pitch + i / rows]", "in[(i % rows) * pitch + i / rows + 1]")]'
# tf32-mma runs only where the device has nvidia-mma (an NVIDIA GPU; PoCL reports it unsupported): broken there.
# Step 1's full run already says whether it ran.
if python3 -c 'import json, sys
sys.exit(0 if any(r["test"] == "tf32-mma" and r["status"] == "ok" for r in json.load(open(sys.argv[1]))["results"]) else 1)' \
    "$json" 2>/dev/null; then
    wrong_case mma-sum tensor.cl tf32-mma <<<'[("(d[c][2] + d[c][3])", "(d[c][2] + d[c][2])")]'
    wrong_case mma-frag tensor.cl tf32-mma <<<'[("((lane >> 2) & 3)", "((lane >> 3) & 3)")]'
fi

fi
# 6. The overheads family and the latency split of the full run of step 1: every row in order, ok and checked.
if [ -s "$json" ]; then
    python3 - "$json" <<'EOF_PY' || fail "overheads and latency rows (above)"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
bad = 0
def no(msg):
    global bad
    print("  " + msg)
    bad += 1
def of(test):
    return [r for r in rows if r["test"] == test]
for r in of("alloc"):
    if r["status"] == "unsupported" and r["variant"] == "image":
        continue
    if r["status"] != "ok" or r["unit"] != "us" or not r["value"] > 0:
        no("alloc %s: %s %r (%s)" % (r["variant"], r["status"], r["value"], r["reason"]))
    if r["variant"].endswith("first write") and "read back and checked" not in r["counts"]:
        no("alloc %s: not checked" % r["variant"])
if [r["variant"] for r in of("alloc")][:2] != ["buffer 4 KiB create+release", "buffer 4 KiB first write"]:
    no("alloc variants %s" % [r["variant"] for r in of("alloc")])
want = ["write 4096 x 4 KiB", "write 1 x 16 MiB", "write small/large", "read 4096 x 4 KiB", "read 1 x 16 MiB",
        "read small/large"]
if [r["variant"] for r in of("transfers")] != want:
    no("transfers variants %s" % [r["variant"] for r in of("transfers")])
want = ["NULL event", "event", "event, profiling queue", "event/NULL", "profiling/NULL"]
if [r["variant"] for r in of("events")] != want:
    no("events variants %s" % [r["variant"] for r in of("events")])
q = [r["variant"] for r in of("queues")]
if q not in (["in-order", "out-of-order", "in-order/out-of-order"], ["in-order", "out-of-order"]):
    no("queues variants %s" % q)
for r in of("transfers") + of("events") + of("queues"):
    if r["status"] == "unsupported" and r["variant"] == "out-of-order" and r["reason"]:
        continue
    if r["status"] != "ok" or not r["value"] > 0:
        no("%s %s: %s %r (%s)" % (r["test"], r["variant"], r["status"], r["value"], r["reason"]))
    if r["unit"] != "x" and "checked" not in r["counts"]:
        no("%s %s: not checked (%s)" % (r["test"], r["variant"], r["counts"]))
lv = [r["variant"] for r in of("launch")]
for what in ("queued->start", "queued->submit", "submit->start", "enqueue+finish"):
    if ["%s %s" % (what, s) for s in ("min", "median", "mean", "p99")] != [v for v in lv if v.startswith(what + " ")]:
        no("launch: no %s rows in %s" % (what, lv))
sys.exit(1 if bad else 0)
EOF_PY
fi

# 7. --timer both on the roofline's three tests: each figure followed by its host-timer row, both ok.
"$BIN" peak --quick --no-cache --only read,copy,fp32 --max-time 0.01 --timer both --json "$TESTTMP/timer.json" \
    >"$TESTTMP/timer.out" 2>&1 || { cat "$TESTTMP/timer.out"; fail "peak --timer both failed"; }
python3 - "$TESTTMP/timer.json" <<'PY' || fail "--timer both rows (above)"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
for t in ("read", "copy", "fp32"):
    v = [r["variant"] for r in rows if r["test"] == t]
    assert len(v) == 2 and v[1] == v[0] + " host-timer", (t, v)
    assert all(r["status"] == "ok" and r["value"] > 0 for r in rows if r["test"] == t), t
PY

finish
