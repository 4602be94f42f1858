#!/usr/bin/env bash
# Strength and speed of tengen against Pachi and GNU Go, with the tools our
# users run: gogui-twogtp plays the games, GNU Go referees them, and
# twogtp-summary.py gives the score with its 95% CI. docs/search.md has the
# current figures, docs/strength-log.md every series measured with it.
#
#   gtp-scripts/strength.sh match OPPONENT SIZE GAMES SECS [OUT]
#       OPPONENT: pachi | gnugo (level 10) | "any GTP command"
#       SECS: the regime, one of
#             N          seconds per move for both sides (Pachi treats it as
#                        a cap and often stops early; tengen spends it)
#             sd:MIN     MIN whole minutes sudden death per side, set by
#                        twogtp (as CGOS plays); both engines manage their
#                        clocks; twogtp never ends a game on time, so the
#                        summary counts the games each side went over MIN
#             byo:MIN+B/S  MIN minutes main time, then B minutes for every
#                        S moves (Canadian byo-yomi, twogtp's -time MIN+B/S)
#             po:N       equal playouts: N per move for both (tengen
#                        --playouts N, Pachi -t =N, which takes N >= 500);
#                        no clock
#       OUT: result prefix (default target/strength/OPPONENT-SIZE-SECS);
#            OUT.dat, one SGF per game, a summary in OUT.txt. A rerun with
#            the same OUT continues where the file stops. Each game runs
#            with fresh programs; a game in which one crashes is kept in
#            OUT.dat as an error and left out of the score.
#   gtp-scripts/strength.sh speed [SECS]
#       playouts per second of tengen and Pachi in one run: each thinks SECS
#       (default 10) on the empty 19x19 board, then on the reply position.
#   gtp-scripts/strength.sh summary OUT.dat
#
# Environment:
#   GOGUI_SRC  a GoGui checkout (git clone https://github.com/Remi-Coulom/gogui);
#              compiled once by gogui-build.sh
#   PACHI_SRC  a Pachi checkout (git clone https://github.com/pasky/pachi), for
#              the pachi opponent; built once with `make DCNN=0` (no neural
#              net; it still loads its pattern files). Nothing of Pachi's
#              goes into tengen.
#   THREADS    threads of each engine (default 2)
#   TENGEN     tengen binary (default target/release/tengen, built if missing)
#   TENGEN_ARGS extra tengen options (default: a table file of its own under
#              OUT, so the match starts from an empty table and learns)
#   GNUGO      GNU Go binary (default /usr/games/gnugo); always the referee
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
THREADS=${THREADS:-2}
GNUGO=${GNUGO:-/usr/games/gnugo}
TENGEN=${TENGEN:-$ROOT/target/release/tengen}

die() { echo "strength.sh: $*" >&2; exit 2; }
need_tengen() {
    if [ "$TENGEN" = "$ROOT/target/release/tengen" ]; then
        (cd "$ROOT" && cargo build --release --quiet)
    fi
    [ -x "$TENGEN" ] || die "no tengen binary at $TENGEN"
}
need_pachi() {
    : "${PACHI_SRC:?set PACHI_SRC to a Pachi checkout (git clone https://github.com/pasky/pachi)}"
    [ -f "$PACHI_SRC/pachi.c" ] || die "$PACHI_SRC is not a Pachi checkout (no pachi.c)"
    if [ ! -x "$PACHI_SRC/pachi" ]; then
        echo "strength.sh: building Pachi without its neural net (make DCNN=0)" >&2
        make -C "$PACHI_SRC" -j"$(nproc)" DCNN=0 JOSEKIFIX=0 BUILD_KATAGO=0 >&2
    fi
}
need_gnugo() { [ -x "$GNUGO" ] || die "GNU Go is missing at $GNUGO (apt-get install gnugo)"; }

