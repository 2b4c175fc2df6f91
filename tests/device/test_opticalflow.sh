#!/usr/bin/env bash
# Device test of the opticalflow ladder on the default device against the double CPU reference:
#  1. every rung on the synthetic pair at sizes no 16x16 work-group divides (97x61 with 2 levels, 120x90 with
#     3, 45x37 with 1), the mean end-point error against the known motion logged, below 0.2 px with a pyramid;
#  2. the image rungs unsupported under --mask-features images (and image-rf), the others ok;
#  3. --input a.png,b.png (a pair written here, the second shifted by 2 px) with --output: a grey PNG of the
#     frames' size, the flow's magnitude;
#  4. deliberately broken kernels (a bilinear weight, the guess not doubled, a pixel left unwritten, the lost
#     rule off by one, local-tile's barrier dropped) fail with exit 3; local-tile unsupported above the
#     local memory allowed (CLGAUGE_LOCAL_MEM_CAP);
#  5. bad input refused in one line with the documented exit: frames of different sizes, one file, a
#     non-PNG file, --input with --size, an even window, a window above the coarsest level, --levels 0,
#     --iterations 0.
# Usage: bash test_opticalflow.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

small=(--window 9 --iterations 5)
run1() { "$BIN" run "$@" --runs 1 --warmup 1; }

# 1. Every rung, three geometries; the log gives the end-point error.
for args in "97x61 --levels 2 --window 9" "120x90 --levels 3 --window 9" "45x37 --levels 1 --window 5"; do
    read -r size rest <<<"$args"
    # shellcheck disable=SC2086
    expect_ok "opticalflow --size $args" -- run1 opticalflow --size "$size" --iterations 5 $rest
    limit=0.2 # one level cannot follow the synthetic motion (about 4 px): its error is only logged
    [[ $rest == *"--levels 1"* ]] && limit=inf
    python3 - "$TESTTMP/${test_name}_ok.out" "$limit" <<'EOF' || fail "end-point error line for --size $args (above)"
import re, sys
lines = [l for l in open(sys.argv[1]) if "mean end-point error" in l]
limit = float(sys.argv[2])
if len(lines) != 1:
    sys.exit("  want one end-point error line for the ladder, have %d" % len(lines))
errs = re.findall(r" ([a-z0-9-]+) ([0-9.]+)[,( ]", lines[0].split("px:", 1)[-1])
if len(errs) < 4 or any(float(e) > limit for _, e in errs) or "(reference " not in lines[0]:
    sys.exit("  bad end-point error line (want one error per rung, each below %s): %s" % (limit, lines[0].strip()))
EOF
done

# 1b. Per-stage times in the JSON (stages_s): each rung's stages, in pipeline order, each time >= 0 and their
#     sum at most the slowest run plus rounding (stage sums add command times; a run spans them all).
json=$TESTTMP/of-stages.json
rm -f "$json"
run1 opticalflow --size 97x61 --levels 2 "${small[@]}" --json "$json" >"$TESTTMP/of-stages.out" 2>&1 ||
    { cat "$TESTTMP/of-stages.out"; fail "run --json for stages"; }
python3 - "$json" <<'EOF' || fail "stages_s (above)"
import json, sys
want = {"buffers": ["pyramid", "solve"], "precomputed": ["pyramid", "gradients+G", "solve"],
        "local-tile": ["pyramid", "gradients+G", "solve"],
        "image-linear": ["pyramid", "images", "gradients+G", "solve"],
        "best": ["pyramid", "images", "gradients+G", "solve"]}
bad = []
for r in json.load(open(sys.argv[1]))["results"]:
    if r["status"] != "ok":
        continue
    g = r.get("stages_s")
    if not isinstance(g, dict) or list(g) != want[r["rung"]]:
        bad.append("%s: stages %r, want %r" % (r["rung"], g, want[r["rung"]]))
    elif any(v < 0 for v in g.values()) or sum(g.values()) > r["t_max_s"] * 1.01 + 1e-6:
        bad.append("%s: stage times %r against the run's %g s" % (r["rung"], g, r["t_max_s"]))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF

# 2. Images masked: image-linear and best unsupported, the others ok.
for feat in images image-rf; do
    json=$TESTTMP/of_mask.json
    rm -f "$json"
    "$BIN" run opticalflow --size 64x48 "${small[@]}" --levels 2 --runs 1 --warmup 0 --mask-features "$feat" \
        --json "$json" >"$TESTTMP/of_mask.out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || { cat "$TESTTMP/of_mask.out"; fail "--mask-features $feat exited $rc, want 0"; }
    python3 - "$json" <<'EOF' || fail "--mask-features $feat: rows (above)"
import json, sys
rows = {r["rung"]: r["status"] for r in json.load(open(sys.argv[1]))["results"]}
want = {"buffers": "ok", "precomputed": "ok", "local-tile": "ok", "image-linear": "unsupported",
        "best": "unsupported"}
if rows != want:
    sys.exit("  rows %s, want %s" % (rows, want))
EOF
done

# 3. A PNG pair (grey texture, the second frame shifted 2 px right) and --output.
python3 - "$TESTTMP/of_a.png" "$TESTTMP/of_b.png" "$TESTTMP/of_small.png" <<'EOF'
import math, struct, sys, zlib
def png(path, w, h, px):
    raw = b"".join(b"\0" + bytes(px[y * w:(y + 1) * w]) for y in range(h))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) +
                           chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
