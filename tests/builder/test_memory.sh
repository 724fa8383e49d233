#!/usr/bin/env bash
# builder.memory.bounded (label slow): slog2-build's peak RSS does not grow
# with the length of the trace. Two synthetic traces with the same ranks
# and seed, one 10x as long as the other, are built under /usr/bin/time;
# the long build's peak RSS must stay within 1.2x of the short one's. Each
# figure is the median of three builds: a build's peak depends a little on
# how far its threads ran ahead of each other, more so on a loaded host.
# Skipped (77) when /usr/bin/time (package "time") is missing.
# With few ranks slog2-build's heap may lie in 2 MiB pages (plan_heap),
# which moves its peak RSS in steps of 2 MiB, as much as the builder's
# memory itself in a build of a few ranks: the builds run with
# transparent huge pages disabled for them (prctl PR_SET_THP_DISABLE,
# through python3; without python3, as they are).
#
# usage: test_memory.sh BUILD PRINT SYNTH TRACES [RANKS [SHORT_CALLS_PER_RANK]]
. "$(dirname "$0")/common.sh"
RANKS=${1:-16}
SHORT=${2:-20000}
LONG=$((SHORT * 10))
TIME=/usr/bin/time
if [ ! -x "$TIME" ] || ! "$TIME" -f %M true >/dev/null 2>&1; then
    echo "SKIP: /usr/bin/time (GNU time, package 'time') not available"
    exit 77
fi

NO_THP=()
if command -v python3 >/dev/null 2>&1; then
    NO_THP=(python3 -c 'import ctypes, os, sys
if ctypes.CDLL(None, use_errno=True).prctl(41, 1, 0, 0, 0) != 0:  # PR_SET_THP_DISABLE
    sys.exit("prctl(PR_SET_THP_DISABLE): " + os.strerror(ctypes.get_errno()))
os.execvp(sys.argv[1], sys.argv[1:])')
else
    note "no python3: built with transparent huge pages as the system has them"
fi

# build_kb DIR CPR: peak RSS in KiB of slog2-build on DIR's RANKS x CPR trace.
build_kb() {
    local dir=$1 cpr=$2
    local rc=0 tpid bpid anon=0 file=0 a f
    "${NO_THP[@]}" "$TIME" -f %M -o "$dir/rss" "$BUILD" -q "$dir/syn.meta" -o "$dir/out.slog2" 2>"$dir/err" &
    tpid=$!
    # Diagnostics only: sample the builder's anonymous and file-backed RSS
    # (mmap'd input pages count in %M as well).
    while kill -0 "$tpid" 2>/dev/null; do
        bpid=$(cat "/proc/$tpid/task/$tpid/children" 2>/dev/null | awk '{print $1}') || true
        if [ -n "$bpid" ]; then
            a=$(awk '/^RssAnon:/ {print $2}' "/proc/$bpid/status" 2>/dev/null) || true
            f=$(awk '/^RssFile:/ {print $2}' "/proc/$bpid/status" 2>/dev/null) || true
            [ -n "$a" ] && [ "$a" -gt "$anon" ] && anon=$a
            [ -n "$f" ] && [ "$f" -gt "$file" ] && file=$f
        fi
        sleep 0.05
    done
    wait "$tpid" || rc=$?
    if [ "$rc" -ne 0 ]; then
        cat "$dir/err" >&2
        die "slog2-build exited $rc on $RANKS x $cpr"
    fi
    check_file "$dir/out.slog2" >&2
    echo "-- $RANKS x $cpr: $(cat "$dir"/*.bin | wc -c) input bytes, $(stat -c %s "$dir/out.slog2") output bytes;" \
        "peak RSS $(tail -n1 "$dir/rss") KiB (sampled: anonymous $anon KiB, file-backed $file KiB)" >&2
    tail -n1 "$dir/rss"
}

# peak_kb CPR: the median of three builds' peak RSS on a RANKS x CPR trace.
peak_kb() {
    local cpr=$1 dir="$WORK/m$1"
    "$SYNTH" --quiet --ranks "$RANKS" --calls-per-rank "$cpr" --seed 5 -o "$dir/syn" ||
        die "slog2-synth failed"
    local runs=()
    for _ in 1 2 3; do runs+=("$(build_kb "$dir" "$cpr")"); done
    printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p
    rm -rf "$dir"
}

start=$SECONDS
short_kb=$(peak_kb "$SHORT")
long_kb=$(peak_kb "$LONG")
echo "peak RSS: ${RANKS} ranks x ${SHORT} calls: ${short_kb} KiB; x ${LONG} calls: ${long_kb} KiB (ratio $(awk -v a="$long_kb" -v b="$short_kb" 'BEGIN {printf "%.2f", a / b}')), $((SECONDS - start)) s"
[ $((long_kb * 5)) -le $((short_kb * 6)) ] ||
    fail "peak RSS grows with trace length: ${long_kb} KiB for 10x the calls vs ${short_kb} KiB (limit 1.2x = $((short_kb * 6 / 5)) KiB)"
finish
