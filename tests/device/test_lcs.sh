#!/usr/bin/env bash
# Device test of the lcs ladder on the default device against the CPU reference (the bit-parallel DP, itself
# checked against the plain DP by setup on every size up to 2^26 cells):
#  1. every rung at lengths around every width a rung cuts by: 1, 15..17 (tile-simd's 16 rows), 31..33 and
#     63..65 (32- and 64-bit words, the 64-cell tile), 255..257 (a 256-cell tile, a group of 256 items),
#     1023..1025 and 17x1024 / 16x2049 (tile-simd's 1024 columns), 1x7 / 7x1 / 333x70 (n != m, one string
#     shorter than a tile), 8193 (257 words: stripes of bitpar-wg left empty), alphabets 1, 2 and 256; naive
#     unsupported where its matrix passes one allocation;
#     grid at lengths around its 2048-character groups and 32-row chunks;
#  2. deliberately broken kernels (a dropped carry, grid's carry from the group before lost, a wrong diagonal, a missing barrier, a tile edge) fail;
#  3. bad input is refused in one line with the documented exit.
# Usage: bash test_lcs.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

run1() { "$BIN" run "$@" --runs 1 --warmup 1; }

# 1. Lengths (--size N or NxM), each list one sweep (one process: each size its own inputs and check).
len=1,2,15,16,17,31,32,33,63,64,65,1x7,7x1,333x70,255,256,257,1023x1025,17x1024,16x2049
expect_ok "lcs --size $len" -- run1 lcs --size "$len"
len=65x1000,129
expect_ok "lcs --size $len --alphabet 2" -- run1 lcs --size "$len" --alphabet 2
len=257x64,100
expect_ok "lcs --size $len --alphabet 256" -- run1 lcs --size "$len" --alphabet 256
expect_ok "alphabet 1" -- run1 lcs --size 40x33 --alphabet 1
len=8193x300,16385x64
expect_ok "bit-parallel stripes, $len" -- run1 lcs:bitpar,lcs:bitpar-wg,lcs:best,lcs:grid --size "$len"
# grid: groups of 32 words (2048 characters of a), chunks of 32 rows (characters of b): one group and a
# partial one, the last chunk full, one row short or one over, a single chunk.
len=2047x31,2048x32,2049x33,4097x4095,6143x64,6145x65,30000x1
expect_ok "grid, $len" -- run1 lcs:grid,lcs:nv-ballot,lcs:nv-ballot32 --size "$len"

# --pairs: many pairs in one batch; a pair's strings at every residue of the groups and chunks; the rungs that
# solve one pair are unsupported; the default length with --pairs is 2048.
len=1,33x31,2049x65,4100x300
expect_ok "lcs --pairs 7 --size $len" -- run1 lcs:bitpar,lcs:bitpar-wg,lcs:best,lcs:grid,lcs:nv-ballot --pairs 7 --size "$len"
pj=$TESTTMP/lcs_pairs.json
rm -f "$pj"
run1 lcs --pairs 3 --json "$pj" >"$TESTTMP/lcs_pairs.out" 2>&1 || { cat "$TESTTMP/lcs_pairs.out"; fail "--pairs 3"; }
python3 - "$pj" <<'EOF' || fail "--pairs JSON checks (above)"
import json, sys
rows = {r["rung"]: r for r in json.load(open(sys.argv[1]))["results"]}
bad = ["%s: %s" % (n, r["status"]) for n, r in rows.items() if n in ("bitpar", "bitpar-wg", "best", "grid")
       and (r["status"] != "ok" or r.get("items") != 3 * 2048 * 2048)]
bad += ["%s: %s, want unsupported (one pair)" % (n, r["status"]) for n, r in rows.items()
        if n in ("naive", "diag3", "tiled", "tile-simd", "ref-threads") and
        (r["status"] != "unsupported" or "one pair" not in r.get("reason", ""))]
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF

# --traceback: the bit-parallel rungs keep their rows, the LCS is walked back and checked (its length, a common
# subsequence); at word and chunk residues; the other rungs unsupported.
len=1,63x65,65x63,2049x33,4100x3000
expect_ok "lcs --traceback --size $len" -- run1 lcs:bitpar,lcs:bitpar-wg,lcs:best,lcs:grid,lcs:nv-ballot,lcs:nv-ballot32 \
        --traceback --size "$len"
