#!/usr/bin/env bash
# Device test of the cloth ladder on the default device:
#  1. every rung on grids of awkward sizes (the smallest 2x2 and 3x3, thin ones, one wider and narrower than a
#     64-wide or 16x16 work-group, sides that leave every remainder of the colours' periods 2, 4 and 5), odd
#     and even --iterations (the Jacobi iterate ends in the other buffer) and --steps (the frame ping-pong);
#     several --cloths in one launch and one launch each; deterministic rungs must equal the host reference of
#     their scheme bit for bit, every rung must pass the physical checks; the JSON names every rung, its size,
#     and springs as its items;
#  2. deliberately broken kernels, each one plausible bug, must fail (exit 3, FAILED);
#  3. bad input is refused before anything runs: one line, exit 1;
#  4. the timed CPU-order reference's line (one per ladder);
#  5. --output: the picture of the first cloth, its size and content, never a failed run's, refused paths.
# Usage: bash test_cloth.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

run1() { "$BIN" run "$@" --runs 1 --warmup 1; }

# 1. Sizes and counts. The two rungs with the grid compiled in (-DGW, -DGH) build once per grid, so they take
#    the sweep's grids of every remainder of 16 and 5 up to one each way, 3 cloths and the JSON run; every other
#    rung takes every grid.
nogrid=$("$BIN" list --json | python3 -c 'import json, sys
w = [w for w in json.load(sys.stdin)["workloads"] if w["name"] == "cloth"][0]
print(",".join("cloth:" + r["name"] for r in w["rungs"] if r["name"] not in ("noprev-grid", "grid-rsq2")))')
[ -n "$nogrid" ] || fail "clgauge list --json: no cloth rungs"
g=2x2,3x3,17x5,5x17,33x31,63x4,65x3,15x17,17x15,2x9,9x2,37x29 # one sweep, one process
expect_ok "cloth --grid $g" -- run1 "$nogrid" --grid "$g" --steps 3 --iterations 3
g=2x2,17x5,5x17,33x31,63x4,9x2
expect_ok "cloth grid rungs --grid $g" -- run1 cloth:noprev-grid,cloth:grid-rsq2 --grid "$g" --steps 3 --iterations 3
expect_ok "cloth, even iterations and steps" -- run1 "$nogrid" --grid 21x13 --steps 2 --iterations 4
expect_ok "cloth, one step of one iteration" -- run1 "$nogrid" --grid 21x13 --steps 1 --iterations 1
expect_ok "cloth, a sweep" -- run1 "$nogrid" --grid 7x6,12x11 --steps 2 --iterations 2
expect_ok "cloth, 3 cloths" -- run1 cloth --grid 17x15 --cloths 3 --steps 2 --iterations 3
expect_ok "cloth, 5 cloths of 2x3" -- run1 "$nogrid" --grid 2x3 --cloths 5 --steps 3 --iterations 2
expect_ok "cloth default grid" -- run1 "$nogrid"

json=$TESTTMP/cloth.json
rm -f "$json"
run1 cloth --grid 33x31 --cloths 2 --steps 2 --iterations 3 --json "$json" >"$TESTTMP/cloth.out" 2>&1 ||
    { cat "$TESTTMP/cloth.out"; fail "run"; }
python3 - "$json" <<'EOF' || fail "JSON checks (above)"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["results"] if r["workload"] == "cloth"]
bad = []
names = [r["rung"] for r in rows]
bad += ["rung %s missing" % w for w in ("colour", "merged", "single", "jacobi", "local", "best", "fma",
                                        "merged-fma", "merged-cm", "fma-interior", "cm-interior", "cm-fma", "interior-r32",
                                        "interior-2rows", "interior-noprev", "noprev-grid", "grid-rsq2",
                                        "jacobi-once", "jacobi-local", "jacobi-k2", "jacobi-k4",
                                        "per-cloth", "readback")
        if w not in names]
# springs of a 33x31 grid: structural 32*31 + 33*30, shear 2*32*30, bend 31*31 + 33*29
springs = 32 * 31 + 33 * 30 + 2 * 32 * 30 + 31 * 31 + 33 * 29
for r in rows:  # stages_s: the frames' commands by stage, readback only where the rung copies back
    want = ["integrate", "relax"] + (["readback"] if r["rung"] == "readback" else [])
    if r["status"] == "ok" and list(r.get("stages_s", {})) != want:
        bad.append("%s: stages_s %r, want %r" % (r["rung"], r.get("stages_s"), want))
