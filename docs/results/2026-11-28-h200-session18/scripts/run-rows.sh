#!/bin/bash
# exp/run-rows.sh OUT: tf32x3-rows variants (kernel copies under exp/r-*) at 8192^2, 17x17 and 32x32
out=$1; mkdir -p $out
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
. .gpu/env.sh
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCLGAUGE_TESTS=OFF >$out/build.log 2>&1 && cmake --build build-gpu -j16 >>$out/build.log 2>&1 || { tail -20 $out/build.log; exit 1; }
export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache
cg=./build-gpu/clgauge
nvidia-smi --query-gpu=name,driver_version --format=csv > $out/gpu.txt
for v in base ${VARIANTS:-bl1 bl2 u4 acc2 bl2u4}; do
  kd=; [ $v != base ] && kd="--kernel-dir exp/r-$v"
  echo "\$ clgauge run convolution:tf32x3-rows --size 8192 --filter 17,32 --runs 5 --device gpu $kd" >> $out/commands.txt
  timeout 100 $cg run convolution:tf32x3-rows --size 8192 --filter 17,32 --runs 5 --device gpu $kd --json $out/$v.json > $out/$v.txt 2>&1
  echo "rc=$?" >> $out/commands.txt
  echo "== $v"; grep -E "rows" $out/$v.txt | cut -c1-128
  python3 -c "
import json;d=json.load(open('$out/$v.json'))
for r in d['results']: print('   ', r.get('filter', ''), r.get('registers'), r.get('kernel_private_bytes'), r.get('occupancy'))
" 2>/dev/null
done
