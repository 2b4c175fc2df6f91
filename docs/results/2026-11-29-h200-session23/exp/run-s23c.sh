#!/usr/bin/env bash
# s23c: (1) recursive-fixl committed vs exp/fixl-db (double-buffered chunks); (2) recursive-whole's search at
# 4096^2 (wg x blk) and 8192^2 (wg); (3) the whole blur ladder at 4096^2, sigma 5, own values (--no-tuned)
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache-c; cg=./build-gpu/clgauge
c() { echo "\$ $*" >>$out/commands.txt; }
for v in committed fixl-db; do
  kd=""; [ $v != committed ] && kd="--kernel-dir exp/$v"
  for s in 4096x4096 8192x8192; do
    r=10; [ $s = 8192x8192 ] && r=5
    c "clgauge tune blur:recursive-fixl --space 'wg=64;fy=4,8;cb=16,32;blk=32' --size $s --runs $r $kd --device gpu"
    timeout 60 $cg tune blur:recursive-fixl --space 'wg=64;fy=4,8;cb=16,32;blk=32' --size $s --runs $r $kd --device gpu --json $out/fixl-$v-$s.json >$out/fixl-$v-$s.txt 2>&1
    echo "rc=$?" >>$out/commands.txt
  done
done
c "clgauge tune blur:recursive-whole --space 'wg=64,128,256,512;blk=32,64' --size 4096x4096 --runs 5 --device gpu"
timeout 90 $cg tune blur:recursive-whole --space 'wg=64,128,256,512;blk=32,64' --size 4096x4096 --runs 5 --device gpu --json $out/tune-whole-4096.json >$out/tune-whole-4096.txt 2>&1
echo "rc=$?" >>$out/commands.txt
c "clgauge tune blur:rgH-whole --space 'wg=128,256,512,1024;blk=32' --size 8192x8192 --runs 3 --device gpu"
timeout 60 $cg tune blur:rgH-whole --space 'wg=128,256,512,1024;blk=32' --size 8192x8192 --runs 3 --device gpu --json $out/tune-rgh-whole-8192.json >$out/tune-rgh-whole-8192.txt 2>&1
echo "rc=$?" >>$out/commands.txt
c "clgauge run blur --size 4096x4096 --sigma 5 --runs 10 --no-tuned --device gpu"
timeout 200 $cg run blur --size 4096x4096 --sigma 5 --runs 10 --no-tuned --device gpu --json $out/ladder-4096.json >$out/ladder-4096.txt 2>&1
echo "rc=$?" >>$out/commands.txt
