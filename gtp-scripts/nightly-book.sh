#!/bin/sh
# Nightly book run: deepen the 9x9 opening book for a bounded time, then
# print a summary. Safe to interrupt (Ctrl-C / SIGTERM stop cleanly) and to
# rerun: the table is the book, so each run continues the last one.
#
# Cron example (every night at 01:30, 6 hours, log appended):
#   30 1 * * * cd /path/to/tengen && gtp-scripts/nightly-book.sh 6h >> book/nightly.log 2>&1
#
# Arguments: [DURATION] [TABLE]   (defaults: 1h, book/9x9.table)
# Environment: TENGEN (the binary; default target/release/tengen),
#              SIZE (9), KOMI (7), THREADS (all cores), PLAYOUTS (20000),
#              METHOD (build: deep searches of positions; learn: self-play
#              games whose results choose the moves, docs/table.md),
#              GAME_PLAYOUTS (1000, learn only).
set -eu
DURATION=${1:-1h}
TABLE=${2:-book/9x9.table}
TENGEN=${TENGEN:-target/release/tengen}
SIZE=${SIZE:-9}
KOMI=${KOMI:-7}
PLAYOUTS=${PLAYOUTS:-20000}
METHOD=${METHOD:-build}
GAME_PLAYOUTS=${GAME_PLAYOUTS:-1000}
THREADS_OPT=""
if [ -n "${THREADS:-}" ]; then THREADS_OPT="--threads $THREADS"; fi

if [ ! -x "$TENGEN" ]; then
    echo "nightly-book: $TENGEN not found; run 'cargo build --release' or set TENGEN" >&2
    exit 2
fi
echo "== nightly book $(date -u +%Y-%m-%dT%H:%M:%SZ): $TABLE, ${SIZE}x$SIZE komi $KOMI, $DURATION"
case $METHOD in
build)
    # shellcheck disable=SC2086
    "$TENGEN" --size "$SIZE" --komi "$KOMI" --table "$TABLE" $THREADS_OPT \
        book build --time "$DURATION" --position-playouts "$PLAYOUTS" ;;
learn)
    # shellcheck disable=SC2086
    "$TENGEN" --size "$SIZE" --komi "$KOMI" --table "$TABLE" $THREADS_OPT \
        book learn --time "$DURATION" --game-playouts "$GAME_PLAYOUTS" ;;
*)
    echo "nightly-book: METHOD is 'build' or 'learn', not '$METHOD'" >&2
    exit 2 ;;
esac
"$TENGEN" --table "$TABLE" table verify
"$TENGEN" --table "$TABLE" table info | sed -n '1,9p'
"$TENGEN" --size "$SIZE" --komi "$KOMI" --table "$TABLE" book show --lines 3 --depth 10
echo "== done $(date -u +%Y-%m-%dT%H:%M:%SZ)"
