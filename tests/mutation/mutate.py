#!/usr/bin/env python3
"""The mutation harness: applies each mutant of tests/mutation/*.mut to a copy of the kernels, runs clgauge on
it with --kernel-dir, and counts the mutant caught when clgauge exits 3 (a FAILED row). scripts/mutation.sh is
the entry point; tests/mutation/README.md gives the format of a mutant and the meaning of every outcome.

Every field of a mutant is data: the old and new texts are plain strings (str.count/str.replace), the run
lines are split with shlex (no shell, no evaluation) and handed to clgauge as an argument list."""

import argparse
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORKLOADS = os.path.join(ROOT, "src", "workloads")
FIELDS = ("id", "file", "class", "expect", "quick", "run", "why", "note", "old", "new")
EXPECTS = ("caught", "race-gpu", "caught-ptx")
CLASSES = ("border", "tail", "weight", "tap", "barrier", "intermediate", "lane", "xy", "race", "loop-bound",
           "clamp", "index")
TIMEOUT_S = 180


class MutantError(Exception):
    pass


def parse_file(path):
    """Reads one .mut file: entries of `key: value` lines, each starting at `id:`; old/new are followed by
    their text, one line per `|` line (everything after the `|`, verbatim)."""
    mutants, cur, block = [], None, None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for no, line in enumerate(lines, 1):
        where = "%s:%d" % (os.path.relpath(path, ROOT), no)
        if line.startswith("|"):
            if cur is None or block is None:
                raise MutantError("%s: a | line outside an old: or new: block" % where)
            cur[block].append(line[1:])
            continue
        block = None
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not sep or key not in FIELDS:
            raise MutantError("%s: expected one of %s, got %r" % (where, ", ".join(FIELDS), line))
        if key == "id":
            cur = {"id": value, "run": [], "old": [], "new": [], "where": where}
            mutants.append(cur)
        elif cur is None:
            raise MutantError("%s: %s: before the first id:" % (where, key))
        elif key in ("old", "new"):
            if value:
                raise MutantError("%s: the text of %s: goes on the | lines below it" % (where, key))
            if cur[key]:
                raise MutantError("%s: %s: given twice" % (where, key))
            block = key
        elif key == "run":
            cur["run"].append(shlex.split(value))
        elif key in cur:
            raise MutantError("%s: %s: given twice" % (where, key))
        else:
            cur[key] = value
    for m in mutants:
        m["old"], m["new"] = "\n".join(m["old"]), "\n".join(m["new"])
        validate(m)
    return mutants


def validate(m):
    w = m["where"]
    for key in ("file", "class", "expect", "old"):
        if not m.get(key):
            raise MutantError("%s: mutant %s has no %s:" % (w, m["id"], key))
    if not m["run"]:
        raise MutantError("%s: mutant %s has no run:" % (w, m["id"]))
    if m["expect"] not in EXPECTS:
        raise MutantError("%s: %s: expect must be one of %s" % (w, m["id"], ", ".join(EXPECTS)))
    if m["expect"] != "caught" and not m.get("note"):
        raise MutantError("%s: %s: expect %s needs a note: giving the reason" % (w, m["id"], m["expect"]))
    if m["class"] not in CLASSES:
        raise MutantError("%s: %s: class must be one of %s" % (w, m["id"], ", ".join(CLASSES)))
    if m["old"] == m["new"]:
        raise MutantError("%s: %s: old and new are the same text" % (w, m["id"]))
    for args in m["run"]:
        if any(a in ("--kernel-dir", "--json", "--cache-dir", "--no-cache") for a in args):
            raise MutantError("%s: %s: run: must not set --kernel-dir, --json or the cache" % (w, m["id"]))


def load_all(where=HERE):
    mutants = []
    for path in sorted(glob.glob(os.path.join(where, "*.mut"))):
        mutants += parse_file(path)
    seen = set()
    for m in mutants:
        if m["id"] in seen:
            raise MutantError("%s: id %s used twice" % (m["where"], m["id"]))
        seen.add(m["id"])
    return mutants


