#!/usr/bin/env bash
# exp (s21c): b-ilp (f16x3-vec with the next step's row pass computed beside this step's column pass) against
# the committed f16x3-vec, same searches
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache-x; cg=./build-gpu/clgauge
for v in committed b-ilp; do
  kd=""; [ $v != committed ] && kd="--kernel-dir exp/$v"
  echo "\$ clgauge tune blur:f16x3-vec --space 'ly=1,4;py=64' --size 1000x777 --sigma 5 --check exact --runs 1 --warmup 0 $kd --device gpu --no-cache" >>$out/commands.txt
  timeout 60 $cg tune blur:f16x3-vec --space 'ly=1,4;py=64' --size 1000x777 --sigma 5 --check exact --runs 1 --warmup 0 $kd --device gpu --no-cache >$out/$v-odd.txt 2>&1
  echo "rc=$?" >>$out/commands.txt
  for s in 4096x4096 8192x8192; do
    sp='ly=1,2,4;py=256,512'; [ $s = 8192x8192 ] && sp='ly=1,2;py=256,512'
    echo "\$ clgauge tune blur:f16x3-vec --space '$sp' --size $s --sigma 5 --runs 5 $kd --device gpu" >>$out/commands.txt
    timeout 70 $cg tune blur:f16x3-vec --space "$sp" --size $s --sigma 5 --runs 5 $kd --device gpu --json $out/$v-t$s.json >$out/$v-t$s.txt 2>&1
    echo "rc=$?" >>$out/commands.txt
    echo "== $v $s"; grep -E '^ +[123] ' $out/$v-t$s.txt
  done
done
