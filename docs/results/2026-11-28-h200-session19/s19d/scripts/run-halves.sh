#!/usr/bin/env bash
# exp: f16x3-halves at its tuned shapes, the committed kernel against kernel copies (the filter-row loop
# unrolled by 2, or fully), 10 runs a candidate; then the halves-edge mutant. Run from /tmp/head after head.sh built.
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache; cg=./build-gpu/clgauge
nvidia-smi --query-gpu=name,driver_version --format=csv >$out/gpu.txt
for k in base h-u2 h-uf; do
  kd=; [ $k = base ] || kd="--kernel-dir exp/$k"
  for fs in "17 bx=64;by=16;ly=4" "32 bx=32;by=16;ly=4"; do
    f=${fs%% *}; sp=${fs#* }
    echo "\$ clgauge tune convolution:f16x3-halves --filter $f --size 8192 --space '$sp' --runs 10 $kd --device gpu --json $k-$f.json" >>$out/commands.txt
    timeout 60 $cg tune convolution:f16x3-halves --filter $f --size 8192 --space "$sp" --runs 10 $kd --device gpu --json $out/$k-$f.json >$out/$k-$f.txt 2>&1
    echo "rc=$?" >>$out/commands.txt
    echo "$k $f: $(grep -E '^  1 ' $out/$k-$f.txt)"
  done
done
echo "\$ scripts/mutation.sh --only conv-f16-halves-edge --device gpu" >>$out/commands.txt
timeout 60 scripts/mutation.sh --only conv-f16-halves-edge --clgauge $cg --device gpu >$out/halves-edge-mutant.txt 2>&1
echo "rc=$?" >>$out/commands.txt
tail -4 $out/halves-edge-mutant.txt
