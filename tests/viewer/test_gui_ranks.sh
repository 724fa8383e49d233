#!/bin/sh
# test_gui_ranks.sh SLOG2_VIEW SLOG2_VIEW_GEN WORK_DIR - a real window (run
# under xvfb-run) on a file of more timelines than the canvas has pixel
# rows: it opens folded; zoomed in on the rank axis to one rank it shows
# that rank's calls as a row of its own; back in the history and Home (fit)
# fold all of them again. GTK warnings are fatal.
set -u
VIEW=$1 GEN=$2 WORK=$3
mkdir -p "$WORK"
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/config" XDG_DATA_HOME="$WORK/home/data" \
       XDG_CACHE_HOME="$WORK/home/cache" GTK_A11Y=none NO_AT_BRIDGE=1 G_DEBUG=fatal-warnings \
       GSETTINGS_BACKEND=memory
mkdir -p "$HOME"
FILE="$WORK/ranks.slog2"
"$GEN" "$FILE" 2048 20 64 24000000 || exit 1
SHOT="$WORK/ranks-folded.png" SHOT1="$WORK/ranks-one.png"
rm -f "$SHOT" "$SHOT1"
SLOG2_VIEW_SCRIPT="sleep 300; expect-folded yes; stats; screenshot $SHOT;
 ranks 1000 1001; sleep 300; expect-folded no; expect-rows-drawn; stats; screenshot $SHOT1;
 action back; sleep 300; expect-folded yes;
 ranks 500 1100; sleep 300; expect-folded yes; action zoom-fit; sleep 300; expect-folded yes; quit" \
  timeout 120 "$VIEW" "$FILE" > "$WORK/ranks.out" 2> "$WORK/ranks.err"
rc=$?
cat "$WORK/ranks.out"
cat "$WORK/ranks.err" >&2
if [ $rc -ne 0 ]; then echo "slog2-view exited with $rc"; exit 1; fi
grep -q "^FAIL" "$WORK/ranks.out" && exit 1
# all ranks folded at the start, after back, and after fit; one rank alone
[ "$(grep -c '^folded: yes, timelines 0-2048$' "$WORK/ranks.out")" = 3 ] ||
  { echo "not folded over all 2,048 timelines three times"; exit 1; }
grep -q '^folded: no, timelines 1000-1001$' "$WORK/ranks.out" || { echo "rank 1000 alone not shown"; exit 1; }
for s in "$SHOT" "$SHOT1"; do
  [ -s "$s" ] || { echo "no screenshot $s"; exit 1; }
done
exit 0
