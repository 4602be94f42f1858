#!/bin/sh
# Nightly tuning run: evolve the solver's move-ordering weights for a
# bounded number of generations, then gate the result against the current
# weights on the run's test list (`tengen weights --gate`, every speed
# level) and, when it passes, promote it into a staging file (never over
# the defaults). Writes a dated summary (the report's, with its plots in
# the report folder, and the gate's). Safe to interrupt (Ctrl-C saves a
# checkpoint) and to rerun: an existing checkpoint is resumed, and a
# finished run is extended by raising GENERATIONS.
#
# Cron example (every night at 02:00, log appended):
#   0 2 * * * cd /path/to/tengen && gtp-scripts/nightly-tune.sh 20 >> weights/nightly-tune.log 2>&1
#
# Arguments: [GENERATIONS] [TRAIN] [TEST]
#   (defaults: 15, sets/train, sets/test; missing sets are generated with
#   disjoint seeds, 200 training and 600 test problems)
# Environment: TENGEN (the binary; default target/release/tengen),
#   ALGORITHM (de), GROUP (static+dynamic), POPULATION (16), WORKERS (all
#   cores), SEED (1), OUT (weights/nightly.toml), HOURS (the time bound,
#   default 8, for the tuning and the gate together: the run is then
#   interrupted as by Ctrl-C, its checkpoint saved, and the next night
#   resumes it; a gate cut short promotes nothing and runs again next
#   night), STAGING (weights/staging.toml: where a set that passes the
#   gate goes), GATE_LEVELS (1,2,3,4,5), GATE_MAX_NODES (2000000).
#   GOTOOLS=DIR: train and test on a fetched copy of GoTools' volumes 1-3
#   in DIR (only lv1.*, lv2.* and lv3.* are read; volumes 4-6 are held
#   out): 128 training problems spread over the levels (--sample) and
#   TEST_SAMPLE (default 2500) test problems; TRAIN and TEST are ignored.
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
HOURS=${HOURS:-8}
TEST_SAMPLE=${TEST_SAMPLE:-2500}
STAGING=${STAGING:-weights/staging.toml}
GATE_LEVELS=${GATE_LEVELS:-1,2,3,4,5}
GATE_MAX_NODES=${GATE_MAX_NODES:-2000000}
START=$(date +%s)
BOUND_SECS=$(awk "BEGIN { print int($HOURS * 3600) }")
# Seconds left of the HOURS bound (at least 1).
left() { l=$((START + BOUND_SECS - $(date +%s))); [ "$l" -gt 0 ] || l=1; echo "$l"; }
WORKERS_OPT=""
if [ -n "${WORKERS:-}" ]; then WORKERS_OPT="--workers $WORKERS"; fi

if [ ! -x "$TENGEN" ]; then
    echo "nightly-tune: $TENGEN not found; run 'cargo build --release' or set TENGEN" >&2
    exit 2
fi
echo "== nightly tune $(date -u +%Y-%m-%dT%H:%M:%SZ): $ALGORITHM on $GROUP, $GENERATIONS generations"
SAMPLE_OPTS=""
if [ -n "${GOTOOLS:-}" ]; then
    # Volumes 1-3 only, through a folder of links.
    STAGE="${OUT%.toml}-gotools"
    mkdir -p "$STAGE"
    n=0
    for f in "$GOTOOLS"/lv1.* "$GOTOOLS"/lv2.* "$GOTOOLS"/lv3.*; do
        [ -f "$f" ] || continue
        ln -sf "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" "$STAGE/$(basename "$f")"
        n=$((n + 1))
    done
    if [ "$n" -eq 0 ]; then
        echo "nightly-tune: no lv1.*, lv2.* or lv3.* files in GOTOOLS=$GOTOOLS" >&2
        exit 2
    fi
    TRAIN="$STAGE"
    TEST="$STAGE"
    PROBLEMS="$STAGE"
    SAMPLE_OPTS="--sample 128 --test-sample $TEST_SAMPLE"
    echo "== GoTools volumes 1-3: $n files from $GOTOOLS"
else
    if [ ! -d "$TRAIN" ]; then
        "$TENGEN" --quiet tsumego generate --count 200 --size-range 8..22 --seed 23 --out "$TRAIN"
    fi
    if [ ! -d "$TEST" ]; then
        "$TENGEN" --quiet tsumego generate --count 600 --size-range 8..24 --seed 11 --out "$TEST"
    fi
fi
CHECKPOINT="${OUT%.toml}.checkpoint.json"
RESUME=""
if [ -f "$CHECKPOINT" ]; then RESUME="--resume"; fi
BOUND=""
if command -v timeout >/dev/null 2>&1; then BOUND="timeout -s INT -k 10m $(left)"; fi
status=0
# shellcheck disable=SC2086
$BOUND "$TENGEN" --seed "$SEED" tune --algorithm "$ALGORITHM" --group "$GROUP" \
    --train "$TRAIN" --test "$TEST" $SAMPLE_OPTS --generations "$GENERATIONS" \
    --population "$POPULATION" $WORKERS_OPT --out "$OUT" $RESUME || status=$?
if [ "$status" -eq 130 ] || [ "$status" -eq 124 ]; then
    if [ -f "$CHECKPOINT" ]; then
        echo "== stopped at the ${HOURS} h bound; the checkpoint $CHECKPOINT resumes it next run"
        exit 0
    fi
    echo "== stopped at the ${HOURS} h bound before the first checkpoint (the untrained reference and the first generation must fit in it): raise HOURS" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "== tune failed (status $status)"
    exit "$status"
fi
REPORT="${OUT%.toml}-report"
SUMMARY="${OUT%.toml}-$(date -u +%Y-%m-%d).md"
if [ -f "$REPORT/summary.md" ]; then cp "$REPORT/summary.md" "$SUMMARY"; else : > "$SUMMARY"; fi
if [ ! -f "$REPORT/test.lst" ]; then
    echo "== no test list in $REPORT: nothing to gate"
    exit 0
fi
if command -v timeout >/dev/null 2>&1; then BOUND="timeout -s INT -k 1m $(left)"; fi
echo "== gate $(date -u +%Y-%m-%dT%H:%M:%SZ): $OUT against the current weights, levels $GATE_LEVELS"
gate=0
# shellcheck disable=SC2086
$BOUND "$TENGEN" weights --gate "$OUT" --test "$REPORT/test.lst" --train "$REPORT/train.lst" \
    --problems "${PROBLEMS:-$TEST}" --levels "$GATE_LEVELS" --max-nodes "$GATE_MAX_NODES" \
    --promote "$STAGING" --json "$REPORT/gate.json" > "$REPORT/gate.txt" || gate=$?
cat "$REPORT/gate.txt"
{ echo; echo "## Gate ($(date -u +%Y-%m-%d))"; echo; echo '```'; cat "$REPORT/gate.txt"; echo '```'; } >> "$SUMMARY"
case "$gate" in
    0) echo "== gate passed: promoted into $STAGING (the defaults change only by hand)" ;;
    1) echo "== gate failed: nothing promoted" ;;
    124|130) echo "== gate cut short at the ${HOURS} h bound: nothing promoted; it runs again next night"
        echo "(cut short at the time bound)" >> "$SUMMARY" ;;
    *) echo "== gate error (status $gate)"; exit "$gate" ;;
esac
echo "== done $(date -u +%Y-%m-%dT%H:%M:%SZ); summary $SUMMARY"
exit 0