f = lambda x, y: int(128 + 60 * math.sin(0.45 * x + 0.2 * y) * math.cos(0.3 * y - 0.15 * x))
w, h = 70, 50
png(sys.argv[1], w, h, [f(x, y) for y in range(h) for x in range(w)])
png(sys.argv[2], w, h, [f(x - 2, y) for y in range(h) for x in range(w)])
png(sys.argv[3], 40, 30, [f(x, y) for y in range(30) for x in range(40)])
EOF
out=$TESTTMP/of_flow.png
rm -f "$out"
expect_ok "--input pair" -- run1 opticalflow --input "$TESTTMP/of_a.png,$TESTTMP/of_b.png" --output "$out" \
    "${small[@]}" --levels 2
python3 - "$out" <<'EOF' || fail "output PNG checks (above)"
import struct, sys
d = open(sys.argv[1], "rb").read()
if d[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("  %s is not a PNG file" % sys.argv[1])
w, h, depth, ctype = struct.unpack(">IIBB", d[16:26])
if (w, h, depth, ctype) != (70, 50, 8, 0):
    sys.exit("  output is %dx%d depth %d type %d, want 70x50 8-bit grey" % (w, h, depth, ctype))
EOF

# 4. Broken kernels are caught.
wrong=$TESTTMP/of_wrong
make_wrong opticalflow.cl "$wrong" <<'EOF'
[("    float b = rb[xa] + ax * (rb[xb] - rb[xa]);", "    float b = rb[xa] + ay * (rb[xb] - rb[xa]);"),
 ("    return 2.0f * flow[coff", "    return flow[coff"),
 ("        status[y * w + x] = s;", "        if (x != 5 || y != 3) status[y * w + x] = s;"),
 ("ex > (float)(w - 1) ||", "ex > (float)w ||")]
EOF
for rung in buffers precomputed local-tile image-linear best; do
    expect_wrong "broken kernels, $rung" -- "$BIN" run "opticalflow:$rung" --kernel-dir "$wrong" --no-cache \
        --size 120x90 "${small[@]}" --runs 1 --warmup 0
done
wrong1=$TESTTMP/of_wrong_lost
make_wrong opticalflow.cl "$wrong1" <<'EOF'
[("ex > (float)(w - 1) ||", "ex > (float)w ||")]
EOF
expect_wrong "lost rule off by one" -- "$BIN" run opticalflow:precomputed --kernel-dir "$wrong1" --no-cache \
    --size 120x90 "${small[@]}" --runs 1 --warmup 0
wrong2=$TESTTMP/of_wrong_barrier
make_wrong opticalflow.cl "$wrong2" <<'EOF'
[("    barrier(CLK_LOCAL_MEM_FENCE);\n", "")]
EOF
expect_wrong "local-tile without its barrier" -- "$BIN" run opticalflow:local-tile --kernel-dir "$wrong2" \
    --no-cache --size 120x90 "${small[@]}" --runs 1 --warmup 0

# 4b. local-tile's tile grows with the window: above the local memory allowed it is unsupported, naming both.
json=$TESTTMP/of_cap.json
rm -f "$json"
CLGAUGE_LOCAL_MEM_CAP=8192 "$BIN" run opticalflow:precomputed,opticalflow:local-tile --size 64x48 "${small[@]}" \
    --levels 2 --runs 1 --warmup 0 --json "$json" >"$TESTTMP/of_cap.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { cat "$TESTTMP/of_cap.out"; fail "CLGAUGE_LOCAL_MEM_CAP=8192 exited $rc, want 0"; }
python3 - "$json" <<'EOF' || fail "local-tile above the local-memory cap (above)"
import json, sys
rows = {r["rung"]: r for r in json.load(open(sys.argv[1]))["results"]}
lt = rows["local-tile"]
if rows["precomputed"]["status"] != "ok" or lt["status"] != "unsupported" or "9216" not in lt.get("reason", ""):
    sys.exit("  precomputed %s, local-tile %s (%s): want ok, unsupported naming 9216 B" %
             (rows["precomputed"]["status"], lt["status"], lt.get("reason", "")))
EOF

# 5. Bad input: one line, documented exit.
pair="$TESTTMP/of_a.png,$TESTTMP/of_b.png"
expect 1 "differ in size" -- "$BIN" run opticalflow --input "$TESTTMP/of_a.png,$TESTTMP/of_small.png"
expect 1 "not two PNG files" -- "$BIN" run opticalflow --input "$TESTTMP/of_a.png"
expect 5 "not_a_png.png: not a PNG" -- "$BIN" run opticalflow --input "$TESTTMP/of_a.png,$TESTDATA/not_a_png.png"
expect 5 "no_such.png" -- "$BIN" run opticalflow --input "$TESTTMP/no_such.png,$TESTTMP/of_b.png"
expect 1 "drop --size" -- "$BIN" run opticalflow --input "$pair" --size 64x64
expect 1 "window 8 is even" -- "$BIN" run opticalflow --size 64x48 --window 8
expect 1 "larger than the coarsest level" -- "$BIN" run opticalflow --size 97x61 --window 21 --levels 3
expect 1 "levels" -- "$BIN" run opticalflow --size 64x48 --levels 0
expect 1 "iterations" -- "$BIN" run opticalflow --size 64x48 --iterations 0
expect 1 "levels 2.5 is not a whole number" -- "$BIN" run opticalflow --size 64x48 --levels 2.5
for f in "$TESTTMP/${test_name}_err.out"; do
    [ "$(wc -l <"$f")" -eq 1 ] || { cat "$f"; fail "the last refusal is not one line"; }
done

finish