def apply(m, kdir):
    """Copies every workload's .cl into kdir and writes the mutated file there."""
    for src in glob.glob(os.path.join(WORKLOADS, "*", "*.cl")):
        shutil.copy(src, kdir)
    path = os.path.join(WORKLOADS, m["file"])
    if not os.path.isfile(path):
        raise MutantError("%s: %s: no kernel file src/workloads/%s" % (m["where"], m["id"], m["file"]))
    with open(path, encoding="utf-8") as f:
        text = f.read()
    n = text.count(m["old"])
    if n != 1:
        raise MutantError("%s: %s: the old text occurs %d times in src/workloads/%s (want exactly once)" %
                          (m["where"], m["id"], n, m["file"]))
    with open(os.path.join(kdir, os.path.basename(m["file"])), "w", encoding="utf-8") as f:
        f.write(text.replace(m["old"], m["new"]))


def has_opt(args, opt):
    return any(a == opt or a.startswith(opt + "=") for a in args)


def command(opts, args, kdir, js):
    cmd = [opts.clgauge, "run"] + args
    for opt, val in (("--runs", "2"), ("--warmup", "0")):
        if not has_opt(args, opt):
            cmd += [opt, val]
    if opts.device and not has_opt(args, "--device"):
        cmd += ["--device", opts.device]
    return cmd + ["--quiet", "--kernel-dir", kdir, "--json", js]


def failed_rungs(js):
    try:
        with open(js, encoding="utf-8") as f:
            rows = json.load(f)["results"]
    except (OSError, ValueError, KeyError):
        return [], []
    bad = ["%s:%s" % (r["workload"], r["rung"]) for r in rows if r.get("status") == "wrong_result"]
    ran = [r for r in rows if r.get("status") != "unsupported"]
    return bad, ran


def run_one(opts, args, kdir, env):
    """Runs one clgauge command on the mutated kernels: (outcome, rungs with a wrong result, output). Caught
    means exit 3 and at least one wrong_result (FAILED) row in the JSON report."""
    js = os.path.join(kdir, "run.json")
    if os.path.exists(js):
        os.remove(js)
    cmd = command(opts, args, kdir, js)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "hang", [], "no exit after %d s: %s" % (TIMEOUT_S, shlex.join(cmd))
    out = p.stdout + p.stderr
    bad, ran = failed_rungs(js)
    if p.returncode == 3 and bad:
        return "caught", bad, out
    if p.returncode == 4:
        return "build_failed", bad, out
    if p.returncode < 0 or p.returncode > 5:
        return "crash", bad, "exit %d: %s\n%s" % (p.returncode, shlex.join(cmd), out)
    if p.returncode != 0:
        return "error", bad, "exit %d: %s\n%s" % (p.returncode, shlex.join(cmd), out)
    return ("survived" if ran else "unsupported"), bad, out


RANK = ("caught", "build_failed", "crash", "hang", "error", "baseline_failed", "survived", "unsupported")


def check_modes(opts):
    """The --check values to run each command with: the default, plus `exact` where clgauge has it."""
    p = subprocess.run([opts.clgauge, "run", "--help"], capture_output=True, text=True)
    text = p.stdout + p.stderr
    return [None, "exact"] if "--check" in text and "exact" in text else [None]


class Baseline:
    """Each command run once on the unchanged kernels, remembered: a mutant's run counts only where the same
    command passes (exit 0) without the mutant."""

    def __init__(self, opts, env, enabled):
        self.opts, self.env, self.enabled, self.seen = opts, env, enabled, {}
        self.kdir = tempfile.mkdtemp(prefix="clgauge-mut-clean-")
        for src in glob.glob(os.path.join(WORKLOADS, "*", "*.cl")):
            shutil.copy(src, self.kdir)

    def passes(self, args):
        if not self.enabled:
            return True, ""
        key = tuple(args)
        if key not in self.seen:
            outcome, _, out = run_one(self.opts, args, self.kdir, self.env)
            ok = outcome in ("survived", "unsupported")
            self.seen[key] = (ok, "on the unchanged kernels: %s, %s" % (outcome, out))
        return self.seen[key]

    def close(self):
        shutil.rmtree(self.kdir, ignore_errors=True)


