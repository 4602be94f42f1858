#!/usr/bin/env bash
# Compiles GoGui's tools (gogui-regress, gogui-twogtp, ...) from a source
# checkout with javac, once, and prints the class directory. GoGui is not
# packaged; get the source with `git clone https://github.com/Remi-Coulom/gogui`.
#
#   CLASSES=$(GOGUI_SRC=/path/to/gogui gtp-scripts/gogui-build.sh)
#
# The classes go to $GOGUI_SRC/build-regress. Progress and errors go to stderr.
set -euo pipefail
: "${GOGUI_SRC:?set GOGUI_SRC to a GoGui source checkout (git clone https://github.com/Remi-Coulom/gogui)}"
[ -d "$GOGUI_SRC/src/net/sf/gogui" ] || { echo "gogui-build.sh: $GOGUI_SRC is not a GoGui checkout (no src/net/sf/gogui)" >&2; exit 2; }
command -v javac >/dev/null || { echo "gogui-build.sh: javac is missing (apt-get install default-jdk-headless)" >&2; exit 2; }
CLASSES="$GOGUI_SRC/build-regress"
if [ ! -f "$CLASSES/net/sf/gogui/tools/regress/Main.class" ] || [ ! -f "$CLASSES/net/sf/gogui/tools/twogtp/Main.class" ]; then
    V="$GOGUI_SRC/src/net/sf/gogui/version/Version.java"
    [ -f "$V" ] || sed 's/@VERSION@/1.6.0/' "$V.in" > "$V"
    mkdir -p "$CLASSES"
    find "$GOGUI_SRC/src" -name '*.java' | grep -v -E 'thumbnailer|/mac' > "$CLASSES/files.txt"
    echo "gogui-build.sh: compiling GoGui ($(wc -l < "$CLASSES/files.txt") files)" >&2
    javac -nowarn -d "$CLASSES" @"$CLASSES/files.txt" 2>&1 | grep -v '^Note:' >&2 || true
fi
[ -f "$CLASSES/net/sf/gogui/tools/twogtp/Main.class" ] || { echo "gogui-build.sh: compiling GoGui failed; see the javac messages above" >&2; exit 1; }
echo "$CLASSES"
