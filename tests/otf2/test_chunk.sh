#!/usr/bin/env bash
# slog2-build reads an OTF2 archive's locations a chunk at a time, the
# chunk a share of a budget over all locations (otf2/otf2_map.c): with one
# location a rank the file must not depend on the chunk. Each archive is
# built with the chunk of the budget, the old fixed chunk and tiny ones
# (SLOG2_OTF2_CHUNK) and the files compared byte for byte; the summary's
# heap peak shows the tiny chunk was taken and holds fewer drawables.
# Usage: test_chunk.sh SYNTH BUILD WORKDIR [SHARED_OTF2_DIR]
set -euo pipefail
SYNTH=$1 BUILD=$2 WORK=$3 SHARED=${4:-}
rm -rf "$WORK"
mkdir -p "$WORK"
# Enough ranks that the budget's share is below the old chunk, enough
# records a location that both chunks span several reads.
"$SYNTH" -q --seed 5 --ranks 24 --size 8M --format otf2 -o "$WORK/g/t"
generated=$WORK/g/t.otf2
archives=("$generated")
if [ -n "$SHARED" ]; then
    for a in "$SHARED/pingpong-2r-scorep/traces.otf2" "$SHARED/lulesh-8r-eztrace/eztrace_log.otf2"; do
        [ -f "$a" ] && archives+=("$a")
    done
fi
heap_peak() { sed -n 's/.*heap peak \([0-9]*\) drawables.*/\1/p' "$1"; }
n=0
for a in "${archives[@]}"; do
    n=$((n + 1))
    for c in budget 16384 7 1; do
        env=()
        [ "$c" = budget ] || env=(SLOG2_OTF2_CHUNK="$c")
        rc=0
        env "${env[@]}" "$BUILD" "$a" -o "$WORK/o$n-$c.slog2" >"$WORK/o$n-$c.out" 2>"$WORK/o$n-$c.err" || rc=$?
        # 0, or 3 (warnings: the EZTrace archive's inferred messages)
        [ "$rc" = 0 ] || [ "$rc" = 3 ] || { echo "FAIL: $a, chunk $c: exit $rc: $(head -c 300 "$WORK/o$n-$c.err")"; exit 1; }
        [ "$c" = budget ] && continue
        cmp "$WORK/o$n-budget.slog2" "$WORK/o$n-$c.slog2" || { echo "FAIL: $a: chunk $c gives another file"; exit 1; }
        cmp "$WORK/o$n-budget.err" "$WORK/o$n-$c.err" || { echo "FAIL: $a: chunk $c warns differently"; exit 1; }
    done
    echo "-- $a: same file with every chunk ($(stat -c %s "$WORK/o$n-budget.slog2") bytes);" \
        "heap peak $(heap_peak "$WORK/o$n-16384.out") drawables with the old chunk," \
        "$(heap_peak "$WORK/o$n-budget.out") with the budget's, $(heap_peak "$WORK/o$n-1.out") with one record"
done
old=$(heap_peak "$WORK/o1-16384.out") budget=$(heap_peak "$WORK/o1-budget.out") one=$(heap_peak "$WORK/o1-1.out")
[ -n "$old" ] && [ -n "$budget" ] && [ -n "$one" ] || { echo "FAIL: no heap peak in the summary"; exit 1; }
[ "$budget" -lt "$old" ] || { echo "FAIL: the budget's chunk holds $budget drawables, the old chunk $old"; exit 1; }
[ "$one" -lt "$budget" ] || { echo "FAIL: one record at a time holds $one drawables, the budget's chunk $budget"; exit 1; }
echo "PASS"
