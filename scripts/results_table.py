#!/usr/bin/env python3
"""Markdown tables from a clgauge run's JSON (and optionally the peers' JSON of the same job), for docs/.
Usage: scripts/results_table.py RUN.json [--workload NAME] [--peers peers.json] [--matrix]
--matrix: one row per rung, one column per variant (a --filter sweep): GFLOP/s, roofline % and speedup."""
import json, sys

def fmt_time(s):
    for unit, f in (("s", 1), ("ms", 1e3), ("us", 1e6), ("ns", 1e9)):
        if s * f >= 1 or unit == "ns":
            return f"{s * f:.3g} {unit}"

def name(r):
    v = r.get("variant") or ""
    return f"{r['workload']}[{v}]:{r['rung']}" if v else f"{r['workload']}:{r['rung']}"

def matrix(run, only):
    rows = [r for r in run["results"] if not only or r["workload"] == only]
    variants = list(dict.fromkeys(r.get("variant") or "" for r in rows))
    rungs = list(dict.fromkeys(r["rung"] for r in rows))
    print("GFLOP/s, roofline %, speedup over the first rung; the fastest rung of each column in bold.\n")
    print("| rung | " + " | ".join(variants) + " |")
    print("| --- |" + " --- |" * len(variants))
    best = {}
    for v in variants:
        ok = [r for r in rows if (r.get("variant") or "") == v and r["status"] == "ok"]
        if ok:
            best[v] = min(ok, key=lambda r: r["t_median_s"])["rung"]
    for g in rungs:
        cells = []
        for v in variants:
            r = next((r for r in rows if r["rung"] == g and (r.get("variant") or "") == v), None)
            if not r or r["status"] != "ok":
                cells.append(r["status"] if r else "-")
                continue
            g_fmt = "{:.1f}" if r["gflops"] < 100 else "{:.0f}"
            c = f"{g_fmt.format(r['gflops'])} ({r['roofline_pct']:.0f}%, x{r['speedup']:.2f})"
            cells.append(f"**{c}**" if best.get(v) == g else c)
        print(f"| {g} | " + " | ".join(cells) + " |")

def main():
    args = sys.argv[1:]
    run = json.load(open(args[0]))
    only = args[args.index("--workload") + 1] if "--workload" in args else None
    print(f"Device: {run['device']['name']} ({run['device']['platform']}, driver {run['device']['driver']}); "
          f"clgauge {run['tool']['version']} ({run['tool']['git_commit']}), {run['time_utc']}")
    print(f"Command: `{run['command_line']}`")
    rf = run["roofline"]
    print(f"Roofline ceilings ({rf['source']}): copy {rf['copy_gbps']:.0f} GB/s, read {rf['read_gbps']:.0f} GB/s, "
          f"MAD {rf['mad_gflops']:.0f} GFLOP/s\n")
    if "--matrix" in args:
        return matrix(run, only)
    print("| rung | status | size | median | CV | GB/s | GFLOP/s | items/s | roofline % | speedup |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in run["results"]:
        if only and r["workload"] != only:
            continue
        ok = r["status"] == "ok"
        cell = lambda v, f: (f.format(v) if ok and v is not None else "-")
        print(f"| {name(r)} | {r['status']} | {r['size']} | "
              f"{fmt_time(r['t_median_s']) if ok else '-'} | {cell(100 * (r['t_cv'] or 0), '{:.1f}%')} | "
              f"{cell(r['gbps'], '{:.1f}')} | {cell(r['gflops'] or None, '{:.0f}')} | {cell(r['items_per_s'] / 1e9 if r['items_per_s'] else None, '{:.2f} G' + r['item_unit'] + '/s')} | "
              f"{cell(r['roofline_pct'], '{:.1f}')} | {cell(r['speedup'], 'x{:.2f}')} |")
    if "--peers" in args:
        peers = json.load(open(args[args.index("--peers") + 1]))
        print("\nPeers, same job, same GPU (../shared/peers/peers.py):\n")
        print("| peer | figure |\n| --- | --- |")
        for k, v in peers.items():
            if not only or k.startswith(only) or "." not in k:
                print(f"| {k} | {v} |")

main()
