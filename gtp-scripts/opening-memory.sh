#!/bin/bash
# The "opening memory" measurement of docs/table.md: play GAMES self-play
# games with a persistent table, then search the same opening positions with
# few playouts from a copy of that warm table and from a cold (empty) table,
# over several seeds, and compare move stability and agreement with a deep
# reference search (no table).
#
# Usage: gtp-scripts/opening-memory.sh [GAMES] [PLAYOUTS] [SEEDS] [DIR]
#   defaults: 20 games at 2000 playouts, probes at 300 playouts, 10 seeds.
# Environment: TENGEN (default target/release/tengen).
set -eu
GAMES=${1:-20}
PLAYOUTS=${2:-300}
SEEDS=${3:-10}
DIR=${4:-/tmp/tengen-opening-memory}
TENGEN=${TENGEN:-target/release/tengen}
REF=${REF:-50000}
rm -rf "$DIR"; mkdir -p "$DIR"
WARM="$DIR/warm.table"
common="--size 9 --komi 7 --threads 1 --quiet"

echo "1. $GAMES self-play games at 2000 playouts with the persistent table $WARM" >&2
"$TENGEN" $common --playouts 2000 --table "$WARM" match \
    --opponent "$TENGEN $common --playouts 2000 --table $WARM --seed 1000" \
    --games "$GAMES" --out "$DIR/games" >&2

# Opening positions: the empty board, then each distinct first move and
# first two moves of the games (up to 6 positions).
positions=("")
for f in "$DIR"/games/game-*.sgf; do
    moves=$(grep -o ';[BW]\[[a-i][a-i]\]' "$f" | head -2 | sed 's/;[BW]\[\(.\)\(.\)\]/\1\2/' | tr '\n' ' ')
    set -- $moves
    for k in 1 2; do
        line=""
        i=0
        for m in "$@"; do
            i=$((i+1)); [ $i -gt $k ] && break
            x=$(printf '%d' "'${m:0:1}"); y=$(printf '%d' "'${m:1:1}")
            col=$(echo ABCDEFGHJ | cut -c$((x-96)))
            line="$line $col$((9-(y-97)))"
        done
        positions+=("$line")
    done
done
mapfile -t positions < <(printf '%s\n' "${positions[@]}" | awk '!seen[$0]++' | head -6)

genmove() { # table-args moves seed playouts -> "move winrate"
    local targs=$1 moves=$2 seed=$3 n=$4 color=b cmds="boardsize 9\nkomi 7\n"
    for m in $moves; do cmds="${cmds}play $color $m\n"; [ $color = b ] && color=w || color=b; done
    cmds="${cmds}genmove $color\nquit\n"
    printf "$cmds" | "$TENGEN" --size 9 --komi 7 --threads 1 --playouts "$n" --seed "$seed" $targs 2>"$DIR/err" \
        | grep '^= [A-Z]' | cut -c3- | tr -d '\r'
}

printf '%-12s %-6s %-22s %-22s\n' position ref "warm: same/ref/top" "cold: same/ref/top"
tw=0; tc=0; tsw=0; tsc=0; total=0
for pos in "${positions[@]}"; do
    ref=$(genmove "--no-table" "$pos" 1 "$REF")
    wm=(); cm=()
    for s in $(seq 1 "$SEEDS"); do
        cp --sparse=always "$WARM" "$DIR/w.table"
        wm+=("$(genmove "--table $DIR/w.table" "$pos" "$s" "$PLAYOUTS")")
        rm -f "$DIR/c.table"
        cm+=("$(genmove "--table $DIR/c.table" "$pos" "$s" "$PLAYOUTS")")
    done
    stat() { printf '%s\n' "$@" | sort | uniq -c | sort -rn | head -1 | awk '{print $1" "$2}'; }
    read -r wtop wmove <<<"$(stat "${wm[@]}")"
    read -r ctop cmove <<<"$(stat "${cm[@]}")"
    wref=$(printf '%s\n' "${wm[@]}" | grep -cx "$ref" || true)
    cref=$(printf '%s\n' "${cm[@]}" | grep -cx "$ref" || true)
    printf '%-12s %-6s %-22s %-22s\n' "${pos:-(empty)}" "$ref" "$wtop/$SEEDS $wref/$SEEDS $wmove" "$ctop/$SEEDS $cref/$SEEDS $cmove"
    tsw=$((tsw+wtop)); tsc=$((tsc+ctop)); tw=$((tw+wref)); tc=$((tc+cref)); total=$((total+SEEDS))
done
echo "modal-move share: warm $tsw/$total, cold $tsc/$total; agreement with the ${REF}-playout reference: warm $tw/$total, cold $tc/$total"
