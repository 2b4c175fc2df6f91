#!/usr/bin/env bash
# exp (next session, after `GPU_JOBS=none bash .gpu/head.sh $OUT/x`): the columns' pass 3 with 2 or 4 columns a
# work-item (exp/c2, exp/c4: float2 / float4 loads and stores, 2 or 4 recursions side by side; kernel copies of
# blur_rec.cl at the commit after 593d91c) against the committed kernel, in rgV-blocks (the columns alone),
# recursive-fixl and recursive-colc; 4096^2 (10 runs) and 8192^2 (5 runs), own values, stages_s in the JSONs.
# Verified first at 1000x776 (the vector path) and 333x517 (the scalar path) on the GPU.
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache-24; cg=./build-gpu/clgauge
R=blur:rgV-blocks,blur:recursive-fixl,blur:recursive-colc
for v in committed c2 c4; do
  kd=""; [ $v != committed ] && kd="--kernel-dir exp/$v"
  echo "\$ clgauge run $R --size 1000x776,333x517 --runs 1 --warmup 0 $kd --device gpu" >>$out/commands.txt
  timeout 60 $cg run $R --size 1000x776,333x517 --runs 1 --warmup 0 $kd --device gpu --json $out/$v-odd.json >$out/$v-odd.txt 2>&1
  echo "rc=$?" >>$out/commands.txt
  for s in 4096x4096 8192x8192; do
    r=10; [ $s = 8192x8192 ] && r=5
    echo "\$ clgauge run $R --size $s --runs $r --no-tuned $kd --device gpu" >>$out/commands.txt
    timeout 90 $cg run $R --size $s --runs $r --no-tuned $kd --device gpu --json $out/$v-$s.json >$out/$v-$s.txt 2>&1
    echo "rc=$?" >>$out/commands.txt
    echo "== $v $s"; grep -E "^blur" $out/$v-$s.txt | cut -c1-100
  done
done
# exp/wscan: rgH-whole's fix-up as two Kogge-Stone scans (M^(2^j) squared on the device): timing only at
# sigma 5 (its errors at sigma 32 fail the truth check on PoCL: 0.48), to learn what a short sequence is worth
for v in committed wscan; do
  kd=""; [ $v != committed ] && kd="--kernel-dir exp/$v"
  echo "\$ clgauge run blur:rgH-whole,blur:recursive-whole --size 4096x4096 --runs 10 --no-tuned $kd --device gpu" >>$out/commands.txt
  timeout 60 $cg run blur:rgH-whole,blur:recursive-whole --size 4096x4096 --runs 10 --no-tuned $kd --device gpu --json $out/ws-$v-4096.json >$out/ws-$v-4096.txt 2>&1
  echo "rc=$?" >>$out/commands.txt
  echo "\$ clgauge tune blur:rgH-whole --space 'wg=256,512;blk=32' --size 8192x8192 --runs 5 $kd --device gpu" >>$out/commands.txt
  timeout 60 $cg tune blur:rgH-whole --space 'wg=256,512;blk=32' --size 8192x8192 --runs 5 $kd --device gpu --json $out/ws-$v-8192.json >$out/ws-$v-8192.txt 2>&1
  echo "rc=$?" >>$out/commands.txt
done
