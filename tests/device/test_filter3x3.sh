#!/usr/bin/env bash
# Device test of the filter3x3 ladder on the default device: every rung at an awkward size (1001x777: no
# multiple of any tile or vector width) and at one whose rows are vector-aligned (256x130) against the CPU
# reference; every rung at sizes of every residue modulo 4 (and 8, the u8-vec width) each way, one row, one
# column and one pixel, with --check random and exact; the image rungs `unsupported` under --mask-features
# images; kernels that skip one pixel, round wrongly or have a weight off by 1e-4 relative caught with exit 3; PNG input and output (same size out as in); and the input errors: a
# missing file and a corrupt PNG exit 5 naming the file, --input with --size exits 1.
# Usage: bash test_filter3x3.sh /path/to/clgauge   (env: TESTTMP scratch dir, TESTDATA = tests/data)
. "$(dirname "$0")/lib.sh"

# check_rows JSON WANT_IMAGES SIZE: every rung present; ok, or (image rungs) unsupported when WANT_IMAGES is
# "masked"; every ok row has the size given.
check_rows() {
    python3 - "$@" <<'EOF'
import json, sys
path, images, size = sys.argv[1:4]
rep = json.load(open(path))
rows = [r for r in rep["results"] if r["workload"] == "filter3x3"]
bad = 0
def no(msg):
    global bad
    print("  " + msg)
    bad += 1
names = [r["rung"] for r in rows]
for want in ("u8-buf-div", "u8-img-div4", "u8-img-div1", "u8-buf-shift", "u8-img-shift", "u8-img-expr",
             "u8-img-centre", "u8-buf-32x4", "u8-img-32x4", "u8-local", "u8-vec", "u8-vec-16x16",
             "f32-buf-div", "f32-img-div4", "f32-img-div1", "f32-buf-native", "f32-buf-mul", "f32-img-native",
             "f32-img-expr", "f32-img-centre", "f32-buf-32x4", "f32-img-32x4", "f32-local", "f32-vec"):
    if want not in names:
        no("rung %s missing from the report (have %s)" % (want, names))
for r in rows:
    is_img = "-img" in r["rung"]
    want = "unsupported" if (is_img and images == "masked") else "ok"
    if r["status"] != want and not (is_img and r["status"] == "unsupported"):
        no("rung %s: status %s, want %s (%s)" % (r["rung"], r["status"], want, r.get("reason", "")))
    if r["status"] == "ok" and r.get("size") != size:
        no("rung %s: size %r, want %r" % (r["rung"], r.get("size"), size))
    if r["status"] == "ok" and r.get("mismatches", 1) != 0:
        no("rung %s: ok with %s mismatches" % (r["rung"], r.get("mismatches")))
if images == "masked" and not any("-img" in r["rung"] and r["status"] == "unsupported" for r in rows):
    no("no image rung reported unsupported under --mask-features images")
sys.exit(1 if bad else 0)
EOF
}

# 1. Every rung at 1001x777 and 256x130 (unaligned and aligned vector paths).
for size in 1001x777 256x130; do
    json=$TESTTMP/f3_$size.json
    rm -f "$json"
    "$BIN" run filter3x3 --size "$size" --runs 2 --warmup 1 --json "$json" >"$TESTTMP/f3.out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || { cat "$TESTTMP/f3.out"; fail "run filter3x3 --size $size exited $rc, want 0"; }
    if [ -s "$json" ]; then
        check_rows "$json" present "$size px" || fail "JSON checks at $size (above)"
    else
        fail "no JSON report at $json"
    fi
done

# 1b. Tails: every residue of w and h modulo 4, w modulo 8, one row, one column, one pixel; both checks; each
#     list one sweep (one process: every size its own inputs and check).
for check in random exact; do
    for size in 67x43,34x20,62x17,13x6,1x37,45x1,1x1; do
        "$BIN" run filter3x3 --size "$size" --check "$check" --runs 1 --warmup 0 >"$TESTTMP/f3_tail.out" 2>&1
        rc=$?
        if [ "$rc" -ne 0 ] || grep -q FAILED "$TESTTMP/f3_tail.out"; then
            cat "$TESTTMP/f3_tail.out"
            fail "run filter3x3 --size $size --check $check: exit $rc, want 0 and no FAILED row"
        fi
    done
done

# 2. Images masked: the image rungs are unsupported, the others ok, exit 0.
json=$TESTTMP/f3_mask.json
rm -f "$json"
"$BIN" run filter3x3 --size 300x200 --runs 1 --warmup 0 --mask-features images --json "$json" \
    >"$TESTTMP/f3_mask.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { cat "$TESTTMP/f3_mask.out"; fail "--mask-features images exited $rc, want 0"; }
if [ -s "$json" ]; then
    check_rows "$json" masked "300x200 px" || fail "JSON checks with images masked (above)"
else
    fail "no JSON report at $json"
fi

