#!/usr/bin/env bash
# Builds clgauge on the GPU machine and measures the device's ceilings with clpeak and `clgauge peak`, one
# after the other in one job on the same GPU. Usage (from the checkout's root): scripts/peak-gpu.sh OUTDIR
# Needs .gpu/ (build dependencies, see scripts/gpu-run.sh) and .peers/clpeak_*.deb (Debian's clpeak 1.1.2).
set -uo pipefail
out=${1:?OUTDIR}
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
. .gpu/env.sh
git=$(cat .gpu/commit 2>/dev/null || echo unknown)
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCLGAUGE_TESTS=OFF -DCLGAUGE_GIT="$git" >"$out/build.log" 2>&1 &&
  cmake --build build-gpu -j16 >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$out/gpu.txt" 2>&1
./build-gpu/clgauge devices > "$out/devices.txt" 2>&1
# clpeak's platform index: the platform of the first GPU that clgauge lists
plat=$(./build-gpu/clgauge devices | awk '/^Device /{split($2, a, ":"); p = a[1]} /Type +GPU/{print p; exit}')
dpkg -x .peers/clpeak_*.deb /tmp/cp
{ echo "\$ clpeak -p ${plat:-0} --use-event-timer"; /tmp/cp/usr/bin/clpeak -p "${plat:-0}" --use-event-timer; echo "rc=$?"; } \
  > "$out/clpeak.txt" 2>&1
export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache
cmd="./build-gpu/clgauge peak --device gpu --json $out/clgauge-peak.json --csv $out/clgauge-peak.csv"
{ echo "\$ $cmd"; time $cmd; echo "rc=$?"; } > "$out/clgauge-peak.txt" 2>&1
{ echo "\$ clgauge peak --device gpu --quick --no-cache"; time ./build-gpu/clgauge peak --device gpu --quick --no-cache; echo "rc=$?"; } \
  >> "$out/clgauge-peak.txt" 2>&1
# `run` now takes its roofline from the full peak run's cache
{ echo "\$ clgauge run reduction:best --device gpu --runs 3"; ./build-gpu/clgauge run reduction:best --device gpu --runs 3; } \
  >> "$out/clgauge-peak.txt" 2>&1
