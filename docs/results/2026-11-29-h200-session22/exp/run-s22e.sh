#!/usr/bin/env bash
# exp (s22e): histogram nc-loads with L2 prefetches 1 or 2 steps (LOADS strides each) ahead (h-pf1, h-pf2: one
# prefetch.global.L2 a 128-byte line), at the searches' winners of session 20 (random: 512, 32 copies, 4 loads,
# grid 2; all-equal: 1024, 1 copy, 8 loads, grid 2)
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache-e; cg=./build-gpu/clgauge
for v in committed h-pf1 h-pf2; do
  kd=""; [ $v != committed ] && kd="--kernel-dir exp/$v"
  for pat in random allequal; do
    sp='wg=512;copies=32;loads=4;grid=2'; [ $pat = allequal ] && sp='wg=1024;copies=1;loads=8;grid=2'
    echo "\$ clgauge tune histogram:nc-loads --pattern $pat --space '$sp' --runs 20 $kd --device gpu" >>$out/commands.txt
    timeout 25 $cg tune histogram:nc-loads --pattern $pat --space "$sp" --runs 20 $kd --device gpu --json $out/$v-$pat.json >$out/$v-$pat.txt 2>&1
    echo "rc=$?" >>$out/commands.txt
    echo "== $v $pat $(grep -E '^ +[12] ' $out/$v-$pat.txt | tr -s ' ' | head -2 | tr '\n' '|')"
  done
done
