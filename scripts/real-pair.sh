#!/usr/bin/env bash
# A real pair of frames for opticalflow (issue 19), fetched from Debian rather than kept in the repository:
# basketball1.png and basketball2.png, two consecutive 640x480 8-bit grey frames of the Middlebury "Basketball"
# sequence (a fixed camera; two players and the ball move up to about 25 px), shipped in Debian's opencv-doc
# package (examples/data; its copyright file: Apache-2.0 AND BSD-3-Clause). The package (about 96 MB) is
# downloaded into a temporary directory, not installed; only the two files are taken out of it.
#   scripts/real-pair.sh DIR      # writes DIR/basketball1.png and DIR/basketball2.png
# then, e.g.:
#   clgauge run opticalflow --input DIR/basketball1.png,DIR/basketball2.png --output flow.png
set -euo pipefail
dir=${1:?usage: scripts/real-pair.sh DIR}
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp" # apt-get download drops to the _apt user where it can
data=./usr/share/doc/opencv-doc/examples/data
(cd "$tmp" && apt-get download opencv-doc >/dev/null) ||
  { echo "real-pair.sh: apt-get download opencv-doc failed: run apt-get update, or check the network" >&2; exit 1; }
deb=("$tmp"/opencv-doc_*.deb)
dpkg-deb --fsys-tarfile "${deb[0]}" | tar -x -C "$tmp" "$data/basketball1.png" "$data/basketball2.png"
for f in basketball1.png basketball2.png; do
  cp "$tmp/$data/$f" "$dir/$f.part" && mv "$dir/$f.part" "$dir/$f"
done
echo "real-pair.sh: $dir/basketball1.png and $dir/basketball2.png (from ${deb[0]##*/})"
