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
                   [--black-threats N] [--pass-rule lapse|ends] [--depth D]
      Depth-limited minimax on a small closed problem (White defends, Black
      attacks, as in GoTools), after the given moves (GTP coordinates on
      19x19, alternating from the colour that moves first in the file's
      first answer line; `pass` passes). Black wins when every marked
      chain has lost a stone; White wins by two passes in a row or when
      the depth runs out.
      White has N external ko threats, Black --black-threats: each lets its
      owner retake a ko at once.
      Simple ko only (no superko). `--pass-rule lapse` (tengen's rule): a
      pass made under a ko ban does not count towards two passes; `ends`:
      it does. A ko ban left by the last of --moves holds for the first
      move. Iterative deepening prints the first depth at which Black
      wins, or that none was found.

  gotools-check.py replies FILE NAME --moves "..." [--depth D] [--secs S]
                   [--pass-rule lapse|ends] [--engine CMD]
      Checks a kill without ko threats that tengen claims where the whole
      of it is too long for `brute`: after the moves (White to move), for
      every White reply (each empty region point, and the pass) asks
      tengen's `tengen-owl_attack` on the marked stones for Black's answer
      (S seconds, default 10), plays it and runs `brute` from there (depth
      D, default 24). Prints each reply, tengen's answer and the brute
      force's verdict, and the counts: confirmed, not confirmed (deepen,
      or run `replies` again one reply further) and no kill claimed.

  gotools-check.py verify FILE NAME --winner B|W [--moves "..."]
                   [--threats N] [--black-threats N] [--pass-rule lapse|ends]
                   [--close C] [--fallback F] [--depth D] [--secs S]
                   [--repetition simple-ko|superko] [--engine CMD]
      Checks a win that tengen claims, for the whole game tree: after the
      moves, the winner's moves are tengen's (its `tengen-owl_attack` or
      `tengen-owl_defend` on the marked stones, S seconds, default 10, told
      the threats each side has left and, by default, the rule simple ko, as
      `tengen-tsumego_limit threats B,W repetition R` sets them, and the
      empty points of marked chains already captured after `captured`:
      for Black every such point, for White those of one-stone chains, so
      that tengen's goal is never weaker than the check's) and every
      move of the loser is followed (each legal region point, the retake of
      a ko with one of its external threats, the pass), under the rules of
      `brute` (simple ko, threats as immediate retakes). A line ends when
      every marked chain has lost a stone (Black's win), when a whole marked
      chain is unconditionally alive by Benson's algorithm on the region (an
      area that touches the outside is never an eye; White's win), by two
      passes (White's win), or, for Black, when `brute` finds its win within
      C plies (default 6). Where tengen names no winning move, or its move
      loses or lies outside the region, the winner's other moves and the
      pass are tried, at most F times on a line (default 1). A repetition of
      the line, or more than D plies (default 60), fails the line. Prints
      `proven` (a complete proof under these rules, which share no code with
      the solver: tengen only proposes the winner's moves) or `not proven`
      and why. Under `--pass-rule ends`, `--repetition superko` may guide
      better (tengen's simple ko lets a pass under a ko ban lapse).

  gotools-check.py replay RECORDS FILES... [--secs S] [--engine CMD]
      For every answer in RECORDS (the output of `tengen solve --json`, or
      an `--out` file) that is unknown or disagrees with GoTools in class,
      replays GoTools' main line for that mover (the file's first answer
      line; passes `@@`) through tengen's GTP. After each ply the side to
      move is asked its owl command on the marked stones (White
      `tengen-owl_defend`, Black `tengen-owl_attack`) within S seconds
      (default 5), and its class (win / loss / ko) is set beside the one
      GoTools' status implies for that side. The verdict: `effort` when
      tengen agrees wherever it settles, with the first ply from which it
      settles every later one (an unknown answer then only lacks effort);
      `contradicts` with the deepest ply where tengen settles against
      GoTools, tengen's move there and GoTools' next move, and the position
      (one of the two is wrong there: check it with `brute` or GNU Go).
      Where the line retakes a ko after a threat it leaves out, a threat
      and its answer are played in the opposite corner first; from the
      first ko capture on the root's status no longer applies, so the
      comparison stops there.

  gotools-check.py prefixes FILE NAME [--answer I] > prefixes.gt
      Cuts the main line of the problem's answer line I (0, the first, by
      default) into problems: one per ply k, named NAMEkK, holding the
      position after the line's first k moves with the side to move
      first and, as its answer line, the rest of the main line with the
      status it implies for that side (the root's status; `+` for the
      root's mover, `-` for the other side). Solve them with `tengen solve
      --json prefixes.gt` to see where along the line the effort lies. The
      cut stops before the first ko capture (the position after it would
      lose its ko ban and its history) and when no marked chain is left.
      A plain status holds at every prefix of a winning line; a ko status
      need not (a line may leave the ko, and the prefix is then plain).

Never commit GoTools' files or excerpts of them (copyright): point this
script at a fetched copy (docs/tsumego.md says where).
"""

import argparse
import functools
import json
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gotools_files import COLS, N, Gtp, cls, gotools_code, owl_reply, parse, vert  # noqa: E402

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


def place(b, p, c):
    """The board after `c` plays at `p`, the stones it captured and the
    point then banned by simple ko (None if no ko), or None if illegal."""
    nb = dict(b)
    captured = play(nb, p, c)
    if captured is None:
        return None
    single = len(captured) == 1 and len(chain(nb, p)) == 1 and len(liberties(nb, {p})) == 1
    return nb, captured, (next(iter(captured)) if single else None)


def region_moves(b, region, c, ko):
    """The legal moves of `c` in `region` (no suicide, not the point `ko`
    bans, no capture of a stone outside the region): (point, board after,
    the ko ban it leaves)."""
    for p in region:
        if p in b or p == ko:
            continue
        r = place(b, p, c)
        if r is None or any(s not in region for s in r[1]):
            continue
        yield p, r[0], r[2]


def region_options(b, region, c, ko, threats):
    """Every option of `c` (`threats`: White's and Black's external ko
    threats left): its legal region moves, and the retake of the ko at
    `ko` paid for with one of its threats. Each as (point, board after,
    the ko ban it leaves, the threats after, whether it is the retake)."""
    wt, bt = threats
    out = [(p, nb, nk, threats, False) for p, nb, nk in region_moves(b, region, c, ko)]
    if ko is not None and (bt if c == "B" else wt) > 0 and (r := place(b, ko, c)) is not None:
        out.append((ko, r[0], r[2], (wt, bt - 1) if c == "B" else (wt - 1, bt), True))
    return out


def first_colour(prob):
    """The colour that moves first in the problem's first answer line."""
    return "W" if prob["ans"][0][0] == "?" else "B"


def find_problem(path, name):
    probs = [p for p in parse(path) if p["name"] == name]
    if not probs:
        sys.exit(f"{path}: no problem named {name}")
    return probs[0]


def problem_region(prob, board):
    """The region the brute force plays in: a flood from the marked chains
    over non-Black points, then the inner Black chains whose liberties all
    lie in it."""
    region, todo = set(), list(prob["marks"])
    while todo:
        p = todo.pop()
        if p in region:
            continue
        region.add(p)
        if len(region) > 60:
            sys.exit(f"{prob['name']}: the region is not closed (over 60 points)")
        todo.extend(q for q in neighbours(p) if q not in region and board.get(q) != "B")
    for p, c in list(board.items()):
        if c == "B" and p not in region:
            ch = chain(board, p)
            touches = any(q in region for s in ch for q in neighbours(s))
            if touches and liberties(board, ch) <= region:
                region |= ch
    return region


class Brute:
    """Depth-limited minimax (see `brute` above) on one problem after some
    moves: `play` the moves, then `black_wins_within(depth)`."""

    def __init__(self, prob, threats, black_threats, pass_rule):
        self.name = prob["name"]
        self.board = start_board(prob)
        self.crucial = [frozenset(chain(self.board, m)) for m in prob["marks"]
                        if self.board.get(m) == "W"]
        if not self.crucial:
            sys.exit(f"{self.name}: no marked White chain")
        self.region = problem_region(prob, self.board)
        self.color = first_colour(prob)
        self.threats = (threats, black_threats)
        self.pass_rule = pass_rule
        # The simple-ko ban the last move leaves, and whether the last move
        # was a pass that a pass would answer to end the game.
        self.ko, self.passed = None, False

    def play(self, mv):
        """Plays `mv` (a vertex or `pass`) for the side to move; an error
        message if it is illegal, else None."""
        color_next = "B" if self.color == "W" else "W"
        if mv.lower() == "pass":
            if self.passed:
                return "two passes end the game"
            # As in the search: under `lapse`, a pass made under a ko ban
            # does not count towards two passes.
            self.passed = not (self.pass_rule == "lapse" and self.ko is not None)
            self.ko, self.color = None, color_next
            return None
        p = (COLS.index(mv[0].upper()), N - int(mv[1:]))
        r = None if p == self.ko else place(self.board, p, self.color)
        if r is None:
            return f"move {mv} is illegal"
        self.board, _, self.ko = r
        self.passed, self.color = False, color_next
        return None

    def header(self):
        return (f"{self.name}: region {len(self.region)} points, {self.color} to move, "
                f"White threats {self.threats[0]}, Black threats {self.threats[1]}, "
                f"pass rule {self.pass_rule}"
                + (f", {vert(*self.ko)} banned by ko" if self.ko else ""))

    def black_wins_within(self, max_depth):
        """The least depth (plies) at which Black wins, or None up to
        `max_depth`."""
        region, crucial = self.region, self.crucial
        outside = {p: c for p, c in self.board.items() if p not in region}
        lapse = self.pass_rule == "lapse"

        def key(b):
            return frozenset((p, c) for p, c in b.items() if p in region)

        def options(b, c, ko, threats):
            return [(nb, nk, t) for _, nb, nk, t, _ in region_options(b, region, c, ko, threats)]

        @functools.lru_cache(maxsize=None)
        def black_wins(k, c, ko, threats, last_pass, depth):
            # threats: (White's, Black's) external ko threats left.
            b = dict(k)
            b.update(outside)
            if all(any(b.get(s) != "W" for s in ch) for ch in crucial):
                return True
            if depth == 0:
                return False
            # A pass under a ko ban does not count towards two passes (lapse).
            counts = not (lapse and ko is not None)
            if c == "B":
                if any(black_wins(key(nb), "W", nk, t, False, depth - 1)
                       for nb, nk, t in options(b, "B", ko, threats)):
                    return True
                return not last_pass and black_wins(k, "W", None, threats, counts, depth - 1)
            if last_pass:
                return False
            if not all(black_wins(key(nb), "B", nk, t, False, depth - 1)
                       for nb, nk, t in options(b, "W", ko, threats)):
                return False
            return black_wins(k, "B", None, threats, counts, depth - 1)

        sys.setrecursionlimit(100000)
        start = key(self.board)
        for depth in range(1, max_depth + 1):
            if black_wins(start, self.color, self.ko, self.threats, self.passed, depth):
                return depth
        return None


def brute_after(prob, moves, args):
    """A Brute after `moves`, or exits naming the illegal move."""
    b = Brute(prob, args.threats, args.black_threats, args.pass_rule)
    for mv in moves:
        err = b.play(mv)
        if err:
            sys.exit(f"{prob['name']}: {err} (in --moves)")
    return b


def cmd_brute(args):
    prob = find_problem(args.file, args.name)
    b = brute_after(prob, args.moves.split(), args)
    print(b.header())
    d = b.black_wins_within(args.depth)
    print(f"Black wins within {d} plies" if d else f"no Black win within {args.depth} plies")


def cmd_replies(args):
    prob = find_problem(args.file, args.name)
    moves = args.moves.split()
    b = brute_after(prob, moves, args)
    if b.color != "W":
        sys.exit(f"{args.name}: after --moves Black is to move; `replies` expands White's replies")
    print(b.header())
    marks = " ".join(vert(*m) for m in prob["marks"])
    eng = Gtp(shlex.split(args.engine),
              "build tengen with `cargo build --release`, or name the engine with --engine")
    if not eng.cmd(f"tengen-tsumego_limit time {args.secs:g}").startswith("="):
        sys.exit("the engine does not take tengen-tsumego_limit")
    replies = [vert(*p) for p in sorted(b.region, key=lambda p: (p[0], -p[1]))
               if p not in b.board] + ["pass"]
    tally = {"confirmed": 0, "not confirmed": 0, "no kill claimed": 0}
    for w in replies:
        after = Brute(prob, args.threats, args.black_threats, args.pass_rule)
        if any(after.play(mv) for mv in moves + [w]):
            continue  # an illegal reply (suicide or the ko point)
        eng.setup(prob["stones"])
        color, refused = first_colour(prob), None
        for mv in moves + [w]:
            if not eng.cmd(f"play {color} {mv}").startswith("="):
                refused = refused or mv
            color = "B" if color == "W" else "W"
        if refused:
            # Superko: tengen bans a repetition the brute force allows.
            print(f"{w}: tengen refuses {refused} (a repetition ban)")
            tally["no kill claimed"] += 1
            continue
        standing = " ".join(vert(*m) for m in prob["marks"] if after.board.get(m) == "W")
        if not standing:
            print(f"{w}: every marked chain is captured")
            tally["confirmed"] += 1
            continue
        code, bmove = owl_reply(eng.cmd(f"tengen-owl_attack {standing}"))
        if code != 1 or not bmove:
            print(f"{w}: tengen does not claim an outright kill ({code} {bmove}; marks {marks})")
            tally["no kill claimed"] += 1
            continue
        err = after.play(bmove)
        if err:
            sys.exit(f"{args.name}: tengen's answer to {w}: {err}")
        d = after.black_wins_within(args.depth)
        print(f"{w} {bmove}: " + (f"Black wins within {d} plies" if d
                                   else f"no Black win within {args.depth} plies"), flush=True)
        tally["confirmed" if d else "not confirmed"] += 1
    eng.close()
    print("replies: " + ", ".join(f"{v} {k}" for k, v in tally.items()))


def benson_alive(board, region):
    """The White chains of the region that are unconditionally alive
    (Benson's algorithm on the region: a non-White area of it that touches
    a point outside the region is never an eye), as a set of points."""
    white = {p for p in region if board.get(p) == "W"}
    chains, seen = [], set()
    for p in white:
        if p not in seen:
            ch = frozenset(chain(board, p))
            seen |= ch
            chains.append(ch)
    areas, seen = [], set()
    for p in region:
        if p in seen or board.get(p) == "W":
            continue
        area, todo, closed = set(), [p], True
        while todo:
            q = todo.pop()
            if q in area:
                continue
            area.add(q)
            for r in neighbours(q):
                if r not in region:
                    closed = False
                elif board.get(r) != "W" and r not in area:
                    todo.append(r)
        seen |= area
        if closed:
            areas.append(frozenset(area))
    alive = set(chains)
    while True:
        # An area is vital to a chain when every empty point of it is a
        # liberty of the chain; an area next to a chain that is not
        # (or no longer) alive cannot be relied on.
        next_to = {a: {c for c in chains if any(r in c for q in a for r in neighbours(q))}
                   for a in areas}
        good = [a for a in areas if next_to[a] <= alive]
        keep = set()
        for c in alive:
            libs = liberties(board, c)
            vital = sum(1 for a in good if c in next_to[a]
                        and all(q in libs for q in a if q not in board))
            if vital >= 2:
                keep.add(c)
        if keep == alive:
            return set().union(*alive) if alive else set()
        alive = keep


def cmd_verify(args):
    """A guided proof check (see the module's help)."""
    prob = find_problem(args.file, args.name)
    moves = args.moves.split()
    root = brute_after(prob, moves, args)
    print(root.header() + f", checking a win of {args.winner}")
    eng = Gtp(shlex.split(args.engine),
              "build tengen with `cargo build --release`, or name the engine with --engine")
    if not eng.cmd(f"tengen-tsumego_limit time {args.secs:g} "
                   f"repetition {args.repetition}").startswith("="):
        sys.exit("the engine does not take `tengen-tsumego_limit time S repetition R` "
                 "(build the current tengen)")
    region, crucial, marks = root.region, root.crucial, prob["marks"]
    lapse = args.pass_rule == "lapse"
    X = args.winner
    asked, proven, stats = {}, {}, {"nodes": 0, "queries": 0, "closed": 0, "fallbacks": 0, "failures": {}}

    def fail(why):
        stats["failures"][why] = stats["failures"].get(why, 0) + 1
        return None

    def key(b):
        return frozenset((p, c) for p, c in b.items() if p in region)

    def captured(b):
        return all(any(b.get(s) != "W" for s in ch) for ch in crucial)

    def white_alive(b):
        alive = benson_alive(b, region)
        return any(b.get(s) == "W" and s in alive for ch in crucial for s in ch
                   if all(b.get(t) == "W" for t in ch))

    told = [None]

    def ask(b, ko, prev, threats):
        """tengen's winning move for X in b (X to move) with these
        threats (White's, Black's), or None, and why there is none. Under
        a ko ban, tengen is shown the position before the loser's capture
        and the capture, so that it knows the ban."""
        k = (key(b), ko, threats)
        if k not in asked:
            stats["queries"] += 1
            if told[0] != threats:
                wt, bt = threats
                if not eng.cmd(f"tengen-tsumego_limit threats {bt},{wt}").startswith("="):
                    sys.exit("the engine does not take `tengen-tsumego_limit threats B,W` "
                             "(build the current tengen)")
                told[0] = threats
            if ko is not None and prev is not None:
                pb, pmove, pcolor = prev
                eng.setup([(c, x, y) for (x, y), c in pb.items()])
                if not eng.cmd(f"play {pcolor} {pmove}").startswith("="):
                    return None, "tengen refuses the loser's capture"
            else:
                eng.setup([(c, x, y) for (x, y), c in b.items()])
            standing = " ".join(vert(*m) for m in marks if b.get(m) == "W")
            # The empty points of captured marked chains, crucial again if
            # refilled: for Black's question every one (a harder goal than
            # the check's when a chain of several stones is refilled in
            # part), for White's the one-stone chains (the same goal).
            gone = sorted(p for ch in crucial if any(b.get(s) != "W" for s in ch)
                          if X == "B" or len(ch) == 1
                          for p in ch if p not in b)
            if gone:
                standing += " captured " + " ".join(vert(*p) for p in gone)
            verb = "tengen-owl_attack" if X == "B" else "tengen-owl_defend"
            code, mv = owl_reply(eng.cmd(f"{verb} {standing}"))
            if code == 1:
                asked[k] = (mv or "pass", None)
            elif code is None and mv.startswith("?"):
                asked[k] = (None, f"tengen's error: {mv}")
            else:
                asked[k] = (None, "tengen claims no win")
        return asked[k]

    def options(b, c, ko, threats):
        return [(vert(*p) + ("+threat" if retake else ""), nb, nk, t)
                for p, nb, nk, t, retake in region_options(b, sorted(region), c, ko, threats)]

    # The brute force that closes Black's lines, made once (its region and
    # marked chains are the problem's); each use sets the position.
    closer = Brute(prob, 0, 0, args.pass_rule)
    sys.setrecursionlimit(100000)
    on_path = set()
    # Fallbacks on the current path (X's moves other than tengen's).
    fell = [0]

    def wins(b, c, ko, threats, last_pass, depth, prev=None):
        """The height (plies) of a finite proof that X wins from here, whose
        X moves are tengen's (or the brute force's near the end), or None."""
        stats["nodes"] += 1
        if stats["nodes"] % 2000 == 0:
            print(f"  {stats['nodes']} nodes, {stats['queries']} queries, "
                  f"{len(proven)} proven", file=sys.stderr, flush=True)
        if captured(b):
            return 0 if X == "B" else fail("marks captured")
        if white_alive(b):
            return 0 if X == "W" else fail("White alive")
        st = (key(b), c, ko, threats, last_pass)
        if st in proven:
            return proven[st]
        if depth == 0:
            return fail("depth")
        if st in on_path:
            return fail("cycle")
        on_path.add(st)
        h = node(b, c, ko, threats, last_pass, depth, prev)
        on_path.discard(st)
        if h is not None:
            proven[st] = h
        return h

    def after(b, c, mv, nb, nk, t, last_pass, counts, depth):
        """The proof height after `c` plays `mv` (the position `nb`, ko ban
        `nk`, threats `t`; `pass`: two passes end the game)."""
        other = "B" if c == "W" else "W"
        if mv == "pass":
            if last_pass:
                r = 1 if X == "W" else fail("two passes")
            else:
                r = wins(b, other, None, t, counts, depth - 1)
        else:
            r = wins(nb, other, nk, t, False, depth - 1, (b, mv.split("+")[0], c))
        return None if r is None else r + 1

    def node(b, c, ko, threats, last_pass, depth, prev):
        counts = not (lapse and ko is not None)
        moves = options(b, c, ko, threats) + [("pass", None, None, threats)]
        if c != X:
            # The loser: every legal move, the retake with a threat, the pass.
            h = 0
            for mv, nb, nk, t in moves:
                r = after(b, c, mv, nb, nk, t, last_pass, counts, depth)
                if r is None:
                    return None
                h = max(h, r)
            return h
        if X == "B" and args.close > 0:
            closer.board, closer.color, closer.ko = dict(b), c, ko
            closer.threats, closer.passed = threats, last_pass
            d = closer.black_wins_within(args.close)
            if d:
                stats["closed"] += 1
                return d
        mv, no_move = ask(b, ko, prev, threats)
        # X's moves: tengen's first (its point, or the retake with a threat
        # where it names the banned point), then, within the fallback
        # budget, the others and the pass.
        first = [o for o in moves if mv is not None and o[0].split("+")[0].upper() == mv.upper()][:1]
        rest = [o for o in moves if o not in first] if fell[0] < args.fallback else []
        for i, (omv, nb, nk, t) in enumerate(first + rest):
            if i == len(first):
                stats["fallbacks"] += 1
                fell[0] += 1
            r = after(b, c, omv, nb, nk, t, last_pass, counts, depth)
            if r is not None:
                if i >= len(first):
                    fell[0] -= 1
                return r
        if rest:
            fell[0] -= 1
        if mv is None:
            return fail(no_move)
        if not first:
            return fail("tengen's move is illegal here")
        return None

    h = wins(root.board, root.color, root.ko, root.threats, root.passed, args.depth)
    ok = h is not None
    eng.close()
    print(f"{'proven' if ok else 'not proven'}: {args.winner} wins"
          + (f" within {h} plies" if ok else "") +
          f" ({stats['nodes']} nodes, {len(proven)} positions proven, "
          f"{stats['queries']} tengen queries, {stats['closed']} closed by the brute force, "
          f"{stats['fallbacks']} fallbacks)")
    if not ok:
        print("why not: " + ", ".join(f"{k} {v}" for k, v in stats["failures"].items()))


def render(board):
    """The board's occupied corner as text (X Black, O White), row 19 on top."""
    xs = [x for x, _ in board] or [0]
    ys = [y for _, y in board] or [0]
    rows = []
    for y in range(0, min(N, max(ys) + 2)):
        row = "".join({"B": "X", "W": "O"}.get(board.get((x, y)), ".") for x in range(0, min(N, max(xs) + 2)))
        rows.append(f"{N - y:3} {row}")
    rows.append("    " + COLS[: min(N, max(xs) + 2)])
    return "\n".join(rows)


def cmd_replay(args):
    probs = {}
    for path in args.files:
        for prob in parse(path):
            probs[(os.path.basename(path), prob["name"])] = prob
    eng = Gtp(shlex.split(args.engine),
              "build tengen with `cargo build --release`, or name the engine with --engine")
    if not eng.cmd(f"tengen-tsumego_limit time {args.secs:g}").startswith("="):
        sys.exit("the engine does not take tengen-tsumego_limit")
    tally = {"effort": 0, "contradicts": 0, "no line": 0}
    for line in open(args.records):
        rec = json.loads(line)
        if "source" not in rec or "error" in rec:
            continue
        fname = rec["source"].split(":")[0]
        prob = probs.get((fname, rec["name"]))
        for side, mover in (("defender_first", "?"), ("attacker_first", "A")):
            a = rec.get(side)
            if a is None or (a["status"] != "unknown" and a.get("agrees")):
                continue
            who = "White" if mover == "?" else "Black"
            head = f"{fname} {rec['name']} {who} first: GoTools {a['expected']['status']}, tengen {a['status']}"
            best = prob and next((x for x in prob["ans"] if x[0] == mover), None)
            if not best or not prob["marks"]:
                print(f"{head}\n  no main line or marks in the files given")
                tally["no line"] += 1
                continue
            status, main = best[2], best[3]
            eng.setup(prob["stones"])
            board = start_board(prob)
            color = "W" if mover == "?" else "B"
            plies, boards, stop, threats = [], [], "", 0
            moves = [main[i : i + 2] for i in range(0, len(main), 2)]
            fought = len(moves) + 1
            for i in range(len(moves) + 1):
                sym = "?" if color == "W" else "A"
                want = gotools_code(sym, status)
                standing = " ".join(vert(*m) for m in prob["marks"] if board.get(m) == "W")
                if standing:
                    owl = "defend" if color == "W" else "attack"
                    code, mv = owl_reply(eng.cmd(f"tengen-owl_{owl} {standing}"))
                else:
                    # Every marked stone captured: Black has won.
                    code, mv = (1 if color == "B" else 0), "(all captured)"
                plies.append((i, color, code, want, mv))
                boards.append(dict(board))
                if i == len(moves):
                    break
                m = moves[i]
                if m == "@@":
                    eng.cmd(f"play {color} pass")
                else:
                    p = (ord(m[0]) - 65, ord(m[1]) - 65)
                    r = eng.cmd(f"play {color} {vert(*p)}")
                    if not r.startswith("=") and threats < 8:
                        # A ko retake after a threat the line leaves out:
                        # the threat and its answer are played far away
                        # (the opposite corner), then the retake.
                        far = 18 - 2 * threats
                        eng.cmd(f"play {color} {vert(far, 18)}")
                        eng.cmd(f"play {'B' if color == 'W' else 'W'} {vert(far, 16)}")
                        threats += 1
                        r = eng.cmd(f"play {color} {vert(*p)}")
                    captured = play(board, p, color) if r.startswith("=") else None
                    if captured is None:
                        stop = f"  the line stops at ply {i + 1}: {color} {vert(*p)} is refused ({r})"
                        break
                    # A ko capture: from here on the status depends on the
                    # threats each side has used, no longer the root's.
                    if len(captured) == 1 and len(liberties(board, chain(board, p))) == 1:
                        fought = min(fought, i + 1)
                color = "B" if color == "W" else "W"
            def mv_name(k):
                return "pass" if moves[k] == "@@" else vert(ord(moves[k][0]) - 65, ord(moves[k][1]) - 65)
            print(head)
            print("  " + "  ".join(f"{i}:{c}{'?' if code is None else code}/{w}" for i, c, code, w, _ in plies))
            if fought < len(plies):
                print(f"  a ko is fought from ply {fought}: the root's status is compared before it only")
            plies = plies[:fought]
            if threats:
                print(f"  {threats} ko threat(s) the line leaves out played far away before a retake")
            if stop:
                print(stop)
            bad = [pl for pl in plies if pl[2] is not None and cls(pl[2]) != cls(pl[3])]
            if bad:
                i, c, code, w, mv = bad[-1]
                nxt = mv_name(i) if i < len(moves) else "(end of line)"
                print(f"  contradicts at ply {i}, {c} to move: tengen code {code} {mv}, "
                      f"GoTools code {w} playing {nxt}")
                print("\n".join("    " + r for r in render(boards[i]).split("\n")))
                tally["contradicts"] += 1
            else:
                first = len(plies)
                for i, c, code, w, _ in reversed(plies):
                    if code is None:
                        break
                    first = i
                if first < len(plies):
                    print(f"  effort: tengen agrees wherever it settles; it settles every ply from {first} of {len(plies) - 1}")
                else:
                    print(f"  effort: tengen settles none of plies 0-{len(plies) - 1}")
                tally["effort"] += 1
    eng.close()
    print("replayed: " + ", ".join(f"{v} {k}" for k, v in tally.items()))


def cmd_prefixes(args):
    prob = find_problem(args.file, args.name)
    if not 0 <= args.answer < len(prob["ans"]):
        sys.exit(f"{args.file}: {args.name} has {len(prob['ans'])} answer lines; --answer {args.answer} is not one")
    first, sign, status, line = prob["ans"][args.answer]
    moves = [line[i : i + 2] for i in range(0, len(line), 2)]
    board = start_board(prob)
    color = "W" if first == "?" else "B"
    root = color
    written = 0
    for k in range(len(moves) + 1):
        marks = [m for m in prob["marks"] if board.get(m) == "W"]
        if not marks:
            break
        stones = "".join(("?" if c == "W" else "A") + chr(65 + x) + chr(65 + y) for (x, y), c in sorted(board.items()))
        mover_sign = sign if color == root else ("-" if sign == "+" else "+")
        print(f"$ {args.name}k{k}")
        print(stones + "".join(f"[{chr(65 + x)}{chr(65 + y)}]" for x, y in marks))
        print(f"{'?' if color == 'W' else 'A'}{mover_sign}{status}#0 0 0 0 0 ?? 0 255 :{''.join(moves[k:])}:")
        print()
        written += 1
        if k == len(moves):
            break
        mv = moves[k]
        if mv != "@@":
            placed = place(board, (ord(mv[0]) - 65, ord(mv[1]) - 65), color)
            if placed is None:
                sys.exit(f"{args.name}: move {k + 1} of the main line ({mv}) is illegal")
            board, _, ko = placed
            if ko is not None:
                break
        color = "B" if color == "W" else "W"
    print(f"{written} prefixes of {len(moves)} plies", file=sys.stderr)


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
    br.add_argument("--black-threats", type=int, default=0)
    br.add_argument("--pass-rule", choices=["lapse", "ends"], default="lapse")
    br.add_argument("--depth", type=int, default=30)
    rr = sub.add_parser("replies", help="check a kill tengen claims, one White reply at a time")
    rr.add_argument("file")
    rr.add_argument("name")
    rr.add_argument("--moves", default="")
    # tengen's owl answers are its answers without threats: none here.
    rr.set_defaults(threats=0, black_threats=0)
    rr.add_argument("--pass-rule", choices=["lapse", "ends"], default="lapse")
    rr.add_argument("--depth", type=int, default=24)
    rr.add_argument("--secs", type=float, default=10.0)
    vf = sub.add_parser("verify", help="check a win tengen claims, every reply of the loser")
    vf.add_argument("file")
    vf.add_argument("name")
    vf.add_argument("--moves", default="")
    vf.add_argument("--winner", choices=["B", "W"], required=True)
    vf.add_argument("--threats", type=int, default=0)
    vf.add_argument("--black-threats", type=int, default=0)
    vf.add_argument("--pass-rule", choices=["lapse", "ends"], default="lapse")
    vf.add_argument("--close", type=int, default=6)
    vf.add_argument("--fallback", type=int, default=1)
    vf.add_argument("--depth", type=int, default=60)
    vf.add_argument("--secs", type=float, default=10.0)
    vf.add_argument("--repetition", choices=["simple-ko", "superko"], default="simple-ko")
    px = sub.add_parser("prefixes", help="the position after each ply of a main line, as GoTools problems")
    px.add_argument("file")
    px.add_argument("name")
    px.add_argument("--answer", type=int, default=0)
    rp = sub.add_parser("replay", help="GoTools' main line of every unknown or disagreeing answer, asked ply by ply")
    rp.add_argument("records")
    rp.add_argument("files", nargs="+")
    rp.add_argument("--secs", type=float, default=5.0)
    here = os.path.dirname(os.path.abspath(__file__))
    tengen = os.path.join(here, "..", "target", "release", "tengen")
    engine = shlex.join([tengen, "--threads", "1", "--quiet", "--no-table"])
    rp.add_argument("--engine", default=engine)
    rr.add_argument("--engine", default=engine)
    vf.add_argument("--engine", default=engine)
    args = ap.parse_args()
    {"bent-four": cmd_bent_four, "brute": cmd_brute, "replies": cmd_replies,
     "replay": cmd_replay, "prefixes": cmd_prefixes, "verify": cmd_verify}[args.cmd](args)


if __name__ == "__main__":
    main()
