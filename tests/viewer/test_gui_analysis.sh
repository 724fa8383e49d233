#!/bin/sh
# test_gui_analysis.sh SLOG2_VIEW SLOG2_VIEW_GEN SLOG2_PRINT WORK_DIR [TRACES_DIR] -
# the Communication Matrix and Profile windows (run under xvfb-run) on a
# generated file and, when the traces are there, on lulesh-64r built with
# slog2-build: the CSV each exports for the time window, a selected range
# and the whole trace is what slog2-print --matrix / --profile writes for
# the window the script reports; a cell's tooltip gives slog2-print's
# figures and a click on it selects the first message of that pair; the
# profile's filter keeps the matching categories, its per-timeline table
# sorted by inclusive time puts first the timeline slog2-print
# --by-timeline gives the most, and a click on it brings that timeline's
# row into view. GTK warnings are fatal.
set -u
VIEW=$1 GEN=$2 PRINT=$3 WORK=$4 TRACES=${5:-}
mkdir -p "$WORK"
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/config" XDG_DATA_HOME="$WORK/home/data" \
       XDG_CACHE_HOME="$WORK/home/cache" GTK_A11Y=none NO_AT_BRIDGE=1 G_DEBUG=fatal-warnings \
       GSETTINGS_BACKEND=memory
mkdir -p "$HOME"
fail() { echo "FAIL: $*"; exit 1; }

# check FILE NAME WINDOW SELECTION CATEGORY SENDER RECEIVER
check() {
  file=$1 name=$2 window=$3 selection=$4 cat=$5 snd=$6 rcv=$7
  out="$WORK/$name.out"
  rm -f "$WORK/$name"-*.csv
  SLOG2_VIEW_SCRIPT="matrix; matrix-csv $WORK/$name-m-view.csv; matrix bytes trace; matrix-csv $WORK/$name-m-trace.csv;
   screenshot-analysis matrix $WORK/$name-matrix.png; matrix-cell $snd $rcv;
   window $window; matrix view; matrix-csv $WORK/$name-m-window.csv;
   select $selection; matrix selection mean-time; matrix-csv $WORK/$name-m-sel.csv;
   profile selection; profile-csv $WORK/$name-p-sel.csv; profile view; profile-csv $WORK/$name-p-window.csv;
   profile trace; profile-csv $WORK/$name-p-trace.csv; profile-do filter wAiT; profile-do rows categories;
   profile-do filter; profile-do category $cat; profile-do sort timelines Inclusive desc;
   profile-do rows timelines; profile-do go 0; screenshot-analysis profile $WORK/$name-profile.png; quit" \
    SLOG2_VIEW_TIMING=1 timeout 120 "$VIEW" "$file" > "$out" 2> "$WORK/$name.err"
  rc=$?
  cat "$out"
  cat "$WORK/$name.err" >&2
  [ $rc -eq 0 ] || fail "$name: slog2-view exited with $rc"
  grep -q "^FAIL" "$out" && fail "$name: a script check failed"
  grep -q "^slog2-view: matrix shown [0-9]* ms after asked" "$WORK/$name.err" || fail "$name: no matrix timing line"
  grep -q "^slog2-view: profile shown [0-9]* ms after asked" "$WORK/$name.err" || fail "$name: no profile timing line"

  # every export is slog2-print's CSV of the window the script reports
  n=0
  grep -E "^(matrix|profile) csv " "$out" > "$WORK/$name.csvs"
  while read -r what _ csv _ win; do
    "$PRINT" "$file" --"$what" --window "$win" --format csv > "$csv.want" || fail "slog2-print --$what --window $win"
    cmp "$csv" "$csv.want" || fail "$name: $csv is not slog2-print --$what --window $win"
    n=$((n + 1))
  done < "$WORK/$name.csvs"
  [ "$n" = 7 ] || fail "$name: $n exports compared, want 7"
  # the selection is the one selected, the view the window set
  grep -q "^matrix csv .*-m-sel.csv window ${selection% *}" "$out" || fail "$name: the matrix is not of the selection"
  grep -q "^profile csv .*-p-window.csv window ${window% *}" "$out" || fail "$name: the profile is not of the view"
  # the whole trace is slog2-print's "all"
  "$PRINT" "$file" --matrix --format csv | cmp - "$WORK/$name-m-trace.csv" || fail "$name: whole-trace matrix"
  "$PRINT" "$file" --profile --format csv | cmp - "$WORK/$name-p-trace.csv" || fail "$name: whole-trace profile"

  # the cell's tooltip: slog2-print's message count of the pair (view = the whole trace at first)
  msgs=$(grep "^$snd,$rcv," "$WORK/$name-m-view.csv" | cut -d, -f3)
  [ -n "$msgs" ] || fail "$name: no messages $snd -> $rcv in the test's choice"
  grep -q "^matrix tooltip: $msgs messages" "$out" || fail "$name: the tooltip does not say $msgs messages"
  grep -q "^matrix cell $snd-$snd -> $rcv-$rcv: first message $snd -> $rcv at " "$out" ||
    fail "$name: the click did not find a message $snd -> $rcv"

  # the filter: the categories whose name holds "wait", whatever the case
  want=$(tail -n +2 "$WORK/$name-p-trace.csv" | cut -d, -f1 | grep -ci wait)
  have=$(grep -c "^profile categories: " "$out")
  [ "$want" = "$have" ] || fail "$name: the filter shows $have categories, want $want"
  grep "^profile categories: " "$out" | grep -vqi "^profile categories: [^|]*wait" &&
    fail "$name: the filter shows a category without 'wait'"

  # per timeline, sorted by inclusive time: the first is slog2-print's largest
  "$PRINT" "$file" --profile --by-timeline --format csv > "$WORK/$name-by-timeline.csv"
  top=$(awk -F, -v c="$cat" '$1 == c && ($3 + 0 > best + 0 || best == "") { best = $3 } END { print best }' \
    "$WORK/$name-by-timeline.csv")
  first=$(grep -m1 "^profile timelines: " "$out" | sed 's/^profile timelines: \([0-9]*\) .*/\1/')
  have=$(awk -F, -v c="$cat" -v t="$first" '$1 == c && $9 == t { print $3 }' "$WORK/$name-by-timeline.csv")
  [ -n "$top" ] && [ "$have" = "$top" ] ||
    fail "$name: first timeline $first has $have s of $cat, slog2-print's largest is $top s"
  grep -q "^profile: went to timeline $first$" "$out" || fail "$name: the click did not go to timeline $first"
  for s in "$WORK/$name-matrix.png" "$WORK/$name-profile.png"; do
    [ -s "$s" ] || fail "$name: no screenshot $s"
  done
}

FILE="$WORK/analysis.slog2"
"$GEN" "$FILE" 32 1500 8 || exit 1
check "$FILE" gen "0.2 0.4" "0.25 0.3" MPI_Wait 3 4

if [ -n "$TRACES" ] && [ -d "$TRACES/lulesh-64r" ]; then
  LUL="$WORK/lulesh.slog2"
  "$(dirname "$VIEW")/slog2-build" -q "$TRACES"/lulesh-64r/*.meta -o "$LUL" || fail "slog2-build lulesh-64r"
  check "$LUL" lulesh "14 15" "14.2 14.4" MPI_Wait 3 7
else
  echo "lulesh-64r not found: the real trace is skipped"
fi
exit 0
