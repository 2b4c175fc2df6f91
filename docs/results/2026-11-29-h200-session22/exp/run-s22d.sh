#!/usr/bin/env bash
# exp (s22d): f16x3-vec with L2 prefetches of its input rows 1, 2 or 4 steps (16 rows each) ahead (p-1, p-2,
# p-4: one prefetch.global.L2 a lane, lanes 0-15: the warp's own 16 columns of each row), its float4 loads with
# the L2::256B hint (p-256), and x-st2 (each store twice, without s22b's memory clobber)
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache-d; cg=./build-gpu/clgauge
for v in committed p-1 p-2 p-4 p-256 x-st2 committed2; do
  kd=""; case $v in committed*) ;; *) kd="--kernel-dir exp/$v" ;; esac
  for s in 4096x4096 8192x8192; do
    r=20 sp='ly=2,4;py=512'; [ $s = 8192x8192 ] && r=5 sp='ly=1,2;py=512'
    echo "\$ clgauge tune blur:f16x3-vec --space '$sp' --size $s --sigma 5 --runs $r $kd --device gpu" >>$out/commands.txt
    timeout 60 $cg tune blur:f16x3-vec --space "$sp" --size $s --sigma 5 --runs $r $kd --device gpu --json $out/$v-$s.json >$out/$v-$s.txt 2>&1
    echo "rc=$?" >>$out/commands.txt
    echo "== $v $s $(grep -E '^ +1 ' $out/$v-$s.txt)"
  done
done
