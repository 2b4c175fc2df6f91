#!/usr/bin/env bash
# cpu-ring split in two (session 14): fused-ring, cpu-sums (its running sums in the CPU's layout) and cpu-ring
# (a ring of filtered rows instead of the sums) with their own values, then the native CPU peers, one after
# the other on the same machine.
#   bash run.sh CLGAUGE CPU_PEERS_PY OUTDIR
set -u
cg=$1 peers=$2 out=$3
mkdir -p "$out"
export CLGAUGE_CACHE_DIR=$out/cache
run() { echo "\$ $*" >>"$out/commands.txt"; "$@"; echo "rc=$?" >>"$out/commands.txt"; }
run "$cg" run blur:fused-ring,blur:cpu-sums,blur:cpu-ring --size 4096 --sigma 5 --no-tuned --runs 5 --json "$out/blur.json" >"$out/blur.txt" 2>&1
run "$cg" run blur:cpu-sums,blur:cpu-ring --size 4096 --sigma 10 --no-tuned --runs 3 --json "$out/blur-s10.json" >"$out/blur-s10.txt" 2>&1
run /usr/bin/python3 "$peers" >"$out/cpu_peers.json" 2>&1
