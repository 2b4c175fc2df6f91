#!/usr/bin/env bash
# exp (s22a): does -cl-nv-maxrregcount take when the kernel has no required size (REGCAP)? f16x3-vec's search
# with regs 0/64/80/96; b-lt (the taps' fragments from local memory each step: 24 registers fewer)
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache-a; cg=./build-gpu/clgauge
t() { local name=$1 lim=$2; shift 2; echo "\$ clgauge tune $* --device gpu --json $name.json" >>$out/commands.txt
  timeout $lim $cg tune "$@" --device gpu --json $out/$name.json >$out/$name.txt 2>&1; echo "rc=$?" >>$out/commands.txt
  echo "== $name"; grep -E '^ +[0-9]+ ' $out/$name.txt | head -12; }
t odd-regs 60 blur:f16x3-vec --space 'ly=1,2;py=64;regs=64,96' --size 1001x777,1000x777 --sigma 5 --runs 1 --warmup 0 --no-cache
t odd-regs-exact 60 blur:f16x3-vec --space 'ly=2;py=64;regs=64,96' --size 1000x777 --sigma 5 --check exact --runs 1 --warmup 0 --no-cache
t odd-lt 60 blur:f16x3-vec --space 'ly=1,4;py=64;regs=0' --size 1001x777,1000x777 --sigma 5 --runs 1 --warmup 0 --kernel-dir exp/b-lt --no-cache
t odd-lt-exact 60 blur:f16x3-vec --space 'ly=2;py=64;regs=0' --size 1000x777 --sigma 5 --check exact --runs 1 --warmup 0 --kernel-dir exp/b-lt --no-cache
t regs-4096 150 blur:f16x3-vec --size 4096x4096 --sigma 5 --runs 10 --space 'ly=2,4;py=352,448,512;regs=0,64,80,96'
t lt-4096 80 blur:f16x3-vec --size 4096x4096 --sigma 5 --runs 10 --space 'ly=1,2,4;py=352,448,512;regs=0' --kernel-dir exp/b-lt
t lt-regs-4096 80 blur:f16x3-vec --size 4096x4096 --sigma 5 --runs 10 --space 'ly=2;py=352,448,512;regs=64,80' --kernel-dir exp/b-lt
t regs-8192 80 blur:f16x3-vec --size 8192x8192 --sigma 5 --runs 5 --space 'ly=2;py=448,512;regs=0,80,96'
echo "\$ scripts/mutation.sh --only blur-mma-ring-lo,blur-mma-koff,blur-mma-vec-row,blur-mma-vec-inner --device gpu" >>$out/commands.txt
timeout 90 scripts/mutation.sh --only blur-mma-ring-lo,blur-mma-koff,blur-mma-vec-row,blur-mma-vec-inner --clgauge $cg --device gpu --md $out/mma-mutants.md >$out/mma-mutants.txt 2>&1
echo "rc=$?" >>$out/commands.txt; tail -3 $out/mma-mutants.txt
