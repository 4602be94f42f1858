#!/usr/bin/env bash
# Runs the GTP regression scripts in GoGui's own gogui-regress, the tool our
# users run. Every gtp-scripts/*.tst file except the *-errors.tst ones (our
# dialect: checks of "? message" answers, which gogui-regress counts as
# failures) must pass there unchanged; `cargo test` runs all of them.
#
#   GOGUI_SRC=/path/to/gogui gtp-scripts/gogui-regress.sh [ENGINE COMMAND]
#
# GOGUI_SRC is a checkout of https://github.com/Remi-Coulom/gogui (GoGui is
# not packaged); the script compiles it with javac into $GOGUI_SRC/build-regress
# (once). The engine command defaults to the release binary with the
# settings of tests/gtp_scripts.rs. The HTML report goes to $OUT
# (default target/gogui-regress); the exit status is 0 when all tests pass.
set -euo pipefail
cd "$(dirname "$0")"
: "${GOGUI_SRC:?set GOGUI_SRC to a GoGui source checkout}"
OUT=${OUT:-$PWD/../target/gogui-regress}
ENGINE=${1:-"$PWD/../target/release/tengen --seed 1 --threads 1 --playouts 400 --quiet --no-table"}
command -v javac >/dev/null || { echo "gogui-regress.sh: javac is missing (apt-get install default-jdk-headless)" >&2; exit 2; }
CLASSES="$GOGUI_SRC/build-regress"
if [ ! -f "$CLASSES/net/sf/gogui/tools/regress/Main.class" ]; then
    V="$GOGUI_SRC/src/net/sf/gogui/version/Version.java"
    [ -f "$V" ] || sed 's/@VERSION@/1.6.0/' "$V.in" > "$V"
    mkdir -p "$CLASSES"
    find "$GOGUI_SRC/src" -name '*.java' | grep -v -E 'thumbnailer|/mac' > "$CLASSES/files.txt"
    echo "gogui-regress.sh: compiling GoGui ($(wc -l < "$CLASSES/files.txt") files)" >&2
    javac -nowarn -d "$CLASSES" @"$CLASSES/files.txt" 2>&1 | grep -v '^Note:' >&2 || true
fi
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
