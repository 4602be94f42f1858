#!/usr/bin/env python3
"""Cross-checks of tengen's solver against GoTools' problem files, outside
the solver's own code.

  gotools-check.py bent-four FILES... > bent4.gt
      Replays every main line of the GoTools files and writes, as a GoTools
      file on stdout, the problems whose main line passes through a bent four
      in the corner (the defender's eye space A1 B1 C1 A2 or its mirror, no
      outside liberties). Solve it with `tengen solve --json bent4.gt`: the
      answers GoTools gives for such shapes are then compared with ours.

  gotools-check.py brute FILE NAME [--moves "B19 C18"] [--threats N]
                   [--pass-rule lapse|ends] [--depth D]
      Depth-limited minimax on a small closed problem (White defends, Black
      attacks, as in GoTools), after the given moves (GTP coordinates on
      19x19, alternating from the colour that moves first in the file's
      first answer line). Black wins when every marked chain has lost a
      stone; White wins by two passes in a row or when the depth runs out.
      White has N external ko threats: each lets it retake a ko at once.
      Simple ko only (no superko). `--pass-rule lapse` (tengen's rule): a
      pass made under a ko ban does not count towards two passes; `ends`:
      it does. Iterative deepening prints the first depth at which Black
      wins, or that none was found.

Never commit GoTools' files or excerpts of them (copyright): point this
script at a fetched copy (docs/tsumego.md says where).
"""

import argparse
import functools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gotools_files import COLS, N, parse  # noqa: E402

def neighbours(p):
    x, y = p
    for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        if 0 <= q[0] < N and 0 <= q[1] < N:
            yield q


def chain(board, p):
    color, seen, todo = board[p], {p}, [p]
    while todo:
        q = todo.pop()
        for r in neighbours(q):
            if r not in seen and board.get(r) == color:
                seen.add(r)
                todo.append(r)
    return seen


def liberties(board, stones):
    return {r for q in stones for r in neighbours(q) if r not in board}


def play(board, p, color):
    """Plays in place; returns the captured stones, or None if illegal."""
    if p in board:
        return None
    board[p] = color
    other = "W" if color == "B" else "B"
    captured = set()
    for q in neighbours(p):
        if board.get(q) == other and q not in captured:
            ch = chain(board, q)
            if not liberties(board, ch):
                captured |= ch
    for s in captured:
        del board[s]
    if not liberties(board, chain(board, p)):
        del board[p]
        return None
    return captured


def start_board(prob):
    return {(x, y): c for c, x, y in prob["stones"]}


def main_line_positions(prob, answer):
    board = start_board(prob)
    color = "W" if answer[0] == "?" else "B"
    out = [dict(board)]
    line = answer[3]
    for i in range(0, len(line), 2):
        mv = line[i : i + 2]
        if mv != "@@" and play(board, (ord(mv[0]) - 65, ord(mv[1]) - 65), color) is None:
            return out
        color = "B" if color == "W" else "W"
        out.append(dict(board))
    return out


BENT = ({(0, 0), (1, 0), (2, 0), (0, 1)}, {(0, 0), (0, 1), (0, 2), (1, 0)})


def bent_four(board):
    """The corner's non-White area is a bent four whose White chains have no
    liberty outside it."""
    if board.get((0, 0)) == "W":
        return False
    area, todo = set(), [(0, 0)]
    while todo and len(area) <= 4:
        p = todo.pop()
        if p in area:
            continue
        area.add(p)
        todo.extend(q for q in neighbours(p) if q not in area and board.get(q) != "W")
    if area not in BENT:
        return False
    walls = {q for p in area for q in neighbours(p) if board.get(q) == "W"}
    return all(liberties(board, chain(board, q)) <= area for q in walls)


def cmd_bent_four(args):
    found = 0
    for path in args.files:
        for prob in parse(path):
            if any(any(bent_four(b) for b in main_line_positions(prob, a)) for a in prob["ans"]):
                found += 1
                print("\n".join(prob["text"]).rstrip() + "\n")
    print(f"{found} problems with a bent four in the corner on a main line", file=sys.stderr)


