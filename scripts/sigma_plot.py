#!/usr/bin/env python3
"""Time against sigma for every blur rung, from clgauge run JSON reports (docs/workloads/blur.md's plot).

    python3 scripts/sigma_plot.py OUT.png REPORT.json...

Each report's ok rows give (rung, sigma, median time); sigma is read from the row's size ("4096x4096 px,
sigma 5"). Where several reports hold the same rung and sigma, the last one given wins, so newer runs go last.
gnuplot draws the PNG from a data file; no text from a report reaches gnuplot's script but rung names reduced to
[A-Za-z0-9-]. Exit 1 on a report that cannot be read or holds no blur row."""
import json
import os
import re
import subprocess
import sys
import tempfile


def rows(path):
    with open(path) as f:
        rep = json.load(f)
    for r in rep.get("results", []):
        m = re.search(r"sigma ([0-9.]+)", str(r.get("size", "")))
        if r.get("workload") == "blur" and r.get("status") == "ok" and m and r.get("t_median_s"):
            yield re.sub(r"[^A-Za-z0-9-]", "", str(r["rung"])), float(m.group(1)), float(r["t_median_s"])


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: sigma_plot.py OUT.png REPORT.json...")
    pts = {}
    for p in argv[2:]:
        try:
            for rung, sigma, t in rows(p):
                pts.setdefault(rung, {})[sigma] = t
        except (OSError, ValueError) as e:
            sys.exit("sigma_plot.py: cannot read %s: %s" % (p, e))
    if not pts:
        sys.exit("sigma_plot.py: no blur rows in the reports")
    with tempfile.TemporaryDirectory() as d:
        plots = []
        for i, (rung, by) in enumerate(sorted(pts.items())):
            data = os.path.join(d, "%d.dat" % i)
            with open(data, "w") as f:
                for s in sorted(by):
                    f.write("%g %g\n" % (s, by[s] * 1e6))
            plots.append("'%s' using 1:2 with linespoints title '%s'" % (data, rung))
        script = os.path.join(d, "plot.gp")
        with open(script, "w") as f:
            f.write("set terminal pngcairo size 1000,640\nset output '%s'\n" % os.path.abspath(argv[1]).replace("'", ""))
            f.write("set logscale y\nset xlabel 'sigma (pixels)'\nset ylabel 'median time (us), log scale'\n")
            f.write("set key outside right\nset grid\nplot " + ", ".join(plots) + "\n")
        subprocess.run(["gnuplot", script], check=True)


if __name__ == "__main__":
    main(sys.argv)
