#!/usr/bin/env bash
# Device test of the opticalflow ladder on the default device against the double CPU reference:
#  1. every rung on the synthetic pair at sizes no 16x16 work-group divides (97x61 with 2 levels, 120x90 with
#     3, 45x37 with 1), the mean end-point error against the known motion logged, below 0.2 px with a pyramid;
#  2. the image rungs unsupported under --mask-features images (and image-rf but unorm16), the others ok;
#  3. --input a.png,b.png (a pair written here, the second shifted by 2 px) with --output: an RGB PNG of the
#     frames' size, the flow as a colour wheel (red: to the right);
#  4. deliberately broken kernels (a bilinear weight, the guess not doubled, a pixel left unwritten, the lost
#     rule off by one, local-tile's barrier dropped) fail with exit 3; local-tile unsupported above the
#     local memory allowed (CLGAUGE_LOCAL_MEM_CAP);
#  5. bad input refused in one line with the documented exit: frames of different sizes, one file, a
#     non-PNG file, --input with --size, an even window, a window above the coarsest level, --levels 0,
#     --iterations 0;
#  6. sparse (--grid-step, --points): every rung but local-tile (unsupported, with its reason) ok, rows in
#     points (item_unit pt, items the point count); --grid-step 1 gives dense's counts and end-point errors
#     (the per-point launches and the reference's point mask change nothing); broken sparse kernels (the
#     guess not doubled, a point left unwritten, y read from x) fail with exit 3; --output draws only the
#     points (black elsewhere, red at 2 px to the right); --points are distinct, seeded by --seed;
#  7. bad sparse input refused in one line with exit 1: --points 0, negative, not a number, a fraction, more
#     than the pixels; --grid-step 0, larger than the frame; --points with --grid-step.
#  8. the per-level check: NVIDIA's 8-bit texture positions emulated (coordinates rounded to 1/256 texel) pass
#     with one level (other fixed points within the level) and with the coarsest level moved 0.005 px (another
#     guess for the next level), where the level-0-only check failed; a move beyond the tolerance fails at
#     level 1 (precomputed at 0.005 px, image-linear at 0.05 px).
#  9. early-exit: bad --epsilon refused; passes at 0.01 and 0.5 px with fewer steps and FLOPs than K; broken
#     early exits fail (before the first step, at 50 epsilon, below 1 px), the last passing at --epsilon 1.
# 10. half: ok, or unsupported naming CL_HALF_FLOAT (the format missing, or its probe reading it back wrong).
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
        "best": ["pyramid", "images", "gradients+G", "solve"],
        "unorm16": ["pyramid", "images", "gradients+G", "solve"],
        "half": ["pyramid", "images", "gradients+G", "solve"],
        "early-exit": ["pyramid", "images", "gradients+G", "solve"]}
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

# 2. Images masked: image-linear and best unsupported, the others ok; unorm16 (CL_UNORM_INT16, no float
#    images) and early-exit unsupported without images, ok without image-rf; half as unorm16 where its format
#    works (section 10).
for feat in images image-rf; do
    json=$TESTTMP/of_mask.json
    rm -f "$json"
    "$BIN" run opticalflow --size 64x48 "${small[@]}" --levels 2 --runs 1 --warmup 0 --mask-features "$feat" \
        --json "$json" >"$TESTTMP/of_mask.out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || { cat "$TESTTMP/of_mask.out"; fail "--mask-features $feat exited $rc, want 0"; }
    python3 - "$json" "$feat" <<'EOF' || fail "--mask-features $feat: rows (above)"
import json, sys
res = json.load(open(sys.argv[1]))["results"]
rows = {r["rung"]: r["status"] for r in res}
want = {"buffers": "ok", "precomputed": "ok", "local-tile": "ok", "image-linear": "unsupported",
        "best": "unsupported", "unorm16": "unsupported" if sys.argv[2] == "images" else "ok"}
