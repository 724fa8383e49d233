#!/usr/bin/env bash
# builder.determinism.<NAME>: building the same input twice gives
# byte-identical .slog2 files: on one thread (-j 1) into one path, on two
# (-j 2) into another, on three (-j 3: lanes, match and write steps all
# at once on fewer cores than that) into a third, and with the threads left
# to the scheduler (--no-pin) into a fourth. The file records only the
# options that shape it, so neither -j, --no-pin nor -o may change a byte. NAME is a folder of the real traces, or
# "synth" for a generated 6-rank trace with 2 worker threads per rank
# (interleaved thread records, needs no shared traces).
#
# usage: test_determinism.sh BUILD PRINT SYNTH TRACES NAME
. "$(dirname "$0")/common.sh"
NAME=$1
if [ "$NAME" = synth ]; then
    "$SYNTH" --quiet --ranks 6 --calls-per-rank 3000 --threads 2 --seed 11 -o "$WORK/in/syn" ||
        die "slog2-synth failed"
    input="$WORK/in/syn.meta"
else
    need_traces
    input=$(trace_meta "$NAME")
fi

out="$WORK/out.slog2"
run_build "$WORK/b1" -q -j 1 "$input" -o "$WORK/first.slog2"
[ "$RC" -eq 0 ] || { cat "$WORK/b1.err" >&2; die "first build exited $RC"; }
# Written as users write it after make(1): -qj2 and -oFILE attached.
run_build "$WORK/b2" -qj2 "$input" "-o$out"
[ "$RC" -eq 0 ] || { cat "$WORK/b2.err" >&2; die "second build exited $RC"; }

run_build "$WORK/b3" -q -j 3 "$input" -o "$WORK/third.slog2"
[ "$RC" -eq 0 ] || { cat "$WORK/b3.err" >&2; die "third build (-j 3) exited $RC"; }
cmp "$WORK/first.slog2" "$WORK/third.slog2" ||
    fail "$NAME: -j 1 and -j 3 differ ($(stat -c %s "$WORK/first.slog2") vs $(stat -c %s "$WORK/third.slog2") bytes)"
# Threads left to the scheduler (a thread per CPU is pinned by default).
run_build "$WORK/b4" -q --no-pin "$input" -o "$WORK/fourth.slog2"
[ "$RC" -eq 0 ] || { cat "$WORK/b4.err" >&2; die "fourth build (--no-pin) exited $RC"; }
cmp "$WORK/first.slog2" "$WORK/fourth.slog2" ||
    fail "$NAME: -j 1 and --no-pin differ ($(stat -c %s "$WORK/first.slog2") vs $(stat -c %s "$WORK/fourth.slog2") bytes)"

if ! cmp "$WORK/first.slog2" "$out"; then
    fail "$NAME: two builds differ ($(stat -c %s "$WORK/first.slog2") vs $(stat -c %s "$out") bytes)"
    cmp -l "$WORK/first.slog2" "$out" >"$WORK/cmp" || true
    head -n 10 "$WORK/cmp" >&2
    print_tool "$WORK/first.slog2" >"$WORK/p1" || true
    print_tool "$out" >"$WORK/p2" || true
    diff "$WORK/p1" "$WORK/p2" >"$WORK/pdiff" || true
    head -n 20 "$WORK/pdiff" >&2
else
    note "identical: $(stat -c %s "$out") bytes"
fi
check_file "$out"
finish
