#!/usr/bin/env bash
# Runs the GTP regression scripts in GoGui's own gogui-regress, the tool our
# users run. Every gtp-scripts/*.tst file except the *-errors.tst ones (our
# dialect: checks of "? message" answers, which gogui-regress counts as
# failures) must pass there unchanged; `cargo test` runs all of them.
#
#   GOGUI_SRC=/path/to/gogui gtp-scripts/gogui-regress.sh [ENGINE COMMAND]
#
# GOGUI_SRC is a checkout of https://github.com/Remi-Coulom/gogui (GoGui is
# not packaged); gogui-build.sh compiles it with javac into
# $GOGUI_SRC/build-regress (once). The engine command defaults to the release binary with the
# settings of tests/gtp_scripts.rs. The HTML report goes to $OUT
# (default target/gogui-regress); the exit status is 0 when all tests pass.
set -euo pipefail
cd "$(dirname "$0")"
: "${GOGUI_SRC:?set GOGUI_SRC to a GoGui source checkout}"
OUT=${OUT:-$PWD/../target/gogui-regress}
ENGINE=${1:-"$PWD/../target/release/tengen --seed 1 --threads 1 --playouts 400 --quiet --no-table"}
CLASSES=$(GOGUI_SRC="$GOGUI_SRC" ./gogui-build.sh)
if [ -z "${1:-}" ] && [ ! -x ../target/release/tengen ]; then
    (cd .. && cargo build --release)
fi
mkdir -p "$OUT"
mapfile -t TESTS < <(ls ./*.tst | grep -v -- '-errors\.tst$')
status=0
java -cp "$CLASSES" net.sf.gogui.tools.regress.Main -output "$OUT" "$ENGINE" "${TESTS[@]}" || status=$?
python3 - "$OUT/index.html" <<'PY' || true
import html, re, sys
t = re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read())
m = re.search(r'Total\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)', html.unescape(t))
if m:
    print("gogui-regress: %s tests, %s unexpected FAIL, %s pass, %s errors" % (m.group(1), m.group(2), m.group(5), m.group(6)))
PY
echo "report: $OUT/index.html"
exit $status
