#!/usr/bin/env bash
# The ladders' job on the GPU machine, from the checkout's root: the seed-faithful filter3x3, convolution,
# transpose and histogram rungs (issue 15), the scan, lcs, cloth and opticalflow ladders (issues 14, 17, 18,
# 19), peak's seed experiments (issue 16), issue 21's jobs (blur-mma, whole, colc, v2, v2-tuned, ...) and the peers in the
# same job. GPU_JOBS="scan peers" picks jobs (the case labels below). Each run verifies every timed run on the
# host (about 0.7 s a run at 2^28 scan elements), hence few runs.
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
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCLGAUGE_TESTS=OFF -DCLGAUGE_GIT="$git" >"$out/build.log" 2>&1 &&
  cmake --build build-gpu -j16 >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv >"$out/gpu.txt" 2>&1
export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache
cg=./build-gpu/clgauge
# run NAME ARGS...: one clgauge run on the GPU, its table, JSON and exit status kept.
run() {
  local name=$1
  shift
  echo "\$ clgauge run $* --device ${RUN_DEVICE:-gpu} --json $name.json" >>"$out/commands.txt"
  timeout "${RUN_TIMEOUT:-150}" $cg run "$@" --device "${RUN_DEVICE:-gpu}" --json "$out/$name.json" >"$out/$name.txt" 2>&1
  echo "rc=$?" >>"$out/commands.txt"
  grep -E "FAILED|unsupported|error" "$out/$name.txt" | head -5
  return 0
}
# tune_run NAME LIMIT ARGS...: one clgauge tune on the GPU within LIMIT seconds, its table, JSON and exit status
# kept (an argument holding ';' or a blank goes to commands.txt in single quotes, as it would be typed).
tune_run() {
  local name=$1 limit=$2 a shown=
  shift 2
  for a in "$@"; do case $a in *[\;\ ]*) shown+=" '$a'" ;; *) shown+=" $a" ;; esac; done
  echo "\$ clgauge tune$shown --device ${RUN_DEVICE:-gpu} --json $name.json" >>"$out/commands.txt"
  timeout "$limit" $cg tune "$@" --device "${RUN_DEVICE:-gpu}" --json "$out/$name.json" >"$out/$name.txt" 2>&1
  echo "rc=$?" >>"$out/commands.txt"
}
# mutants_run NAME LIMIT IDS [ARGS...]: scripts/mutation.sh on the GPU for the mutants IDS (comma-separated,
# with ARGS such as --races) within LIMIT seconds; its table NAME.md, its output NAME.txt and exit status kept.
mutants_run() {
  local name=$1 limit=$2 ids=$3
  shift 3
  echo "\$ scripts/mutation.sh --only $ids${*:+ $*} --device gpu" >>"$out/commands.txt"
  timeout "$limit" scripts/mutation.sh --only "$ids" "$@" --clgauge "$cg" --device gpu --md "$out/$name.md" \
    >"$out/$name.txt" 2>&1
  echo "rc=$?" >>"$out/commands.txt"
}
# rec_checks PREFIX RUNGS: blur's block rungs RUNGS verified at odd sizes (333x517 and 1001x777; random, exact,
# sigma 0.5 and 32), then 4096^2 (10 runs) and 8192^2 (5) with their own values; rec_tuned PREFIX RUNGS: the
# same two sizes with the tuned values.
rec_checks() {
  local p=$1 R=$2
  run $p-odd $R --size 333x517,1001x777 --runs 1 --warmup 0
  run $p-odd-exact $R --size 333x517 --check exact --runs 1 --warmup 0
  run $p-odd-s0.5 $R --size 333x517 --sigma 0.5 --runs 1 --warmup 0
  run $p-odd-s32 $R --size 333x517 --sigma 32 --runs 1 --warmup 0
  run $p-4096 $R --size 4096x4096 --runs 10 --no-tuned
  run $p-8192 $R --size 8192x8192 --runs 5 --no-tuned
}
rec_tuned() {
  run $1-4096-tuned $2 --size 4096x4096 --runs 10
  run $1-8192-tuned $2 --size 8192x8192 --runs 5
}
# conv_mma_job NAME RUNGS RUNG FILTERS MUTANTS MD LIMIT: a tensor-core convolution rung RUNG beside RUNGS:
# verified at odd sizes and filters (exact and random), 8192^2 at 17x17 and 32x32 with own values, its searches
# at FILTERS, the tuned runs; then the mutants whose ids start conv-MUTANTS (an awk pattern), into MD.md, within
# LIMIT seconds.
conv_mma_job() {
  local name=$1 c=$2 rung=$3 filters=$4 mutants=$5 md=$6 limit=$7 f ids
  run $name-exact $c --size 333x517 --filter 1,2,3,5,7x13,8,9,16x3,17,24,31,32 --check exact --runs 1 --warmup 0 &&
    run $name-random $c --size 1001x777 --filter 1,2,3,5,7x13,8,9,16x3,17,24,31,32 --runs 1 --warmup 0 &&
    run $name-8192 $c --size 8192 --filter 17,32 --runs ${MMA_RUNS:-5} --no-tuned
  for f in $filters; do tune_run tune-$rung-$f 90 convolution:$rung --filter $f --size 8192 --runs 3; done
  run $name-tuned $c --size 8192 --filter 17,32 --runs ${MMA_RUNS:-5}
  ids=$(awk "/^id: conv-$mutants/ {print \$2}" tests/mutation/convolution.mut | paste -sd,)
  mutants_run "$md" "$limit" "$ids"
}
# pack: the device tool brings back only a few files per call, so everything goes back as one archive too.
pack() { tar czf "$out.tgz" -C "$(dirname "$out")" "$(basename "$out")"; }
trap pack EXIT
trap "exit 143" TERM INT
for job in ${GPU_JOBS:-scan peers filter3x3 histogram lcs cloth opticalflow peak transpose convolution}; do
  case $job in
  scan) run scan-int32 scan --runs 5 && run scan-float-2e26 scan --type float --size 67108864 --runs 3 &&
    run scan-ragged scan --size 1000003 --type float --inclusive --runs 5 ;;
  scan-vec) # issue 14: the session-9 look-back rungs (vec, reread, vload and their nv- twins) beside packed and
    # nv-shfl, int32, float and a ragged size (s9a, s9b ran it with the searches of scan-tune inside)
    S=scan:packed,scan:vec,scan:reread,scan:vload,scan:nv-shfl,scan:nv-reread,scan:nv-vload
    run scan-vec $S --runs 10 &&
      run scan-vec-float $S --type float --size 67108864 --runs 5 &&
      run scan-vec-ragged $S --size 1000003 --inclusive --runs 5 ;;
  scan-tune) # searches of work-group x items (SCAN_TUNE: rungs, default nv-vload; SCAN_SPACE the values)
    sp=${SCAN_SPACE:-wg=128,256,512;items=8,16,32}
    for t in ${SCAN_TUNE:-nv-vload}; do
      tune_run tune-scan-$t 120 scan:$t --space "$sp" --budget 60 --runs 5
    done ;;
  recheck) # the session-9 kernels after the last refactors, verified on the GPU (few runs)
    run recheck-of opticalflow:best,opticalflow:unorm16 --runs 3 &&
      run recheck-cloth cloth:jacobi,cloth:best,cloth:jacobi-local,cloth:jacobi-k2,cloth:jacobi-k4 --grid 1024x1024 --runs 3 &&
      run recheck-hist histogram:best,histogram:self-zero,histogram:cpu-private --runs 3 &&
      run recheck-scan scan:nv-shfl,scan:nv-wide,scan:vload --runs 3 ;;
  hist-cpu) # issue 21 on PoCL: the GPU machine's CPU (16 cores), histogram's CPU rung beside best and OpenCV's
    # calcHist / NumPy's bincount (cpu_peers.py, same machine)
    run hist-gpu-private histogram:best,histogram:cpu-private --runs 3 # the CPU rung verified on the GPU too
    RUN_DEVICE=cpu run hist-cpu histogram:best,histogram:self-zero,histogram:cpu-private --size 67108864 --runs 10 &&
      RUN_DEVICE=cpu run hist-cpu-allequal histogram:best,histogram:cpu-private --size 67108864 --pattern allequal --runs 10
    echo "\$ python3 .peers/cpu_peers.py" >>"$out/commands.txt"
    timeout 200 python3 .peers/cpu_peers.py >"$out/cpu-peers.txt" 2>&1
    echo "rc=$?" >>"$out/commands.txt" ;;
  scan-cpu) # issue 14 on PoCL: the GPU machine's CPU (16 cores) through PoCL, NumPy's cumsum beside it
    RUN_DEVICE=cpu run scan-cpu scan:best,scan:vload,scan:chunked,scan:chunked-vec8 --size 67108864 --runs 5
    echo "\$ python3 .peers/cpu_peers.py" >>"$out/commands.txt"
    timeout 200 python3 .peers/cpu_peers.py >"$out/cpu-peers.txt" 2>&1
    echo "rc=$?" >>"$out/commands.txt" ;;
  read-clpeak) # issue 21: peak's read and copy by width beside clpeak's global bandwidth (.peers/clpeak_*.deb,
    # `apt-get download clpeak`), one after the other on the same GPU
    echo "\$ clgauge peak --device gpu --only read,copy" >>"$out/commands.txt"
    timeout 150 $cg peak --device gpu --only read,copy --json "$out/peak-read.json" >"$out/peak-read.txt" 2>&1
    echo "rc=$?" >>"$out/commands.txt"
    rm -rf /tmp/cp && dpkg -x .peers/clpeak_*.deb /tmp/cp
    echo "\$ clpeak --global-bandwidth --use-event-timer" >>"$out/commands.txt"
    timeout 150 /tmp/cp/usr/bin/clpeak --global-bandwidth --use-event-timer >"$out/clpeak-read.txt" 2>&1
    echo "rc=$?" >>"$out/commands.txt" ;;
  diag) # where the time of a slow run goes: set-up, each rung's build, poison, device and verify wall time
    for a in "scan --runs 3" "convolution --filter 32 --runs 3"; do
      echo "\$ CLGAUGE_DEBUG=1 clgauge run $a --device gpu" >>"$out/commands.txt"
      CLGAUGE_DEBUG=1 timeout 120 $cg run $a --device gpu >"$out/diag-${a%% *}.txt" 2>&1
      echo "rc=$?" >>"$out/commands.txt"
    done ;;
  scan-rungs) # one rung at a time, small size, so a rung that hangs shows which
    for r in hillis-steele blelloch pad-arith padded registers reduce-then-scan look-back look-back-32 best nv-shfl \
      chunked chunked-vec8; do
      echo "\$ CLGAUGE_DEBUG=1 clgauge run scan:$r --size 16777216 --runs 3 --device gpu" >>"$out/commands.txt"
      CLGAUGE_DEBUG=1 timeout 20 $cg run scan:$r --size 16777216 --runs 3 --device gpu --json "$out/scan-$r.json" \
        >"$out/scan-$r.txt" 2>&1
      echo "rc=$?" >>"$out/commands.txt"
    done ;;
  filter3x3) run filter3x3 filter3x3 --runs 10 ;;
  transpose) run transpose transpose --runs 10 ;;
  convolution) run convolution-5 convolution --filter 5 --runs 3 && run convolution-32 convolution --filter 32 --runs 3 ;;
  races) # the mutants only a GPU's scheduling exposes (tests/mutation: expect race-gpu) must be caught there
    ids=${RACE_IDS:-}
    [ -n "$ids" ] || ids=$(awk '/^id:/ {id = $2} /^expect: race-gpu/ {print id}' tests/mutation/*.mut | paste -sd,)
    mutants_run races 200 "$ids" --races ;;
  histogram) run hist-u8-random histogram --pattern random && run hist-u8-allequal histogram --pattern allequal &&
    run hist-u32-random histogram --pixel u32 --pattern random ;;
  lcs-grid) # the many-group bit-parallel rungs; CLGAUGE_DEBUG=1 logs the single-thread CPU references' times
    run lcs-grid-16k lcs:tiled,lcs:best,lcs:grid,lcs:nv-ballot,lcs:nv-ballot32 --size 16384 --runs 5 &&
    run lcs-grid-512k lcs:tiled,lcs:grid,lcs:nv-ballot,lcs:nv-ballot32 --size 524288 --runs 3 &&
    CLGAUGE_DEBUG=1 run lcs-grid-1m lcs:grid,lcs:nv-ballot,lcs:nv-ballot32 --runs 3 &&
    CLGAUGE_DEBUG=1 run lcs-cpu-8k lcs:nv-ballot --size 8192 --runs 3 ;;
  lcs-pairs) run lcs-pairs-2k lcs:bitpar,lcs:bitpar-wg,lcs:best,lcs:grid,lcs:nv-ballot,lcs:nv-ballot32 --pairs 10000 --runs 3 &&
    run lcs-pairs-16k lcs:best,lcs:grid,lcs:nv-ballot --pairs 64 --size 16384 --runs 3 ;;
  lcs-trace) run lcs-trace-16k lcs:bitpar-wg,lcs:best,lcs:grid,lcs:nv-ballot,lcs:nv-ballot32 --traceback --runs 3 &&
    run lcs-trace-64k lcs:grid,lcs:nv-ballot --traceback --size 65536 --runs 3 &&
    run lcs-notrace-64k lcs:grid,lcs:nv-ballot --size 65536 --runs 3 ;;
  ptx-mutants) # the mutants of inline-PTX rungs (expect: caught-ptx) must be caught on NVIDIA
    ids=$(awk '/^id:/ {id = $2} /^expect: caught-ptx/ {print id}' tests/mutation/*.mut | paste -sd,)
    mutants_run ptx-mutants 200 "$ids" ;;
  transpose-heights) # the Apple chapter: the transpose slows as the height grows (a --size sweep)
    run transpose-heights transpose --size 8192x512,8192x1024,8192x2048,8192x4096,8192x8192,8192x16384 --runs 5 ;;
  conv-mma) # issue 21: the tensor-core rungs (tf32, tf32x3) beside best: verified at odd sizes and filters
    # (exact and random data), then 8192^2 at 3..32 taps; then peers --only convolution in the same job
    C=convolution:best,convolution:tf32,convolution:tf32x3
    run mma-exact $C --size 333x517 --filter 1,3,5,7x13,9,17,31,32 --check exact --runs 1 --warmup 0 &&
      run mma-random $C --size 1001x777 --filter 1,3,5,7x13,9,17,31,32 --runs 1 --warmup 0 &&
      run mma-8192 $C --size 8192 --filter 3,5,9,17,32 --runs ${MMA_RUNS:-5} ;;
  conv-rows) # issue 21: tf32x3-rows (each input row times the dense filter) beside tf32x3 and best: verified at
    # odd sizes and filters (exact and random data), then 8192^2 at 17x17 and 32x32
    C=convolution:best,convolution:tf32x3,convolution:tf32x3-rows
    run rows-exact $C --size 333x517 --filter 1,3,5,7x13,8,9,16x3,17,24,31,32 --check exact --runs 1 --warmup 0 &&
      run rows-random $C --size 1001x777 --filter 1,3,5,7x13,8,9,16x3,17,24,31,32 --runs 1 --warmup 0 &&
      run rows-8192 $C --size 8192 --filter 17,32 --runs ${MMA_RUNS:-5} ;;
  conv-f16) # issue 21: f16x3 and f16x3-split (the 3xTF32 split with fp16 pieces, mma m16n8k16) beside tf32x3,
    # tf32x3-rows and best: verified at odd sizes and filters (exact and random data), then 8192^2 at 17x17 and
    # 32x32; the tensor ceilings; the split of tf32x3-rows at an odd size (ly 1, 2, 4, exact)
    C=convolution:best,convolution:tf32x3,convolution:f16x3,convolution:f16x3-split
    echo "\$ clgauge peak --only fp32,tf32-mma,f16-mma --device gpu --json peak-mma.json" >>"$out/commands.txt"
    $cg peak --only fp32,tf32-mma,f16-mma --device gpu --json "$out/peak-mma.json" >"$out/peak-mma.txt" 2>&1
    echo "rc=$?" >>"$out/commands.txt"
    run f16-exact $C --size 333x517 --filter 1,2,3,5,7x13,8,9,16x3,17,24,31,32 --check exact --runs 1 --warmup 0 &&
      run f16-random $C --size 1001x777 --filter 1,2,3,5,7x13,8,9,16x3,17,24,31,32 --runs 1 --warmup 0 &&
      run f16-8192 $C,convolution:tf32x3-rows --size 8192 --filter 17,32 --runs ${MMA_RUNS:-5}
    tune_run rows-ly-exact 60 convolution:tf32x3-rows --filter 17 --size 333x517 --check exact \
      --space 'by=128;ly=1,2,4' --runs 1 ;;
  conv-f16-tune) # the searches of f16x3 and f16x3-split (bx x by x ly) at 32x32 and 17x17, then the tuned runs
    for f in 32 17; do
      for r in f16x3-split f16x3; do
        tune_run tune-$r-$f 90 convolution:$r --filter $f --size 8192 --runs 3
      done
    done
    run f16-tuned convolution:best,convolution:tf32x3,convolution:f16x3,convolution:f16x3-split --size 8192 \
      --filter 17,32 --runs ${MMA_RUNS:-5} ;;
  conv-halves) # f16x3-halves (a 16-tap chunk with a half of zeros as m16n8k8) beside f16x3-split, tf32x3 and best;
    # then the inline-PTX mutants of the fp16 kernel
    conv_mma_job halves convolution:best,convolution:tf32x3,convolution:f16x3-split,convolution:f16x3-halves \
      f16x3-halves "32 17" f16 f16-mutants 120 ;;
  conv-order) # f16x3-order (a chunk's three products issued in three passes over the column blocks) beside
    # f16x3-halves, tf32x3 and best; then its inline-PTX mutant and the fp16 kernel's
    conv_mma_job order convolution:best,convolution:tf32x3,convolution:f16x3-halves,convolution:f16x3-order \
      f16x3-order "17 32" "(f16|order)" order-mutants 150 ;;
  conv-rows-tune) # the searches of tf32x3-rows (strip rows x warps splitting the filter rows) and tf32x3 at
    # session 16's winner (64 x 16 outputs a warp, 4 warps), at 32x32 then 17x17
    for f in 32 17; do
      tune_run tune-rows-$f 150 convolution:tf32x3-rows --filter $f --size 8192 \
        --space 'by=256,512,1024;ly=1,2,4' --runs 3
      tune_run tune-tf32x3-$f 60 convolution:tf32x3 --filter $f --size 8192 --space 'bx=64;by=16;ly=4' --runs 5
    done ;;
  memo-check) # the program memo (one build per process for a source and its options) on NVIDIA: size sweeps
    # of several ladders, each size verified, and the devices table
    $cg devices >"$out/devices.txt" 2>&1
    run memo-scan scan --size 1,17,1025,1000003 --runs 3 &&
      run memo-hist histogram --size 17,65551,1000003 --runs 3 &&
      run memo-blur blur --size 333x517,1024x768 --runs 3 &&
      run memo-transpose transpose --size 333x517,1024x768 --runs 3 &&
      run memo-conv convolution --size 1001x777 --filter 3,32 --runs 3 &&
      run memo-f3 filter3x3 --size 333x517,1024x768 --runs 3 ;;
  conv-sweep) # the AMD chapter's time against every filter width 2..32 at an 8192^2 output (no gnuplot there:
    # clgauge report FILE.json --html draws the sweep chart here)
    RUN_TIMEOUT=560 run conv-sweep-gpu convolution:naive,convolution:unroll4,convolution:unroll4-if,convolution:best \
      --size 8192 --filter 2-32 --runs 2 --warmup 1 ;;
  conv-sweep-cpu) # the same on the GPU machine's CPU through PoCL
    RUN_DEVICE=cpu RUN_TIMEOUT=560 run conv-sweep-cpu convolution:naive,convolution:unroll4,convolution:unroll4-if \
      --size 8192 --filter 2-32 --runs 1 --warmup 0 ;;
  lcs) run lcs-512k lcs:tiled,lcs:bitpar-wg,lcs:best --size 524288 --runs 3 && run lcs-16k lcs --size 16384 --runs 3 ;;
  tune-extra) # issues 20, 21: histogram:self-zero with 8 loads in flight and one wave of groups, blur:fused's
    # whole space (every candidate, no budget cut), then both rungs untuned and tuned in one job
    for a in "histogram:self-zero --space wg=512,1024;copies=32;loads=4,8;grid=1,2 --budget 60" \
      "blur:fused --budget 240"; do
      t=${a%% *}
      n=tune-x-${t//:/-}
      # shellcheck disable=SC2086 # the words of $a are the arguments
      tune_run $n 280 $a --runs 5
    done
    run tune-x-untuned histogram:self-zero,blur:fused --no-tuned --runs 10 &&
      run tune-x-tuned histogram:self-zero,blur:fused --runs 10 ;;
  of-u16) # issue 19: the J levels as 16-bit unorm images against best, dense 1080p and 640x480, sparse 1080p
    run of-u16-1080p opticalflow:image-linear,opticalflow:best,opticalflow:unorm16 --size 1920x1080 --runs 5 &&
      run of-u16-640x480 opticalflow:image-linear,opticalflow:best,opticalflow:unorm16 --runs 10 &&
      run of-u16-1080p-pts opticalflow:best,opticalflow:unorm16 --size 1920x1080 --points 100000 --runs 3 ;;
  of-exit) # issue 19: early-exit (a point stops at its first step below 0.01 px) beside unorm16 and best, 640x480
    # and 1080p with 3 levels and with 4 (OpenCV's maxLevel 3), then the peers (PEERS_ONLY=opticalflow) after it
    run of-exit-640x480 opticalflow:best,opticalflow:unorm16,opticalflow:early-exit --runs 10 &&
      run of-exit-640x480-l4 opticalflow:unorm16,opticalflow:early-exit --levels 4 --runs 10 &&
      run of-exit-1080p opticalflow:unorm16,opticalflow:early-exit --size 1920x1080 --runs 10 &&
      run of-exit-1080p-l4 opticalflow:unorm16,opticalflow:early-exit --size 1920x1080 --levels 4 --runs 10 ;;
  of-half) # issue 19: half (CL_HALF_FLOAT J levels; its probe on NVIDIA) beside best and unorm16, 640x480 and
    # 1080p; then the whole ladder at 640x480 (every rung verified on the GPU)
    run of-half-640x480 opticalflow:best,opticalflow:half,opticalflow:unorm16 --runs 10 &&
      run of-half-1080p opticalflow:best,opticalflow:half,opticalflow:unorm16 --size 1920x1080 --runs 5 &&
      run of-all-640x480 opticalflow --runs 5 ;;
  of-tune) # issues 19, 20: early-exit's work-group searched at 640x480 and 1080p, then untuned and tuned runs
    tune_run of-tune-640x480 200 opticalflow:early-exit --budget 90 --runs 5
    tune_run of-tune-1080p 200 opticalflow:early-exit --size 1920x1080 --budget 90 --runs 3
    for m in untuned tuned; do
      f=; [ $m = untuned ] && f=--no-tuned
      run of-exit-640x480-$m opticalflow:early-exit $f --runs 10
      run of-exit-1080p-$m opticalflow:early-exit --size 1920x1080 $f --runs 10
    done ;;
  hist-read) # issue 21: the one-launch histogram rungs (no fill), the contiguous chunks and nv-match beside
    # best and two-pass, u8 random and all-equal and u32 random at 2^28 bytes
    H=histogram:best,histogram:two-pass,histogram:one-kernel,histogram:self-zero,histogram:chunked,histogram:nv-match
    run h21-u8-random $H --no-tuned --pattern random --runs 20 &&
      run h21-u8-allequal $H --no-tuned --pattern allequal --runs 20 &&
      run h21-u32-random $H --no-tuned --pixel u32 --pattern random --runs 20 ;;
  hist-nc) # issue 21: nc-loads (the uint4 loads as ld.global.nc.L1::no_allocate) beside self-zero: verified at
    # odd sizes (u8 random and all-equal, u32), 2^28 bytes with own values, its searches (random, all-equal),
    # the tuned runs, its inline-PTX mutant
    H=histogram:self-zero,histogram:nc-loads
    run nc-odd $H --size 17,65551,1000003 --runs 2 &&
      run nc-odd-eq $H --size 1000003 --pattern allequal --runs 2 &&
      run nc-odd-u32 $H --size 1000003 --pixel u32 --runs 2 &&
      run nc-u8-random $H --no-tuned --pattern random --runs 20 &&
      run nc-u8-allequal $H --no-tuned --pattern allequal --runs 20 &&
      run nc-u32-random $H --no-tuned --pixel u32 --pattern random --runs 20
    tune_run tune-nc-random 75 histogram:nc-loads --pattern random --runs 10
    tune_run tune-nc-allequal 75 histogram:nc-loads --pattern allequal --runs 10
    run nc-tuned-random $H --pattern random --runs 20 && run nc-tuned-allequal $H --pattern allequal --runs 20
    mutants_run nc-mutant 60 hist-nc-offset ;;
  conv-order-peers) # f16x3-order's tuned shapes (session 20's searches) at 17x17 and 32x32 beside best and
    # f16x3-halves at theirs, for a run with the convolution peers after it in the same job
    tune_run order-17 40 convolution:f16x3-order --filter 17 --size 8192 --space 'bx=64;by=16;ly=4' --runs 3
    tune_run order-32 40 convolution:f16x3-order --filter 32 --size 8192 --space 'bx=32;by=16;ly=4' --runs 3
    run order-peers-run convolution:best,convolution:f16x3-order --size 8192 --filter 17,32 --runs ${MMA_RUNS:-5} ;;
  blur-mma) # issue 21: the f16x3 rungs (both separable passes as f16x3 Toeplitz products on tensor cores):
    # f16x3-sep, f16x3-vec (float4 loads), f16x3-st4 (float4 stores), f16x3-pf (L2 prefetches) beside
    # fused-ring: verified at odd sizes (random, exact; 336 and 1000 columns for the float4 paths) over the sigma
    # range they take (0.5 to 16) and refused past it; their mutants; 4096^2 and 8192^2 at sigma 5 with own
    # values; their searches at 4096^2 (ly 1, 2, 4 x py 256, 512; f16x3-pf's also at 8192^2: ly 1, 2 x py
    # 512); the tuned runs; the sigma sweep. About 7 minutes on an H200 with the build (session 22's call, cut at
    # 370 s, reached f16x3-pf's search): run `peers` before it (GPU_JOBS="peers blur-mma") when time is short
    M=blur:f16x3-sep,blur:f16x3-vec,blur:f16x3-st4,blur:f16x3-pf B=blur:fused-ring,$M
    run mma-odd $B --size 333x517,1001x777,1000x777 --sigma 5 --runs 1 --warmup 0 &&
      run mma-odd-exact $B --size 333x517,336x517 --sigma 5 --check exact --runs 1 --warmup 0 &&
      for sg in 0.5 2 5.4 10 16 20; do
        run mma-odd-s$sg $M --size 333x517,336x517 --sigma $sg --runs 1 --warmup 0
        run mma-odd-exact-s$sg $M --size 333x517,336x517 --sigma $sg --check exact --runs 1 --warmup 0
      done
    muts=blur-mma-ring-lo,blur-mma-koff,blur-mma-vec-row,blur-mma-vec-inner,blur-mma-st4-row,blur-mma-st4-order
    mutants_run mma-mutants 90 "$muts"
    run mma-4096 $B --size 4096x4096 --sigma 5 --runs 10 --no-tuned &&
      run mma-8192 $B --size 8192x8192 --sigma 5 --runs 5 --no-tuned
    for r in f16x3-pf f16x3-st4 f16x3-vec f16x3-sep; do
      tune_run tune-$r 40 blur:$r --size 4096x4096 --sigma 5 --runs 5 --space 'ly=1,2,4;py=256,512'
    done
    tune_run tune-f16x3-pf-8192 30 blur:f16x3-pf --size 8192x8192 --sigma 5 --runs 5 --space 'ly=1,2;py=512'
    run mma-4096-tuned $B --size 4096x4096 --sigma 5 --runs 20 &&
      run mma-8192-tuned $B --size 8192x8192 --sigma 5 --runs 10 &&
      for sg in 2 10 16; do run mma-sweep-s$sg $B --size 4096x4096 --sigma $sg --runs 5 --no-tuned; done ;;
  cloth-tiles) # issue 17: the temporal-tile Jacobi rungs against jacobi and best, 10 and 20 iterations
    run cloth-tiles cloth:jacobi,cloth:best,cloth:jacobi-local,cloth:jacobi-k2,cloth:jacobi-k4 --grid 1024x1024 &&
      run cloth-tiles-k20 cloth:merged,cloth:best,cloth:jacobi-k2,cloth:jacobi-k4 --grid 1024x1024 --iterations 20 ;;
  cloth) run cloth cloth --grid 1024x1024 && run cloth-many cloth:jacobi,cloth:best,cloth:per-cloth --grid 64x64 --cloths 64 ;;
  opticalflow) run of-640x480-l4 opticalflow --levels 4 --runs 10 &&
    run of-1080p opticalflow:precomputed,opticalflow:image-linear,opticalflow:best --size 1920x1080 --levels 4 --runs 5 ;;
  peak)
    echo "\$ clgauge peak --device gpu --only copy,fp32,balance,cache,rules,scatter --max-time 0.3" >>"$out/commands.txt"
    timeout 120 $cg peak --device gpu --only copy,fp32,balance,cache,rules,scatter --max-time 0.3 \
      --json "$out/peak-seeds.json" >"$out/peak-seeds.txt" 2>&1
    echo "rc=$?" >>"$out/commands.txt"
    ;;
  peak-sizes) # issue 16: read, repeated read (read-rep: the L1/L2 rates) and copy against the buffer size
    echo "\$ clgauge peak --device gpu --only sizes" >>"$out/commands.txt"
    timeout 200 $cg peak --device gpu --only sizes --json "$out/peak-sizes.json" >"$out/peak-sizes.txt" 2>&1
    echo "rc=$?" >>"$out/commands.txt" ;;
  peak-full) # issue 16: a full peak within 3 minutes (its wall time in peak-full.time)
    echo "\$ clgauge peak --device gpu" >>"$out/commands.txt"
    s=$(date +%s.%N)
    timeout 300 $cg peak --device gpu --json "$out/peak-full.json" >"$out/peak-full.txt" 2>&1
    echo "rc=$?" >>"$out/commands.txt"
    awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "wall %.1f s\n", b - a }' >"$out/peak-full.time" ;;
  of-sparse) # issue 19: sparse points (a grid every 8 px, 10000 and 100000 random points), 640x480 and 1080p
    run of-grid8 opticalflow --grid-step 8 --runs 10 && run of-pts10k opticalflow --points 10000 --runs 10 &&
      run of-pts100k-1080p opticalflow --size 1920x1080 --points 100000 --runs 5 ;;
  blur-blocks) # issue 21: the block-parallel recursive rungs against the rest, sigma 5 .. 32
    for sg in 5 10 20 32; do run blur-4096-s$sg blur --size 4096x4096 --sigma $sg --runs 5; done
    run blur-8192-s5 blur --size 8192x8192 --sigma 5 --runs 3 ;;
  blur-ring) # issue 21: fused-ring (column sums in registers down a strip) against fused, sigma 2 .. 32, its
    # search, then the rungs untuned and tuned, and the blur peers
    run ring-4096-s5 blur:sep-local,blur:fused,blur:fused-ring,blur:recursive-blocks --size 4096x4096 --sigma 5 --runs 10 &&
      run ring-8192-s5 blur:fused,blur:fused-ring --size 8192x8192 --sigma 5 --runs 5
    for sg in 2 3 8 10 16 20 32; do
      run ring-4096-s$sg blur:sep-local,blur:fused,blur:fused-ring,blur:recursive-blocks --size 4096x4096 --sigma $sg --runs 5
    done
    tune_run tune-ring 200 blur:fused-ring --budget 90 --runs 5
    run ring-untuned blur:fused,blur:fused-ring --size 4096x4096 --no-tuned --runs 10 &&
      run ring-tuned blur:fused,blur:fused-ring --size 4096x4096 --runs 10 ;;
  blur-ring2) # issue 21: fused-ring with rows loaded BLK at a time and vector stores; its search over the group,
    # columns per work-item, strip and rows per load (RING_SPACE), then untuned and tuned, sigma 2 .. 32
    run ring2-4096-s5 blur:fused,blur:fused-ring --size 4096x4096 --sigma 5 --runs 10
    sp=${RING_SPACE:-wgx=32,64,128;cx=2,4;py=128,256;blk=32,64}
    tune_run tune-ring2 240 blur:fused-ring --space "$sp" --budget 150 --runs 5
    run ring2-tuned-4096-s5 blur:fused,blur:fused-ring --size 4096x4096 --sigma 5 --runs 10 &&
      run ring2-tuned-8192-s5 blur:fused,blur:fused-ring --size 8192x8192 --sigma 5 --runs 5
    for sg in 2 10 20 32; do
      run ring2-4096-s$sg blur:sep-local,blur:fused,blur:fused-ring --size 4096x4096 --sigma $sg --runs 5 --no-tuned
    done ;;
  blur-ring3) # issue 21: fused-ring's own values after s11b (2 columns a work-item, 32-row loads) at 4096^2 and
    # 8192^2, its search at both sizes (RING_SPACE), then tuned runs, and its own values over sigma 2 .. 32
    run ring3-4096-s5 blur:fused,blur:fused-ring --size 4096x4096 --sigma 5 --runs 10 --no-tuned &&
      run ring3-8192-s5 blur:fused,blur:fused-ring --size 8192x8192 --sigma 5 --runs 5 --no-tuned
    sp=${RING_SPACE:-wgx=16,32,64;cx=2;py=64,128,192,256;blk=16,32}
    for sz in 4096 8192; do
      tune_run tune-ring3-$sz 200 blur:fused-ring --size ${sz}x$sz --space "$sp" --budget 110 --runs 5
    done
    run ring3-tuned-4096-s5 blur:fused,blur:fused-ring --size 4096x4096 --runs 10 &&
      run ring3-tuned-8192-s5 blur:fused,blur:fused-ring --size 8192x8192 --runs 5
    for sg in 2 3 8 10 16 20 32; do
      run ring3-4096-s$sg blur:fused-ring --size 4096x4096 --sigma $sg --runs 5 --no-tuned
    done
    # an experiment: the row loop unrolled 16 times instead of 8 (a kernel copy, --kernel-dir)
    mkdir -p /tmp/kd-u16 && cp src/workloads/blur/blur_*.cl /tmp/kd-u16/ && python3 -c 'import sys; s = open(sys.argv[1]).read(); o = "#ifndef U\n#define U 8\n#endif"
assert s.count(o) == 1; open(sys.argv[2], "w").write(s.replace(o, "#undef U\n#define U 16"))' \
      src/workloads/blur/blur.cl /tmp/kd-u16/blur.cl &&
      run ring3-u16-4096-s5 blur:fused-ring --kernel-dir /tmp/kd-u16 --no-cache --size 4096x4096 --runs 10 --no-tuned &&
      run ring3-u16-8192-s5 blur:fused-ring --kernel-dir /tmp/kd-u16 --no-cache --size 8192x8192 --runs 5 --no-tuned ;;
  blur-ring4) # issue 21: fused-ring with U rows' loads in flight; two kernel-copy experiments (the row sum split in
    # two chains; the row loop unrolled 16 times); a small search; its own values over sigma 2 .. 32
    run ring4-4096-s5 blur:fused,blur:fused-ring --size 4096x4096 --sigma 5 --runs 10 --no-tuned &&
      run ring4-8192-s5 blur:fused,blur:fused-ring --size 8192x8192 --sigma 5 --runs 5 --no-tuned
    mkdir -p /tmp/kd-split /tmp/kd-u16 # blur's kernels are several files: both dirs get the others (blur_*.cl)
    cp src/workloads/blur/blur_*.cl /tmp/kd-split/ && cp src/workloads/blur/blur_*.cl /tmp/kd-u16/
    python3 - src/workloads/blur/blur.cl <<'PYEOF'
import sys
s = open(sys.argv[1]).read()
o = """                    float s = 0.0f;
#pragma unroll
                    for (int k = 0; k < T; k++)
                        s += g[k] * v[c + k];
                    hs[c] = s;"""
n = """                    float s = 0.0f, s1 = 0.0f;
#pragma unroll
                    for (int k = 0; k < T; k++)
                        if (k & 1) s1 += g[k] * v[c + k]; else s += g[k] * v[c + k];
                    hs[c] = s + s1;"""
u = "#ifndef U\n#define U 8\n#endif"
assert s.count(o) == 1 and s.count(u) == 1
open("/tmp/kd-split/blur.cl", "w").write(s.replace(o, n))
open("/tmp/kd-u16/blur.cl", "w").write(s.replace(u, "#undef U\n#define U 16"))
PYEOF
    for x in split u16; do
      run ring4-$x-4096-s5 blur:fused-ring --kernel-dir /tmp/kd-$x --no-cache --size 4096x4096 --runs 10 --no-tuned &&
        run ring4-$x-8192-s5 blur:fused-ring --kernel-dir /tmp/kd-$x --no-cache --size 8192x8192 --runs 5 --no-tuned
    done
    sp=${RING_SPACE:-wgx=32;cx=2,4;py=128,192;blk=16,32}
    tune_run tune-ring4 150 blur:fused-ring --space "$sp" --budget 80 --runs 5
    for sg in 2 3 8 10 16 20 32; do
      run ring4-4096-s$sg blur:fused-ring --size 4096x4096 --sigma $sg --runs 5 --no-tuned
    done ;;
  blur-ring5) # issue 21: fused-ring double-buffered (the next batch's loads in flight while one is filtered)
    # against the single-buffered kernel of s11d (a kernel copy in .gpu/kd-single, when there), 16 and 32-row
    # batches, then its own values over sigma 2 .. 32
    run ring5-4096-s5 blur:fused,blur:fused-ring --size 4096x4096 --sigma 5 --runs 10 --no-tuned &&
      run ring5-8192-s5 blur:fused,blur:fused-ring --size 8192x8192 --sigma 5 --runs 5 --no-tuned
    if [ -f .gpu/kd-single/blur.cl ]; then
      cp -n src/workloads/blur/blur_*.cl .gpu/kd-single/
      run ring5-single-4096-s5 blur:fused-ring --kernel-dir .gpu/kd-single --no-cache --size 4096x4096 --runs 10 --no-tuned &&
        run ring5-single-8192-s5 blur:fused-ring --kernel-dir .gpu/kd-single --no-cache --size 8192x8192 --runs 5 --no-tuned
    fi
    tune_run tune-ring5 90 blur:fused-ring --space 'wgx=32;cx=2;py=128;blk=16,32' --budget 40 --runs 5
    for sg in 2 3 10 20 32; do
      run ring5-4096-s$sg blur:fused-ring --size 4096x4096 --sigma $sg --runs 5 --no-tuned
    done ;;
  facts) # issue 20: the kernel facts and occupancy on NVIDIA (registers from the -cl-nv-verbose side build)
    echo "\$ CLGAUGE_DEBUG=1 clgauge run reduction,transpose --runs 3 --device gpu" >>"$out/commands.txt"
    CLGAUGE_DEBUG=1 timeout 120 $cg run reduction,transpose --runs 3 --device gpu --json "$out/facts.json" \
      >"$out/facts.txt" 2>"$out/facts.err"
    echo "rc=$?" >>"$out/commands.txt" ;;
  blur-s32) # large sigma: every rung but fused (unsupported: local memory) runs at sigma 32
    run blur-4096-s32 blur --size 4096x4096 --sigma 32 --runs 5 ;;
  of-1080p-l3) # the dense image rungs at 1080p with the default 3 levels (sparse failed there on 2 points)
    run of-1080p-l3 opticalflow:precomputed,opticalflow:image-linear,opticalflow:best --size 1920x1080 --runs 3 ;;
  deriche) # issue 15: the guide's 4+4-tap recursive filter and its 16x16 skewed transposes beside YvV
    R=blur:dH,blur:dV,blur:deriche,blur:deriche-vt16,blur:rgH,blur:rgV,blur:recursive,blur:recursive-vt16,blur:recursive-vt,blur:recursive-ht
    run blur-deriche-4096-s5 $R --size 4096x4096 --runs 10 --estimate &&
      run blur-deriche-4096-s32 $R --size 4096x4096 --sigma 32 --runs 5 ;;
  overheads) # issue 16: the overheads family, --timer both, the device facts, a full peak's time
    for a in "devices" "peak --device gpu --only overheads,launch" "peak --device gpu --only read,copy,fp32 --timer both"; do
      n=$(echo "$a" | tr ' ,' '__' | tr -d -)
      echo "\$ clgauge $a" >>"$out/commands.txt"
      timeout 150 $cg $a >"$out/$n.txt" 2>&1
      echo "rc=$?" >>"$out/commands.txt"
    done ;;
  of-check) # issue 19: the per-level check at 1080p, 3 levels (dense and sparse), and 640x480 with 4 levels
    RUN_TIMEOUT=200 run of-1080p-l3 opticalflow:precomputed,opticalflow:image-linear,opticalflow:best --size 1920x1080 --runs 3 &&
      RUN_TIMEOUT=200 run of-pts100k-1080p opticalflow --size 1920x1080 --points 100000 --runs 3 ;;
  tune) # issue 20: each target's search (its table and JSON), then the same rungs untuned and tuned, in one job
    # on one device (TUNE_DEVICE, default gpu; the winners stay in the job's cache for the tuned run)
    td=${TUNE_DEVICE:-gpu}
    tt=${TUNE_TARGETS:-reduction:best histogram:best transpose:best convolution:best filter3x3:u8-vec-16x16 scan:nv-shfl}
    for t in $tt; do
      n=tune-$td-${t//:/-}
      # shellcheck disable=SC2086 # the words of TUNE_ARGS are arguments
      RUN_DEVICE=$td tune_run $n 200 $t --budget "${TUNE_BUDGET:-45}" --runs 5 ${TUNE_ARGS:-}
    done
    r=$(echo $tt | tr ' ' ,)
    RUN_DEVICE=$td run tune-$td-untuned $r --no-tuned --runs 10 ${TUNE_ARGS:-} &&
      RUN_DEVICE=$td run tune-$td-tuned $r --runs 10 ${TUNE_ARGS:-} ;;
  cloth-fma) # issue 17: the fma rung beside jacobi and best at 1024x1024 (K 10 and 20); the gather rungs' groups
    # searched (issue 20), then run with the winners in the same job
    C=cloth:jacobi,cloth:best,cloth:fma
    run cloth-fma $C --grid 1024x1024 --runs 10 &&
      run cloth-fma-k20 $C,cloth:merged --grid 1024x1024 --iterations 20 --runs 5
    tune_run tune-cloth-fma 170 cloth:fma --grid 1024x1024 --budget 100 --runs 5
    tune_run tune-cloth-merged 100 cloth:merged --grid 1024x1024 --space 'wgx=16,32,64,128;wgy=1,2,4' \
      --budget 60 --runs 5
    run cloth-fma-tuned cloth:merged,cloth:best,cloth:fma --grid 1024x1024 --runs 10 ;;
  cloth-mfma) # issue 17: merged-fma (coloured Gauss-Seidel with fma) beside merged, its groups searched, then
    # untuned and tuned in the same job
    tune_run tune-cloth-mfma 100 cloth:merged-fma --grid 1024x1024 --space 'wgx=16,32,64,128;wgy=1,2,4' \
      --budget 50 --runs 5
    run cloth-mfma-untuned cloth:merged,cloth:merged-fma --grid 1024x1024 --no-tuned --runs 10 &&
      run cloth-mfma-tuned cloth:merged-fma --grid 1024x1024 --runs 10 ;;
  blur5-cx) # issue 21: fused-ring at 4096^2 sigma 5 with one column a work-item (not searched since the
    # kernel's batches) and wider groups, then untuned and tuned
    tune_run tune-blur5-cx 130 blur:fused-ring --space 'wgx=32,64,128;cx=1,2;py=128,256;blk=0' --budget 90 \
      --runs 5
    run blur5-untuned blur:fused-ring --no-tuned --runs 20 && run blur5-tuned blur:fused-ring --runs 20 ;;
  tune-goal) # issue 20's goal in one job: three workloads' best rungs searched from their own values, then the
    # same rungs untuned and tuned (scan: nv-reread, the best hand-picked rung before any search, and nv-wide,
    # the session-9 search's winner made a rung, beside them; blur at sigma 10, where no search has been)
    tune_run tune-goal-scan 130 scan:nv-vload --space 'wg=128,256,512;items=8,16,32' --budget 60 --runs 5
    tune_run tune-goal-of 130 opticalflow:best --budget 60 --runs 5
    tune_run tune-goal-blur10 170 blur:fused-ring --sigma 10 --space 'wgx=32,64,128;cx=1,2;py=64,128,256' \
      --budget 110 --runs 5
    g=scan:nv-reread,scan:nv-vload,scan:nv-wide,opticalflow:best
    run tune-goal-untuned $g --no-tuned --runs 10 && run tune-goal-tuned $g --runs 10 &&
      run tune-goal-blur10-untuned blur:fused-ring --sigma 10 --no-tuned --runs 10 &&
      run tune-goal-blur10-tuned blur:fused-ring --sigma 10 --runs 10 ;;
  tune-goal2) # issue 20's goal in one job, four workloads: each searched from its rungs' own values, then the
    # same rungs untuned (--no-tuned) and tuned; scan: nv-reread (the best hand-picked rung before any search)
    # and nv-wide (session 9's winner made a rung) beside nv-vload; blur at sigma 10; cloth's merged
    # (Gauss-Seidel) and fma (Jacobi); opticalflow at 1920x1080
    tune_run tune2-scan 100 scan:nv-vload --space 'wg=128,256,512;items=8,16,32' --budget 50 --runs 5
    tune_run tune2-blur10 100 blur:fused-ring --sigma 10 --space 'wgx=32,64;cx=1;py=128,256,512;blk=0,32' \
      --budget 60 --runs 5
    tune_run tune2-cloth 100 cloth:merged --grid 1024x1024 --space 'wgx=16,32,64,128;wgy=1,2,4' --budget 50 \
      --runs 5
    tune_run tune2-of1080 100 opticalflow:best --size 1920x1080 --space 'wgx=16,32,64;wgy=1,2,4,16' \
      --budget 60 --runs 3
    for m in untuned tuned; do
      f=; [ $m = untuned ] && f=--no-tuned
      run tune2-scan-$m scan:nv-reread,scan:nv-vload,scan:nv-wide $f --runs 10
      run tune2-blur10-$m blur:fused-ring --sigma 10 $f --runs 10
      run tune2-cloth-$m cloth:merged,cloth:fma --grid 1024x1024 $f --runs 10
      RUN_TIMEOUT=100 run tune2-of1080-$m opticalflow:best --size 1920x1080 $f --runs 5
    done ;;
  of-real) # issue 19: the real pair (scripts/real-pair.sh DIR, carried in OF_PAIR, default .gpu/pair), every
    # rung, its flow drawn (flow-basketball.png)
    pr=${OF_PAIR:-.gpu/pair}
    run of-basketball opticalflow --input "$pr/basketball1.png,$pr/basketball2.png" \
      --output "$out/flow-basketball.png" --runs 10 ;;
  tune-goal3) # issue 20's goal in one job, as tune-goal2 but opticalflow's fastest rung (early-exit) at its
    # default 640x480 (its search in s13c: 1.16x) instead of best at 1080p
    tune_run tune3-scan 100 scan:nv-vload --space 'wg=128,256,512;items=8,16,32' --budget 50 --runs 5
    tune_run tune3-blur10 100 blur:fused-ring --sigma 10 --space 'wgx=32,64;cx=1;py=128,256,512;blk=0,32' \
      --budget 60 --runs 5
    tune_run tune3-cloth 100 cloth:merged --grid 1024x1024 --space 'wgx=16,32,64,128;wgy=1,2,4' --budget 50 \
      --runs 5
    tune_run tune3-of 100 opticalflow:early-exit --budget 60 --runs 5
    for m in untuned tuned; do
      f=; [ $m = untuned ] && f=--no-tuned
      run tune3-scan-$m scan:nv-reread,scan:nv-vload,scan:nv-wide $f --runs 10
      run tune3-blur10-$m blur:fused-ring --sigma 10 $f --runs 10
      run tune3-cloth-$m cloth:merged,cloth:fma --grid 1024x1024 $f --runs 10
      run tune3-of-$m opticalflow:unorm16,opticalflow:early-exit $f --runs 10
    done ;;
  cloth-once) # issue 17: jacobi-once (each spring once) beside fma, merged-cm (colour-major store) beside
    # merged, at 1024x1024: own values, then each searched, then tuned, then K = 20
    C=cloth:fma,cloth:jacobi-once,cloth:merged,cloth:merged-cm
    run cloth-once $C --grid 1024x1024 --runs 10
    tune_run tune-cloth-once 120 cloth:jacobi-once --grid 1024x1024 --budget 60 --runs 5
    tune_run tune-cloth-cm 100 cloth:merged-cm --grid 1024x1024 --space 'wgx=16,32,64,128,256;wgy=1,2,4' \
      --budget 50 --runs 5
    tune_run tune-cloth-merged 100 cloth:merged --grid 1024x1024 --space 'wgx=16,32,64,128,256;wgy=1,2,4' \
      --budget 50 --runs 5
    run cloth-once-tuned $C --grid 1024x1024 --runs 10
    run cloth-once-k20 $C --grid 1024x1024 --iterations 20 --runs 5 ;;
  cloth-int) # issue 17: fma-interior and cm-interior (no inside-the-grid tests for interior particles) beside
    # fma and merged-cm at 1024x1024: own values, each searched, tuned, then K = 20
    C=cloth:fma,cloth:fma-interior,cloth:merged-cm,cloth:cm-interior
    run cloth-int $C --grid 1024x1024 --runs 10
    tune_run tune-cloth-fint 100 cloth:fma-interior --grid 1024x1024 --space 'wgx=16,32,64,128;wgy=1,2,4,8,16' \
      --budget 50 --runs 5
    tune_run tune-cloth-cint 100 cloth:cm-interior --grid 1024x1024 --space 'wgx=16,32,64,128,256;wgy=1,2,4' \
      --budget 50 --runs 5
    tune_run tune-cloth-cm 60 cloth:merged-cm --grid 1024x1024 --space 'wgx=16,32;wgy=2,4' --runs 5
    tune_run tune-cloth-fma 60 cloth:fma --grid 1024x1024 --space 'wgx=16,64;wgy=1,3,4,16' --runs 5
    run cloth-int-tuned $C --grid 1024x1024 --runs 10
    run cloth-int-k20 $C --grid 1024x1024 --iterations 20 --runs 5 ;;
  cloth-h200) # issue 17 on an H200: fma-interior and merged-cm searched near their H100 winners, then the
    # Jacobi and Gauss-Seidel rungs tuned
    tune_run tune-cloth-fint 60 cloth:fma-interior --grid 1024x1024 --space 'wgx=16,64;wgy=4,16' --runs 5
    tune_run tune-cloth-cm 60 cloth:merged-cm --grid 1024x1024 --space 'wgx=16,32;wgy=2,4' --runs 5
    run cloth-h200 cloth:fma,cloth:fma-interior,cloth:merged,cloth:merged-cm --grid 1024x1024 --runs 10 ;;
  cloth-r32) # issue 17: interior-r32 (32 registers: full occupancy) beside fma-interior, cm-fma beside merged-cm,
    # own values, searched near the known winners, tuned
    C=cloth:fma-interior,cloth:interior-r32,cloth:merged-cm,cloth:cm-fma
    run cloth-r32 $C --grid 1024x1024 --runs 10
    tune_run tune-cloth-cmfma 60 cloth:cm-fma --grid 1024x1024 --space 'wgx=16,32;wgy=2,4' --runs 5
    tune_run tune-cloth-cm 60 cloth:merged-cm --grid 1024x1024 --space 'wgx=16,32;wgy=2,4' --runs 5
    tune_run tune-cloth-r32 60 cloth:interior-r32 --grid 1024x1024 --space 'wgx=16,64;wgy=4,16' --runs 5
    run cloth-r32-tuned $C --grid 1024x1024 --runs 10 ;;
  cloth-h200b) # issue 17 on an H200: cm-fma searched near its H100 winner, then run tuned beside merged-cm
    tune_run tune-cloth-cmfma 50 cloth:cm-fma --grid 1024x1024 --space 'wgx=16,32;wgy=4' --runs 5
    run cloth-h200b cloth:merged-cm,cloth:cm-fma --grid 1024x1024 --runs 10 ;;
  cloth-rows) # issue 17: 2 particles a work-item (interior-2rows), the integration without the copy
    # (interior-noprev) beside fma-interior at 1024x1024, searched, tuned, K = 20 (s15a at d0edfae also ran
    # interior-4rows and both with -DNOPREV: they lost, and are gone)
    C=cloth:fma-interior,cloth:interior-2rows,cloth:interior-noprev
    run cloth-rows $C --grid 1024x1024 --runs 10
    tune_run tune-cloth-2rows 60 cloth:interior-2rows --grid 1024x1024 --space 'wgx=16,32,64,128;wgy=1,2,4,8,16' --budget 20 --runs 5
    run cloth-rows-tuned $C --grid 1024x1024 --runs 10
    run cloth-rows-k20 $C --grid 1024x1024 --iterations 20 --runs 5 ;;
  cloth-grid) # issue 17: the grid's size compiled in (noprev-grid), then 1/sqrt in 2 Newton steps (grid-rsq2),
    # beside fma-interior and interior-noprev at 1024x1024: own values, the new rungs searched, tuned, K = 20
    C=cloth:fma-interior,cloth:interior-noprev,cloth:noprev-grid,cloth:grid-rsq2
    run cloth-grid $C --grid 1024x1024 --runs 10
    for r in interior-noprev noprev-grid grid-rsq2; do
      tune_run tune-cloth-$r 60 cloth:$r --grid 1024x1024 --space 'wgx=16,32,64,128;wgy=1,2,4,8,16' --budget 20 --runs 5
    done
    run cloth-grid-tuned $C --grid 1024x1024 --runs 10
    run cloth-grid-k20 $C --grid 1024x1024 --iterations 20 --runs 5 ;;
  hist-h200) # issue 21 on an H200: the one-launch histogram rungs beside best, u8 random and all-equal at 2^28
    H=histogram:best,histogram:self-zero,histogram:chunked
    run h200-u8-random $H --no-tuned --pattern random --runs 20 &&
      run h200-u8-allequal $H --no-tuned --pattern allequal --runs 20 ;;
  blur-taps) # issue 21: ring-taps (fused-ring with the taps compiled in) beside fused and fused-ring at 4096^2
    # and 8192^2, sigma 5, own values; ring-taps searched near fused-ring's known winners, tuned; sigma 10
    B=blur:fused,blur:fused-ring,blur:ring-taps
    run taps-4096-s5 $B --size 4096x4096 --sigma 5 --runs 10 --no-tuned &&
      run taps-8192-s5 $B --size 8192x8192 --sigma 5 --runs 5 --no-tuned
    tune_run tune-taps 200 blur:ring-taps --size 4096x4096 --space 'wgx=32,64;cx=1,2,4;py=128,256;blk=16,32' --budget 24 --runs 5
    run taps-tuned-4096-s5 $B --size 4096x4096 --sigma 5 --runs 10
    run taps-4096-s10 blur:fused-ring,blur:ring-taps --size 4096x4096 --sigma 10 --runs 5 --no-tuned ;;
  mutants-s15) # session 15's mutants where their rungs run: every cloth one expected caught (interior-r32 in two of
    # them, nvidia-ptx), the ring ones with ring-taps, half's conversion (half-float images)
    ids=$(awk '/^id:/ {id = $2} /^expect: caught$/ {print id}' tests/mutation/cloth.mut | paste -sd,)
    ids=$ids,blur-ring-shift,blur-ring-row-tap,blur-ring-lane,blur-ring-taps-pairs,of-half-level
    mutants_run mutants-s15 420 "$ids" ;;
  blur-h200) # issue 21 on an H200: time against sigma for the separable, ring and recursive rungs at 4096^2
    for sg in 2 5 10 20 32; do
      run h200-blur-s$sg blur:sep-local,blur:fused,blur:fused-ring,blur:ring-taps,blur:recursive,blur:recursive-blocks \
        --size 4096x4096 --sigma $sg --runs 5 --no-tuned
    done ;;
  mma-s16) # issue 21: the tensor-core ceiling (peak tf32-mma) beside fp32; tf32x3 with its two small products in two
    # accumulators (exp/s2) and with its three products issued in passes (exp/pass): kernel copies through
    # --kernel-dir, verified at odd sizes first; then tf32x3's whole search at 32x32
    echo "\$ clgauge peak --device gpu --only fp32,tf32-mma --json peak-mma.json" >>"$out/commands.txt"
    timeout 120 $cg peak --device gpu --only fp32,tf32-mma --json "$out/peak-mma.json" >"$out/peak-mma.txt" 2>&1
    echo "rc=$?" >>"$out/commands.txt"
    C=convolution:tf32,convolution:tf32x3
    run mma-base $C --size 8192 --filter 17,32 --runs 5 --no-tuned
    for x in ${MMA_EXP:-s2 pass}; do
      run mma-$x-exact $C --kernel-dir exp/$x --no-cache --size 333x517 --filter 1,3,9,17,31,32 --check exact \
        --runs 1 --warmup 0 &&
        run mma-$x $C --kernel-dir exp/$x --no-cache --size 8192 --filter 17,32 --runs 5 --no-tuned
    done
    [ -n "${MMA_TUNE:-1}" ] && tune_run tune-tf32x3 240 convolution:tf32x3 --filter 32 --size 8192 --budget 200 --runs 5 ;;
  mma-s16b) # issue 21: tf32x3's searches at 32x32 and 17x17, then the filter read from global memory instead of
    # local (exp/fg: 7 KiB less local memory a group) verified at odd sizes, beside the committed kernel, own and tuned
    for f in 32 17; do
      tune_run tune-tf32x3-$f 200 convolution:tf32x3 --filter $f --size 8192 --budget 150 --runs 5
    done
    C=convolution:tf32,convolution:tf32x3
    run fg-exact $C --kernel-dir exp/fg --no-cache --size 333x517 --filter 1,3,9,17,31,32 --check exact --runs 1 \
      --warmup 0 --no-tuned &&
      run fg-random $C --kernel-dir exp/fg --no-cache --size 1001x777 --filter 1,3,9,17,31,32 --runs 1 --warmup 0 \
        --no-tuned &&
      run fg-own $C --kernel-dir exp/fg --no-cache --size 8192 --filter 17,32 --runs 5 --no-tuned &&
      run fg-tuned convolution:tf32x3 --kernel-dir exp/fg --no-cache --size 8192 --filter 17,32 --runs 5
    run base-tuned convolution:tf32x3 --size 8192 --filter 17,32 --runs 5 ;;
  mma-wrong) # peak's tf32-mma, right (--quick: 4 accumulators) and broken on purpose as tests/device/test_peak.sh
    # breaks it where the device has nvidia-mma: each broken copy must exit 3 with a FAILED row
    echo "\$ clgauge peak --device gpu --quick --only tf32-mma" >>"$out/commands.txt"
    $cg peak --device gpu --quick --only tf32-mma >"$out/mma-right.txt" 2>&1
    echo "rc=$?" >>"$out/commands.txt"
    for m in "sum|(d[c][2] + d[c][3])|(d[c][2] + d[c][2])" "frag|((lane >> 2) & 3)|((lane >> 3) & 3)"; do
      IFS='|' read -r n old new <<<"$m"
      d=/tmp/wrong-mma-$n
      mkdir -p $d && cp src/peak/*.cl $d/
      python3 -c 'import sys; s = open(sys.argv[1]).read(); assert s.count(sys.argv[2]) == 1
open(sys.argv[3], "w").write(s.replace(sys.argv[2], sys.argv[4]))' src/peak/tensor.cl "$old" $d/tensor.cl "$new"
      echo "\$ clgauge peak --device gpu --quick --only tf32-mma --kernel-dir DIR (tensor.cl: '$old' -> '$new')" \
        >>"$out/commands.txt"
      $cg peak --device gpu --quick --only tf32-mma --kernel-dir $d >"$out/mma-wrong-$n.txt" 2>&1
      echo "rc=$?" >>"$out/commands.txt"
    done ;;
  recheck-s16) # session 16's restructuring on NVIDIA: blur's kernels from two .cl files (the recursive filters in
    # blur_rec.cl), every rung at odd sizes at sigma 0.5 (exact), 5 and 32; peak's compute family with tf32-mma
    run s16-blur-5 blur --size 333x517 --sigma 5 --runs 1 --warmup 0 &&
      run s16-blur-32 blur --size 517x333 --sigma 32 --runs 1 --warmup 0 &&
      run s16-blur-exact blur --size 131x197 --sigma 0.5 --check exact --runs 1 --warmup 0
    echo "\$ clgauge peak --device gpu --only compute --max-time 0.3 --json peak-compute.json" >>"$out/commands.txt"
    timeout 150 $cg peak --device gpu --only compute --max-time 0.3 --json "$out/peak-compute.json" \
      >"$out/peak-compute.txt" 2>&1
    echo "rc=$?" >>"$out/commands.txt" ;;
  hist-h200-tune) # issue 21 on an H200: self-zero's search at 2^28 random bytes (as s9f on the H100), then
    # best and self-zero untuned and tuned, random and all-equal
    tune_run tune-h200-self-zero 200 histogram:self-zero --budget 120 --runs 5
    H=histogram:best,histogram:self-zero
    run h200t-u8-random-own $H --no-tuned --pattern random --runs 20 &&
      run h200t-u8-random $H --pattern random --runs 20 &&
      run h200t-u8-allequal $H --pattern allequal --runs 20 ;;
  hist-h200-tune2) # issue 21 on an H200: self-zero's search on all-equal bytes, and on random bytes over 8 loads
    # in flight and one wave (as s9g on the H100); then tuned runs of both patterns
    tune_run tune-h200-self-zero-eq 200 histogram:self-zero --pattern allequal --budget 120 --runs 5
    tune_run tune-h200-self-zero-x 200 histogram:self-zero --space "wg=512,1024;copies=32;loads=4,8;grid=1,2" \
      --budget 100 --runs 5
    run h200t2-u8-random histogram:self-zero --pattern random --runs 20 &&
      run h200t2-u8-allequal histogram:self-zero --pattern allequal --runs 20 ;;
  tiles-s17) # issue 21: the rows' blocks through local tiles (rgH-tiles, recursive-tiles) beside the block rungs
    # and fused-ring at 4096^2 and 8192^2, sigma 5 and 32; then searches of the tiles' wg x blk, and tuned runs
    T=blur:rgV-blocks,blur:rgH-blocks,blur:rgH-tiles,blur:recursive-blocks,blur:recursive-tiles,blur:fused-ring
    run tiles-4096-s5 $T --size 4096x4096 --sigma 5 --runs 10 --no-tuned &&
      run tiles-8192-s5 $T --size 8192x8192 --sigma 5 --runs 5 --no-tuned &&
      run tiles-4096-s32 $T --size 4096x4096 --sigma 32 --runs 5 --no-tuned
    tune_run tune-rgH-tiles 150 blur:rgH-tiles --size 4096x4096 --budget 60 --runs 5
    tune_run tune-recursive-tiles 150 blur:recursive-tiles --size 4096x4096 --budget 60 --runs 5
    run tiles-4096-tuned blur:rgH-tiles,blur:recursive-tiles --size 4096x4096 --runs 10 &&
      run tiles-8192-tuned blur:rgH-tiles,blur:recursive-tiles --size 8192x8192 --runs 5 ;;
  tiles-s17b) # issue 21: the tiles loaded with all of a lane's 32 loads in flight; the tile rungs again at
    # 4096^2 and 8192^2 (sigma 5) beside the block rungs, then their search
    T=blur:rgV-blocks,blur:rgH-blocks,blur:rgH-tiles,blur:recursive-blocks,blur:recursive-tiles
    run tiles2-4096 $T --size 4096x4096 --runs 10 --no-tuned &&
      run tiles2-8192 $T --size 8192x8192 --runs 5 --no-tuned
    tune_run tune2-recursive-tiles 120 blur:recursive-tiles --size 4096x4096 --budget 50 --runs 5 ;;
  fixl) # issue 21: recursive-fixl (the fix-ups' carries staged through local memory by 32 x fy groups) beside
    # recursive-tiles: verified at odd sizes (rows and columns with a short chunk), exact, sigma 0.5 and 32; 4096^2
    # and 8192^2 with own values (the stages_s of each pass in the JSON); its search; tuned runs; its mutants
    R=blur:recursive-tiles,blur:recursive-fixl
    rec_checks fixl $R
    tune_run tune-recursive-fixl 120 blur:recursive-fixl --size 4096x4096 --runs 5
    rec_tuned fixl $R
    ids=$(awk '/^id: blur-fixl-/ {print $2}' tests/mutation/blur.mut | paste -sd,)
    mutants_run fixl-mutants 120 "$ids" ;;
  whole) # issue 21: rgH-whole and recursive-whole (a group a whole row: the rows read once and written once,
    # their carries fixed in local memory) beside the tile rungs and recursive-fixl: verified at odd sizes
    # (random, exact, sigma 0.5 and 32); 4096^2 and 8192^2 with own values (stages_s in the JSON); the searches
    # of recursive-whole and of recursive-fixl (fy x cb at wg 64, blk 32); the tuned runs; sigma 32; the
    # mutants of both (blur-whole-*, blur-fixl-*)
    R=blur:rgH-tiles,blur:rgH-whole,blur:recursive-tiles,blur:recursive-fixl,blur:recursive-whole
    rec_checks whole $R
    tune_run tune-recursive-whole 60 blur:recursive-whole --size 4096x4096 --runs 5
    tune_run tune-recursive-fixl 60 blur:recursive-fixl --size 4096x4096 --runs 5 --space 'wg=64;fy=4,8,16;cb=16,32;blk=32'
    tune_run tune-recursive-whole-8192 60 blur:recursive-whole --size 8192x8192 --runs 3 --space 'wg=128,256,512;blk=32,64'
    rec_tuned whole $R
    run whole-4096-s32 blur:recursive-tiles,blur:recursive-whole --size 4096x4096 --sigma 32 --runs 5
    ids=$(awk '/^id: blur-(whole|fixl)-/ {print $2}' tests/mutation/blur.mut | paste -sd,)
    mutants_run whole-mutants 120 "$ids" ;;
  colc) # issue 21: recursive-colc (the columns' pass 1 made by the rows' pass 3 on its 32x32 tiles) beside
    # recursive-fixl and recursive-tiles: verified at odd sizes (random, exact, sigma 0.5 and 32); 4096^2 and
    # 8192^2 with own values (stages_s); its search at both sizes; the tuned runs; its mutants (blur-colc-*)
    R=blur:recursive-tiles,blur:recursive-fixl,blur:recursive-colc
    rec_checks colc $R
    tune_run tune-recursive-colc 90 blur:recursive-colc --size 4096x4096 --runs 5
    tune_run tune-recursive-fixl 60 blur:recursive-fixl --size 4096x4096 --runs 5 --space 'wg=64;fy=4,8;cb=16,32;blk=32'
    tune_run tune-recursive-colc-8192 60 blur:recursive-colc --size 8192x8192 --runs 3 --space 'wg=32,64;fy=8;cb=16,32'
    tune_run tune-recursive-fixl-8192 60 blur:recursive-fixl --size 8192x8192 --runs 3 --space 'wg=64;fy=8;cb=16,32;blk=32'
    rec_tuned colc $R
    ids=$(awk '/^id: blur-colc-/ {print $2}' tests/mutation/blur.mut | paste -sd,)
    mutants_run colc-mutants 60 "$ids" ;;
  v2) # issue 21: recursive-v2 (the columns' pass 3 two columns a work-item, float2) beside recursive-colc:
    # verified at odd and even widths (333x517, 1001x777: one column after the other; 334x517, 1000x776: the
    # float2 path; random, exact, sigma 0.5 and 32), 4096^2 and 8192^2 with own values (then job v2-tuned)
    R=blur:recursive-colc,blur:recursive-v2
    rec_checks v2 $R
    run v2-even $R --size 334x517,1000x776 --runs 1 --warmup 0
    run v2-even-exact $R --size 334x517 --check exact --runs 1 --warmup 0
    run v2-even-s32 $R --size 1000x776 --sigma 32 --runs 1 --warmup 0 ;;
  v2-tuned) # issue 21: recursive-v2's searches at 4096^2 and 8192^2 (wg 32, 64 x fy 8 x cb 16, 32: its whole
    # space did not fit in 90 s at 4096^2, s24d; fy 4 and wg 128 never won for recursive-colc, s24a), recursive-colc
    # at its s24a winners, so that the tuned runs compare tuned with tuned; then the colc and v2 mutants (the
    # 8192^2 search took 49 s in s24d and passed 60 s in s24e: 90 s)
    R=blur:recursive-colc,blur:recursive-v2
    tune_run tune-recursive-v2 90 blur:recursive-v2 --size 4096x4096 --runs 5 --space 'wg=32,64;fy=8;cb=16,32'
    tune_run tune-recursive-v2-8192 90 blur:recursive-v2 --size 8192x8192 --runs 3 --space 'wg=32,64;fy=8;cb=16,32'
    tune_run tune-recursive-colc 60 blur:recursive-colc --size 4096x4096 --runs 5 --space 'wg=32;fy=8;cb=32'
    tune_run tune-recursive-colc-8192 60 blur:recursive-colc --size 8192x8192 --runs 3 --space 'wg=64;fy=8;cb=32'
    rec_tuned v2 $R
    ids=$(awk '/^id: blur-(colc|v2)-/ {print $2}' tests/mutation/blur.mut | paste -sd,)
    mutants_run v2-mutants 150 "$ids" ;;
  v2-sigma) # issue 21: the recursive goal's "faster than fused at sigma 5 and beyond": recursive-v2 and
    # recursive-colc beside fused, fused-ring and f16x3-pf over sigma 5 .. 32 at 4096^2, own values (a sigma-32
    # run needs more than 45 s, s24f: leave RUN_TIMEOUT at its 150 s)
    R=blur:fused,blur:fused-ring,blur:f16x3-pf,blur:recursive-colc,blur:recursive-v2
    for sg in 5 10 16 24 32; do run v2-sigma-s$sg $R --size 4096x4096 --sigma $sg --runs 5 --no-tuned; done ;;
  fix-s17) # issue 21: the fix-up's carries loaded 16 or 32 blocks at a time instead of 8 (kernel copies
    # exp/fix16, exp/fix32), recursive-tiles and rgV-blocks at 4096^2 and 8192^2; then the tile mutants on the GPU
    R=blur:rgV-blocks,blur:recursive-tiles
    for v in committed fix16 fix32; do
      kd=; [ $v = committed ] || kd="--kernel-dir exp/$v"
      # shellcheck disable=SC2086
      run fix-$v-4096 $R --size 4096x4096 --runs 10 --no-tuned $kd &&
        run fix-$v-8192 $R --size 8192x8192 --runs 5 --no-tuned $kd
    done
    ids=$(awk '/^id: blur-tile-/ {print $2}' tests/mutation/blur.mut | paste -sd,)
    mutants_run mutants-s17 200 "$ids" ;;
  hist-s17) # issue 21: what binds self-zero on the H200. Its tuned values (wg 512, 32 copies, 4 loads, 2 groups
    # a CU) and 1 copy on all-equal bytes, loaded from global memory and from 8 uint4s in L1 (exp/hist-l1: right
    # only on all-equal bytes); then random bytes with each byte's offset from a PRMT (exp/hist-prmt)
    S="wg=512;copies=1,32;loads=4;grid=2" S2="wg=512;copies=32;loads=4;grid=2"
    tune_run hist-eq-committed 100 histogram:self-zero --pattern allequal --space "$S" --runs 10
    tune_run hist-eq-l1 100 histogram:self-zero --pattern allequal --space "$S" --runs 10 --kernel-dir exp/hist-l1
    tune_run hist-rnd-committed 100 histogram:self-zero --pattern random --space "$S2" --runs 20
    tune_run hist-rnd-prmt 100 histogram:self-zero --pattern random --space "$S2" --runs 20 --kernel-dir exp/hist-prmt
    tune_run hist-rnd-committed2 100 histogram:self-zero --pattern random --space "$S2" --runs 20 ;;
  peers)
    # PEERS_ONLY picks keys (peers.py --only); empty: every peer
    po=${PEERS_ONLY:-}
    echo "\$ python3 .peers/peers.py${po:+ --only $po}" >>"$out/commands.txt"
    (cd "$out" && OUT=$out timeout 240 python3 "$OLDPWD/.peers/peers.py" ${po:+--only "$po"} >peers.txt 2>&1)
    echo "rc=$?" >>"$out/commands.txt"
    ;;
  esac
done
cat "$out/commands.txt"
