#!/bin/bash
# exp/run-rows2.sh OUT: tf32x3-rows variants by EXPOPTS (extra build options) at 8192^2, 17x17 and 32x32
out=$1; mkdir -p $out
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
. .gpu/env.sh
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCLGAUGE_TESTS=OFF >$out/build.log 2>&1 && cmake --build build-gpu -j16 >>$out/build.log 2>&1 || { tail -20 $out/build.log; exit 1; }
export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache
cg=./build-gpu/clgauge
nvidia-smi --query-gpu=name,driver_version --format=csv > $out/gpu.txt
n=0
while IFS= read -r v; do
  n=$((n+1)); export EXPOPTS="$v"
  echo "\$ EXPOPTS='$v' clgauge run convolution:tf32x3-rows --size 8192 --filter ${FILTERS:-17,32} --runs 5 --device gpu" >> $out/commands.txt
  timeout 100 $cg run convolution:tf32x3-rows --size 8192 --filter ${FILTERS:-17,32} --runs 5 --device gpu --json $out/v$n.json > $out/v$n.txt 2>&1
  echo "rc=$?" >> $out/commands.txt
  echo "== v$n: $v"; grep -E "rows" $out/v$n.txt | cut -c1-100
  python3 -c "
import json;d=json.load(open('$out/v$n.json'))
for r in d['results']: print('   ', r.get('registers'), r.get('kernel_private_bytes'), r.get('occupancy'))
" 2>/dev/null
done < ${VFILE:-exp/variants.txt}
