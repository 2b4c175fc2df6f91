#!/usr/bin/env bash
# exp (s20c): histogram self-zero with its loads as ld.global.nc.L1::no_allocate (h-nc), with red.shared
# too (h-ncred), with the L2::256B prefetch hint (h-nc256, h-nc256red), over wg x loads x grid, 20 runs a candidate.
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache; cg=./build-gpu/clgauge
nvidia-smi --query-gpu=name,driver_version --format=csv >$out/gpu.txt
run() { # name, then the clgauge arguments
  local n=$1; shift
  echo "\$ clgauge $* --device gpu --json $n.json" >>$out/commands.txt
  timeout 90 $cg "$@" --device gpu --json $out/$n.json >$out/$n.txt 2>&1
  echo "rc=$?" >>$out/commands.txt
  echo "$n: $(grep -E '^  1 ' $out/$n.txt)"
}
for k in base h-nc h-ncred h-nc256 h-nc256red; do
  kd=(); [ $k = base ] || kd=(--kernel-dir exp/$k)
  run hist-$k-rnd tune histogram:self-zero --pattern random --space 'wg=512,1024;copies=32;loads=2,4,8;grid=1,2,4' --runs 20 "${kd[@]}"
  run hist-$k-eq tune histogram:self-zero --pattern allequal --space 'wg=512,1024;copies=1;loads=2,4,8;grid=1,2,4' --runs 20 "${kd[@]}"
done
