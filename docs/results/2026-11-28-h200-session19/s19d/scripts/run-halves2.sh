#!/usr/bin/env bash
# exp (s19e): f16x3-halves, the committed kernel at more shapes (8 warps a group) against a kernel copy with the
# three products in one accumulator (lo unscaled: exp/h-acc1), 10 runs a candidate. Run from /tmp/head after head.sh built.
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache; cg=./build-gpu/clgauge
nvidia-smi --query-gpu=name,driver_version --format=csv >$out/gpu.txt
t() { # t NAME FILTER SPACE [--kernel-dir DIR]
  local name=$1 f=$2 sp=$3; shift 3
  echo "\$ clgauge tune convolution:f16x3-halves --filter $f --size 8192 --space '$sp' --runs 10 $* --device gpu --json $name.json" >>$out/commands.txt
  timeout 90 $cg tune convolution:f16x3-halves --filter $f --size 8192 --space "$sp" --runs 10 "$@" --device gpu --json $out/$name.json >$out/$name.txt 2>&1
  echo "rc=$?" >>$out/commands.txt
  echo "== $name"; grep -E '^  [0-9] ' $out/$name.txt | head -8
}
t base-17 17 'bx=32,64;by=16;ly=4,8'
t acc1-17 17 'bx=32,64;by=16,32;ly=2,4,8' --kernel-dir exp/h-acc1
t base-32 32 'bx=32;by=16;ly=4,8'
t acc1-32 32 'bx=32,64;by=16,32;ly=2,4,8' --kernel-dir exp/h-acc1