tj=$TESTTMP/lcs_trace.json
rm -f "$tj"
run1 lcs --traceback --size 700x500 --json "$tj" >"$TESTTMP/lcs_trace.out" 2>&1 || { cat "$TESTTMP/lcs_trace.out"; fail "--traceback"; }
python3 - "$tj" <<'EOF' || fail "--traceback JSON checks (above)"
import json, sys
rows = {r["rung"]: r for r in json.load(open(sys.argv[1]))["results"]}
bad = ["%s: %s" % (n, r["status"]) for n, r in rows.items() if n in ("bitpar", "bitpar-wg", "best", "grid")
       and r["status"] != "ok"]
bad += ["%s: %s, want unsupported (no rows)" % (n, r["status"]) for n, r in rows.items()
        if n in ("naive", "tiled", "ref-threads") and (r["status"] != "unsupported" or "rows" not in r.get("reason", ""))]
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF

# --input A,B (two files of bytes) and --output (the --traceback subsequence): a text pair and a binary pair
# with all 256 byte values; the output must be a common subsequence of the files of the DP's length.
printf 'the quick brown fox jumps over the lazy dog\n' >"$TESTTMP/la.txt"
printf 'pack my box with five dozen liquor jugs, the dog\n' >"$TESTTMP/lb.txt"
python3 -c 'import random, sys
r = random.Random(7)
open(sys.argv[1], "wb").write(bytes(range(256)) + bytes(r.randrange(256) for _ in range(3000)))
open(sys.argv[2], "wb").write(bytes(r.randrange(256) for _ in range(2100)) + bytes(range(255, -1, -1)))' \
    "$TESTTMP/ba.bin" "$TESTTMP/bb.bin"
for pair in "la.txt lb.txt" "ba.bin bb.bin"; do
    set -- $pair
    rm -f "$TESTTMP/lcs_out"
    expect_ok "--input $1,$2 --traceback --output" -- run1 lcs --input "$TESTTMP/$1,$TESTTMP/$2" --traceback \
        --output "$TESTTMP/lcs_out"
    python3 - "$TESTTMP/$1" "$TESTTMP/$2" "$TESTTMP/lcs_out" <<'EOF' || fail "--output of $1,$2 is not a longest common subsequence"
import sys
a, b, o = (open(p, "rb").read() for p in sys.argv[1:4])
row = [0] * (len(b) + 1)
for x in a:
    dg = 0
    for j, y in enumerate(b, 1):
        up = row[j]
        row[j] = dg + 1 if x == y else max(up, row[j - 1])
        dg = up
def sub(s, t):
    it = iter(t)
    return all(c in it for c in s)
ok = len(o) == row[-1] and sub(o, a) and sub(o, b)
print("" if ok else "  output %d bytes, LCS %d, in a %s, in b %s" % (len(o), row[-1], sub(o, a), sub(o, b)))
sys.exit(0 if ok else 1)
EOF
done
# The JSON of one run: every rung there, the score's check, cells as the rate, naive unsupported above one
# allocation.
json=$TESTTMP/lcs.json
rm -f "$json"
run1 lcs --size 300x200 --json "$json" >"$TESTTMP/lcs.out" 2>&1 || { cat "$TESTTMP/lcs.out"; fail "run"; }
python3 - "$json" <<'EOF' || fail "JSON checks (above)"
import json, sys
rep = json.load(open(sys.argv[1]))
rows = [r for r in rep["results"] if r["workload"] == "lcs"]
bad = []
want = ("naive", "diag3", "pad", "branchless", "vec4", "tile-item", "tile-simd", "tiled", "tiled-rows", "tiled-wide",
        "bitpar", "bitpar-wg", "best",
        "grid", "nv-ballot", "nv-ballot32", "ref-threads", "ref-tiles")
names = [r["rung"] for r in rows]
bad += ["rung %s missing" % w for w in want if w not in names]
cpu = rep["device"]["type"].upper() == "CPU"
bad += ["%s: %s on a CPU device (native kernels expected)" % (r["rung"], r["status"]) for r in rows
        if cpu and r["rung"].startswith("ref-") and r["status"] != "ok"]
for r in rows:
    if r["status"] == "ok" and r.get("items") != 60000:
        bad.append("%s: items %r, want 300 x 200 cells" % (r["rung"], r.get("items")))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF
