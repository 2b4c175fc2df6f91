#!/usr/bin/env python3
"""Writes the hand-made seeds of the fuzz corpus (tests/fuzz/corpus/<target>/seed-*): small valid inputs of
each format and hostile ones (truncated, wrong types, absurd sizes, deep nesting). Real files (a run JSON, a
peak JSON, a roofline cache file, a cache entry's header) are copied in as docs/robustness.md says. Inputs a
fuzzer found are kept next to them as crash-* / regress-* and never rewritten here.
Usage: python3 tests/fuzz/seeds.py [CORPUS_DIR]"""
import json
import os
import struct
import sys
import zlib

CORPUS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus")


def put(target, name, data):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(CORPUS, target, "seed-" + name), "wb") as f:
        f.write(data)


def run_doc(rows):
    return {"schema_version": 2, "kind": "run", "tool": {"name": "clgauge", "version": "0.1.0", "git_commit": "x"},
            "time_utc": "2026-01-01T00:00:00Z", "command_line": "clgauge run reduction",
            "device": {"platform": "P", "name": "D", "driver_version": "1"},
            "options": {"seed": 1, "runs": 2, "warmup": 1, "size": "", "no_cache": False},
            "roofline": {"copy_gbps": 10, "read_gbps": 10, "mad_gflops": 100, "source": "cache"}, "results": rows}


def row(**kw):
    r = {"workload": "reduction", "rung": "naive", "status": "ok", "runs": 2, "t_min_s": 1e-3,
         "t_median_s": 1e-3, "t_mean_s": 1e-3, "t_stddev_s": 0, "t_max_s": 1e-3, "bytes": 4096, "speedup": 1,
         "times_s": [1e-3, 1e-3], "warnings": ["high_cv"]}
    r.update(kw)
    return r


def load_seeds():
    put("load", "minimal.json", json.dumps(run_doc([row()])))
    put("load", "two-rows.json", json.dumps(run_doc([row(), row(rung="vec4", variant="5x5")])))
    put("load", "string-median.json", json.dumps(run_doc([row(t_median_s="fast")])))
    put("load", "negative-median.json", json.dumps(run_doc([row(t_median_s=-1)])))
    put("load", "huge-values.json", json.dumps(run_doc([row(t_median_s=1e308, bytes=1e308, speedup=1e308)])))
    put("load", "long-names.json", json.dumps(run_doc([row(workload="w" * 5000, rung="`id`" * 900)])))
    put("load", "bad-status.json", json.dumps(run_doc([row(status="exploded")])))
    put("load", "schema-1.json", json.dumps(dict(run_doc([row()]), schema_version=1)))
    put("load", "times-not-list.json", json.dumps(run_doc([row(times_s={"a": 1})])))
    put("load", "dup-key.json", json.dumps(run_doc([row()])).replace('"rung": "naive"', '"rung": "naive", "rung": "x"'))
    put("load", "results-object.json", json.dumps(dict(run_doc([row()]), results={"a": 1})))
    put("load", "not-clgauge.json", json.dumps({"schema_version": 2, "tool": {"name": "other"}}))
    put("load", "deep.json", "[" * 5000 + "]" * 5000)
    put("load", "truncated.json", json.dumps(run_doc([row()]))[:150])
    put("load", "nul-inside.json", json.dumps(run_doc([row()])).replace("naive", "na\\u0000ive"))
    put("load", "utf8-cut.json", json.dumps(run_doc([row(rung="\u00e9" * 40)]), ensure_ascii=False))
    put("load", "empty.json", "")


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png(w, h, depth, ctype, raw, extra=b"", interlace=0):
    ihdr = struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw)) +
            chunk(b"IEND", b""))


def png_seeds():
    put("png", "grey8-4x3.png", png(4, 3, 8, 0, b"".join(b"\0" + bytes(range(i, i + 4)) for i in range(3))))
    put("png", "grey1-9x2.png", png(9, 2, 1, 0, b"\0\xaa\x80\0\x55\x00"))
    put("png", "grey16-2x2.png", png(2, 2, 16, 0, b"\0\x00\x01\xff\xff\0\x80\x00\x12\x34"))
    put("png", "rgba-2x1.png", png(2, 1, 8, 6, b"\0\xff\0\0\x80\0\0\xff\xff"))
    put("png", "greyalpha-1x1.png", png(1, 1, 8, 4, b"\0\x40\xff"))
    put("png", "palette-trns-2x1.png",
        png(2, 1, 8, 3, b"\0\x00\x01", chunk(b"PLTE", b"\xff\0\0\0\0\xff") + chunk(b"tRNS", b"\x00")))
    put("png", "interlaced-3x3.png", png(3, 3, 8, 0, b"\0\x01" + b"\0\x02" + b"\0\x03\x04" + b"\0\x05\x06\x07" * 2,
                                         interlace=1))
    put("png", "huge-header.png", png(1000000, 1000000, 8, 0, b"\0\0"))
    put("png", "wide-header.png", png(0x7fffffff, 1, 8, 0, b"\0\0"))
    put("png", "zero-width.png", png(0, 5, 8, 0, b"\0"))
    put("png", "bad-crc.png", png(2, 2, 8, 0, b"\0\1\2\0\3\4")[:-5] + b"\0\0\0\0\0")
    put("png", "short-idat.png", png(64, 64, 8, 0, b"\0" * 65))
    put("png", "signature-only.png", b"\x89PNG\r\n\x1a\n")


