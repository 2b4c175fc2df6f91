#!/usr/bin/env python3
"""One markdown table of a ladder measured on two devices (e.g. GPU and PoCL), from two clgauge JSON runs.
Usage: scripts/side_by_side.py WORKLOAD A.json B.json"""
import json, sys

def fmt_time(s):
    for unit, f in (("s", 1), ("ms", 1e3), ("us", 1e6), ("ns", 1e9)):
        if s * f >= 1 or unit == "ns":
            return f"{s * f:.3g} {unit}"

def rows(path, wl):
    run = json.load(open(path))
    return run, {r["rung"]: r for r in run["results"] if r["workload"] == wl}

def cells(r):
    if r is None:
        return ["-"] * 5
    if r["status"] != "ok":
        return [r["status"]] + ["-"] * 4
    return [fmt_time(r["t_median_s"]), f"{r['gbps']:.1f}", f"{r['items_per_s'] / 1e9:.2f}",
            f"{r['roofline_pct']:.1f}" if r["roofline_pct"] is not None else "-", f"x{r['speedup']:.2f}"]

wl, a, b = sys.argv[1:4]
ra, A = rows(a, wl)
rb, B = rows(b, wl)
na, nb = ra["device"]["name"], rb["device"]["name"]
unit = next(iter(A.values()))["item_unit"]
print(f"A = {na}, {next(iter(A.values()))['size']}; B = {nb}, {next(iter(B.values()))['size']}\n")
hdr = ["median", "GB/s", f"G{unit}/s", "roofline %", "speedup"]
print("| rung | " + " | ".join(f"A {h}" for h in hdr) + " | " + " | ".join(f"B {h}" for h in hdr) + " |")
print("| --- " * (1 + 2 * len(hdr)) + "|")
for rung in dict.fromkeys(list(A) + list(B)):
    print(f"| {rung} | " + " | ".join(cells(A.get(rung))) + " | " + " | ".join(cells(B.get(rung))) + " |")
