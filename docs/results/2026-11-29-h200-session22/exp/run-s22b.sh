#!/usr/bin/env bash
# exp (s22b): what a step of f16x3-vec waits on, by added work: each copy adds one kind of instruction (its
# result discarded, asm volatile keeps it) and its time says what that kind costs at 4096^2 (ly 2, py 512).
# x-cvt: each split's two conversions twice; x-mma: each product twice; x-st: each store twice; x-ld: each
# float4 load twice; x-alu: four dependent fp32 FMAs a split
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache-b; cg=./build-gpu/clgauge
for v in committed x-cvt x-mma x-st x-ld x-alu committed2 b-lt; do
  kd=""; case $v in committed*) ;; *) kd="--kernel-dir exp/$v" ;; esac
  for s in 4096x4096 8192x8192; do
    r=20; [ $s = 8192x8192 ] && r=5
    echo "\$ clgauge tune blur:f16x3-vec --space 'ly=2;py=512;regs=0' --size $s --sigma 5 --runs $r $kd --device gpu" >>$out/commands.txt
    timeout 60 $cg tune blur:f16x3-vec --space 'ly=2;py=512;regs=0' --size $s --sigma 5 --runs $r $kd --device gpu --json $out/$v-$s.json >$out/$v-$s.txt 2>&1
    echo "rc=$?" >>$out/commands.txt
    echo "== $v $s $(grep -E '^ +1 ' $out/$v-$s.txt)"
  done
done
