#!/usr/bin/env bash
# exp (s21e): f16x3-vec with a register cap (regs) and the strips that fill one wave at a higher occupancy
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache-e; cg=./build-gpu/clgauge
t() { local name=$1; shift; echo "\$ clgauge tune $* --device gpu --json $name.json" >>$out/commands.txt
  timeout 100 $cg tune "$@" --device gpu --json $out/$name.json >$out/$name.txt 2>&1; echo "rc=$?" >>$out/commands.txt
  echo "== $name"; grep -E '^ +[0-9]+ ' $out/$name.txt | head -8; }
r() { local name=$1; shift; echo "\$ clgauge run $* --device gpu --json $name.json" >>$out/commands.txt
  timeout 60 $cg run "$@" --device gpu --json $out/$name.json >$out/$name.txt 2>&1; echo "rc=$?" >>$out/commands.txt
  grep -E "^blur" $out/$name.txt | cut -c1-120; }
t tune-vec-4096 blur:f16x3-vec --size 4096x4096 --sigma 5 --runs 5 --space 'ly=1,2;py=352,448,512;regs=0,80,96'
t tune-vec-8192 blur:f16x3-vec --size 8192x8192 --sigma 5 --runs 5 --space 'ly=2;py=448,512;regs=0,96'
r vec-4096-tuned blur:fused-ring,blur:f16x3-vec --size 4096x4096 --sigma 5 --runs 20
r vec-8192-tuned blur:fused-ring,blur:f16x3-vec --size 8192x8192 --sigma 5 --runs 10
