#!/usr/bin/env bash
# issue 20 on the CI-class machine: each best rung's search on PoCL, then untuned and tuned runs in one job
out=/work/main/docs/results/2026-11-27-pocl-2core-tune
cg=/work/main/build/clgauge
export CLGAUGE_CACHE_DIR=/tmp/pocl-tune-cache
rm -rf $CLGAUGE_CACHE_DIR
: > $out/commands.txt
tt="reduction:best histogram:best transpose:best convolution:best filter3x3:u8-vec-16x16 scan:best"
for t in $tt; do
  n=tune-cpu-${t//:/-}
  echo "\$ clgauge tune $t --budget 60 --runs 5 --device cpu --json $n.json" >> $out/commands.txt
  $cg tune $t --budget 60 --runs 5 --device cpu --json $out/$n.json > $out/$n.txt 2>&1
  echo "rc=$?" >> $out/commands.txt
done
r=$(echo $tt | tr ' ' ,)
for k in untuned tuned; do
  f=; [ $k = untuned ] && f=--no-tuned
  echo "\$ clgauge run $r $f --runs 10 --device cpu --json tune-cpu-$k.json" >> $out/commands.txt
  $cg run $r $f --runs 10 --device cpu --json $out/tune-cpu-$k.json > $out/tune-cpu-$k.txt 2>&1
  echo "rc=$?" >> $out/commands.txt
done
git -C /work/main rev-parse HEAD > $out/commit.txt
