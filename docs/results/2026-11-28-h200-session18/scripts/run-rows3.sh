#!/bin/bash
# exp/run-rows3.sh OUT: tf32x3-rows with the warps splitting the filter rows: the conv-rows checks, then the
# searches over by x ly at 32x32 and 17x17 for U = 4 and 8 (EXPOPTS)
out=$1; mkdir -p $out
GPU_JOBS="conv-rows" bash scripts/gpu-ladders.sh $out > $out/jobs.txt 2>&1
for f in rows-exact rows-random rows-8192; do echo "== $f"; grep -E "rows|FAIL|rror" $out/$f.txt | cut -c1-110; done
. .gpu/env.sh
export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache
cg=./build-gpu/clgauge
for U in 4 8; do for f in 32 17; do
  export EXPOPTS="-DROWS_U=$U"
  echo "\$ EXPOPTS='$EXPOPTS' clgauge tune convolution:tf32x3-rows --filter $f --size 8192 --space 'by=256,512;ly=1,2,4' --runs 3 --device gpu" >> $out/commands.txt
  timeout 120 $cg tune convolution:tf32x3-rows --filter $f --size 8192 --space 'by=256,512;ly=1,2,4' --runs 3 --device gpu --json $out/tune-u$U-$f.json > $out/tune-u$U-$f.txt 2>&1
  echo "rc=$?" >> $out/commands.txt
  echo "== U=$U f=$f"; grep -E "^  [0-9]|rror|FAIL" $out/tune-u$U-$f.txt | cut -c1-100
done; done
unset EXPOPTS
timeout 60 $cg tune convolution:tf32x3-rows --filter 31,7x13 --size 333x517 --check exact --space 'by=64;ly=1,2,4' --runs 1 --device gpu > $out/tune-odd.txt 2>&1; echo "odd rc=$?"; grep -E "^  [0-9]|rror|FAIL" $out/tune-odd.txt
