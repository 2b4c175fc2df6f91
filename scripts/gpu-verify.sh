#!/usr/bin/env bash
# The verification job on the GPU machine (issues 12 and 13), from the checkout's root:
#   scripts/gpu-verify.sh OUTDIR runs      every ladder twice (A, B) and compare: B against A must flag nothing;
#                                           A against BASE (.gpu/base.json, the pre-change build) shows what changed
#   scripts/gpu-verify.sh OUTDIR planted   reduction and transpose at default sizes, then again on 3% more data
#                                           (the size label set to the first run's so compare matches the rows):
#                                           compare must flag every rung that slowed by about 3%
#   scripts/gpu-verify.sh OUTDIR mutants   --check exact on every ladder at GPU sizes; the race mutants of
#                                           tests/mutation (--races: they must be caught) and the --quick set
#   scripts/gpu-verify.sh OUTDIR interleave blur with the pre-change build (.gpu/base.tar) and this one, twice each,
#                                           alternating, so both are timed on one GPU in one state
#   scripts/gpu-verify.sh OUTDIR final     planted, interleave and mutants in one job
# Needs .gpu/ (../shared/tools/gpu-pack.sh .gpu libcjson-dev libcjson1 libxxhash-dev libxxhash0 libpng-dev
# libpng16-16 zlib1g-dev); .gpu/commit may hold the git commit (the GPU machine gets no .git).
set -uo pipefail
out=${1:?OUTDIR}
what=${2:?runs|planted|mutants}
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
. .gpu/env.sh
git=$(cat .gpu/commit 2>/dev/null || echo unknown)
if [ ! -x build-gpu/clgauge ]; then
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCLGAUGE_TESTS=OFF -DCLGAUGE_GIT="$git" >"$out/build.log" 2>&1 &&
    cmake --build build-gpu -j16 >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,driver_version --format=csv >"$out/gpu.txt" 2>&1
export CLGAUGE_CACHE_DIR=/tmp/clgauge-cache
cg=./build-gpu/clgauge
log() { echo "\$ $*" | tee -a "$out/commands.txt"; "$@"; echo "rc=$?" | tee -a "$out/commands.txt"; }

interleave() {
  if [ ! -x /tmp/base/b/clgauge ]; then
    rm -rf /tmp/base && mkdir -p /tmp/base && tar -xf .gpu/base.tar -C /tmp/base
    cmake -S /tmp/base -B /tmp/base/b -DCMAKE_BUILD_TYPE=Release -DCLGAUGE_TESTS=OFF \
      -DCLGAUGE_GIT="$(cat .gpu/base.commit)" >"$out/build-base.log" 2>&1 &&
      cmake --build /tmp/base/b -j16 >>"$out/build-base.log" 2>&1 || { tail -20 "$out/build-base.log"; return 1; }
  fi
  for k in 1 2; do
    log /tmp/base/b/clgauge run blur --device gpu --runs 10 --json "$out/blur-base$k.json" >"$out/blur-base$k.txt" 2>&1
    log $cg run blur --device gpu --runs 10 --json "$out/blur-new$k.json" >"$out/blur-new$k.txt" 2>&1
  done
  for k in 1 2; do
    log $cg compare "$out/blur-base$k.json" "$out/blur-new$k.json" >"$out/compare-blur$k.txt" 2>&1
    grep -E "rung|rg|recursive" "$out/compare-blur$k.txt"
  done
}

mutants() {
  log $cg run all --device gpu --check exact --runs 3 --json "$out/exact.json" >"$out/exact.txt" 2>&1
  grep -E "FAILED|rc=|Warning" "$out/exact.txt" | head
  log python3 tests/mutation/mutate.py --clgauge $cg --device gpu --races \
    --only hist-global-race,hist-local-race,hist-merge-race,red-tree-first-barrier \
    --md "$out/mutation-races-gpu.md" >"$out/mutation-races-gpu.txt" 2>&1
  tail -12 "$out/mutation-races-gpu.txt"
  log python3 tests/mutation/mutate.py --clgauge $cg --device gpu --quick \
    --md "$out/mutation-quick-gpu.md" >"$out/mutation-quick-gpu.txt" 2>&1
  tail -8 "$out/mutation-quick-gpu.txt"
}

case $what in
planted-races)
  bash "$0" "$out" planted
  log python3 tests/mutation/mutate.py --clgauge $cg --device gpu --races \
    --only hist-global-race,hist-local-race,hist-merge-race,red-tree-first-barrier \
    --md "$out/mutation-races-gpu.md" >"$out/mutation-races-gpu.txt" 2>&1
  tail -n 12 "$out/mutation-races-gpu.txt"
  ;;
interleave) interleave ;;
mutants) mutants ;;
final)
  bash "$0" "$out" planted
  interleave
  mutants
  ;;
runs)
  log $cg run all --device gpu --runs 10 --json "$out/run-a.json" >"$out/run-a.txt" 2>&1
  log $cg run all --device gpu --runs 10 --json "$out/run-b.json" >"$out/run-b.txt" 2>&1
  log $cg compare "$out/run-a.json" "$out/run-b.json" --threshold 2 >"$out/compare-a-b.txt" 2>&1
  [ -f .gpu/base.json ] && log $cg compare .gpu/base.json "$out/run-a.json" >"$out/compare-base-a.txt" 2>&1
  tail -n 5 "$out/run-a.txt" "$out/compare-a-b.txt"
  ;;
planted)
  log $cg run reduction,transpose --device gpu --runs 10 --json "$out/p0.json" >"$out/p0.txt" 2>&1
  log $cg run reduction --device gpu --runs 10 --size 276488930 --json "$out/p1r.json" >"$out/p1r.txt" 2>&1
  log $cg run transpose --device gpu --runs 10 --size 16384x16876 --json "$out/p1t.json" >"$out/p1t.txt" 2>&1
  python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
base = json.load(open(out + "/p0.json"))
label = {r["workload"]: r["size"] for r in base["results"]}
doc = json.load(open(out + "/p1r.json"))
doc["results"] += json.load(open(out + "/p1t.json"))["results"]
for r in doc["results"]:
    r["size"] = label[r["workload"]]  # 3% more data, labelled as the base size so the rows match
json.dump(doc, open(out + "/p1.json", "w"), indent=1)
PY
  log $cg compare "$out/p0.json" "$out/p1.json" --threshold 2 >"$out/compare-planted.txt" 2>&1
  log $cg compare "$out/p0.json" "$out/p0.json" --threshold 2 >"$out/compare-self.txt" 2>&1
  cat "$out/compare-planted.txt"
  ;;
esac
