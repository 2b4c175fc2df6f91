#!/usr/bin/env bash
# Cloth's fma rungs and the cloth tuning spaces on PoCL (issues 17, 20), one job on this machine:
#   bash docs/results/2026-11-28-pocl-2core-cloth/run.sh build/clgauge OUTDIR
set -u
cg=${1:?clgauge} out=${2:?OUTDIR}
mkdir -p "$out"
export CLGAUGE_CACHE_DIR=$out/cache
rm -rf "$CLGAUGE_CACHE_DIR"
: >"$out/commands.txt"
go() { # NAME ARGS...: an argument holding ';' goes to commands.txt in single quotes, as it would be typed
  local n=$1 a shown=
  shift
  for a in "$@"; do case $a in *\;*) shown+=" '$a'" ;; *) shown+=" $a" ;; esac; done
  echo "\$ clgauge$shown --json $n.json" >>"$out/commands.txt"
  "$cg" "$@" --json "$out/$n.json" >"$out/$n.txt" 2>&1
  echo "rc=$?" >>"$out/commands.txt"
}
R=cloth:merged,cloth:best,cloth:fma,cloth:merged-fma
go untuned run $R --no-tuned --runs 10 --device cpu
go tune-fma tune cloth:fma --budget 120 --runs 3 --device cpu
go tune-merged tune cloth:merged --space 'wgx=8,16,32,64;wgy=1,2,4' --budget 120 --runs 3 --device cpu
go tuned run $R --runs 10 --device cpu