def cmd_brute(args):
    probs = [p for p in parse(args.file) if p["name"] == args.name]
    if not probs:
        sys.exit(f"{args.file}: no problem named {args.name}")
    prob = probs[0]
    board = start_board(prob)
    crucial = [frozenset(chain(board, m)) for m in prob["marks"] if board.get(m) == "W"]
    if not crucial:
        sys.exit(f"{args.name}: no marked White chain")
    # The region: flood from the marked chains over non-Black points, then
    # the inner Black chains whose liberties all lie in it.
    region, todo = set(), [m for m in prob["marks"]]
    while todo:
        p = todo.pop()
        if p in region:
            continue
        region.add(p)
        if len(region) > 60:
            sys.exit(f"{args.name}: the region is not closed (over 60 points)")
        todo.extend(q for q in neighbours(p) if q not in region and board.get(q) != "B")
    for p, c in list(board.items()):
        if c == "B" and p not in region:
            ch = chain(board, p)
            touches = any(q in region for s in ch for q in neighbours(s))
            if touches and liberties(board, ch) <= region:
                region |= ch
    color = "W" if prob["ans"][0][0] == "?" else "B"
    for mv in args.moves.split():
        p = (COLS.index(mv[0].upper()), N - int(mv[1:]))
        if play(board, p, color) is None:
            sys.exit(f"{args.name}: move {mv} is illegal")
        color = "B" if color == "W" else "W"
    outside = {p: c for p, c in board.items() if p not in region}
    lapse = args.pass_rule == "lapse"
    print(f"{args.name}: region {len(region)} points, {color} to move, "
          f"White threats {args.threats}, pass rule {args.pass_rule}")

    def key(b):
        return frozenset((p, c) for p, c in b.items() if p in region)

    def moves(b, c, ko):
        for p in region:
            if p in b or p == ko:
                continue
            nb = dict(b)
            captured = play(nb, p, c)
            if captured is None or any(s not in region for s in captured):
                continue
            single = len(captured) == 1 and len(chain(nb, p)) == 1 and len(liberties(nb, {p})) == 1
            yield p, nb, (next(iter(captured)) if single else None)

    @functools.lru_cache(maxsize=None)
    def black_wins(k, c, ko, threats, last_pass, depth):
        b = dict(k)
        b.update(outside)
        if all(any(b.get(s) != "W" for s in ch) for ch in crucial):
            return True
        if depth == 0:
            return False
        # A pass under a ko ban does not count towards two passes (lapse).
        counts = not (lapse and ko is not None)
        if c == "B":
            if any(black_wins(key(nb), "W", nk, threats, False, depth - 1) for _, nb, nk in moves(b, "B", ko)):
                return True
            return not last_pass and black_wins(k, "W", None, threats, counts, depth - 1)
        options = [(nb, nk, threats) for _, nb, nk in moves(b, "W", ko)]
        if ko is not None and threats > 0:
            nb = dict(b)
            captured = play(nb, ko, "W")
            if captured is not None:
                single = len(captured) == 1 and len(chain(nb, ko)) == 1 and len(liberties(nb, {ko})) == 1
                options.append((nb, next(iter(captured)) if single else None, threats - 1))
        if last_pass:
            return False
        if not all(black_wins(key(nb), "B", nk, t, False, depth - 1) for nb, nk, t in options):
            return False
        return black_wins(k, "B", None, threats, counts, depth - 1)

    sys.setrecursionlimit(100000)
    start = key(board)
    for depth in range(1, args.depth + 1):
        if black_wins(start, color, None, args.threats, False, depth):
            print(f"Black wins within {depth} plies")
            return
    print(f"no Black win within {args.depth} plies")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b4 = sub.add_parser("bent-four", help="problems whose main line passes through a bent four")
    b4.add_argument("files", nargs="+")
    br = sub.add_parser("brute", help="depth-limited minimax on a small closed problem")
    br.add_argument("file")
    br.add_argument("name")
    br.add_argument("--moves", default="")
    br.add_argument("--threats", type=int, default=0)
    br.add_argument("--pass-rule", choices=["lapse", "ends"], default="lapse")
    br.add_argument("--depth", type=int, default=30)
    args = ap.parse_args()
    {"bent-four": cmd_bent_four, "brute": cmd_brute}[args.cmd](args)


if __name__ == "__main__":
    main()
