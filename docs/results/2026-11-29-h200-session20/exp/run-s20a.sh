#!/usr/bin/env bash
# exp (s20a): convolution f16x3-halves at its tuned shapes: committed, tile load twice (c-ld2, diagnostic),
# products twice (c-mm2, diagnostic), r8 fragments carried along filter-row chains (c-carry), a half chunk's
# small products as one k16 (c-kcat); histogram self-zero committed and software-pipelined loads (h-pf).
out=$1; mkdir -p $out; . .gpu/env.sh; export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache; cg=./build-gpu/clgauge
nvidia-smi --query-gpu=name,driver_version --format=csv >$out/gpu.txt
run() { # name, then the clgauge arguments
  local n=$1; shift
  echo "\$ clgauge $* --device gpu --json $n.json" >>$out/commands.txt
  timeout 90 $cg "$@" --device gpu --json $out/$n.json >$out/$n.txt 2>&1
  echo "rc=$?" >>$out/commands.txt
  echo "$n: $(grep -E '^  1 ' $out/$n.txt)"
}
for k in base c-ld2 c-mm2 c-carry c-kcat; do
  kd=(); [ $k = base ] || kd=(--kernel-dir exp/$k)
  run conv-$k-17 tune convolution:f16x3-halves --filter 17 --size 8192 --space 'bx=64;by=16;ly=4' --runs 10 "${kd[@]}"
  run conv-$k-32 tune convolution:f16x3-halves --filter 32 --size 8192 --space 'bx=32;by=16;ly=4' --runs 10 "${kd[@]}"
done
for k in base h-pf; do
  kd=(); [ $k = base ] || kd=(--kernel-dir exp/$k)
  run hist-$k-rnd tune histogram:self-zero --pattern random --space 'wg=512;copies=32;loads=2,4;grid=2,4' --runs 20 "${kd[@]}"
  run hist-$k-eq tune histogram:self-zero --pattern allequal --space 'wg=512;copies=1;loads=2,4;grid=2,4' --runs 20 "${kd[@]}"
done
