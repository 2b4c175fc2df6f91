#!/usr/bin/env bash
# Issue 21's CPU goal in one job on one machine, session 13: each ladder's PoCL candidates for its best rung
# (own values: --no-tuned), blur's new cpu-ring among them, then ../shared/peers/cpu_peers.py (OpenCV native
# with its threads, NumPy), one after the other, at the peers' sizes: 4096^2 images, 2^26 bytes for the
# histogram, 2^26 elements for reduction and scan.
#   bash docs/results/2026-11-28-pocl-2core-cpu-goal/run.sh build/clgauge ../shared/peers/cpu_peers.py OUTDIR
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
go filter3x3 run filter3x3:u8-vec,filter3x3:u8-vec-16x16,filter3x3:f32-vec --size 4096x4096 $o
go blur run blur:fused-ring,blur:cpu-ring --size 4096x4096 --sigma 5 $o
go transpose run transpose:best --size 4096x4096 $o
go histogram run histogram:cpu-private --size 67108864 $o
go reduction run reduction:chunked --size 67108864 $o
go scan run scan:chunked-vec8 --size 67108864 $o
echo "\$ /usr/bin/python3 cpu_peers.py > cpu_peers.json" >>"$out/commands.txt"
/usr/bin/python3 "$peers" >"$out/cpu_peers.json" 2>&1
echo "rc=$?" >>"$out/commands.txt"
