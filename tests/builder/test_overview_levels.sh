#!/usr/bin/env bash
# builder.many-ranks.overview: past 4,096 ranks every rank's first records
# are the trace's start alone, far denser than the trace; slog2-build takes
# the density for the overview's preview levels from a deep sample of a few
# ranks instead, and keeps the overview usable for a picture of the trace.
#
#   - the file passes `slog2-print --check`;
#   - the overview's bins on the lowest level that pictures the whole span
#     (slog2-print: "the whole span from level L"; busy stretches may have
#     finer ones) are within a factor of two below the cap (span / 8,192):
#     not narrower, as the start's density made them, and not wider, or a
#     picture of part of the trace could not use it;
#   - a picture of the whole trace folded into rows reads the overview.
#
# usage: test_overview_levels.sh BUILD PRINT SYNTH TRACES RANKS CALLS_PER_RANK
. "$(dirname "$0")/common.sh"
RANKS=$1 CPR=$2

"$SYNTH" -q --ranks "$RANKS" --calls-per-rank "$CPR" --seed 5 -o "$WORK/in/t" >/dev/null ||
    die "slog2-synth failed"
limit=$((RANKS + 256))
RC=0; (ulimit -n "$limit" 2>/dev/null || ulimit -Sn "$limit"; exec "$BUILD" -q "$WORK/in/t.meta" -o "$WORK/o.slog2") \
    2>"$WORK/b.err" || RC=$?
[ "$RC" -eq 0 ] || die "slog2-build: exit $RC: $(head -n1 "$WORK/b.err")"
check_file "$WORK/o.slog2"

print_tool "$WORK/o.slog2" >"$WORK/p.out"
shift_=$(sed -n -E 's/^format:.* ([0-9]+) preview bins, leaf width 2\^([0-9]+) ns$/\2/p' "$WORK/p.out")
bins=$(sed -n -E 's/^format:.* ([0-9]+) preview bins, leaf width.*/\1/p' "$WORK/p.out")
span=$(sed -n -E 's/^span: .*\(([0-9.]+) s\).*/\1/p' "$WORK/p.out")
lowest=$(sed -n -E 's/^blocks: .*overview: .* the whole span from level ([0-9]+).*/\1/p' "$WORK/p.out")
[ -n "$shift_" ] && [ -n "$bins" ] && [ -n "$span" ] && [ -n "$lowest" ] || die "cannot read slog2-print's summary"
bin_ns=$(awk -v s="$shift_" -v l="$lowest" -v b="$bins" 'BEGIN { printf "%.0f", 2 ^ (s + l) / b }')
note "$RANKS ranks: overview of the whole span from level $lowest, bins of $bin_ns ns over a span of $span s"
awk -v w="$bin_ns" -v s="$span" 'BEGIN { exit !(w * 16384 > s * 1e9) }' ||
    fail "the overview's lowest bins ($bin_ns ns) are narrower than span / 16,384"
awk -v w="$bin_ns" -v s="$span" 'BEGIN { exit !(w * 8192 <= s * 1e9) }' ||
    fail "the overview's lowest bins ($bin_ns ns) are wider than span / 8,192"

print_tool "$WORK/o.slog2" --preview all --bins 1920 --rows 1024 --stats >/dev/null 2>"$WORK/g.err" ||
    fail "slog2-print --preview all --rows 1024 failed: $(head -n1 "$WORK/g.err")"
unit=$(sed -n -E 's/.* unit=([0-9]+) .*/\1/p' "$WORK/g.err")
[ -n "$unit" ] && [ "$unit" -gt 1 ] || fail "the whole trace in 1,024 rows did not read the overview (unit=$unit)"
[ "$N_FAIL" -eq 0 ]