for r in rows:  # interior-r32 is NVIDIA's only (-cl-nv-maxrregcount): unsupported elsewhere, with the reason
    if r["rung"] == "interior-r32" and r["status"] == "unsupported" and "nvidia-ptx" in r["reason"]:
        continue
    if r["status"] != "ok":
        bad.append("%s: %s" % (r["rung"], r["status"]))
    if r.get("items") != 2 * 2 * 3 * springs:
        bad.append("%s: items %r, want %d" % (r["rung"], r.get("items"), 2 * 2 * 3 * springs))
    if not str(r.get("size", "")).startswith("33x31 particles x 2,"):
        bad.append("%s: size %r" % (r["rung"], r.get("size")))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF
# One convergence line for the ladder (each rung's at CLGAUGE_DEBUG=1), the racing rung in it.
[ "$(grep -c "spring stretch" "$TESTTMP/cloth.out")" -eq 1 ] &&
    grep -q "^clgauge: cloth: spring stretch (rms) after 3 iterations of the last frame, .*: colour 1.00, .*single [0-9.]*" \
        "$TESTTMP/cloth.out" ||
    { cat "$TESTTMP/cloth.out"; fail "want one convergence line naming every rung, the racing one too"; }

# 2. Broken kernels.
wrong=$TESTTMP/cloth_wrong
mut() { rm -rf "$wrong"; make_wrong cloth.cl "$wrong"; }
caught() {
    local what=$1 rung=$2 grid=$3
    shift 3
    expect_wrong "$what" -- "$BIN" run "$rung" --kernel-dir "$wrong" --grid "$grid" --runs 1 --warmup 0 \
        --steps 2 --iterations 3 "$@"
}
if ! sanitizer_pass; then # more broken kernels: the kernels' checks, tested in the normal pass
mut <<'EOF'
[("return fam >= 4 ? 4 * (t >> 1)", "return fam >= 6 ? 4 * (t >> 1)")]
EOF
caught "bend springs coloured by parity" cloth:colour 17x15
mut <<'EOF'
[("STEP(0, 2, z) STEP(0, -2, z)", "STEP(0, 2, z)")]
EOF
caught "a dropped bend spring" cloth:merged 17x15
caught "a dropped bend spring (Jacobi)" cloth:jacobi 17x15
mut <<'EOF'
[("    return wa * (ws > 1.5f ? 0.5f : 1.0f);", "    return ws > 1.5f ? 0.5f : 1.0f;")]
EOF
caught "pinned particles pulled" cloth:colour 9x7
caught "pinned particles pulled (racing rung: physical check)" cloth:single 9x7
mut <<'EOF'
[("    ACC(pb.y, -dy, fb);", "    ACC(pb.y, dy, fb);")]
EOF
caught "wrong sign of one correction" cloth:colour 17x15
mut <<'EOF'
[("#define INSIDE(dx, dy) (x + (dx) >= 0 && x + (dx) < W &&", "#define INSIDE(dx, dy) (x + (dx) >= 0 && x + (dx) < W - 1 &&")]
EOF
caught "springs to the last column dropped" cloth:best 17x15
mut <<'EOF'
[("    int x = colour < 0 ? gx : ((colour - 2 * y) % 5 + 5) % 5 + 5 * gx;", "    int x = colour < 0 ? gx : ((colour - y) % 5 + 5) % 5 + 5 * gx;")]
EOF
caught "particle colours (x + y) mod 5" cloth:merged 17x15
mut <<'EOF'
[("    nprev[i] = p;", "    nprev[i] = q;")]
EOF
caught "Verlet without velocity" cloth:jacobi,cloth:single 17x15
mut <<'EOF'
[("    for (int k = ly * TX + lx; k < (TY + 4) * TW; k += TX * TY) {", "    for (int k = ly * TX + lx; k < (TY + 3) * TW; k += TX * TY) {")]
EOF
caught "a tile's last halo row not loaded" cloth:local 37x29

mut <<'EOF'
[("    src += base;\n    dst += base;\n#if PR > 1", "    src += base;\n#if PR > 1")]
EOF
caught "Jacobi writes every cloth into the first" cloth:best 9x7 --cloths 3
mut <<'EOF'
[("    size_t base = get_global_id(2) * (size_t)W * H;\n    src += base;\n    dst += base;\n#if PR > 1", "    size_t base = get_group_id(2) * (size_t)W * H;\n    src += base;\n    dst += base;\n#if PR > 1")]
EOF
caught "the cloth from the group id (one launch per cloth)" cloth:per-cloth 9x7 --cloths 3