side=$(alloc_side) || fail "no max allocation in devices --json"
if [ -n "$side" ]; then
    big=$TESTTMP/lcs_big.json
    rm -f "$big"
    "$BIN" run lcs:naive,lcs:bitpar-wg --size "${side}x${side}" --runs 1 --warmup 0 --json "$big" \
        >"$TESTTMP/lcs_big.out" 2>&1 || { cat "$TESTTMP/lcs_big.out"; fail "run at ${side}x${side}"; }
    python3 - "$big" <<'EOF' || fail "naive above one allocation (above)"
import json, sys
rows = {r["rung"]: r for r in json.load(open(sys.argv[1]))["results"]}
ok = rows["naive"]["status"] == "unsupported" and "allocation" in rows["naive"].get("reason", "") \
    and rows["bitpar-wg"]["status"] == "ok"
print("" if ok else "  naive: %r, bitpar-wg: %r" % (rows["naive"], rows["bitpar-wg"]["status"]))
sys.exit(0 if ok else 1)
EOF
fi

if ! sanitizer_pass; then # more broken kernels: the kernels' checks, tested in the normal pass
# 2. Broken kernels.
wrong=$TESTTMP/lcs_wrong
mut() { rm -rf "$wrong"; make_wrong lcs.cl "$wrong"; }
caught() { expect_wrong "$1" -- "$BIN" run "$2" --kernel-dir "$wrong" --size "$3" --runs 1 --warmup 1; }
mut <<'EOF'
[("    *carry = (word)(s < v) | (word)(s2 < s);", "    *carry = (word)(s2 < s);")]
EOF
caught "carry of v + x dropped" lcs:bitpar,lcs:bitpar-wg,lcs:best,lcs:grid 1025x700
mut <<'EOF'
[("                c = (bits_in >> r) & 1;", "                c = 0;")]
EOF
caught "grid: no carry from the group before" lcs:grid 4100x5000
# a failed run leaves the user's file alone
echo keep >"$TESTTMP/lcs_keep"
mut <<'EOF'
[("            if (trace) rows[(size_t)j * nw + w] = V[w];\n        }\n    }", "            if (trace) rows[(size_t)w * m + j] = V[w];\n        }\n    }")]
EOF
expect 5 "cannot write $TESTTMP/lcs_keep: no lcs rung produced a verified traceback" -- "$BIN" run lcs:bitpar --kernel-dir "$wrong" \
    --input "$TESTTMP/ba.bin,$TESTTMP/bb.bin" --traceback --output "$TESTTMP/lcs_keep" --runs 1 --warmup 1
[ "$(cat "$TESTTMP/lcs_keep")" = keep ] || fail "a run whose traceback FAILED replaced the --output file"
mut <<'EOF'
[("            if (trace && w < nw) rows[(size_t)j * nw + w] = v;", "            if (trace && w < nw) rows[(size_t)j * nw + w] = v ^ 1;")]
EOF
expect_wrong "grid --traceback: bit 0 of every kept word flipped" -- "$BIN" run lcs:grid --kernel-dir "$wrong" \
    --traceback --size 2000x900 --runs 1 --warmup 1
mut <<'EOF'
[("    b += pair * bstride, masks += pair * alphabet * nw, V += pair * nw, score += pair;\n    for (int w = 0; w < nw; w++)",
  "    b += 0 * bstride, masks += pair * alphabet * nw, V += pair * nw, score += pair;\n    for (int w = 0; w < nw; w++)")]
EOF
expect_wrong "bitpar --pairs: every pair reads the first pair's b" -- "$BIN" run lcs:bitpar --kernel-dir "$wrong" \
    --pairs 4 --size 200x300 --runs 1 --warmup 1
mut <<'EOF'
[("            v = p2[k - 1] + 1;\n        else\n            v = max(p1[k - 1], p1[k]);\n    }\n    cur[k] = v;",
  "            v = p1[k - 1] + 1;\n        else\n            v = max(p1[k - 1], p1[k]);\n    }\n    cur[k] = v;")]
