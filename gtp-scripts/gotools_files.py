"""Reading GoTools' problem files, mapping their answers to GNU Go's owl
codes, and a small GTP client that sets their positions up: shared by the
gtp-scripts that compare tengen with GoTools (tsumego-vs-gnugo.py,
tsumego-gtp.py, gotools-check.py); score-trend.py uses its GTP client."""

import re
import shlex
import subprocess
import sys

N = 19
COLS = "ABCDEFGHJKLMNOPQRST"


def parse(path):
    """Problems of a GoTools file: name, stones, marks, answer lines."""
    text = open(path, encoding="latin-1").read().split("\n")
    joined, acc = [], None
    for line in text:
        line = line.rstrip()
        cont = line.endswith("\\")
        if cont:
            line = line[:-1]
        acc = line if acc is None else acc + line.strip()
        if not cont:
            joined.append(acc)
            acc = None
    probs, cur = [], None
    for line in joined:
        t = line.strip()
        if t.startswith("$"):
            cur = {"name": t[1:].strip(), "stones": [], "marks": [], "ans": [], "text": [line]}
            probs.append(cur)
            continue
        if cur is None:
            continue
        cur["text"].append(line)
        if not t:
            continue
        m = re.match(r"([?A])([+-])([^#\s:]*)#(\d+)", t)
        if m:
            main = t.split(":")[1] if t.count(":") >= 2 else ""
            cur["ans"].append((m.group(1), m.group(2), m.group(3), main))
            continue
        i = 0
        while i < len(t):
            if t[i] == "[":
                cur["marks"].append((ord(t[i + 1]) - 65, ord(t[i + 2]) - 65))
                i += 4
            elif t[i] in "?A":
                color = "W" if t[i] == "?" else "B"
                cur["stones"].append((color, ord(t[i + 1]) - 65, ord(t[i + 2]) - 65))
                i += 3
            elif t[i].isspace():
                i += 1
            else:
                sys.exit(f"{path}: problem {cur['name']}: cannot read {t!r}")
    return probs


def vert(x, y):
    """GTP vertex of a GoTools point (AA is A19)."""
    return f"{COLS[x]}{N - y}"


def gotools_code(mover, status):
    """GNU Go's owl code for the mover (`?` White, `A` Black) from
    GoTools' status about White: 1 success, 0 failure, 2 a ko the mover
    is favoured in, 3 one it needs a threat for."""
    if status == "l":
        return 1 if mover == "?" else 0
    if status == "d":
        return 0 if mover == "?" else 1
    white_favoured = status[0] == "l"
    return 2 if white_favoured == (mover == "?") else 3


def cls(code):
    """The class of an owl code: win, loss, ko, or unknown (None)."""
    if code is None:
        return "unknown"
    return "ko" if code in (2, 3) else ("win" if code == 1 else "loss")


def owl_reply(reply):
    """The code and move of an owl reply `= 1 B1` (code None: `unknown`
    or an error, such as a marked stone already captured)."""
    parts = reply.split()
    if len(parts) >= 2 and parts[0] == "=" and parts[1].isdigit():
        return int(parts[1]), (parts[2] if len(parts) > 2 else "")
    return None, reply


class Gtp:
    """A GTP engine on pipes: `cmd` sends one command and returns its
    reply on one line; `setup` puts a GoTools problem's stones on a clear
    19x19 board."""

    def __init__(self, argv, hint):
        """Starts `argv`; `hint` says what to do when it cannot start."""
        try:
            self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as e:
            sys.exit(f"cannot start {shlex.join(argv)}: {e} ({hint})")

    def cmd(self, c):
        self.p.stdin.write(c + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"engine exited on {c!r}")
            if line.strip() == "" and out:
                break
            if line.strip():
                out.append(line.strip())
        return " ".join(out)

    def setup(self, stones):
        self.cmd("boardsize 19")
        self.cmd("clear_board")
        for c, x, y in stones:
            r = self.cmd(f"play {c} {vert(x, y)}")
            if not r.startswith("="):
                sys.exit(f"play {c} {vert(x, y)}: {r}")

    def close(self):
        self.p.stdin.close()
        self.p.wait()
