#!/usr/bin/env python3
"""GoTools' answers, tengen's and GNU Go's owl, side by side.

Usage:
  tengen --threads 2 --quiet solve --json [--per-file N] FILES... > ours.json
  gtp-scripts/tsumego-vs-gnugo.py ours.json [--markdown]

For every answer the GoTools file gives (one per mover), GNU Go 3.8 is set
up on a 19x19 board with the problem's stones (GoTools letters: column,
row, from A at the top-left corner) and asked owl_defend (White first) or
owl_attack (Black first) on the first marked stone. GNU Go reads one
dragon, so problems with several marks are judged on the first: the
table counts them apart.

Codes are compared as GNU Go writes them, for the mover: 1 success, 0
failure, 2 success through a ko the opponent must start threats for, 3
success only if the mover finds the first threat. GoTools' status maps to
them: for White first l=1, lNd=2, dNl=3, d=0; for Black first d=1,
dNl=2, lNd=3, l=0. The class compares lives/dies/ko only.
"""
import collections
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gotools_files import Gtp, cls, gotools_code, parse, vert  # noqa: E402


def read_gotools(path):
    """name -> (stones, marks, [(mover, sign, status)]) of one file."""
    return {
        p["name"]: (p["stones"], p["marks"], [a[:3] for a in p["ans"]])
        for p in parse(path)
    }


def main():
    ours = [json.loads(l) for l in open(sys.argv[1]) if '"summary"' not in l]
    markdown = "--markdown" in sys.argv
    files = {}
    g = Gtp(["/usr/games/gnugo", "--mode", "gtp", "--chinese-rules"],
            "install it with `apt-get install gnugo`")

    table = collections.defaultdict(collections.Counter)
    settled = collections.Counter()
    gnu_time = 0.0
    ours_time = 0.0
    for p in ours:
        path = p["source"].rsplit(":", 1)[0]
        path = re.sub(r":\d+ \(.*\)$", "", p["source"])
        if path not in files:
            files[path] = read_gotools(path)
        stones, marks, answers = files[path][p["name"]]
        fname = path.rsplit("/", 1)[-1]
        g.setup(stones)
        v = vert(*marks[0])
        for mover, side, owl in (("?", "defender_first", "owl_defend"), ("A", "attacker_first", "owl_attack")):
            best = next((a for a in answers if a[0] == mover), None)
            if best is None or p.get(side) is None:
                continue
            want = gotools_code(mover, best[2])
            t = time.perf_counter()
            r = g.cmd(f"{owl} {v}")
            gnu_time += time.perf_counter() - t
            ours_time += p[side]["ms"] / 1000
            gnu = int(r.split()[1])
            mine = p[side]["code"]
            c = table[fname]
            c["answers"] += 1
            c["several marks"] += len(marks) > 1
            c["tengen class"] += cls(mine) == cls(want)
            c["tengen code"] += mine == want
            c["gnugo class"] += cls(gnu) == cls(want)
            c["gnugo code"] += gnu == want
            c["tengen unknown"] += mine is None
            if mine is not None:
                settled["answers"] += 1
                settled["tengen class"] += cls(mine) == cls(want)
                settled["gnugo class"] += cls(gnu) == cls(want)
    total = collections.Counter()
    keys = ["answers", "several marks", "tengen class", "tengen code", "tengen unknown", "gnugo class", "gnugo code"]

    def pct(c, k):
        return f"{c[k]} ({100 * c[k] / max(1, c['answers']):.1f}%)" if k != "answers" else str(c[k])

    def order(f):
        a, b = f[2:].split(".")
        return (int(a), int(b))

    if markdown:
        print("| file | " + " | ".join(keys) + " |")
        print("|---" * (len(keys) + 1) + "|")
    for f in sorted(table, key=order):
        total += table[f]
        row = [pct(table[f], k) for k in keys]
        print(("| " + f + " | " + " | ".join(row) + " |") if markdown else f"{f:8} " + "  ".join(f"{k} {r}" for k, r in zip(keys, row)))
    row = [pct(total, k) for k in keys]
    print(("| total | " + " | ".join(row) + " |") if markdown else "total    " + "  ".join(f"{k} {r}" for k, r in zip(keys, row)))
    n = max(1, settled["answers"])
    print(f"on the {settled['answers']} answers tengen settled: tengen class {settled['tengen class']} "
          f"({100 * settled['tengen class'] / n:.1f}%), GNU Go class {settled['gnugo class']} "
          f"({100 * settled['gnugo class'] / n:.1f}%)")
    print(f"GNU Go owl time {gnu_time:.1f} s; tengen solver time {ours_time:.1f} s (same answers)")


if __name__ == "__main__":
    main()
