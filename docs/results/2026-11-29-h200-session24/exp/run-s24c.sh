#!/usr/bin/env bash
# exp (session 24, after `GPU_JOBS=none bash .gpu/head.sh $OUT/x`): histogram's nc-loads with its chunk brought
# into shared memory by TMA bulk copies (exp/h-tma: 2 stages, exp/h-tma3: 3 stages; cp.async.bulk +
# mbarrier, one thread issues, every work-item counts from local memory) against the committed nc-loads at its
# tuned shapes; random and all-equal bytes at 2^28; verified at odd sizes first.
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache-24c; cg=./build-gpu/clgauge
t() { # NAME LIMIT ARGS...
  local name=$1 lim=$2; shift 2
  echo "\$ clgauge tune $* --device gpu" >>$out/commands.txt
  timeout $lim $cg tune "$@" --device gpu --json $out/$name.json >$out/$name.txt 2>&1
  echo "rc=$?" >>$out/commands.txt
  echo "== $name"; grep -E "best:|FAILED|error" $out/$name.txt | head -3
}
for v in h-tma h-tma3; do
  for s in 17 65551 1000003; do
    t $v-odd-$s 40 histogram:nc-loads --size $s --space 'wg=256;copies=8;loads=1,2;grid=2' --runs 1 --kernel-dir exp/$v
  done
  t $v-odd-eq 40 histogram:nc-loads --size 1000003 --pattern allequal --space 'wg=256;copies=1;loads=2;grid=2' --runs 1 --kernel-dir exp/$v
done
t rnd-committed 60 histogram:nc-loads --pattern random --space 'wg=512;copies=32;loads=4;grid=2' --runs 20
t eq-committed 60 histogram:nc-loads --pattern allequal --space 'wg=1024;copies=1;loads=8;grid=2' --runs 20
t rnd-tma-256 90 histogram:nc-loads --pattern random --space 'wg=256;copies=8,16;loads=1,2;grid=2,4' --runs 10 --kernel-dir exp/h-tma
t rnd-tma-512 60 histogram:nc-loads --pattern random --space 'wg=512;copies=8;loads=1,2;grid=1,2' --runs 10 --kernel-dir exp/h-tma
t rnd-tma3-256 60 histogram:nc-loads --pattern random --space 'wg=256;copies=8;loads=1,2;grid=2,4' --runs 10 --kernel-dir exp/h-tma3
t eq-tma-256 60 histogram:nc-loads --pattern allequal --space 'wg=256;copies=1;loads=2,4;grid=2,4' --runs 10 --kernel-dir exp/h-tma
t eq-tma-512 60 histogram:nc-loads --pattern allequal --space 'wg=512,1024;copies=1;loads=1;grid=1,2' --runs 10 --kernel-dir exp/h-tma
t eq-tma3-256 60 histogram:nc-loads --pattern allequal --space 'wg=256;copies=1;loads=1,2;grid=2,4' --runs 10 --kernel-dir exp/h-tma3
