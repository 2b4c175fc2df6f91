#!/usr/bin/env bash
# blur:fused-ring with 8 columns a work-item (float8) on PoCL, searched, then run untuned and tuned, then
# ../shared/peers/cpu_peers.py (OpenCV's sepFilter2D), one after the other:
#   bash docs/results/2026-11-28-pocl-2core-cpu-peers/blur-cx8.sh build/clgauge ../shared/peers/cpu_peers.py OUTDIR
set -u
cg=${1:?clgauge} peers=${2:?cpu_peers.py} out=${3:?OUTDIR}
mkdir -p "$out"
export CLGAUGE_CACHE_DIR=$out/cache
rm -rf "$CLGAUGE_CACHE_DIR"
: >"$out/cx8-commands.txt"
sp='wgx=8,16,32;cx=4,8;py=512;blk=32'
echo "\$ clgauge tune blur:fused-ring --size 4096x4096 --space '$sp' --budget 300 --runs 5 --device cpu --json cx8-tune.json" >>"$out/cx8-commands.txt"
"$cg" tune blur:fused-ring --size 4096x4096 --space "$sp" --budget 300 --runs 5 --device cpu \
  --json "$out/cx8-tune.json" >"$out/cx8-tune.txt" 2>&1
echo "rc=$?" >>"$out/cx8-commands.txt"
for m in untuned tuned; do
  f=
  [ $m = untuned ] && f=--no-tuned
  echo "\$ clgauge run blur:fused-ring --size 4096x4096 $f --runs 10 --device cpu --json cx8-$m.json" >>"$out/cx8-commands.txt"
  "$cg" run blur:fused-ring --size 4096x4096 $f --runs 10 --device cpu --json "$out/cx8-$m.json" >"$out/cx8-$m.txt" 2>&1
  echo "rc=$?" >>"$out/cx8-commands.txt"
done
echo "\$ /usr/bin/python3 cpu_peers.py > cx8-cpu_peers.json" >>"$out/cx8-commands.txt"
/usr/bin/python3 "$peers" >"$out/cx8-cpu_peers.json" 2>&1
echo "rc=$?" >>"$out/cx8-commands.txt"
