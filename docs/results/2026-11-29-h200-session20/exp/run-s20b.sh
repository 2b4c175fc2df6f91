#!/usr/bin/env bash
# exp (s20b): convolution f16x3-halves: committed, kcat, products issued in three passes (c-order), both
# (c-ok), two small accumulators (c-2s), c-ok with the next row's taps prefetched (c-okpf); histogram red.shared (h-red), ld.global.nc L1::no_allocate (h-nc).
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache; cg=./build-gpu/clgauge
nvidia-smi --query-gpu=name,driver_version --format=csv >$out/gpu.txt
run() { # name, then the clgauge arguments
  local n=$1; shift
  echo "\$ clgauge $* --device gpu --json $n.json" >>$out/commands.txt
  timeout 90 $cg "$@" --device gpu --json $out/$n.json >$out/$n.txt 2>&1
  echo "rc=$?" >>$out/commands.txt
  echo "$n: $(grep -E '^  1 ' $out/$n.txt)"
}
for k in base c-kcat c-order c-ok c-2s c-okpf; do
  kd=(); [ $k = base ] || kd=(--kernel-dir exp/$k)
  run conv-$k-17 tune convolution:f16x3-halves --filter 17 --size 8192 --space 'bx=64;by=16;ly=4' --runs 10 "${kd[@]}"
  run conv-$k-32 tune convolution:f16x3-halves --filter 32 --size 8192 --space 'bx=32;by=16;ly=4' --runs 10 "${kd[@]}"
done
for k in base h-red h-nc; do
  kd=(); [ $k = base ] || kd=(--kernel-dir exp/$k)
  run hist-$k-rnd tune histogram:self-zero --pattern random --space 'wg=512;copies=32;loads=2,4;grid=2,4' --runs 20 "${kd[@]}"
  run hist-$k-eq tune histogram:self-zero --pattern allequal --space 'wg=512;copies=1;loads=2,4;grid=2,4' --runs 20 "${kd[@]}"
done
