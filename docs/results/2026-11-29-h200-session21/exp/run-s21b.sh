#!/usr/bin/env bash
# exp (s21b): f16x3-sep kernel copies: b-v2 (float2 loads on interior warps, again), b-v2s (+ float2 stores),
# b-v4 (float4 loads, k permuted in both passes), b-v4s (+ float2 stores)
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache; cg=./build-gpu/clgauge
echo "\$ clgauge run blur:fused-ring,blur:f16x3-sep --size 4096x4096 --sigma 5 --runs 10 --device gpu --no-tuned" >>$out/commands.txt
timeout 60 $cg run blur:fused-ring,blur:f16x3-sep --size 4096x4096 --sigma 5 --runs 10 --device gpu --no-tuned >$out/ref-4096.txt 2>&1
echo "rc=$?" >>$out/commands.txt; grep -E "^blur|Roofline" $out/ref-4096.txt
for v in b-v2s b-v4 b-v4s; do
  for s in 1001x777 1000x777 336x517; do
    ck=""; [ $s = 336x517 ] && ck="--check exact"
    echo "\$ clgauge tune blur:f16x3-sep --space 'ly=1,4;py=64' --size $s --sigma 5 $ck --runs 1 --warmup 0 --kernel-dir exp/$v --device gpu --no-cache" >>$out/commands.txt
    timeout 60 $cg tune blur:f16x3-sep --space 'ly=1,4;py=64' --size $s --sigma 5 $ck --runs 1 --warmup 0 --kernel-dir exp/$v --device gpu --no-cache >$out/$v-$s.txt 2>&1
    echo "rc=$?" >>$out/commands.txt
  done
done
for v in b-v2 b-v2s b-v4 b-v4s; do
  for s in 4096x4096 8192x8192; do
    sp='ly=1,2,4;py=256,512'; [ $s = 8192x8192 ] && sp='ly=1,2;py=256,512'
    echo "\$ clgauge tune blur:f16x3-sep --space '$sp' --size $s --sigma 5 --runs 5 --kernel-dir exp/$v --device gpu --json $v-t$s.json" >>$out/commands.txt
    timeout 70 $cg tune blur:f16x3-sep --space "$sp" --size $s --sigma 5 --runs 5 --kernel-dir exp/$v --device gpu --json $out/$v-t$s.json >$out/$v-t$s.txt 2>&1
    echo "rc=$?" >>$out/commands.txt
    echo "== $v $s"; grep -E '^ +[123] ' $out/$v-t$s.txt
  done
done
for sg in 2 10 16; do
  echo "\$ clgauge tune blur:f16x3-sep --space 'ly=1,2;py=512' --size 4096x4096 --sigma $sg --runs 5 --kernel-dir exp/b-v4s --device gpu" >>$out/commands.txt
  timeout 60 $cg tune blur:f16x3-sep --space 'ly=1,2;py=512' --size 4096x4096 --sigma $sg --runs 5 --kernel-dir exp/b-v4s --device gpu >$out/v4s-s$sg.txt 2>&1
  echo "rc=$?" >>$out/commands.txt; echo "== v4s sigma $sg"; grep -E '^ +[12] ' $out/v4s-s$sg.txt
done