def run_mutant(opts, m, modes, env, base):
    """Applies m and runs its commands until one catches it; returns its result record. A command that
    does not pass on the unchanged kernels makes the outcome baseline_failed."""
    t0 = time.monotonic()
    res = {"id": m["id"], "class": m["class"], "expect": m["expect"], "file": m["file"], "via": "", "rungs": [],
           "log": ""}
    with tempfile.TemporaryDirectory(prefix="clgauge-mut-") as kdir:
        apply(m, kdir)
        best = "unsupported"
        for i, args in enumerate(m["run"]):
            for mode in modes:
                if mode and has_opt(args, "--check"):
                    continue
                full = args + (["--check", mode] if mode else [])
                ok, why = base.passes(full)
                outcome, bad, out = run_one(opts, full, kdir, env) if ok else ("baseline_failed", [], why)
                if RANK.index(outcome) < RANK.index(best):
                    best, res["rungs"], res["log"] = outcome, bad, out
                    res["via"] = "run %d%s" % (i + 1, " exact" if mode else "")
                if best == "caught":
                    break
            if best == "caught":
                break
    res["outcome"], res["seconds"] = best, time.monotonic() - t0
    return res


def met(res, races):
    """Whether the result is what the mutant expects on this device."""
    if res["outcome"] == "caught":
        return True
    if res["expect"] == "caught-ptx":  # an inline-PTX rung (or half's images): only an NVIDIA device runs it
        return res["outcome"] == "unsupported"
    return res["expect"] == "race-gpu" and not races and res["outcome"] == "survived"


def row(res):
    rungs = ",".join(res["rungs"][:3]) + (",..." if len(res["rungs"]) > 3 else "")
    return "%-28s %-12s %-8s %-12s %-10s %5.1f  %s" % (res["id"], res["class"], res["expect"], res["outcome"],
                                                      res["via"], res["seconds"], rungs)


def summary(results, races):
    n = len(results)
    caught = sum(r["outcome"] == "caught" for r in results)
    print("\nscore: %d of %d mutants caught (%.1f%%)" % (caught, n, 100.0 * caught / n if n else 0.0))
    counts = {}
    for r in results:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    print("outcomes: " + ", ".join("%s %d" % (k, counts[k]) for k in RANK if k in counts))
    missed = [r for r in results if not met(r, races)]
    for r in results:
        if r["outcome"] != "caught":
            tag = "expected on this device (%s)" % r["expect"] if met(r, races) else "NOT EXPECTED"
            print("  %s: %s, %s" % (r["id"], r["outcome"], tag))
            if r["outcome"] in ("build_failed", "crash", "hang", "error", "baseline_failed"):
                print("    " + "\n    ".join(r["log"].strip().splitlines()[-6:]))
    return 1 if missed else 0


def write_md(path, results):
    with open(path, "w", encoding="utf-8") as f:
        f.write("| id | class | expect | outcome | caught by | failed rungs |\n|---|---|---|---|---|---|\n")
        for r in results:
            f.write("| %s | %s | %s | %s | %s | %s |\n" % (r["id"], r["class"], r["expect"], r["outcome"],
                                                         r["via"], ", ".join(r["rungs"])))


