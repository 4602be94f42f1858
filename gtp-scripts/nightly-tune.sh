#!/bin/sh
# Nightly tuning run: evolve the solver's move-ordering weights for a
# bounded number of generations, then print the report's summary. Safe to
# interrupt (Ctrl-C saves a checkpoint) and to rerun: an existing
# checkpoint is resumed, and a finished run is extended by raising
# GENERATIONS.
#
# Cron example (every night at 02:00, log appended):
#   0 2 * * * cd /path/to/tengen && gtp-scripts/nightly-tune.sh 20 >> weights/nightly-tune.log 2>&1
#
# Arguments: [GENERATIONS] [TRAIN] [TEST]
#   (defaults: 15, sets/train, sets/test; missing sets are generated with
#   disjoint seeds, 200 training and 600 test problems)
# Environment: TENGEN (the binary; default target/release/tengen),
#   ALGORITHM (de), GROUP (static+dynamic), POPULATION (16), WORKERS (all
#   cores), SEED (1), OUT (weights/nightly.toml).
set -eu
GENERATIONS=${1:-15}
TRAIN=${2:-sets/train}
TEST=${3:-sets/test}
TENGEN=${TENGEN:-target/release/tengen}
ALGORITHM=${ALGORITHM:-de}
GROUP=${GROUP:-static+dynamic}
POPULATION=${POPULATION:-16}
SEED=${SEED:-1}
OUT=${OUT:-weights/nightly.toml}
WORKERS_OPT=""
if [ -n "${WORKERS:-}" ]; then WORKERS_OPT="--workers $WORKERS"; fi

if [ ! -x "$TENGEN" ]; then
    echo "nightly-tune: $TENGEN not found; run 'cargo build --release' or set TENGEN" >&2
    exit 2
fi
echo "== nightly tune $(date -u +%Y-%m-%dT%H:%M:%SZ): $ALGORITHM on $GROUP, $GENERATIONS generations"
if [ ! -d "$TRAIN" ]; then
    "$TENGEN" --quiet tsumego generate --count 200 --size-range 8..22 --seed 23 --out "$TRAIN"
fi
if [ ! -d "$TEST" ]; then
    "$TENGEN" --quiet tsumego generate --count 600 --size-range 8..24 --seed 11 --out "$TEST"
fi
CHECKPOINT="${OUT%.toml}.checkpoint.json"
RESUME=""
if [ -f "$CHECKPOINT" ]; then RESUME="--resume"; fi
# shellcheck disable=SC2086
"$TENGEN" --seed "$SEED" tune --algorithm "$ALGORITHM" --group "$GROUP" \
    --train "$TRAIN" --test "$TEST" --generations "$GENERATIONS" \
    --population "$POPULATION" $WORKERS_OPT --out "$OUT" $RESUME
echo "== done $(date -u +%Y-%m-%dT%H:%M:%SZ)"
