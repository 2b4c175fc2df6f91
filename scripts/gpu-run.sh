#!/usr/bin/env bash
# Builds clgauge on the GPU machine and measures it and the peers in one job on the same GPU.
# Usage (from the checkout's root, on the GPU machine): scripts/gpu-run.sh OUTDIR [clgauge run targets...]
# .gpu/commit may hold the git commit of the tree (the GPU machine gets no .git).
# Needs .gpu/ (scripts: ../shared/tools/gpu-pack.sh .gpu libcjson-dev libcjson1 libxxhash-dev libxxhash0
# libpng-dev libpng16-16 zlib1g-dev) and .peers/peers.py (from ../shared/peers) in the checkout.
set -uo pipefail
out=${1:?OUTDIR}; shift
targets=${1:-reduction,filter3x3}; shift || true
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
. .gpu/env.sh
git=$(cat .gpu/commit 2>/dev/null || echo unknown)
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCLGAUGE_TESTS=OFF -DCLGAUGE_GIT="$git" >"$out/build.log" 2>&1 &&
  cmake --build build-gpu -j16 >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$out/gpu.txt" 2>&1
./build-gpu/clgauge devices > "$out/devices.txt" 2>&1
export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache
cmd="./build-gpu/clgauge run $targets --device gpu --json $out/clgauge-gpu.json --csv $out/clgauge-gpu.csv $*"
echo "\$ $cmd" | tee "$out/clgauge-gpu.txt"
$cmd 2>&1 | tee -a "$out/clgauge-gpu.txt"
echo "rc=$?" >> "$out/clgauge-gpu.txt"