def show(opts, m, kdir):
    """Writes the mutated kernels to kdir and prints the commands that reproduce the mutant's runs."""
    os.makedirs(kdir, exist_ok=True)
    apply(m, kdir)
    print("# %s (%s, expect %s): src/workloads/%s" % (m["id"], m["class"], m["expect"], m["file"]))
    for args in m["run"]:
        for mode in check_modes(opts):
            full = args + (["--check", mode] if mode and not has_opt(args, "--check") else [])
            cmd = command(opts, full, kdir, os.path.join(kdir, "run.json"))
            print(shlex.join([a for a in cmd if a != "--quiet"]))


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="mutation.sh", description="Runs the kernel mutants of tests/mutation/ "
                                 "against clgauge's verification; exits 1 when a mutant expected to be caught "
                                 "survives (or does not build, hangs or crashes).")
    ap.add_argument("--dir", metavar="DIR", default=HERE,
                    help="read the mutants from DIR/*.mut (default: tests/mutation), e.g. an independent set")
    ap.add_argument("--quick", action="store_true", help="only the mutants marked quick: yes (the test suite)")
    ap.add_argument("--only", metavar="ID,...", help="only these mutants")
    ap.add_argument("--class", dest="klass", metavar="CLASS,...", help="only mutants of these classes")
    ap.add_argument("--clgauge", metavar="PATH", default=os.path.join(ROOT, "build", "clgauge"),
                    help="the clgauge binary (default: build/clgauge)")
    ap.add_argument("--device", metavar="SEL", help="passed to clgauge run --device")
    ap.add_argument("--races", action="store_true",
                    help="race-gpu mutants must be caught too (on a GPU, where races show)")
    ap.add_argument("--list", action="store_true", help="list the selected mutants and exit")
    ap.add_argument("--apply-only", action="store_true",
                    help="check that every selected mutant applies (old text once), run nothing")
    ap.add_argument("--show", metavar="DIR",
                    help="write the (one) selected mutant's kernels to DIR and print its clgauge commands")
    ap.add_argument("--md", metavar="FILE", help="also write the result table as Markdown to FILE")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip running each command on the unchanged kernels first (they must pass)")
    return ap.parse_args(argv)


def select(opts, mutants):
    if opts.only:
        want = opts.only.split(",")
        unknown = [i for i in want if i not in {m["id"] for m in mutants}]
        if unknown:
            raise MutantError("--only: no mutant %s (see --list)" % ", ".join(unknown))
        mutants = [m for m in mutants if m["id"] in want]
    if opts.klass:
        mutants = [m for m in mutants if m["class"] in opts.klass.split(",")]
    if opts.quick:
        mutants = [m for m in mutants if m.get("quick") == "yes"]
    return mutants


def main(argv):
    opts = parse_args(argv)
    try:
        mutants = select(opts, load_all(opts.dir))
        if opts.list or opts.apply_only:
            with tempfile.TemporaryDirectory(prefix="clgauge-mut-") as kdir:
                for m in mutants:
                    if opts.apply_only:
                        apply(m, kdir)
                    print("%-28s %-12s %-8s %-28s %s" % (m["id"], m["class"], m["expect"], m["file"],
                                                         " / ".join(shlex.join(a) for a in m["run"])))
            print("%d mutants%s" % (len(mutants), ", every one applies" if opts.apply_only else ""))
            return 0
        if opts.show:
            if len(mutants) != 1:
                raise MutantError("--show needs exactly one mutant: add --only ID")
            show(opts, mutants[0], opts.show)
            return 0
    except MutantError as e:
        print("mutation.sh: %s" % e, file=sys.stderr)
        return 2
    if not os.access(opts.clgauge, os.X_OK):
        print("mutation.sh: no clgauge binary at %s: build it or pass --clgauge PATH" % opts.clgauge,
              file=sys.stderr)
        return 2
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="clgauge-mut-cache-") as cache:
        env.setdefault("CLGAUGE_CACHE_DIR", cache)
        modes = check_modes(opts)
        print("%d mutants, clgauge %s, checks: %s" % (len(mutants), opts.clgauge,
                                                        " and ".join(m or "default" for m in modes)))
        print("%-28s %-12s %-8s %-12s %-10s %5s  %s" % ("id", "class", "expect", "outcome", "caught by", "s",
                                                       "failed rungs"))
        results, base = [], Baseline(opts, env, not opts.no_baseline)
        try:
            for m in mutants:
                res = run_mutant(opts, m, modes, env, base)
                print(row(res), flush=True)
                results.append(res)
        except MutantError as e:
            print("mutation.sh: %s" % e, file=sys.stderr)
            return 2
        finally:
            base.close()
    if opts.md:
        write_md(opts.md, results)
    return summary(results, opts.races)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
