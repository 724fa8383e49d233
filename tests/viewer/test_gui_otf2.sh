#!/bin/sh
# test_gui_otf2.sh SLOG2_VIEW WORK_DIR OTF2_DIR [SHOT] - a real window (run
# under xvfb-run): slog2-view given an OTF2 archive's anchor file converts
# it with slog2-build in the background (found next to slog2-view in the
# build tree; the archive told by its content, docs/OTF2.md), caches the
# .slog2 next to the archive and shows it. SHOT: where the screenshot goes
# (screenshots/otf2-*.png is made so). Skips (77) without the archives.
set -u
VIEW=$1 WORK=$2 SRC=$3/lulesh-8r-eztrace SHOT=${4:-$2/otf2.png}
[ -f "$SRC/eztrace_log.otf2" ] || { echo "SKIP: $SRC not found"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK/archive"
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/config" XDG_DATA_HOME="$WORK/home/data" \
       XDG_CACHE_HOME="$WORK/home/cache" GTK_A11Y=none NO_AT_BRIDGE=1 G_DEBUG=fatal-warnings \
       GSETTINGS_BACKEND=memory
mkdir -p "$HOME"
cp -r "$SRC"/eztrace_log.otf2 "$SRC"/eztrace_log.def "$SRC"/eztrace_log "$WORK/archive/"
chmod -R u+w "$WORK/archive"
rm -f "$SHOT"
SLOG2_VIEW_SCRIPT="sleep 3000; stats; expect-visible-nodes; legend; screenshot $SHOT;
 action show-info; expect-info source.otf2 eztrace_log.otf2; expect-info Timelines 8; quit" \
  timeout 120 "$VIEW" "$WORK/archive/eztrace_log.otf2" > "$WORK/gui.out" 2> "$WORK/gui.err"
rc=$?
cat "$WORK/gui.out"
cat "$WORK/gui.err" >&2
[ $rc -eq 0 ] || { echo "slog2-view exited with $rc"; exit 1; }
grep -q "^FAIL" "$WORK/gui.out" && exit 1
[ -s "$WORK/archive/eztrace_log.slog2" ] || { echo "no cached eztrace_log.slog2 next to the archive"; exit 1; }
grep -q "^frame window" "$WORK/gui.out" || { echo "no frame drawn after the conversion"; exit 1; }
[ -s "$SHOT" ] || { echo "no screenshot"; exit 1; }
size=$(wc -c < "$SHOT")
[ "$size" -gt 20000 ] || { echo "screenshot suspiciously small ($size bytes)"; exit 1; }
# A second start finds the conversion cached (not older than the archive).
before=$(stat -c %Y "$WORK/archive/eztrace_log.slog2")
SLOG2_VIEW_SCRIPT="sleep 500; stats; quit" timeout 60 "$VIEW" "$WORK/archive/eztrace_log.otf2" \
  > "$WORK/gui2.out" 2> "$WORK/gui2.err" || { cat "$WORK/gui2.err" >&2; echo "second start failed"; exit 1; }
[ "$(stat -c %Y "$WORK/archive/eztrace_log.slog2")" = "$before" ] || { echo "converted again"; exit 1; }
echo "ok: OTF2 archive converted, cached and shown"
