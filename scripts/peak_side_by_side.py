#!/usr/bin/env python3
"""Side-by-side table of clpeak's text output and `clgauge peak --json`, for every test both have.

Usage: scripts/peak_side_by_side.py clpeak.txt clgauge-peak.json > table.md
Higher is better except for the launch latency. "within noise" = at most 2% behind.
"""
import json
import re
import sys

SECTIONS = {  # clpeak heading -> (clgauge test, clpeak label -> clgauge variant)
    "Global memory bandwidth": ("read", lambda l: l),
    "Single-precision compute": ("fp32", lambda l: l),
    "Half-precision compute": ("fp16", lambda l: l),
    "Double-precision compute": ("fp64", lambda l: l),
    "Integer compute Fast 24bit": ("int24", lambda l: l.replace("int", "uint")),
    "Integer compute": ("int32", lambda l: l.replace("int", "uint")),
}
TRANSFERS = {  # clpeak label -> clgauge variant (largest size of the curve)
    "enqueueWriteBuffer": "pageable write",
    "enqueueReadBuffer": "pageable read",
    "enqueueMapBuffer(for read)": "map",
    "enqueueUnmap(after write)": "unmap",
}


def parse_clpeak(path):
    out, section = [], None
    for line in open(path):
        s = line.strip()
        m = re.match(r"^(.*?) \((GBPS|GFLOPS|GIOPS)\)$", s)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"^Kernel launch latency : ([0-9.]+) us", s)
        if m:
            out.append(("latency", "launch", "queued->start", float(m.group(1))))
            continue
        m = re.match(r"^(.+?)\s*: ([0-9.]+)$", s)
        if not m or not section:
            continue
        label, v = m.group(1).strip(), float(m.group(2))
        if section.startswith("Transfer"):
            if label in TRANSFERS:
                out.append(("transfer", TRANSFERS[label], label, v))
            continue
        for head, (test, conv) in SECTIONS.items():
            if section.startswith(head):
                out.append((test, conv(label), label, v))
                break
    return out


def ours(rows, test, variant):
    if test == "latency":
        r = [x for x in rows if x["test"] == "launch" and x["variant"] == "queued->start median"]
        return (r[0]["value"], "queued->start median") if r else (None, "")
    if test == "transfer":
        r = [x for x in rows if x["status"] == "ok" and x["variant"].startswith(variant + " ")]
        if not r:
            return None, ""
        big = max(r, key=lambda x: x["amount"])
        return big["value"], big["variant"]
    r = [x for x in rows if x["test"] == test and x["variant"] == variant and x["status"] == "ok"]
    return (r[0]["value"], "%s %s" % (test, variant)) if r else (None, "")


def main():
    clp = parse_clpeak(sys.argv[1])
    rep = json.load(open(sys.argv[2]))
    rows = rep["results"]
    print("| clpeak test | clpeak | clgauge figure | clgauge | clgauge / clpeak | verdict |")
    print("| --- | ---: | --- | ---: | ---: | --- |")
    for test, variant, label, v in clp:
        g, name = ours(rows, test, variant)
        if g is None:
            print("| %s %s | %.2f | - | - | - | not measured |" % (test, label, v))
            continue
        lower_better = test == "latency"
        ratio = g / v if v else float("nan")
        good = ratio <= 1.0 if lower_better else ratio >= 1.0
        noise = (ratio <= 1.02) if lower_better else (ratio >= 0.98)
        verdict = "clgauge >= clpeak" if good else ("within noise (%+.1f%%)" % ((ratio - 1) * 100) if noise
                                                    else "clgauge behind (%+.1f%%)" % ((ratio - 1) * 100))
        if lower_better:
            verdict = verdict.replace(">=", "<=") + " (lower is better)"
        head = {"transfer": "transfer", "latency": "latency"}.get(test, test)
        print("| %s %s | %.2f | %s | %.2f | %.3f | %s |" % (head, label, v, name, g, ratio, verdict))


if __name__ == "__main__":
    main()
