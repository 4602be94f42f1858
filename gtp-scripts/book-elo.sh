#!/bin/sh
# Does the opening book pay? Build a book in stages; after each stage play
# tengen with the book against tengen without one, then plot Elo against
# the book's build time (`tengen results`). docs/table.md has the figures.
#
#   gtp-scripts/book-elo.sh OUT STAGE...
#       OUT    a folder for everything: the book (OUT/book.table), its copy
#              after each stage (OUT/stage-K.table), one match folder per
#              stage with the tables the two sides used, and the report
#              OUT/elo.tsv, OUT/elo.svg, OUT/elo.png.
#       STAGE  what each stage adds to the book: a duration for
#              `book build --time` (30m, 1h, ...) or a number of positions
#              for `--positions` (with METHOD=learn: of games for
#              `book learn --games`). Stages add up: "1h 1h 2h" gives
#              books of 1, 2 and 4 hours.
#   A rerun with the same OUT goes on: a stage whose copy exists is not
#   built again, and each match resumes after the games it has.
#
# Environment (defaults in brackets):
#   TENGEN          the binary [target/release/tengen]
#   SIZE, KOMI      the game [9, 7]
#   METHOD          how the book grows [build]: build (a deep search of each
#                   position) or learn (self-play games whose results choose
#                   the moves; its tree is OUT/book.table.learn.json)
#   THREADS         threads of the build, or games at once of learn [all
#                   cores]; the match games use one each
#   BOOK_PLAYOUTS   playouts of each book position's search [20000]
#   GAME_PLAYOUTS   playouts a move of learn's games [PLAYOUTS, else 1000]
#   GAMES           games per stage [400]; colours alternate
#   PLAYOUTS        fixed playouts a move in the games, or
#   MOVE_SECS       seconds a move in the games when PLAYOUTS is empty [0.5]
#   BOOK_RATIO      the weight book_move_ratio of both sides [2]: a book move
#                   is played without a search when its visits reach this
#                   multiple of the move's own search
#   ENTRIES         entries of every table [4194304]
#   SEED            seed of the games [1]
set -eu
if [ $# -lt 2 ]; then
    sed -n '2,37p' "$0" >&2
    exit 2
fi
OUT=$1
shift
TENGEN=${TENGEN:-target/release/tengen}
SIZE=${SIZE:-9}
KOMI=${KOMI:-7}
BOOK_PLAYOUTS=${BOOK_PLAYOUTS:-20000}
GAMES=${GAMES:-400}
BOOK_RATIO=${BOOK_RATIO:-2}
ENTRIES=${ENTRIES:-4194304}
SEED=${SEED:-1}
METHOD=${METHOD:-build}
GAME_PLAYOUTS=${GAME_PLAYOUTS:-${PLAYOUTS:-1000}}
case $METHOD in
    build | learn) ;;
    *)
        echo "book-elo: METHOD is 'build' or 'learn', not '$METHOD'" >&2
        exit 2
        ;;
esac
if [ ! -x "$TENGEN" ]; then
    echo "book-elo: $TENGEN not found; run 'cargo build --release' or set TENGEN" >&2
    exit 2
fi
if [ -n "${PLAYOUTS:-}" ]; then
    EFFORT="--playouts $PLAYOUTS"
else
    EFFORT="--move-secs ${MOVE_SECS:-0.5}"
fi
BUILD_THREADS=""
if [ -n "${THREADS:-}" ]; then BUILD_THREADS="--threads $THREADS"; fi
mkdir -p "$OUT"
BOOK=$OUT/book.table
W=$OUT/weights.toml
"$TENGEN" weights --defaults | sed "s/^book_move_ratio = .*/book_move_ratio = $BOOK_RATIO/" > "$W"
grep -q "^book_move_ratio = $BOOK_RATIO\$" "$W" || {
    echo "book-elo: cannot set book_move_ratio = $BOOK_RATIO in $W" >&2
    exit 2
}
# The build's seconds so far (a rerun adds to them).
SECS_FILE=$OUT/build-seconds
[ -f "$SECS_FILE" ] || echo 0 > "$SECS_FILE"
POINTS=""
k=0
for STAGE in "$@"; do
    k=$((k + 1))
    COPY=$OUT/stage-$k.table
    if [ ! -f "$COPY" ]; then
        case $STAGE:$METHOD in
            *[!0-9]*:*) BUDGET="--time $STAGE" ;;
            *:build) BUDGET="--positions $STAGE" ;;
            *:learn) BUDGET="--games $STAGE" ;;
        esac
        if [ "$METHOD" = build ]; then
            HOW="--position-playouts $BOOK_PLAYOUTS"
        else
            HOW="--game-playouts $GAME_PLAYOUTS"
        fi
        echo "== book-elo: stage $k: book $METHOD $BUDGET"
        START=$(date +%s)
        # shellcheck disable=SC2086
        "$TENGEN" --size "$SIZE" --komi "$KOMI" --table "$BOOK" --table-entries "$ENTRIES" \
            $BUILD_THREADS --quiet book "$METHOD" $BUDGET $HOW
        END=$(date +%s)
        echo $(($(cat "$SECS_FILE") + END - START)) > "$SECS_FILE"
        cp "$BOOK" "$COPY.part"
        mv "$COPY.part" "$COPY"
        cp "$SECS_FILE" "$COPY.seconds"
    fi
    HOURS=$(awk "BEGIN { printf \"%.3f\", $(cat "$COPY.seconds") / 3600 }")
    echo "== book-elo: stage $k ($HOURS h of building): $GAMES games, book against no book"
    # Each side keeps a table of its own through the match: a copy of the
    # stage's book, or a fresh one, so that both learn alike and only the
    # book differs. The stage's book itself stays as it was built.
    PLAY=$OUT/match-$k.book.table
    if [ ! -f "$PLAY" ]; then
        cp "$COPY" "$PLAY.part"
        mv "$PLAY.part" "$PLAY"
    fi
    # shellcheck disable=SC2086
    "$TENGEN" --threads 1 --quiet --seed "$SEED" --weights "$W" $EFFORT \
        --table "$PLAY" --table-entries "$ENTRIES" match \
        --opponent "$TENGEN --threads 1 --quiet --seed $SEED --weights $W $EFFORT --table $OUT/match-$k.opponent.table --table-entries $ENTRIES" \
        --board-size "$SIZE" --game-komi "$KOMI" --games "$GAMES" --out "$OUT/match-$k"
    POINTS="$POINTS $OUT/match-$k=$HOURS"
done
# shellcheck disable=SC2086
"$TENGEN" results $POINTS --y elo --x-label "book build (hours)" \
    --series "book against no book" --title "tengen ${SIZE}x$SIZE: the book's Elo" --plot "$OUT/elo"