# 2b. One image format masked (a device with images but without that optional CL_R format): only the rungs
#     reading it (u8-img-*, f32-img-*) are unsupported, naming the format, and the run exits 0.
for fmt in image-r8:u8-img- image-rf:f32-img-; do
    feat=${fmt%%:*} rung=${fmt##*:}
    "$BIN" run filter3x3 --size 64x48 --runs 1 --warmup 0 --mask-features "$feat" --json "$TESTTMP/f3_fmt.json" \
        >"$TESTTMP/f3_fmt.out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || { cat "$TESTTMP/f3_fmt.out"; fail "--mask-features $feat exited $rc, want 0"; }
    python3 - "$TESTTMP/f3_fmt.json" "$rung" "$feat" <<'EOF' || fail "--mask-features $feat: JSON checks (above)"
import json, sys
rows = {r["rung"]: r for r in json.load(open(sys.argv[1]))["results"]}
rung, feat = sys.argv[2], sys.argv[3]
bad = []
for n, r in rows.items():
    if n.startswith(rung) and (r["status"] != "unsupported" or "device lacks %s" % feat not in r.get("reason", "")):
        bad.append("%s: %s (%s), want unsupported naming %s" % (n, r["status"], r.get("reason", ""), feat))
    if not n.startswith(rung) and r["status"] != "ok":
        bad.append("%s: %s (%s), want ok" % (n, r["status"], r.get("reason", "")))
if sum(n.startswith(rung) for n in rows) != 6:
    bad.append("want 6 rungs %s*, have %s" % (rung, sorted(rows)))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF
done

# 3. Wrong kernels must be caught (exit 3, FAILED): u8-buf-shift skips pixel (5,3), so only the poison is
#    there; u8-vec rounds with +7; f32-vec divides by 16.002; f32-buf (per-pixel sum) and f32-local (tile
#    sum) have a weight 2 off by 1e-4 relative, f32-vec its centre column's, with random data and exact.
wrong=$TESTTMP/f3_wrong
make_wrong filter3x3.cl "$wrong" <<'EOF'
[("    if (x < w && y < h)\n        out[y * w + x] = (uchar)((sum_u8(in, x, y, w, h) + 8) >> 4);",
  "    if (x < w && y < h && !(x == 5 && y == 3))\n"
  "        out[y * w + x] = (uchar)((sum_u8(in, x, y, w, h) + 8) >> 4);"),
 ("(s + (ushort)8) >> (ushort)4", "(s + (ushort)7) >> (ushort)4"),
 ("STORE_F32V(native_divide(s, (floatv)16.0f),", "STORE_F32V(native_divide(s, (floatv)16.002f),")]
EOF
R=filter3x3:u8-buf-shift,filter3x3:u8-vec,filter3x3:f32-vec
expect_wrong_each "wrong kernels" "$R" -- "$BIN" run "$R" --kernel-dir "$wrong" --size 256x130 --runs 2 --warmup 0
wrongw=$TESTTMP/f3_wrong_weight
make_wrong filter3x3.cl "$wrongw" <<'EOF'
[("return t[xl] + 2.0f * t[x]", "return t[xl] + 2.0002f * t[x]"),
 ("floatv v = LOAD_F32V(m - w) + 2.0f * LOAD_F32V(m)", "floatv v = LOAD_F32V(m - w) + 2.0002f * LOAD_F32V(m)"),
 ("TILE_SUM(tile, lx, ly, 2.0f, 4.0f)", "TILE_SUM(tile, lx, ly, 2.0002f, 4.0f)")]
EOF
for check in random exact; do
    R=filter3x3:f32-buf-div,filter3x3:f32-vec,filter3x3:f32-local
    expect_wrong_each "weight off by 1e-4 ($check)" "$R" -- "$BIN" run "$R" --kernel-dir "$wrongw" --size 67x43 \
        --check "$check" --runs 1 --warmup 0
done

# 4. PNG in, PNG out of the same size.
out=$TESTTMP/f3_out.png
rm -f "$out"
"$BIN" run filter3x3 --input "$TESTDATA/rgb_13x7.png" --output "$out" --runs 1 --warmup 0 \
    >"$TESTTMP/f3_png.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { cat "$TESTTMP/f3_png.out"; fail "--input/--output exited $rc, want 0"; }
python3 - "$TESTDATA/rgb_13x7.png" "$out" <<'EOF' || fail "output PNG checks (above)"
import struct, sys
def ihdr(path):
    d = open(path, "rb").read()
    if d[:8] != b"\x89PNG\r\n\x1a\n" or d[12:16] != b"IHDR":
        sys.exit("  %s is not a PNG file" % path)
    w, h, depth, ctype = struct.unpack(">IIBB", d[16:26])
    return w, h, depth, ctype
src, got = ihdr(sys.argv[1]), ihdr(sys.argv[2])
if got[:2] != src[:2]:
    sys.exit("  output is %dx%d, input %dx%d" % (got[0], got[1], src[0], src[1]))
if got[2:] != (8, 0):
    sys.exit("  output is depth %d colour type %d, want 8-bit grey" % got[2:])
EOF

# 5. Input errors: exit code and a message naming the file.
expect 5 "no_such_file.png" -- "$BIN" run filter3x3 --input "$TESTTMP/no_such_file.png"
expect 5 "truncated.png" -- "$BIN" run filter3x3 --input "$TESTDATA/truncated.png"
expect 5 "not_a_png.png: not a PNG" -- "$BIN" run filter3x3 --input "$TESTDATA/not_a_png.png"
expect 1 "size" -- "$BIN" run filter3x3 --input "$TESTDATA/rgb_13x7.png" --size 64x64

finish
