#!/usr/bin/env python3
"""GoTools' problems asked through GTP, as a GoGui user or a playing engine
asks them: one owl command per answer, under a time limit per command.

Usage:
  gtp-scripts/tsumego-gtp.py [--secs S] [--per-file N] [--gnugo]
      [--engine "CMD"] [--list] FILES...

For every answer a GoTools file gives (one per mover), the engine (default
the repository's `target/release/tengen --threads 1 --quiet --no-table`;
`--engine` takes a shell-style command line) is set up on a
19x19 board with the problem's stones and asked `tengen-owl_defend`
(White first) or `tengen-owl_attack` (Black first) on every marked stone,
after `tengen-tsumego_limit time S` (default 2 s). The wall time of each
command is measured here, as the client sees it. With `--gnugo`, GNU Go
3.8 is asked `owl_defend`/`owl_attack` on the first marked stone of the
same position (it reads one dragon).

Prints per file and in total: answers, answered (not `unknown`), class
agreement with GoTools (lives / dies / ko; an unknown counts as a miss),
exact code agreement, and the time per command (median, p90, max).
`--list` prints every answer that was not answered or disagrees.
Codes as GNU Go writes them, for the mover (gotools_files.gotools_code):
1 success, 0 failure, 2/3 a ko.
"""
import argparse
import collections
import math
import os
import re
import shlex
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gotools_files import Gtp, cls, gotools_code, owl_reply, parse, vert  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--secs", type=float, default=2.0)
    ap.add_argument("--per-file", type=int, default=0, help="first N problems of each file (0: all)")
    here = os.path.dirname(os.path.abspath(__file__))
    tengen = os.path.join(here, "..", "target", "release", "tengen")
    ap.add_argument("--engine", default=shlex.join([tengen, "--threads", "1", "--quiet", "--no-table"]))
    ap.add_argument("--gnugo", action="store_true")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()

    eng = Gtp(shlex.split(a.engine),
              "build tengen with `cargo build --release`, or name the engine with --engine")
    r = eng.cmd(f"tengen-tsumego_limit time {a.secs:g}")
    if not r.startswith("="):
        sys.exit(f"tengen-tsumego_limit: {r}")
    gnu = (Gtp(["/usr/games/gnugo", "--mode", "gtp", "--chinese-rules"],
               "install it with `apt-get install gnugo`") if a.gnugo else None)
    table = collections.defaultdict(collections.Counter)
    times, gtimes = [], []
    for path in a.files:
        fname = os.path.basename(path)
        probs = parse(path)
        if a.per_file:
            probs = probs[: a.per_file]
        for p in probs:
            if not p["marks"]:
                print(f"  {fname} {p['name']}: no [XY] mark names the crucial chains; skipped")
                continue
            eng.setup(p["stones"])
            if gnu:
                gnu.setup(p["stones"])
            marks = " ".join(vert(x, y) for x, y in p["marks"])
            for mover, owl in (("?", "defend"), ("A", "attack")):
                best = next((x for x in p["ans"] if x[0] == mover), None)
                if best is None:
                    continue
                want = gotools_code(mover, best[2])
                t = time.perf_counter()
                reply = eng.cmd(f"tengen-owl_{owl} {marks}")
                dt = time.perf_counter() - t
                times.append(dt)
                mine = owl_reply(reply)[0]
                c = table[fname]
                c["answers"] += 1
                c["answered"] += mine is not None
                c["class"] += cls(mine) == cls(want)
                c["code"] += mine == want
                if gnu:
                    t = time.perf_counter()
                    g = owl_reply(gnu.cmd(f"owl_{owl} {vert(*p['marks'][0])}"))[0]
                    gtimes.append(time.perf_counter() - t)
                    c["gnugo class"] += cls(g) == cls(want)
                if a.list and cls(mine) != cls(want):
                    print(f"  {fname} {p['name']} {'White' if mover == '?' else 'Black'} first: "
                          f"GoTools {best[2]} (code {want}), tengen {reply!r} in {dt:.2f} s")
    eng.close()
    if gnu:
        gnu.close()

    keys = ["answers", "answered", "class", "code"] + (["gnugo class"] if gnu else [])

    def row(c):
        n = max(1, c["answers"])
        return "  ".join(f"{k} {c[k]}" + ("" if k == "answers" else f" ({100 * c[k] / n:.1f}%)") for k in keys)

    def order(f):
        m = re.match(r"lv(\d+)\.(\d+)$", f)
        return (int(m.group(1)), int(m.group(2))) if m else (99, 0)

    total = collections.Counter()
    for f in sorted(table, key=order):
        total += table[f]
        print(f"{f:8} {row(table[f])}")
    print(f"total    {row(total)}")
    if times:
        times.sort()
        print(f"tengen time per command (wall, {a.secs:g} s limit): median {statistics.median(times):.3f} s, "
              f"p90 {times[math.ceil(0.9 * len(times)) - 1]:.3f} s, max {times[-1]:.3f} s, sum {sum(times):.1f} s")
    if gtimes:
        print(f"GNU Go owl time: sum {sum(gtimes):.1f} s, max {max(gtimes):.3f} s")


if __name__ == "__main__":
    main()
