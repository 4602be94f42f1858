#!/usr/bin/env python3
"""Summarise a gogui-twogtp result file (.dat) from one program's side.

    twogtp-summary.py RESULTS.dat [NAME] [--main-secs S]

NAME (default: the Black program of game 0, as twogtp lists it) is matched
against the BLACK/WHITE names in the file's header. Each game's result is the
referee's (RES_R) when there is one, else the agreed RES_B/RES_W; twogtp
writes them from the side of the program named Black in the header. A game
twogtp marks as an error (ERR 1: a program died or failed a command) is listed
and not scored, even when the referee scored the unfinished board. Prints games,
wins, losses, jigo, unknown results, the score (a jigo counts half), its 95%
confidence interval (normal approximation over per-game scores, Wilson when
all games end the same way), the Elo difference, average game length and each
side's average seconds per move and seconds per game.

gogui-twogtp sends time_settings but never ends a game on time: each engine
keeps its own clock. With --main-secs S (sudden death of S seconds, as
strength.sh passes for sd:MIN) the summary also counts, for each side, the
games in which its total thinking time went over S: those it would have lost
on time under a real clock (CGOS, a GoGui clock). They stay scored as played.
"""
import math
import sys


def parse(path):
    header, rows, cols = {}, [], None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                body = line[1:].strip()
                if ":" in body and cols is None:
                    k, _, v = body.partition(":")
                    header[k.strip()] = v.strip()
                elif body.startswith("GAME"):
                    cols = body.split("\t")
                continue
            if not line.strip() or cols is None:
                continue
            rows.append(dict(zip(cols, line.split("\t"))))
    if cols is None:
        sys.exit(f"{path}: no '#GAME ...' column line; is this a gogui-twogtp .dat file?")
    return header, rows


def winner(res):
    res = res.strip().upper()
    if res.startswith("B+"):
        return "B"
    if res.startswith("W+"):
        return "W"
    if res in ("0", "JIGO", "DRAW", "B+0", "W+0"):
        return "J"
    return None


def main():
    args = sys.argv[1:]
    main_secs = None
    if "--main-secs" in args:
        i = args.index("--main-secs")
        try:
            main_secs = float(args[i + 1])
        except (IndexError, ValueError):
            sys.exit("--main-secs takes the seconds of sudden death per side, e.g. --main-secs 300")
        del args[i : i + 2]
    if not args:
        sys.exit(__doc__)
    path = args[0]
    try:
        header, rows = parse(path)
    except OSError as e:
        sys.exit(f"{path}: cannot read the twogtp result file: {e.strerror}")
    first = header.get("Black", "black")
    name = args[1] if len(args) > 1 else first
    if name != header.get("Black") and name != header.get("White"):
        sys.exit(f"{path}: no program named {name!r}; the file has Black {header.get('Black')!r} and White {header.get('White')!r}")
    we_are_first = name == header.get("Black")
    win = loss = jigo = unknown = 0
    scores, lengths, secs_us, secs_them, errors = [], [], [], [], []
    game_us, game_them, over_us, over_them = [], [], 0, 0
    for r in rows:
        res = r.get("RES_R") or ""
        if res in ("", "?"):
            a, b = r.get("RES_B", "?"), r.get("RES_W", "?")
            res = a if a == b else "?"
        # A game cut short by an error (a program died or answered with a
        # GTP error) has no result, whatever the referee made of the board.
        w = None if r.get("ERR") == "1" else winner(res)
        # twogtp writes every result from the first program's side: in
        # alternated games (ALT 1) it inverts them, so "B+" always means the
        # program named Black in the header won, and TIME_B is its time.
        our_colour = "B" if we_are_first else "W"
        if w is None:
            unknown += 1
            if r.get("ERR") == "1":
                errors.append(f"game {r.get('GAME', '?')}: {r.get('ERR_MSG', '').strip() or 'error'}")
            continue
        if w == "J":
            jigo += 1
            scores.append(0.5)
        elif w == our_colour:
            win += 1
            scores.append(1.0)
        else:
            loss += 1
            scores.append(0.0)
        try:
            n = int(r.get("LEN", "0"))
            lengths.append(n)
            tb, tw = float(r.get("TIME_B", "0")), float(r.get("TIME_W", "0"))
            ours, theirs = (tb, tw) if our_colour == "B" else (tw, tb)
            game_us.append(ours)
            game_them.append(theirs)
            if main_secs is not None:
                over_us += ours > main_secs
                over_them += theirs > main_secs
            if n > 0:
                secs_us.append(ours / (n / 2))
                secs_them.append(theirs / (n / 2))
        except ValueError:
            pass
    n = len(scores)
    print(f"{name}: {n} games scored ({unknown} without a result): {win} wins, {loss} losses, {jigo} jigo")
    for e in errors:
        print(f"not scored, {e}")
    if n == 0:
        return
    p = sum(scores) / n
    if 0 < p < 1:
        var = sum((s - p) ** 2 for s in scores) / max(n - 1, 1)
        half = 1.96 * math.sqrt(var / n)
        lo, hi = max(0.0, p - half), min(1.0, p + half)
    else:  # Wilson interval when every game ended the same way
        z = 1.96
        c = (p + z * z / (2 * n)) / (1 + z * z / n)
        h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        lo, hi = max(0.0, c - h), min(1.0, c + h)

    def elo(x):
        x = min(max(x, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / x - 1)

    print(f"score {100 * p:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%), Elo {elo(p):+.0f} ({elo(lo):+.0f} to {elo(hi):+.0f})")
    if lengths:
        print(f"average length {sum(lengths) / len(lengths):.0f} moves", end="")
    if secs_us:
        print(f"; seconds per move: {name} {sum(secs_us) / len(secs_us):.2f}, opponent {sum(secs_them) / len(secs_them):.2f}", end="")
    if game_us:
        print(f"; seconds per game: {name} {sum(game_us) / len(game_us):.1f} (max {max(game_us):.1f}), opponent {sum(game_them) / len(game_them):.1f} (max {max(game_them):.1f})", end="")
    print()
    if main_secs is not None:
        print(f"over {main_secs:g} s of sudden death (a loss on time under a real clock): {name} {over_us} games, opponent {over_them}")


if __name__ == "__main__":
    main()
