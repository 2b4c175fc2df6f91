#!/usr/bin/env bash
# Issue 21's CPU goal on one machine: each ladder's PoCL candidates for its best rung (own values: --no-tuned),
# then ../shared/peers/cpu_peers.py (OpenCV native with its threads, NumPy), one after the other, at the
# peers' sizes: 4096^2 images, 2^26 bytes for the histogram, 2^26 elements for reduction and scan.
#   bash docs/results/2026-11-28-pocl-2core-cpu-peers/run.sh build/clgauge ../shared/peers/cpu_peers.py OUTDIR
set -u
cg=${1:?clgauge} peers=${2:?cpu_peers.py} out=${3:?OUTDIR}
mkdir -p "$out"
: >"$out/commands.txt"
go() { # NAME ARGS...
  local n=$1
  shift
  echo "\$ clgauge $* --json $n.json" >>"$out/commands.txt"
  "$cg" "$@" --json "$out/$n.json" >"$out/$n.txt" 2>&1
  echo "rc=$?" >>"$out/commands.txt"
}
o="--no-tuned --runs 5 --device cpu"
go filter3x3 run filter3x3:u8-buf-32x4,filter3x3:u8-local,filter3x3:u8-vec,filter3x3:u8-vec-16x16,filter3x3:f32-buf-32x4,filter3x3:f32-local,filter3x3:f32-vec --size 4096x4096 $o
go blur run blur:sep-local,blur:fused,blur:fused-ring --size 4096x4096 --sigma 5 $o
# fused-ring's strip rows side by side (its own values since 2026-11-28: 512 on a CPU; 128 before), no cache
echo "\$ clgauge tune blur:fused-ring --size 4096x4096 --space 'wgx=32;cx=4;py=128,512;blk=32' --budget 300 --runs 5 --device cpu --cache-dir CACHE --json blur-py.json" >>"$out/commands.txt"
"$cg" tune blur:fused-ring --size 4096x4096 --space 'wgx=32;cx=4;py=128,512;blk=32' --budget 300 --runs 5 \
  --device cpu --cache-dir "$out/cache" --json "$out/blur-py.json" >"$out/blur-py.txt" 2>&1
echo "rc=$?" >>"$out/commands.txt"
go transpose run transpose:tile32,transpose:vec4,transpose:best --size 4096x4096 $o
go histogram run histogram:best,histogram:cpu-private --size 67108864 $o
go reduction run reduction:best,reduction:chunked --size 67108864 $o
go scan run scan:best,scan:chunked,scan:chunked-vec8 --size 67108864 $o
echo "\$ /usr/bin/python3 cpu_peers.py > cpu_peers.json" >>"$out/commands.txt"
/usr/bin/python3 "$peers" >"$out/cpu_peers.json" 2>&1
echo "rc=$?" >>"$out/commands.txt"
