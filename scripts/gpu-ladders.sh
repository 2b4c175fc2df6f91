#!/usr/bin/env bash
# The ladders' job on the GPU machine, from the checkout's root: the seed-faithful filter3x3, convolution,
# transpose and histogram rungs (issue 15), the scan, lcs, cloth and opticalflow ladders (issues 14, 17, 18,
# 19), peak's seed experiments (issue 16), and the peers in the same job. Not yet run (session 4 had no device
# time left); GPU_JOBS="scan peers" picks jobs. About 5-8 minutes on an H100 (estimated).
#   scripts/gpu-ladders.sh OUTDIR
# Every command and its exit status goes to OUTDIR/commands.txt, each run's table to OUTDIR/NAME.txt, its JSON
# to OUTDIR/NAME.json; the peers (.peers/peers.py, a copy of ../shared/peers/peers.py) to OUTDIR/peers.json.
# Needs .gpu/ (../shared/tools/gpu-pack.sh .gpu libcjson-dev libcjson1 libxxhash-dev libxxhash0 libpng-dev
# libpng16-16 zlib1g-dev); .gpu/commit may hold the git commit (the GPU machine gets no .git).
set -uo pipefail
out=${1:?OUTDIR}
mkdir -p "$out" /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
. .gpu/env.sh
git=$(cat .gpu/commit 2>/dev/null || echo unknown)
if [ ! -x build-gpu/clgauge ]; then
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCLGAUGE_TESTS=OFF -DCLGAUGE_GIT="$git" >"$out/build.log" 2>&1 &&
    cmake --build build-gpu -j16 >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,driver_version --format=csv >"$out/gpu.txt" 2>&1
export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache
cg=./build-gpu/clgauge
# run NAME ARGS...: one clgauge run on the GPU, its table, JSON and exit status kept.
run() {
  local name=$1
  shift
  echo "\$ clgauge run $* --device gpu --json $name.json" >>"$out/commands.txt"
  timeout 150 $cg run "$@" --device gpu --json "$out/$name.json" >"$out/$name.txt" 2>&1
  echo "rc=$?" >>"$out/commands.txt"
  grep -E "FAILED|unsupported|error" "$out/$name.txt" | head -5
}
for job in ${GPU_JOBS:-scan peers filter3x3 histogram lcs cloth opticalflow peak transpose convolution}; do
  case $job in
  scan) run scan-int32 scan --runs 20 && run scan-float scan --type float --runs 10 &&
    run scan-ragged scan --size 1000003 --type float --inclusive --runs 5 ;;
  filter3x3) run filter3x3 filter3x3 --runs 10 ;;
  transpose) run transpose transpose --runs 10 ;;
  convolution) run convolution convolution --filter 5,32 --runs 5 ;;
  histogram) run hist-u8-random histogram --pattern random && run hist-u8-allequal histogram --pattern allequal &&
    run hist-u32-random histogram --pixel u32 --pattern random ;;
  lcs) run lcs-512k lcs:tiled,lcs:bitpar-wg,lcs:best --size 524288 --runs 3 && run lcs-16k lcs --size 16384 --runs 3 ;;
  cloth) run cloth cloth --grid 1024x1024 && run cloth-many cloth:jacobi,cloth:best,cloth:per-cloth --grid 64x64 --cloths 64 ;;
  opticalflow) run of-640x480-l4 opticalflow --levels 4 --runs 10 &&
    run of-1080p opticalflow:precomputed,opticalflow:image-linear,opticalflow:best --size 1920x1080 --levels 4 --runs 5 ;;
  peak)
    echo "\$ clgauge peak --device gpu --only copy,fp32,balance,cache,rules,scatter --max-time 0.3" >>"$out/commands.txt"
    timeout 120 $cg peak --device gpu --only copy,fp32,balance,cache,rules,scatter --max-time 0.3 \
      --json "$out/peak-seeds.json" >"$out/peak-seeds.txt" 2>&1
    echo "rc=$?" >>"$out/commands.txt"
    ;;
  peers)
    echo "\$ python3 .peers/peers.py --only scan,filter3x3,histogram,opticalflow" >>"$out/commands.txt"
    (cd "$out" && OUT=$out timeout 180 python3 "$OLDPWD/.peers/peers.py" --only scan,filter3x3,histogram,opticalflow \
      >peers.txt 2>&1)
    echo "rc=$?" >>"$out/commands.txt"
    ;;
  esac
done
cat "$out/commands.txt"
