#!/usr/bin/env bash
# exp (s21a): f16x3-sep kernel copies: b-gen (the kernel rewritten with NB = 1, no change meant), b-pf (next
# chunk's loads before this chunk's products), b-v2 (float2 loads on interior warps), b-pfv2 (both), b-w32 (32
# columns a warp: 4 input chunks for 2 blocks), b-w32pv (w32 with pf and v2); base = the commit's kernel
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache; cg=./build-gpu/clgauge
for v in base b-gen b-pf b-v2 b-pfv2 b-w32 b-w32pv; do
  kd=""; [ $v != base ] && kd="--kernel-dir exp/$v"
  for s in 1001x777 334x517; do
    ck=""; [ $s = 334x517 ] && ck="--check exact"
    echo "\$ clgauge tune blur:f16x3-sep --space 'ly=1,4;py=64' --size $s --sigma 5 $ck --runs 1 --warmup 0 $kd --device gpu" >>$out/commands.txt
    timeout 60 $cg tune blur:f16x3-sep --space 'ly=1,4;py=64' --size $s --sigma 5 $ck --runs 1 --warmup 0 $kd --device gpu --no-cache >$out/$v-$s.txt 2>&1
    echo "rc=$?" >>$out/commands.txt
  done
  for s in 4096x4096 8192x8192; do
    sp='ly=1,2,4;py=256,512'; [ $s = 8192x8192 ] && sp='ly=1,2;py=256,512'
    echo "\$ clgauge tune blur:f16x3-sep --space '$sp' --size $s --sigma 5 --runs 5 $kd --device gpu --json $v-t$s.json" >>$out/commands.txt
    timeout 70 $cg tune blur:f16x3-sep --space "$sp" --size $s --sigma 5 --runs 5 $kd --device gpu --json $out/$v-t$s.json >$out/$v-t$s.txt 2>&1
    echo "rc=$?" >>$out/commands.txt
    echo "== $v $s"; grep -E '^ +[123] ' $out/$v-t$s.txt
  done
done
