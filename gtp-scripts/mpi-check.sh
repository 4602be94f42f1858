#!/bin/sh
# Checks that a 3-rank MPI tuning run (master + 2 workers) ends with the
# same weights as a local run with the same seed, and prints both times.
# Needs: libopenmpi-dev openmpi-bin libclang-dev (Debian).
# Arguments: [TRAIN] (default: a small generated set in a temporary directory)
set -eu
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
TARGET=${TARGET:-target/mpi}
cargo build --release --features mpi --target-dir "$TARGET"
BIN="$TARGET/release/tengen"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
TRAIN=${1:-}
if [ -z "$TRAIN" ]; then
    TRAIN="$WORK/train"
    "$BIN" --quiet tsumego generate --count 40 --size-range 8..14 --seed 5 --out "$TRAIN"
fi
ARGS="--seed 3 tune --train $TRAIN --generations 3 --population 6"
start=$(date +%s.%N)
# shellcheck disable=SC2086
"$BIN" --quiet $ARGS --workers 1 --out "$WORK/local.toml" > /dev/null
mid=$(date +%s.%N)
# shellcheck disable=SC2086
mpirun --oversubscribe -np 3 "$BIN" --quiet $ARGS --out "$WORK/mpi.toml" > /dev/null
end=$(date +%s.%N)
echo "local, 1 worker: $(awk "BEGIN{print $mid - $start}") s; mpirun -np 3 (2 workers): $(awk "BEGIN{print $end - $mid}") s"
if [ "$(grep -v "^#" "$WORK/local.toml")" = "$(grep -v "^#" "$WORK/mpi.toml")" ]; then
    echo "mpi-check: identical weights"
else
    echo "mpi-check: the weights differ" >&2
    exit 1
fi
