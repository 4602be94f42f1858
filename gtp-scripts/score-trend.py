#!/usr/bin/env python3
"""Where a match's games were won or lost: GNU Go's score estimate along each game.

    score-trend.py DIR [--every N] [--until M] [--gnugo CMD]

DIR is a `tengen match --out` folder (results.tsv and game-NNNN.sgf). For
each game, GNU Go (`estimate_score`, level 10, Chinese rules) estimates the
score after moves N, 2N, ... up to M (default every 10 moves up to 70),
from the engine's side, komi included: positive means the engine is ahead.
Prints one line per game (number, engine colour, W/L/J, result, estimates),
then, per colour, the mean estimate at each move over the games that
reached it. GNU Go's estimate is rough; read trends over many games, not a
single value.
"""
import csv
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gotools_files import Gtp  # noqa: E402  (the scripts' shared GTP client)


def estimate(reply):
    """GNU Go's `estimate_score` reply ("= W+36.5 (upper bound: ...)", or
    "= 0") as (winner colour or None, margin)."""
    s = reply[1:].strip()
    if s[:2] in ("B+", "W+"):
        return s[0], float(s[2:].split()[0])
    return None, 0.0


def main():
    args = sys.argv[1:]
    opts = {"--every": "10", "--until": "70", "--gnugo": "/usr/games/gnugo --mode gtp --chinese-rules --level 10"}
    rest = []
    while args:
        a = args.pop(0)
        if a in opts:
            if not args:
                sys.exit(f"{a} needs a value")
            opts[a] = args.pop(0)
        else:
            rest.append(a)
    if len(rest) != 1:
        sys.exit(__doc__)
    d = rest[0]
    try:
        every, until = int(opts["--every"]), int(opts["--until"])
    except ValueError:
        sys.exit("--every and --until take whole numbers of moves")
    if every <= 0:
        sys.exit("--every must be at least 1")
    try:
        with open(f"{d}/results.tsv") as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
    except OSError as e:
        sys.exit(f"{d}/results.tsv: {e.strerror}; is {d} a `tengen match --out` folder?")
    gnugo = Gtp(shlex.split(opts["--gnugo"]), "install GNU Go (apt-get install gnugo) or name it with --gnugo")

    marks = list(range(every, until + 1, every))
    sums = {"black": {}, "white": {}}
    for r in rows:
        n, col, res, moves = int(r["game"]), r["engine_color"], r["result"], int(r["moves"])
        mine = "B" if col == "black" else "W"
        outcome = "J" if res == "0" else ("W" if res.startswith(mine + "+") else "L")
        est = []
        path = f"{d}/game-{n:04d}.sgf"
        for m in marks:
            if m > moves:
                break
            reply = gnugo.cmd(f"loadsgf {path} {m + 1}")
            if reply.startswith("?"):
                print(f"game {n}: loadsgf {path} {m + 1}: {reply}", file=sys.stderr)
                break
            reply = gnugo.cmd("estimate_score")
            if reply.startswith("?"):
                print(f"game {n}: estimate_score after move {m}: {reply}", file=sys.stderr)
                break
            winner, margin = estimate(reply)
            v = 0.0 if winner is None else margin * (1 if winner == mine else -1)
            est.append(v)
            sums[col].setdefault(m, []).append(v)
        print(n, col, outcome, res, " ".join(f"{v:+.0f}" for v in est), flush=True)
    for col, by in sums.items():
        means = " ".join(f"{m}:{sum(v) / len(v):+.1f}({len(v)})" for m, v in sorted(by.items()))
        print(f"mean as {col}: {means}")
    gnugo.close()


if __name__ == "__main__":
    main()
