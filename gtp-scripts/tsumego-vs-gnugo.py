#!/usr/bin/env python3
"""GNU Go's owl_attack/owl_defend against tengen's exact answers.

Usage:
  tengen --threads 1 --quiet solve --json SET/lv* > ours.json
  gtp-scripts/tsumego-vs-gnugo.py ours.json SET

Each problem of the GoTools set SET is placed in the top-left corner of a
19x19 board (letters from A at the corner) and GNU Go 3.8 is asked
owl_attack and owl_defend on the crucial stone that tengen reports. Prints
the agreement on success/failure and on the exact code, and the times.
"""
import json, subprocess, sys, time, glob, re
COLS = "ABCDEFGHJKLMNOPQRST"
def vert(x, y): return f"{COLS[x]}{19 - y}"
# stones per problem name from the GoTools files
stones = {}
for f in sorted(glob.glob(sys.argv[2] + '/lv*')):
    name = None; buf = ''
    for line in open(f):
        line = line.rstrip('\n')
        if line.startswith('$'):
            name = line[1:].strip(); buf = ''; continue
        if name is None: continue
        if len(line) >= 2 and line[0] in '?A' and line[1] in '+-':
            if name not in stones:
                body = re.sub(r'\[..\]', '', buf.replace('\\', ' '))
                body = body.replace(' ', '')
                st = []
                for i in range(0, len(body), 3):
                    c, X, Y = body[i], ord(body[i+1]) - 65, ord(body[i+2]) - 65
                    st.append(('W' if c == '?' else 'B', X, Y))
                stones[name] = st
            continue
        buf += line
ours = [json.loads(l) for l in open(sys.argv[1]) if '"summary"' not in l]
skipped = [p['name'] for p in ours if p['attacker_first']['code'] is None or p['defender_first']['code'] is None]
ours = [p for p in ours if p['name'] not in skipped]
if skipped:
    print(f"skipped {len(skipped)} problems tengen left unknown")
g = subprocess.Popen(['/usr/games/gnugo', '--mode', 'gtp', '--chinese-rules'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def cmd(c):
    g.stdin.write(c + '\n'); g.stdin.flush()
    out = []
    while True:
        l = g.stdout.readline()
        if l.strip() == '' and out: break
        if l.strip() == '': continue
        out.append(l.strip())
    return ' '.join(out)
rows = []
for p in ours:
    st = stones[p['name']]
    cmd('boardsize 19'); cmd('clear_board')
    for c, X, Y in st:
        r = cmd(f'play {c} {vert(X, Y)}')
        assert r.startswith('='), (p['name'], r)
    X, Y = ord(p['crucial'][0]) - 65, ord(p['crucial'][1]) - 65
    v = vert(X, Y)
    res = {}
    for side, c in (('attacker_first', 'owl_attack'), ('defender_first', 'owl_defend')):
        t = time.perf_counter(); r = cmd(f'{c} {v}'); dt = time.perf_counter() - t
        code = int(r.split()[1])
        res[side] = (code, dt)
    rows.append((p, res))
exact = sum(1 for p, r in rows for s in ('attacker_first', 'defender_first') if p[s]['code'] == r[s][0])
wl = sum(1 for p, r in rows for s in ('attacker_first', 'defender_first') if (p[s]['code'] > 0) == (r[s][0] > 0))
n = 2 * len(rows)
gt = sum(r['attacker_first'][1] + r['defender_first'][1] for p, r in rows)
ot = sum(p['attacker_first']['ms'] + p['defender_first']['ms'] for p, r in rows) / 1000
print(f"answers {n}: exact code agreement {exact} ({100*exact/n:.1f}%), success/failure agreement {wl} ({100*wl/n:.1f}%); gnugo time {gt:.1f} s, ours {ot:.1f} s")
