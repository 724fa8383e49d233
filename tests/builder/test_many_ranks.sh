#!/usr/bin/env bash
# builder.many-ranks: a generated trace of thousands of ranks, more than
# the process may open files.
#
#   - built under `ulimit -n 64` (each rank's file opened for each read of
#     its window), the output has the same bytes as built with every file
#     open (-j 1 and -j 2: the descriptors do not change the order);
#   - the file passes `slog2-print --check`, and holds the drawables the
#     build's summary counted.
#
# usage: test_many_ranks.sh BUILD PRINT SYNTH TRACES RANKS CALLS_PER_RANK
. "$(dirname "$0")/common.sh"
RANKS=$1 CPR=$2

"$SYNTH" -q --ranks "$RANKS" --calls-per-rank "$CPR" --seed 5 -o "$WORK/in/t" >/dev/null ||
    die "slog2-synth failed"
out="$WORK/out.slog2" # the same -o every time: the file records its command line

limit=$((RANKS + 256))
RC=0; (ulimit -n "$limit" 2>/dev/null || ulimit -Sn "$limit"; exec "$BUILD" -j 2 "$WORK/in/t.meta" -o "$out") \
    >"$WORK/b.out" 2>"$WORK/b.err" || RC=$?
[ "$RC" -eq 0 ] || die "$RANKS ranks, every file open: exit $RC: $(head -n1 "$WORK/b.err")"
mv "$out" "$WORK/open.slog2"
for j in 1 2; do
    RC=0; (ulimit -n 64 && exec "$BUILD" -q -j "$j" "$WORK/in/t.meta" -o "$out") 2>"$WORK/l.err" || RC=$?
    [ "$RC" -eq 0 ] || die "$RANKS ranks under ulimit -n 64, -j $j: exit $RC: $(head -n1 "$WORK/l.err")"
    cmp -s "$WORK/open.slog2" "$out" || fail "$RANKS ranks: ulimit -n 64 and -j $j gave other bytes"
done

print_tool --check "$WORK/open.slog2" >"$WORK/check.out" 2>&1 || { cat "$WORK/check.out" >&2; fail "--check failed"; }
print_tool "$WORK/open.slog2" >"$WORK/p.out"
got=$(sed -n -E 's/^drawables: +([0-9]+).*/\1/p' "$WORK/p.out")
tl=$(sed -n -E 's/^timelines \(([0-9]+)\).*/\1/p' "$WORK/p.out")
want=$(sed -n -E 's/.*states ([0-9]+), events ([0-9]+), arrows ([0-9]+) matched.*/\1 \2 \3/p' "$WORK/b.out" |
       awk '{print $1 + $2 + $3}')
note "$RANKS ranks: $got drawables on $tl timelines, the build counted $want"
[ -n "$got" ] && [ "$got" = "$want" ] || fail "the file holds $got drawables, the build counted $want"
[ "$tl" = "$RANKS" ] || fail "$tl timelines, expected $RANKS"
[ "$N_FAIL" -eq 0 ]
