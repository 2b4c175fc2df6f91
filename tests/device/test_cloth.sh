#!/usr/bin/env bash
# Device test of the cloth ladder on the default device:
#  1. every rung on grids of awkward sizes (the smallest 2x2 and 3x3, thin ones, one wider and narrower than a
#     64-wide or 16x16 work-group, sides that leave every remainder of the colours' periods 2, 4 and 5), odd
#     and even --iterations (the Jacobi iterate ends in the other buffer) and --steps (the frame ping-pong);
#     several --cloths in one launch and one launch each; deterministic rungs must equal the host reference of
#     their scheme bit for bit, every rung must pass the physical checks; the JSON names every rung, its size,
#     and springs as its items;
#  2. deliberately broken kernels, each one plausible bug, must fail (exit 3, FAILED);
#  3. bad input is refused before anything runs: one line, exit 1.
# Usage: bash test_cloth.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

run1() { "$BIN" run "$@" --runs 1 --warmup 1; }

# 1. Sizes and counts.
for g in 2x2 3x3 17x5 5x17 33x31 63x4 65x3 15x17 17x15 2x9 9x2 37x29; do
    expect_ok "cloth --grid $g" -- run1 cloth --grid "$g" --steps 3 --iterations 3
done
expect_ok "cloth, even iterations and steps" -- run1 cloth --grid 21x13 --steps 2 --iterations 4
expect_ok "cloth, one step of one iteration" -- run1 cloth --grid 21x13 --steps 1 --iterations 1
expect_ok "cloth, a sweep" -- run1 cloth --grid 7x6,12x11 --steps 2 --iterations 2
expect_ok "cloth, 3 cloths" -- run1 cloth --grid 17x15 --cloths 3 --steps 2 --iterations 3
expect_ok "cloth, 5 cloths of 2x3" -- run1 cloth --grid 2x3 --cloths 5 --steps 3 --iterations 2
expect_ok "cloth default grid" -- run1 cloth

json=$TESTTMP/cloth.json
rm -f "$json"
run1 cloth --grid 33x31 --cloths 2 --steps 2 --iterations 3 --json "$json" >"$TESTTMP/cloth.out" 2>&1 ||
    { cat "$TESTTMP/cloth.out"; fail "run"; }
python3 - "$json" <<'EOF' || fail "JSON checks (above)"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["results"] if r["workload"] == "cloth"]
bad = []
names = [r["rung"] for r in rows]
bad += ["rung %s missing" % w for w in ("colour", "merged", "single", "jacobi", "local", "best", "per-cloth",
                                        "readback")
        if w not in names]
# springs of a 33x31 grid: structural 32*31 + 33*30, shear 2*32*30, bend 31*31 + 33*29
springs = 32 * 31 + 33 * 30 + 2 * 32 * 30 + 31 * 31 + 33 * 29
for r in rows:  # stages_s: the frames' commands by stage, readback only where the rung copies back
    want = ["integrate", "relax"] + (["readback"] if r["rung"] == "readback" else [])
    if r["status"] == "ok" and list(r.get("stages_s", {})) != want:
        bad.append("%s: stages_s %r, want %r" % (r["rung"], r.get("stages_s"), want))
for r in rows:
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
    expect_wrong "$what" -- "$BIN" run "$rung" --kernel-dir "$wrong" --no-cache --grid "$grid" --runs 1 --warmup 0 \
        --steps 2 --iterations 3 "$@"
}
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
[("    pb.y = pb.y - dy * fb;", "    pb.y = pb.y + dy * fb;")]
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
[("    src += base;\n    dst += base;\n    int i = y * W + x, n = 0;", "    src += base;\n    int i = y * W + x, n = 0;")]
EOF
caught "Jacobi writes every cloth into the first" cloth:best 9x7 --cloths 3
mut <<'EOF'
[("    size_t base = get_global_id(2) * (size_t)W * H;\n    src += base;\n    dst += base;\n    int i = y * W + x, n = 0;", "    size_t base = get_group_id(2) * (size_t)W * H;\n    src += base;\n    dst += base;\n    int i = y * W + x, n = 0;")]
EOF
caught "the cloth from the group id (one launch per cloth)" cloth:per-cloth 9x7 --cloths 3

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

finish
