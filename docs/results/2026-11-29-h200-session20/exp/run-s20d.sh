#!/usr/bin/env bash
# exp (s20d): nc-loads with the next step's loads issued before this step's bytes are counted (exp/h-ncpf)
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache; cg=./build-gpu/clgauge
for p in random allequal; do
  c=32; [ $p = allequal ] && c=1
  echo "\$ clgauge tune histogram:nc-loads --pattern $p --space 'wg=512,1024;copies=$c;loads=2,4,8;grid=1,2' --runs 10 --kernel-dir exp/h-ncpf --device gpu --json ncpf-$p.json" >>$out/commands.txt
  timeout 60 $cg tune histogram:nc-loads --pattern $p --space "wg=512,1024;copies=$c;loads=2,4,8;grid=1,2" --runs 10 --kernel-dir exp/h-ncpf --device gpu --json $out/ncpf-$p.json >$out/ncpf-$p.txt 2>&1
  echo "rc=$?" >>$out/commands.txt
  grep -E '^  1 ' $out/ncpf-$p.txt
done