want["early-exit"] = want["unorm16"]
# half (CL_HALF_FLOAT, no float images) unsupported without images; without image-rf ok, or unsupported where
# the device lacks the format or its probe reads it back wrong (section 10)
half = [r for r in res if r["rung"] == "half"][0]
want["half"] = "unsupported" if sys.argv[2] == "images" or "CL_HALF_FLOAT" in half.get("reason", "") else "ok"
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
# rgb PATH: the 70x50 8-bit RGB PNG's pixels, rows of (r, g, b), decoded here (no imaging module needed).
cat >"$TESTTMP/of_rgb.py" <<'EOF'
import struct, zlib
def rgb(path):
    d = open(path, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n", "%s is not a PNG file" % path
    w, h, depth, ctype = struct.unpack(">IIBB", d[16:26])
    assert (w, h, depth, ctype) == (70, 50, 8, 2), "%s: %dx%d depth %d type %d, want 70x50 8-bit RGB" % (
        path, w, h, depth, ctype)
    raw, i = b"", 8
    while i < len(d):
        n, t = struct.unpack(">I4s", d[i:i + 8])
        raw += d[i + 8:i + 8 + n] if t == b"IDAT" else b""
        i += 12 + n
    raw, px, prev, s = zlib.decompress(raw), [], [0] * 3 * w, 3 * w + 1
    for y in range(h):
        f, row = raw[y * s], list(raw[y * s + 1:(y + 1) * s])
        for x in range(3 * w):
            a, b, c = row[x - 3] if x >= 3 else 0, prev[x], prev[x - 3] if x >= 3 else 0
            p = a + b - c
            pr = a if abs(p - a) <= min(abs(p - b), abs(p - c)) else b if abs(p - b) <= abs(p - c) else c
            row[x] = (row[x] + [0, a, b, (a + b) // 2, pr][f]) & 255
        px.append([tuple(row[3 * x:3 * x + 3]) for x in range(w)])
        prev = row
    return px
red = lambda c: c[0] >= 200 and c[1] <= 110 and c[2] <= 110  # 2 px right, near the scale: saturated red
EOF
python3 - "$out" "$TESTTMP" <<'EOF' || fail "output PNG checks (above)"
import sys
sys.path.insert(0, sys.argv[2])
from of_rgb import rgb, red
px = rgb(sys.argv[1])
inner = [px[y][x] for y in range(10, 40) for x in range(10, 60)]
if sum(map(red, inner)) < len(inner) * 3 // 4:
    sys.exit("  the colour wheel: %d of %d inner pixels red (the pair moves 2 px right), e.g. %s" %
             (sum(map(red, inner)), len(inner), inner[len(inner) // 2]))
EOF

if ! sanitizer_pass; then # more broken kernels: the kernels' checks, tested in the normal pass
# 4. Broken kernels are caught.
wrong=$TESTTMP/of_wrong
make_wrong opticalflow.cl "$wrong" <<'EOF'
[("    float b = rb[xa] + ax * (rb[xb] - rb[xa]);", "    float b = rb[xa] + ay * (rb[xb] - rb[xa]);"),
 ("    return 2.0f * flow[coff", "    return flow[coff"),
 ("        status[k] = s;", "        if (x != 5 || y != 3) status[k] = s;"),
 ("ex > (float)(w - 1) ||", "ex > (float)w ||")]
EOF
R=opticalflow:buffers,opticalflow:precomputed,opticalflow:local-tile,opticalflow:image-linear,opticalflow:best
R=$R,opticalflow:unorm16,opticalflow:early-exit
expect_wrong_each "broken kernels" "$R" -- "$BIN" run "$R" --kernel-dir "$wrong" --size 120x90 "${small[@]}" \
    --runs 1 --warmup 0
wrong1=$TESTTMP/of_wrong_lost
make_wrong opticalflow.cl "$wrong1" <<'EOF'
[("ex > (float)(w - 1) ||", "ex > (float)w ||")]
EOF
expect_wrong "lost rule off by one" -- "$BIN" run opticalflow:precomputed --kernel-dir "$wrong1" \
    --size 120x90 "${small[@]}" --runs 1 --warmup 0
wrong2=$TESTTMP/of_wrong_barrier
make_wrong opticalflow.cl "$wrong2" <<'EOF'
[("    barrier(CLK_LOCAL_MEM_FENCE);\n", "")]
EOF
expect_wrong "local-tile without its barrier" -- "$BIN" run opticalflow:local-tile --kernel-dir "$wrong2" \
    --size 120x90 "${small[@]}" --runs 1 --warmup 0

fi
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

# 6. Sparse points. Every rung on a grid and on random points: local-tile unsupported (no tile of neighbours),
#    the others ok, counted in points.
for sp in "--grid-step 4:660" "--points 3000:3000"; do
    json=$TESTTMP/of_sparse.json
    rm -f "$json"
    # shellcheck disable=SC2086
    run1 opticalflow --size 120x90 "${small[@]}" ${sp%%:*} --json "$json" >"$TESTTMP/of_sparse.out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || { cat "$TESTTMP/of_sparse.out"; fail "sparse ${sp%%:*} exited $rc, want 0"; }
    python3 - "$json" "${sp##*:}" "$TESTTMP/of_sparse.out" <<'EOF' || fail "sparse ${sp%%:*}: rows (above)"
import json, sys
rows = {r["rung"]: r for r in json.load(open(sys.argv[1]))["results"]}
n = int(sys.argv[2])
bad = []
for name, r in rows.items():
    want = "unsupported" if name == "local-tile" else "ok"
    if name == "half" and "CL_HALF_FLOAT" in r.get("reason", ""):  # the format missing or broken: section 10
        want = "unsupported"
    if r["status"] != want:
        bad.append("%s %s (%s), want %s" % (name, r["status"], r.get("reason", ""), want))
    elif want == "ok" and (r["item_unit"] != "pt" or r["items"] != n):
        bad.append("%s: %s %s, want %d pt" % (name, r["items"], r["item_unit"], n))
if "sparse points" not in rows["local-tile"].get("reason", ""):
    bad.append("local-tile's reason: %r" % rows["local-tile"].get("reason"))
log = open(sys.argv[3]).read()
if " of %d points valid" % n not in log or "mean end-point error" not in log:
    bad.append("no point counts / end-point error in the log")
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF
done

# 6b. --grid-step 1 (every pixel a point, per-point launches and the reference's mask) gives dense's line.
epe() { grep "mean end-point error" "$1" | sed -e 's/ px valid/ valid/' -e 's/ points valid/ valid/' \
    -e 's/ local-tile [0-9.]*,//' -e "s/; early-exit's rule.*//"; }
run1 opticalflow --size 97x61 --levels 2 "${small[@]}" >"$TESTTMP/of_dense.out" 2>&1 || fail "dense 97x61"
run1 opticalflow --size 97x61 --levels 2 "${small[@]}" --grid-step 1 >"$TESTTMP/of_g1.out" 2>&1 ||
    fail "--grid-step 1"
d1=$(epe "$TESTTMP/of_dense.out")
[ -n "$d1" ] && [ "$d1" = "$(epe "$TESTTMP/of_g1.out")" ] ||
    fail "--grid-step 1 differs from dense: '$d1' / '$(epe "$TESTTMP/of_g1.out")'"

if ! sanitizer_pass; then # more broken kernels: the kernels' checks, tested in the normal pass
# 6c. Broken sparse kernels are caught.
wrong3=$TESTTMP/of_wrong_sparse
make_wrong opticalflow.cl "$wrong3" <<'EOF'
[("2.0f * flow[(lvl + 1) * np + pid]", "flow[(lvl + 1) * np + pid]"),
 ("    if (pid >= np) return;", "    if (pid >= np || pid == 7) return;"),
 ("y = pts[pid].y >> lvl", "y = pts[pid].x % h >> lvl")]
EOF
R=opticalflow:buffers,opticalflow:precomputed,opticalflow:image-linear,opticalflow:best,opticalflow:early-exit
expect_wrong_each "broken sparse kernels" "$R" -- "$BIN" run "$R" --kernel-dir "$wrong3" --size 120x90 \
    "${small[@]}" --grid-step 3 --runs 1 --warmup 0
make_wrong opticalflow.cl "$wrong3" <<'EOF'
[("    if (pid >= np) return;", "    if (pid >= np || pid == 7) return;")]
EOF
expect_wrong "a point left unwritten" -- "$BIN" run opticalflow:precomputed --kernel-dir "$wrong3" \
    --size 120x90 "${small[@]}" --points 500 --runs 1 --warmup 0

fi
# 6d. --output in sparse mode: only the points drawn; --points distinct and seeded by --seed.
pngs=()
for sp in "--grid-step 5" "--points 200 --seed 1" "--points 200 --seed 1" "--points 200 --seed 2"; do
    out=$TESTTMP/of_sparse_${#pngs[@]}.png
    pngs+=("$out")
    rm -f "$out"
    # shellcheck disable=SC2086
    expect_ok "--output $sp" -- run1 opticalflow --input "$pair" --output "$out" "${small[@]}" --levels 2 $sp
done
python3 - "$TESTTMP" "${pngs[@]}" <<'EOF' || fail "sparse --output (above)"
import sys
sys.path.insert(0, sys.argv[1])
from of_rgb import rgb, red
g = rgb(sys.argv[2])
on = {(x, y) for y in range(2, 50, 5) for x in range(2, 70, 5)}
off = [g[y][x] for y in range(50) for x in range(70) if (x, y) not in on and any(g[y][x])]
near = sum(red(g[y][x]) for x, y in on)  # 2 px right: red
if off or near < len(on) * 3 // 4:
    sys.exit("  grid 5: %d lit pixels off the grid, %d of %d points red" % (len(off), near, len(on)))
lit = [{(x, y) for y in range(50) for x in range(70) if any(p[y][x])} for p in map(rgb, sys.argv[3:])]
if not (150 <= len(lit[0]) <= 200) or lit[0] != lit[1] or lit[0] == lit[2]:
    sys.exit("  --points 200: %d, %d, %d lit pixels (want 150-200, seed 1 twice the same, seed 2 not)" %
             tuple(map(len, lit)))
EOF

# 7. Bad sparse input: one line, exit 1.
sz=(--size 64x48 --window 9)
expect 1 "points expects a positive number" -- "$BIN" run opticalflow "${sz[@]}" --points 0
expect 1 "points expects a positive number" -- "$BIN" run opticalflow "${sz[@]}" --points -5
expect 1 "points expects a positive number" -- "$BIN" run opticalflow "${sz[@]}" --points many
expect 1 "points 2.5 is not a whole number" -- "$BIN" run opticalflow "${sz[@]}" --points 2.5
expect 1 "points 3073 is more points than the 64x48 frame's 3072 pixels" -- \
    "$BIN" run opticalflow "${sz[@]}" --points 3073
expect 1 "grid-step expects a positive number" -- "$BIN" run opticalflow "${sz[@]}" --grid-step 0
expect 1 "grid-step 49 is larger than the 64x48 frame" -- "$BIN" run opticalflow "${sz[@]}" --grid-step 49
expect 1 "points and --grid-step both given" -- "$BIN" run opticalflow "${sz[@]}" --points 10 --grid-step 4
[ "$(wc -l <"$TESTTMP/${test_name}_err.out")" -eq 1 ] || fail "the last sparse refusal is not one line"

# 8. The check verifies each level's solve from the device's own guess (docs/workloads/opticalflow.md,
#    "Verification"). NVIDIA's texture unit resolves a linear sample's position to 1/256 texel (8-bit
#    weights): emulated here by rounding the image rungs' coordinates so. With one level, the emulated texture
#    alone reaches other fixed points within the level (the level-0-only check failed 7 of 19200 pixels at
#    160x120): they must pass as fixed points. With the coarsest level's flow moved by (0.005, 0.005) px too,
#    within the texture's tolerance (OF_TEX_CELL, 0.011 px), the next level starts elsewhere and ends 0.01 px
#    from the reference's own chain (the level-0-only check failed 8 of 43200 pixels at 240x180): it must
#    pass. The same move fails a buffer rung (no texture in its tolerance) at that level, and a move of 0.05
#    px fails the image rung there too.
emu=$TESTTMP/of_texture_emu
tex="__constant sampler_t lin = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;"
texq="float2 texq(float2 c) { return floor((c - 0.5f) * 256.0f + 0.5f) * (1.0f / 256.0f) + 0.5f; }"
read1="float e = I[yy * w + xx] - read_imagef(jimg, lin, (float2)(xx + p.x, yy + p.y)).x;"
store="#define STORE(valid, d) store(flow + off, status, y * w + x, x, y, w, h, fine, valid, d)"
for move in 0 0.005 0.05; do
    python3 - "$tex" "$texq" "$read1" "$store" "$move" >"$TESTTMP/of_emu.list" <<'PY'
import sys
tex, texq, read1, store, move = sys.argv[1:]
rep = [(tex, tex + "\n" + texq), (read1, read1.replace("lin, (float2)(xx + p.x, yy + p.y)",
                                                       "lin, texq((float2)(xx + p.x, yy + p.y))"))]
if move != "0":
    rep.append((store, store[:-2] + "(coff < 0 && valid) ? (d) + (float2)(%sf, %sf) : (d))" % (move, move)))
print(repr(rep))
PY
    make_wrong opticalflow.cl "$emu-$move" <"$TESTTMP/of_emu.list"
done
expect_ok "emulated 8-bit texture, one level" -- run1 opticalflow:image-linear --kernel-dir "$emu-0" \
    --size 160x120 --window 9 --levels 1
expect_ok "emulated texture, coarsest level moved 0.005 px" -- run1 opticalflow:image-linear \
    --kernel-dir "$emu-0.005" --size 240x180 --window 9 --levels 2
for c in "precomputed 0.005" "image-linear 0.05"; do
    read -r rung move <<<"$c"
    expect_wrong "$rung, coarsest level moved $move px" -- "$BIN" run "opticalflow:$rung" \
        --kernel-dir "$emu-$move" --size 240x180 --window 9 --levels 2 --runs 1 --warmup 0
    grep -q "first level 1 " "$TESTTMP/${test_name}_wrong.out" ||
        fail "$rung, coarsest level moved $move px: not reported at level 1"
done

# 9. early-exit: a point stops at its first step below --epsilon (not taken). Bad --epsilon refused in one
#    line with exit 1; at 0.01 and at 0.5 px it passes (the check: the reference's step from its flow within
#    that step's error bound plus epsilon) with fewer steps than K in the log and fewer FLOPs than unorm16 in
#    the JSON; broken early exits (every point stopping before its first step; stopping at 50 epsilon; at any
#    step below 1 px) fail with exit 3, and the last passes at --epsilon 1, where it is the rule.
sz=(--size 64x48 --window 5 --levels 2)
for e in 0 -0.5 nan many; do
    expect 1 "epsilon expects a positive number" -- "$BIN" run opticalflow:early-exit "${sz[@]}" --epsilon "$e"
done
expect 1 "epsilon 1.5 is not a step length above 0 and at most 1 px" -- \
    "$BIN" run opticalflow:early-exit "${sz[@]}" --epsilon 1.5
[ "$(wc -l <"$TESTTMP/${test_name}_err.out")" -eq 1 ] || fail "the last --epsilon refusal is not one line"
for e in 0.01 0.5; do
    json=$TESTTMP/of_exit.json
    rm -f "$json"
    run1 opticalflow:unorm16,opticalflow:early-exit --size 120x90 --window 9 --epsilon "$e" --json "$json" \
        >"$TESTTMP/of_exit.out" 2>&1 || { cat "$TESTTMP/of_exit.out"; fail "early-exit --epsilon $e"; }
    python3 - "$json" "$TESTTMP/of_exit.out" "$e" <<'EOF' || fail "early-exit --epsilon $e (above)"
import json, re, sys
rows = {r["rung"]: r for r in json.load(open(sys.argv[1]))["results"]}
log = open(sys.argv[2]).read()
m = re.search(r"early-exit's rule: ([0-9.]+) steps a point in the reference's own solve \(of 10\)", log)
bad = []
if set(rows) != {"unorm16", "early-exit"} or any(r["status"] != "ok" for r in rows.values()):
    bad.append("rows %s" % {k: r["status"] for k, r in rows.items()})
elif not m or not 1 <= float(m.group(1)) < 10:
    bad.append("no early-exit steps line with 1 to 10 steps")
elif not rows["early-exit"]["flops"] < rows["unorm16"]["flops"] * (float(m.group(1)) + 1) / 10:
    bad.append("early-exit's FLOPs %g against unorm16's %g at %s steps" % (rows["early-exit"]["flops"],
               rows["unorm16"]["flops"], m.group(1)))
if (sys.argv[3] != "0.01") != ("epsilon 0.5" in rows.get("early-exit", {}).get("size", "")):
    bad.append("the row's size %r: want --epsilon named where not 0.01" % rows.get("early-exit", {}).get("size"))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF
done
if ! sanitizer_pass; then
stop='            if ((STOP) && dot(st, st) < (float)(EPS) * (float)(EPS)) break;'
for c in "first:dot(st, st) >= 0.0f" "fifty:dot(st, st) < 2500.0f * (float)(EPS) * (float)(EPS)" \
    "any:dot(st, st) < 1.0f"; do
    name=${c%%:*}
    python3 - "$stop" "${c#*:}" >"$TESTTMP/of_exit.list" <<'PY'
import sys
stop, cond = sys.argv[1:]
print(repr([(stop, stop.replace("dot(st, st) < (float)(EPS) * (float)(EPS)", cond))]))
PY
    make_wrong opticalflow.cl "$TESTTMP/of_exit_$name" <"$TESTTMP/of_exit.list"
    expect_wrong "early-exit stopping $name" -- "$BIN" run opticalflow:early-exit --kernel-dir \
        "$TESTTMP/of_exit_$name" --size 120x90 --window 9 --runs 1 --warmup 0
done
expect_ok "early-exit stopping below 1 px at --epsilon 1" -- run1 opticalflow:early-exit --kernel-dir \
    "$TESTTMP/of_exit_any" --size 120x90 --window 9 --epsilon 1
fi

# 10. half (CL_HALF_FLOAT images of the second frame): ok, or unsupported naming CL_HALF_FLOAT, either because
#     the device lacks the format or because the probe read the images back wrong (PoCL 3.1 does); unsupported
#     under --mask-features images.
json=$TESTTMP/of_half.json
rm -f "$json"
run1 opticalflow:half --size 64x48 --window 5 --levels 2 --json "$json" >"$TESTTMP/of_half.out" 2>&1 ||
    { cat "$TESTTMP/of_half.out"; fail "opticalflow:half"; }
python3 - "$json" <<'EOF' || fail "half's row (above)"
import json, re, sys
r = json.load(open(sys.argv[1]))["results"][0]
ok = r["status"] == "ok" or (r["status"] == "unsupported" and re.search(
    r"CL_HALF_FLOAT images read back wrong here \(a probe wrote [0-9.]+, read|does not (read|write) CL_R "
    r"CL_HALF_FLOAT", r.get("reason", "")))
if not ok:
    sys.exit("  half: %s (%s)" % (r["status"], r.get("reason", "")))
EOF

finish