MAGIC = b"CLGCACHE"


def entry(binary, version=1, size=None, sum_ok=True, key=(1, 2)):
    head = MAGIC + struct.pack("<IQQQ", version, key[0], key[1], len(binary) if size is None else size)
    total = xxh64(binary) if sum_ok else 0
    return head + binary + struct.pack("<Q", total)


def xxh64(data):
    """XXH64 with seed 0 (the cache's checksum), in plain Python so no module is needed."""
    p1, p2, p3, p4, p5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x85EBCA77C2B2AE63,
                          0x27D4EB2F165667C5)
    m = (1 << 64) - 1

    def rotl(x, r):
        return ((x << r) | (x >> (64 - r))) & m

    def rnd(acc, v):
        return (rotl((acc + v * p2) & m, 31) * p1) & m

    def merge(acc, v):
        return ((acc ^ rnd(0, v)) * p1 + p4) & m

    n, i = len(data), 0
    if n >= 32:
        v = [(p1 + p2) & m, p2, 0, (-p1) & m]
        while i + 32 <= n:
            for k in range(4):
                v[k] = rnd(v[k], struct.unpack_from("<Q", data, i + 8 * k)[0])
            i += 32
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & m
        for k in range(4):
            h = merge(h, v[k])
    else:
        h = p5
    h = (h + n) & m
    while i + 8 <= n:
        h = ((rotl(h ^ rnd(0, struct.unpack_from("<Q", data, i)[0]), 27)) * p1 + p4) & m
        i += 8
    if i + 4 <= n:
        h = (rotl(h ^ (struct.unpack_from("<I", data, i)[0] * p1 & m), 23) * p2 + p3) & m
        i += 4
    while i < n:
        h = (rotl(h ^ (data[i] * p5 & m), 11) * p1) & m
        i += 1
    h ^= h >> 33
    h = h * p2 & m
    h ^= h >> 29
    h = h * p3 & m
    return h ^ (h >> 32)


def cache_seeds():
    elf = b"\x7fELF\x02\x01\x01" + bytes(57) + b"kernel body" * 20
    put("cache", "valid.bin", entry(elf))
    put("cache", "valid-truncated-binary.bin", entry(elf[:20]))
    put("cache", "bad-magic.bin", b"NOTCACHE" + entry(elf)[8:])
    put("cache", "version-2.bin", entry(elf, version=2))
    put("cache", "size-huge.bin", entry(elf, size=1 << 63))
    put("cache", "size-2g.bin", entry(elf, size=1 << 31))
    put("cache", "size-zero.bin", entry(b"", size=0))
    put("cache", "size-long.bin", entry(elf, size=len(elf) + 1))
    put("cache", "bad-sum.bin", entry(elf, sum_ok=False))
    put("cache", "header-only.bin", entry(elf)[:36])
    put("cache", "empty.bin", b"")


def roofline_seeds():
    good = {"format": 2, "source": "peak --quick", "device": "D", "driver": "1", "copy_gbps": 34.5,
            "read_gbps": 36.2, "mad_gflops": 161.3}
    put("roofline", "minimal.json", json.dumps(good))
    put("roofline", "zero.json", json.dumps(dict(good, copy_gbps=0)))
    put("roofline", "negative.json", json.dumps(dict(good, read_gbps=-1)))
    put("roofline", "string.json", json.dumps(dict(good, mad_gflops="fast")))
    put("roofline", "infinite.json", json.dumps(good).replace("161.3", "1e999"))
    put("roofline", "missing.json", json.dumps({"copy_gbps": 1}))
    put("roofline", "array.json", "[1, 2, 3]")
    put("roofline", "deep.json", "{\"a\":" * 3000 + "1" + "}" * 3000)
    put("roofline", "truncated.json", json.dumps(good)[:40])
    put("roofline", "empty.json", "")


if __name__ == "__main__":
    load_seeds()
    png_seeds()
    cache_seeds()
    roofline_seeds()
