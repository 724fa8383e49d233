#!/usr/bin/env bash
# slog2-build writes an OTF2 archive's file on a thread of its own (-j 2,
# otf2/otf2_out.c) or on the reading thread (-j 1): the same bytes either
# way, and a write that fails on the writer's thread ends the build with
# an error naming the file, leaving nothing behind.
# Usage: test_threads.sh SYNTH BUILD WORKDIR [SHARED_OTF2_DIR]
set -euo pipefail
SYNTH=$1 BUILD=$2 WORK=$3 SHARED=${4:-}
rm -rf "$WORK"
mkdir -p "$WORK"
archives=()
for spec in "4 3M 1" "8 6M 2"; do
    set -- $spec
    "$SYNTH" -q --seed "$3" --ranks "$1" --size "$2" --format otf2 -o "$WORK/g$1/t"
    archives+=("$WORK/g$1/t.otf2")
done
if [ -n "$SHARED" ]; then
    for a in "$SHARED/pingpong-2r-scorep/traces.otf2" "$SHARED/lulesh-8r-eztrace/eztrace_log.otf2"; do
        [ -f "$a" ] && archives+=("$a")
    done
fi
n=0
for a in "${archives[@]}"; do
    n=$((n + 1))
    for j in 1 2; do
        rc=0
        "$BUILD" -q -j "$j" "$a" -o "$WORK/o$n-j$j.slog2" 2>"$WORK/o$n-j$j.err" || rc=$?
        # 0, or 3 (warnings: the EZTrace archive's inferred messages)
        [ "$rc" = 0 ] || [ "$rc" = 3 ] || { echo "FAIL: $a -j $j: exit $rc: $(head -c 300 "$WORK/o$n-j$j.err")"; exit 1; }
    done
    cmp "$WORK/o$n-j1.slog2" "$WORK/o$n-j2.slog2" || { echo "FAIL: $a: -j 1 and -j 2 differ"; exit 1; }
    cmp "$WORK/o$n-j1.err" "$WORK/o$n-j2.err" || { echo "FAIL: $a: -j 1 and -j 2 warn differently"; exit 1; }
    echo "-- $a: same file on one and two threads ($(stat -c %s "$WORK/o$n-j1.slog2") bytes)"
done
# A file size limit makes the writer's thread fail mid-way (EFBIG, with
# SIGXFSZ ignored): exit 1, an error naming the output, no file, no
# temporary file.
big=${archives[1]}
for j in 1 2; do
    mkdir -p "$WORK/full$j"
    rc=0
    (
        trap '' XFSZ
        ulimit -f 256
        exec "$BUILD" -q -j "$j" "$big" -o "$WORK/full$j/out.slog2"
    ) 2>"$WORK/full$j.err" || rc=$?
    [ "$rc" = 1 ] || { echo "FAIL: file size limit, -j $j: exit $rc: $(head -c 300 "$WORK/full$j.err")"; exit 1; }
    grep -q "out.slog2" "$WORK/full$j.err" || { echo "FAIL: -j $j: the error does not name the output: $(cat "$WORK/full$j.err")"; exit 1; }
    left=$(ls -A "$WORK/full$j")
    [ -z "$left" ] || { echo "FAIL: -j $j: left behind after a failed write: $left"; exit 1; }
    echo "-- file size limit, -j $j: $(head -c 200 "$WORK/full$j.err")"
done
echo "PASS"
