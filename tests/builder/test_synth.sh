#!/usr/bin/env bash
# builder.synth.*: slog2-synth -> slog2-build -> slog2-print round trip.
# Needs no shared traces.
#
#   - slog2-build exits 0 (so the per-function footer counts slog2-synth
#     wrote agree with the records: a mismatch is a warning, exit 3);
#   - --check passes;
#   - states + events == the calls slog2-synth reports writing ("N ranks,
#     M calls"), which is within 1% of ranks * calls-per-rank;
#   - timelines == ranks * (threads + 1), one per (rank, thread) pair;
#   - arrows > 0, nothing unmatched, and arrows == the send-type calls
#     (the synthetic program sends only messages that are received);
#   - every arrow has end >= start and end_timeline != timeline (the
#     synthetic program shares one clock across ranks and never sends to
#     itself).
#
# usage: test_synth.sh BUILD PRINT SYNTH TRACES RANKS CALLS_PER_RANK SEED THREADS
. "$(dirname "$0")/common.sh"
RANKS=$1 CPR=$2 SEED=$3 THREADS=$4

"$SYNTH" --ranks "$RANKS" --calls-per-rank "$CPR" --seed "$SEED" --threads "$THREADS" \
    -o "$WORK/in/syn" 2>"$WORK/synth.err" || { cat "$WORK/synth.err" >&2; die "slog2-synth failed"; }
cat "$WORK/synth.err"
written=$(sed -n -E 's/.*: ([0-9]+) ranks, ([0-9]+) calls.*/\2/p' "$WORK/synth.err")
[ -n "$written" ] || die "cannot read the call count from slog2-synth's report"
nominal=$((RANKS * CPR))
[ $((written * 100)) -ge $((nominal * 99)) ] && [ $((written * 100)) -le $((nominal * 101)) ] ||
    fail "slog2-synth wrote $written calls, asked for about $nominal"

out="$WORK/syn.slog2"
build_ok "$WORK/b" "$WORK/in/syn.meta" "$out"
got=$((F_STATES + F_EVENTS))
note "synth wrote $written calls; file: $F_STATES states + $F_EVENTS events = $got, $F_ARROWS arrows, $F_TIMELINES timelines"
[ "$got" -eq "$written" ] || fail "states+events = $got, slog2-synth wrote $written calls"
sum_calls=$(summary_field "$WORK/b.out" 'MPI calls ')
[ "$sum_calls" -eq "$written" ] || fail "builder summary 'MPI calls $sum_calls', slog2-synth wrote $written"

want_tl=$((RANKS * (THREADS + 1)))
[ "$F_TIMELINES" -eq "$want_tl" ] || fail "$F_TIMELINES timelines, expected $RANKS ranks x $((THREADS + 1)) threads = $want_tl"
timeline_map "$out" | awk '{print $2, $3}' | sort >"$WORK/tl_got"
for ((r = 0; r < RANKS; r++)); do for ((t = 0; t <= THREADS; t++)); do echo "$r $t"; done; done | sort >"$WORK/tl_want"
diff -u "$WORK/tl_want" "$WORK/tl_got" >&2 || fail "(rank, thread) pairs of the timelines differ (-want +got)"

unm=$(grep -E '^ *unmatched:' "$WORK/b.out" || true)
u=$(echo "$unm" | sed -n -E 's/^ *unmatched: ([0-9]+) sends, ([0-9]+) receives, ([0-9]+) other.*/\1 \2 \3/p')
[ "$u" = "0 0 0" ] || fail "expected nothing unmatched, summary says: '$unm'"
[ "$F_ARROWS" -gt 0 ] || fail "no arrows"

print_tool --window all --format csv "$out" >"$WORK/csv"
awk -F, '
NR == 1 { next }
$1 == "state" && $2 ~ /^MPI_(Send|Isend|Bsend|Ibsend|Ssend|Issend|Rsend|Irsend|Sendrecv)$/ { nsend++ }
$1 == "arrow" {
    n++
    if ($6 == "" || $6 == $3) { bad++; if (bad <= 10) print "bad end_timeline: " $0 > "/dev/stderr" }
    if ($5 + 0 < $4 + 0) { bad++; if (bad <= 10) print "end < start: " $0 > "/dev/stderr" }
}
END { printf "-- %d arrows, %d send calls, %d bad arrows\n", n, nsend, bad; exit (bad > 0) + 2 * (n != nsend) }' "$WORK/csv" || {
    rc=$?
    [ $((rc & 1)) -eq 0 ] || fail "arrows that are not causal / go to their own timeline (above)"
    [ $((rc & 2)) -eq 0 ] || fail "arrows != send-type calls"
}
finish
