#!/usr/bin/env bash
# The convolution measurement job on the GPU machine: the ladder swept over filter sizes, then its peers in
# the same job on the same GPU (peers.py's torch conv2d 8192^2 32x32 figure, and conv_peers.py: torch conv2d
# with and without cudnn.benchmark and OpenCV's OpenCL filter2D at every filter size).
# Usage (from the checkout's root, on the GPU machine): scripts/convolution-gpu.sh OUTDIR [filters]
# Needs what scripts/gpu-run.sh needs (.gpu/ and .peers/peers.py).
set -uo pipefail
out=${1:?OUTDIR}
filters=${2:-3,5,9,17,32}
bash scripts/gpu-run.sh "$out" convolution --filter "$filters" --runs 10
cp scripts/conv_peers.py .peers/
(cd .peers && python3 peers.py --only convolution > "$out/peers.txt" 2>&1 &&
  python3 conv_peers.py --filters "$filters" --out "$out/conv_peers.json" >> "$out/peers.txt" 2>&1)
echo "peers rc=$?" >> "$out/peers.txt"