# jacobi-once: its ring of rows, its factors' buffers and its halo (130 columns: two groups of 125 across; 37
# rows: strips of 16, 16 and 5)
mut <<'EOF'
[("sm = (s + RING - 1) % RING;", "sm = (s + RING - 2) % RING;")]
EOF
caught "jacobi-once: the row above read from the ring two rows up" cloth:jacobi-once 17x15
mut <<'EOF'
[("F11[(s + 1) & 1][lx - 1]", "F11[s & 1][lx - 1]")]
EOF
caught "jacobi-once: a diagonal's factor from this row's buffer" cloth:jacobi-once 17x15
mut <<'EOF'
[("TERM(P[s0][lx - 2], F20[lx - 2])", "TERM(P[s0][lx - 2], F20[lx - 1])")]
EOF
caught "jacobi-once: a bend spring's factor from the wrong column" cloth:jacobi-once 17x15
mut <<'EOF'
[("if (lx == 0 && xe < W) P[s2][TX] = src[v * W + xe];", "")]
EOF
caught "jacobi-once: the column right of the group not loaded" cloth:jacobi-once 130x37
mut <<'EOF'
[("out = col && lx >= 2 && lx <= TX - 2;", "out = col && lx >= 2 && lx <= TX - 3;")]
EOF
caught "jacobi-once: a group's last column not written" cloth:jacobi-once 130x37
mut <<'EOF'
[("for (int r = y0 - 2, s = 0; r < yend; r++, s++) {", "for (int r = y0 - 1, s = 1; r < yend; r++, s++) {")]
EOF
caught "jacobi-once: a strip's walk one row late (the own column ring off by a row)" cloth:jacobi-once 17x37
# the interior path one column too close to the right edge: its bend spring two right wraps to the next row
mut <<'EOF'
[("#define INNER (x >= 2 && x < W - 2 &&", "#define INNER (x >= 2 && x < W - 1 &&")]
EOF
caught "fma-interior: the test-free path at the last column but one" cloth:fma-interior 17x15
caught "cm-interior: the test-free path at the last column but one" cloth:cm-interior 17x15
# merged-cm: the colour-major store's row length and its integration's order
mut <<'EOF'
[("#define P5          ((W + 4) / 5)", "#define P5          ((W + 3) / 5)")]
EOF
caught "merged-cm: a colour's rows a slot short where W is 1 past a multiple of 5 (rows overlap)" cloth:merged-cm 21x9
mut <<'EOF'
[("    x = ((x / P5 - 2 * y) % 5 + 5) % 5 + 5 * (x % P5);", "    x = ((x / P5 - 2 * y) % 5 + 5) % 5 + 5 * (x % P5 + 1);")]
EOF
caught "merged-cm: the integration skips the first particle of each colour's row" cloth:merged-cm 17x15

