#!/usr/bin/env bash
# exp (s22c): f16x3-st4 (float4 stores) beside f16x3-vec: verified at odd sizes and sigmas, searched, tuned runs
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache-c; cg=./build-gpu/clgauge
r() { local name=$1 lim=$2; shift 2; echo "\$ clgauge run $* --device gpu --json $name.json" >>$out/commands.txt
  timeout $lim $cg run "$@" --device gpu --json $out/$name.json >$out/$name.txt 2>&1; echo "rc=$?" >>$out/commands.txt
  echo "== $name"; grep -E "^blur" $out/$name.txt | cut -c1-100; }
t() { local name=$1 lim=$2; shift 2; echo "\$ clgauge tune $* --device gpu --json $name.json" >>$out/commands.txt
  timeout $lim $cg tune "$@" --device gpu --json $out/$name.json >$out/$name.txt 2>&1; echo "rc=$?" >>$out/commands.txt
  echo "== $name"; grep -E '^ +[0-9]+ ' $out/$name.txt | head -8; }
M=blur:f16x3-vec,blur:f16x3-st4
r odd 60 $M --size 333x517,336x517,1000x777,1001x777 --sigma 5 --runs 1 --warmup 0 --no-tuned
r odd-exact 60 $M --size 333x517,336x517,1000x777 --sigma 5 --check exact --runs 1 --warmup 0 --no-tuned
for sg in 0.5 2 10 16; do
  r odd-s$sg 40 blur:f16x3-st4 --size 333x517,336x517 --sigma $sg --runs 1 --warmup 0 --no-tuned
  r odd-exact-s$sg 40 blur:f16x3-st4 --size 333x517,336x517 --sigma $sg --check exact --runs 1 --warmup 0 --no-tuned
done
t tune-st4-4096 80 blur:f16x3-st4 --size 4096x4096 --sigma 5 --runs 10 --space 'ly=1,2,4,8;py=256,512'
t tune-vec-4096 40 blur:f16x3-vec --size 4096x4096 --sigma 5 --runs 10 --space 'ly=1,2,4;py=512'
t tune-st4-8192 60 blur:f16x3-st4 --size 8192x8192 --sigma 5 --runs 5 --space 'ly=1,2,4;py=256,512'
r tuned-4096 60 blur:fused-ring,$M --size 4096x4096 --sigma 5 --runs 20
r tuned-8192 60 blur:fused-ring,$M --size 8192x8192 --sigma 5 --runs 10
r own-4096 60 blur:fused-ring,$M --size 4096x4096 --sigma 5 --runs 10 --no-tuned