EOF
caught "diagonal neighbour from the wrong diagonal" lcs:diag3 200x150
mut <<'EOF'
[("            pub[s & 1][t + 1] = v;\n            if (t == TILE - 1) H[c0 + 1 + c] = v;\n            if (R == n && c0 + 1 + c == m) score[0] = v;\n        }\n        barrier(CLK_LOCAL_MEM_FENCE);",
  "            pub[s & 1][t + 1] = v;\n            if (t == TILE - 1) H[c0 + 1 + c] = v;\n            if (R == n && c0 + 1 + c == m) score[0] = v;\n        }")]
EOF
caught "tiled without its barrier" lcs:tiled 300x200
mut <<'EOF'
[("    top[t + 1] = H[c0 + 1 + t];", "    top[t + 1] = H[c0 + t];")]
EOF
caught "tiled: the row above the tile read one column left" lcs:tiled 300x200

fi
# 3. Bad input: one line, exit 1.
expect 1 "bad --size '0'" -- "$BIN" run lcs --size 0
expect 1 "bad --size '0x5'" -- "$BIN" run lcs --size 0x5
expect 1 "lcs: --alphabet 257 is not a whole number from 1 to 256" -- "$BIN" run lcs --alphabet 257 --size 64
expect 1 "lcs: --alphabet 2.5 is not a whole number" -- "$BIN" run lcs --alphabet 2.5 --size 64
expect 1 "positive" -- "$BIN" run lcs --alphabet 0 --size 64
expect 1 "above this device's limits" -- "$BIN" run lcs --size 1073741823 --alphabet 256
expect 1 "positive" -- "$BIN" run lcs --pairs 0 --size 64
expect 1 "lcs: --pairs 2.5 is not a whole number" -- "$BIN" run lcs --pairs 2.5 --size 64
expect 1 "lcs: --pairs 16777217 is not a whole number" -- "$BIN" run lcs --pairs 16777217 --size 64
expect 1 "use a smaller --size or --pairs" -- "$BIN" run lcs --pairs 16777216 --size 65536
expect 1 "lcs: --traceback walks back one pair" -- "$BIN" run lcs --traceback --pairs 2 --size 64
expect 1 "lcs: --traceback at 1048576x1048576 keeps 128.0 GiB of rows" -- "$BIN" run lcs --traceback --size 1048576
expect 1 "lcs: --size 2147483647x5 must be 1 to 2^30-1 characters each way" -- "$BIN" run lcs --size 2147483647x5
expect 1 "lcs: --input $TESTTMP/x.txt is not two files" -- "$BIN" run lcs --input "$TESTTMP/x.txt"
expect 1 "is not two files" -- "$BIN" run lcs --input "$TESTTMP/la.txt,$TESTTMP/lb.txt,$TESTTMP/la.txt"
expect 5 "lcs: cannot read --input $TESTTMP/nope.txt" -- "$BIN" run lcs --input "$TESTTMP/nope.txt,$TESTTMP/lb.txt"
expect 5 "lcs: cannot read --input $TESTTMP: " -- "$BIN" run lcs --input "$TESTTMP,$TESTTMP/lb.txt"
: >"$TESTTMP/empty.txt"
expect 1 "lcs: --input $TESTTMP/empty.txt is empty" -- "$BIN" run lcs --input "$TESTTMP/la.txt,$TESTTMP/empty.txt"
expect 1 "and --size both given" -- "$BIN" run lcs --input "$TESTTMP/la.txt,$TESTTMP/lb.txt" --size 64
expect 1 "drop --alphabet" -- "$BIN" run lcs --input "$TESTTMP/la.txt,$TESTTMP/lb.txt" --alphabet 4
expect 1 "one pair of strings: drop --pairs" -- "$BIN" run lcs --input "$TESTTMP/la.txt,$TESTTMP/lb.txt" --pairs 2
expect_ok "--length 300x200 (another name of --size)" -- run1 lcs:bitpar,lcs:grid --length 300x200
expect 1 "--size 40 and --length 30 both given" -- "$BIN" run lcs --length 30 --size 40
expect 1 "bad --length '0'" -- "$BIN" run lcs --length 0
expect 1 "--length applies to workloads of strings (lcs) only" -- "$BIN" run reduction --length 30
expect 1 "lcs: --output writes the --traceback subsequence: add --traceback" -- "$BIN" run lcs --size 64 \
    --output "$TESTTMP/o.txt"
expect 1 "applies to the lcs workload only" -- "$BIN" run saxpy --alphabet 4

finish
