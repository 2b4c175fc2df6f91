#!/usr/bin/env bash
# exp (s19f): f16x3-halves at its tuned shapes: the committed kernel, the tile's load loop unrolled by 4
# (exp/h-ld4), the three products in one accumulator (exp/h-acc1) and both (exp/h-ld4acc1), 20 runs a candidate.
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache; cg=./build-gpu/clgauge
nvidia-smi --query-gpu=name,driver_version --format=csv >$out/gpu.txt
for k in base h-ld4 h-acc1 h-ld4acc1; do
  kd=; [ $k = base ] || kd="--kernel-dir exp/$k"
  for fs in "17 bx=64;by=16;ly=4" "32 bx=32;by=16;ly=4"; do
    f=${fs%% *}; sp=${fs#* }
    echo "\$ clgauge tune convolution:f16x3-halves --filter $f --size 8192 --space '$sp' --runs 20 $kd --device gpu --json $k-$f.json" >>$out/commands.txt
    timeout 60 $cg tune convolution:f16x3-halves --filter $f --size 8192 --space "$sp" --runs 20 $kd --device gpu --json $out/$k-$f.json >$out/$k-$f.txt 2>&1
    echo "rc=$?" >>$out/commands.txt
    echo "$k $f: $(grep -E '^  1 ' $out/$k-$f.txt)"
  done
done
