#!/usr/bin/env bash
# Issue 21's CPU goal for blur: cpu-ring beside fused-ring (own values), cpu-ring's space searched, then
# tuned runs, then the native CPU peers, one after the other on the same machine.
#   bash run.sh CLGAUGE CPU_PEERS_PY OUTDIR
set -u
cg=$1 peers=$2 out=$3
mkdir -p "$out"
export CLGAUGE_CACHE_DIR=$out/cache
run() { echo "\$ $*" >>"$out/commands.txt"; "$@"; echo "rc=$?" >>"$out/commands.txt"; }
run "$cg" run blur:fused-ring,blur:cpu-ring --size 4096 --sigma 5 --no-tuned --runs 5 --json "$out/blur.json" >"$out/blur.txt" 2>&1
run "$cg" tune blur:cpu-ring --size 4096 --sigma 5 --runs 3 --json "$out/tune.json" >"$out/tune.txt" 2>&1
run "$cg" run blur:cpu-ring --size 4096 --sigma 5 --runs 5 --json "$out/tuned.json" >"$out/tuned.txt" 2>&1
run /usr/bin/python3 "$peers" >"$out/cpu_peers.json" 2>&1