fi
# 3. Bad input: one line, exit 1, before anything runs.
expect 1 "at least 2x2" -- "$BIN" run cloth --grid 1x1
expect 1 "at least 2x2" -- "$BIN" run cloth --grid 1x40
expect 1 "outside 1 to 1024" -- "$BIN" run cloth --grid 0
expect 1 "outside 1 to 1024" -- "$BIN" run cloth --grid 1025x4
expect 1 "iterations" -- "$BIN" run cloth --iterations 0
expect 1 "whole number from 1 to 1000" -- "$BIN" run cloth --iterations 2.5
expect 1 "whole number from 1 to 1000" -- "$BIN" run cloth --steps 1001
expect 1 "steps" -- "$BIN" run cloth --steps 0
expect 1 "iterations per run" -- "$BIN" run cloth --steps 1000 --iterations 1000
expect 1 "applies to the cloth workload only" -- "$BIN" run saxpy --steps 4
expect 1 "cloths" -- "$BIN" run cloth --cloths 0
expect 1 "whole number from 1 to 4096" -- "$BIN" run cloth --cloths 1.5
expect 1 "whole number from 1 to 4096" -- "$BIN" run cloth --cloths 4097
expect 1 "above 134217728: use a smaller --grid or fewer --cloths" -- "$BIN" run cloth --grid 1024x1024 --cloths 129
expect 1 "the per-cloth rung's launches" -- "$BIN" run cloth --cloths 4000 --grid 4x4 --steps 100 --iterations 10
# beyond the device: the fewest 1024x1024 cloths (within the 2^27-particle bound) whose six buffers pass the
# largest allocation or the global memory; none on a device with more than 12 GiB
over=$("$BIN" devices --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = (d["devices"] if isinstance(d, dict) else d)[0]
buf = 16 << 20  # one 1024x1024 cloth in one buffer
n = next((n for n in range(1, 129) if n * buf > d["max_alloc_bytes"] or 6 * n * buf > d["global_mem_bytes"]), 0)
print(n or "")')
if [ -n "$over" ]; then
    expect 1 "use a smaller --grid or fewer --cloths" -- "$BIN" run cloth --grid 1024x1024 --cloths "$over"
else
    echo "test_cloth: no cloth count passes this device's memory within 2^27 particles: that refusal not tested"
fi
n=$("$BIN" run cloth --grid 1x1 2>&1 | wc -l)
[ "$n" -eq 1 ] || fail "--grid 1x1: $n lines, want one"
expect 0 "not the cloth's size" -- "$BIN" run cloth --size 64 --grid 5x5 --steps 1 --iterations 1 --runs 1 --warmup 0

# 4. The timed CPU-order reference: one line per ladder (per item of a sweep), its time and rate, against the
#    fastest rung that passed; "no rung passed" when none did.
cpu_re="^clgauge: cloth: CPU-order reference (Gauss-Seidel in spring order, one host thread's CPU time, the same 2 frames x 3 iterations, integration included): [0-9.e+]* [mu]*s (median of [12]) = [0-9.e+]* M particle-it/s; "
"$BIN" run cloth:colour,cloth:best --grid 9x7,12x5 --steps 2 --iterations 3 --runs 2 --warmup 0 >"$TESTTMP/cloth_cpu.out" 2>&1 ||
    { cat "$TESTTMP/cloth_cpu.out"; fail "CPU reference run"; }
[ "$(grep -c "CPU-order reference" "$TESTTMP/cloth_cpu.out")" -eq 2 ] &&
    [ "$(grep -c "${cpu_re}the fastest rung, \(colour\|best\) ([0-9.e+]* [mu]*s), is [0-9.e+]*x as fast$" "$TESTTMP/cloth_cpu.out")" -eq 2 ] ||
    { cat "$TESTTMP/cloth_cpu.out"; fail "want one CPU-order reference line per grid of the sweep, naming the fastest rung"; }
mut <<'EOF2'
[("    ACC(pb.y, -dy, fb);", "    ACC(pb.y, dy, fb);")]
EOF2
"$BIN" run cloth:colour --kernel-dir "$wrong" --grid 9x7 --steps 2 --iterations 3 --runs 1 --warmup 0 \
    >"$TESTTMP/cloth_cpu.out" 2>&1
grep -q "${cpu_re}no rung passed to compare with$" "$TESTTMP/cloth_cpu.out" ||
    { cat "$TESTTMP/cloth_cpu.out"; fail "a ladder with no passing rung: want the CPU line without a comparison"; }

# 5. --output: the first cloth after the last verified run, 800x600 8-bit grey, drawn (not one grey level, the
#    cloth a large part of it), the final state (a long run differs from a short one), only the first cloth
#    (--cloths 3 draws what --cloths 1 draws), the racing rung too; deterministic rungs give the same picture
#    twice; never replaced by a failed run or a usage error; an unwritable path refused up front with one line,
#    exit 5; one picture per run.
pic() { # pic NAME ARGS...: runs cloth with --output $TESTTMP/cloth_NAME.png
    local name=$1
    shift
    rm -f "$TESTTMP/cloth_$name.png"
    expect_ok "--output $name" -- run1 "$@" --output "$TESTTMP/cloth_$name.png"
}
pic short cloth:colour --grid 17x15 --steps 1 --iterations 3
pic short2 cloth:colour --grid 17x15 --steps 1 --iterations 3
pic long cloth:colour --grid 17x15 --steps 200 --iterations 3
pic three cloth:colour --grid 17x15 --steps 200 --iterations 3 --cloths 3
pic single cloth:single --grid 17x15 --steps 20 --iterations 3
pic ladder cloth --grid 33x31 --steps 2 --iterations 3
python3 - "$TESTTMP" <<'EOF2' || fail "--output PNG checks (above)"
import struct, sys, zlib
def grey(path):
    d = open(path, "rb").read()
    if d[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("  %s is not a PNG file" % path)
    w, h, depth, ctype, comp, filt, inter = struct.unpack(">IIBBBBB", d[16:29])
    if (w, h, depth, ctype, inter) != (800, 600, 8, 0, 0):
        sys.exit("  %s is %dx%d depth %d type %d, want 800x600 8-bit grey" % (path, w, h, depth, ctype))
    idat, k = b"", 8
    while k < len(d):
        n, t = struct.unpack(">I4s", d[k:k + 8])
        if t == b"IDAT":
            idat += d[k + 8:k + 8 + n]
        k += 12 + n
    raw, rows, prev = zlib.decompress(idat), [], bytearray(w)
    for y in range(h):  # undo the row filters (PNG spec 9.2)
        f, line = raw[y * (w + 1)], bytearray(raw[y * (w + 1) + 1:(y + 1) * (w + 1)])
        for x in range(w):
            a, b = line[x - 1] if x else 0, prev[x]
            c = prev[x - 1] if x else 0
            p = a + b - c
            pred = [0, a, b, (a + b) // 2, a if abs(p - a) <= min(abs(p - b), abs(p - c)) else b if abs(p - b) <= abs(p - c) else c][f]
            line[x] = (line[x] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return b"".join(rows)
t = sys.argv[1] + "/cloth_%s.png"
px = {n: grey(t % n) for n in ("short", "short2", "long", "three", "single", "ladder")}
for n, p in px.items():
    bg = p[0]  # the corner is background (the margin)
    cloth = sum(v != bg for v in p)
    if len(set(p)) < 3 or cloth < 0.2 * len(p):
        sys.exit("  %s: %d grey levels, %d of %d pixels off the background: want the cloth drawn" % (n, len(set(p)), cloth, len(p)))
if px["short"] != px["short2"]:
    sys.exit("  the same deterministic run drew two different pictures")
if px["short"] == px["long"]:
    sys.exit("  200 frames drew the same picture as 1: not the final state")
if px["three"] != px["long"]:
    sys.exit("  --cloths 3 did not draw the first cloth alone")
EOF2
echo keep >"$TESTTMP/cloth_keep.png"
expect 5 "^clgauge: error: cannot write $TESTTMP/cloth_keep.png: no cloth rung produced a verified state$" -- \
    "$BIN" run cloth:colour --kernel-dir "$wrong" --grid 9x7 --steps 2 --iterations 3 --runs 1 \
    --warmup 0 --output "$TESTTMP/cloth_keep.png"
[ "$(cat "$TESTTMP/cloth_keep.png")" = keep ] || fail "a run whose rungs all FAILED replaced the --output file"
[ "$(grep -c "^clgauge: error" "$TESTTMP/test_cloth_err.out")" -eq 1 ] || fail "a failed --output: want one error line"
expect 1 "iterations" -- "$BIN" run cloth --iterations 0 --output "$TESTTMP/cloth_keep.png"
[ "$(cat "$TESTTMP/cloth_keep.png")" = keep ] || fail "a usage error replaced the --output file"
expect 5 "^clgauge: error: cannot write --output file $TESTTMP/nodir/c.png: No such file or directory; choose a writable path$" -- \
    "$BIN" run cloth --grid 9x7 --output "$TESTTMP/nodir/c.png"
[ "$(wc -l <"$TESTTMP/test_cloth_err.out")" -eq 1 ] || fail "an unwritable --output: want one line"
expect 5 "cannot write --output file $TESTTMP: is a directory" -- "$BIN" run cloth --grid 9x7 --output "$TESTTMP"
if [ "$(id -u)" -ne 0 ]; then # root writes a read-only file anyway
    chmod 444 "$TESTTMP/cloth_keep.png"
    expect 5 "cannot write --output file .*Permission denied" -- "$BIN" run cloth --grid 9x7 --output "$TESTTMP/cloth_keep.png"
    [ "$(cat "$TESTTMP/cloth_keep.png")" = keep ] || fail "a read-only --output file was replaced"
    chmod 644 "$TESTTMP/cloth_keep.png"
fi
if [ -w /dev/full ]; then # the check passes, the late write fails: the link is kept
    rm -f "$TESTTMP/cloth_full.png"
    ln -s /dev/full "$TESTTMP/cloth_full.png"
    expect 5 "cannot write" -- "$BIN" run cloth:best --grid 9x7 --steps 2 --iterations 3 --runs 1 --warmup 0 \
        --output "$TESTTMP/cloth_full.png"
    [ -L "$TESTTMP/cloth_full.png" ] || fail "a failed --output write removed the link to /dev/full"
fi
expect 1 "one picture" -- "$BIN" run cloth,blur --output "$TESTTMP/c.png"

finish