case "${1:-}" in
match)
    [ $# -ge 5 ] || die "usage: strength.sh match OPPONENT SIZE GAMES SECS [OUT]"
    OPP=$2 SIZE=$3 GAMES=$4 SECS=$5
    [[ "$SIZE" =~ ^[0-9]+$ ]] || die "SIZE must be a board size, not '$SIZE'"
    [[ "$GAMES" =~ ^[0-9]+$ ]] || die "GAMES must be a number of games, not '$GAMES'"
    TIME_OPT=() PACHI_T=() TENGEN_T=() MIN=""
    case "$SECS" in
    sd:*) MIN=${SECS#sd:}
       [[ "$MIN" =~ ^[0-9]+$ ]] || die "sd:MIN takes whole minutes (twogtp's -time), not '$MIN'"
       TIME_OPT=(-time "$MIN") ;;
    byo:*) SPEC=${SECS#byo:}
       [[ "$SPEC" =~ ^[0-9]+\+[0-9]+/[0-9]+$ ]] || die "byo:MIN+B/S takes whole minutes of main time, byo-yomi minutes and stones (byo:5+1/10), not '$SPEC'"
       TIME_OPT=(-time "$SPEC") ;;
    po:*) N=${SECS#po:}
       [[ "$N" =~ ^[0-9]+$ ]] && [ "$N" -gt 0 ] || die "po:N takes a number of playouts, not '$N'"
       [ "$OPP" != pachi ] || [ "$N" -ge 500 ] || die "Pachi takes at least 500 playouts a move (-t =N), not $N"
       PACHI_T=(-t "=$N"); TENGEN_T=(--playouts "$N") ;;
    *) [[ "$SECS" =~ ^[0-9.]+$ ]] || die "SECS must be seconds per move, sd:MIN, byo:MIN+B/S or po:N, not '$SECS'"
       PACHI_T=(-t "$SECS"); TENGEN_T=(--move-secs "$SECS") ;;
    esac
    TAG=$(echo "$OPP" | tr -c 'A-Za-z0-9\n' '_' | cut -c1-20)
    OUT=${6:-$ROOT/target/strength/$TAG-$SIZE-$(echo "$SECS" | tr -c 'A-Za-z0-9.\n' '_')}
    mkdir -p "$(dirname "$OUT")"
    need_tengen; need_gnugo
    case "$OPP" in
    pachi) need_pachi; OPP_CMD="$PACHI_SRC/pachi ${PACHI_T[*]} threads=$THREADS" ;;
    gnugo) OPP_CMD="$GNUGO --mode gtp --level 10 --chinese-rules" ;;
    *) OPP_CMD=$OPP ;;
    esac
    KOMI=${KOMI:-$([ "$SIZE" -le 9 ] && echo 7 || echo 7.5)}
    ENGINE="$TENGEN --threads $THREADS ${TENGEN_T[*]} --quiet ${TENGEN_ARGS:---table $OUT.table}"
    CLASSES=$(GOGUI_SRC="${GOGUI_SRC:-}" "$HERE/gogui-build.sh")
    echo "strength.sh: $GAMES games, ${SIZE}x$SIZE, komi $KOMI, $SECS; tengen: $ENGINE; opponent: $OPP_CMD" >&2
    # One twogtp run per game: twogtp does not restart a program that died
    # (GNU Go 3.8 segfaults in some 19x19 positions), so a single run would
    # record every later game as an error. Each run resumes OUT.dat and
    # plays the next game with fresh programs; a crashed game stays in the
    # file as an error and is not scored.
    played() { if [ -f "$OUT.dat" ]; then grep -c '^[0-9]' "$OUT.dat" || true; else echo 0; fi; }
    while n=$(played); [ "$n" -lt "$GAMES" ]; do
        java -cp "$CLASSES" net.sf.gogui.tools.twogtp.Main \
            -black "$ENGINE" -white "$OPP_CMD" \
            -referee "$GNUGO --mode gtp --chinese-rules" \
            -size "$SIZE" -komi "$KOMI" -games $((n + 1)) -alternate -auto \
            "${TIME_OPT[@]}" -sgffile "$OUT" || true
        [ "$(played)" -gt "$n" ] || die "gogui-twogtp recorded no game $n in $OUT.dat; see its messages above"
    done
    SUMMARY_OPT=()
    [ -n "${MIN:-}" ] && SUMMARY_OPT=(--main-secs "$(awk -v m="$MIN" 'BEGIN {print m * 60}')")
    python3 "$HERE/twogtp-summary.py" "$OUT.dat" "${SUMMARY_OPT[@]}" | tee "$OUT.txt"
    ;;
speed)
    SECS=${2:-10}
    need_tengen; need_pachi
    POS=$'boardsize 19\nkomi 7.5\nclear_board\ngenmove b\ngenmove w\nquit\n'
    echo "tengen: $(printf '%s' "$POS" | "$TENGEN" --threads "$THREADS" --move-secs "$SECS" --no-table 2>&1 >/dev/null \
        | sed -n 's/.*: \([0-9]*\) playouts in \([0-9.]*\) s.*/\1 \2/p' \
        | awk '{p+=$1; t+=$2} END {printf "%d playouts in %.2f s = %.0f/s", p, t, p/t}')"
    echo "pachi:  $(printf '%s' "$POS" | "$PACHI_SRC/pachi" -t "$SECS" threads="$THREADS" 2>&1 >/dev/null \
        | sed -n 's/^genmove in \([0-9.]*\)s.* (\([0-9]*\) games\/s,.*/\1 \2/p' \
        | awk '{p+=$1*$2; t+=$1} END {printf "%d playouts in %.2f s = %.0f/s", p, t, p/t}')"
    ;;
summary)
    [ $# -ge 2 ] || die "usage: strength.sh summary OUT.dat"
    python3 "$HERE/twogtp-summary.py" "$2"
    ;;
*)
    sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ] || exit 2
    ;;
esac
