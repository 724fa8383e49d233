#!/usr/bin/env bash
# builder.trace.<NAME>: build one real trace and compare the file with the
# reference decodings (dumpi2ascii output, *.txt.gz next to the .bin files).
#
#   - slog2-build exits 0 (none of the shared traces is damaged);
#   - slog2-print --check passes;
#   - states + events == MPI calls ("entering at" lines), and so does the
#     builder's own "MPI calls" summary line;
#   - per (rank, thread, function) the number of states + events equals
#     the number of calls in the decoding (catches calls put on the wrong
#     timeline or under the wrong category, not just lost ones);
#   - timelines == distinct (rank, thread) pairs of the decoding (ranks,
#     plus the worker threads in testthreads-*);
#   - the summary's counts agree with the file's;
#   - the summary's unmatched and cancelled counts are the ones each
#     trace's program makes (EXPECT_UNMATCHED); for hpcg-4r arrows ==
#     MPI_Send calls (121464);
#   - the arrows in the category "message (inferred)" (receive without a
#     status) are exactly the testthreads-* worker messages, and there are
#     none in traces with statuses.
#
# usage: test_trace.sh BUILD PRINT SYNTH TRACES NAME
. "$(dirname "$0")/common.sh"
need_traces
NAME=$1
[ -d "$TRACES/$NAME" ] || die "no trace folder $TRACES/$NAME"

# "sends receives other cancelled" in the summary, per trace. Every message
# has both ends recorded and resolvable, except in testmpi: its 12 cancel-
# test sends (tag 1 and 3 from each rank) are never received, and the 12
# receives it cancels are cancelled: by their status in testmpi-4r,
# presumed (MPI_Cancel, then a completion with no status) in
# testmpi-wallonly-4r. hpcc cancels its last ANY_SOURCE receive on each
# rank and waits with MPI_STATUS_IGNORE (16, presumed). testthreads-*: the
# workers' ANY_SOURCE receives complete in a Waitall with
# MPI_STATUSES_IGNORE, so their messages are inferred (docs/MATCHING.md).
declare -A EXPECT_UNMATCHED=([sst-dumpi-testtrace]="0 0 0 0" [amg-4r]="0 0 0 0" [hpcg-4r]="0 0 0 0"
    [IMB-4r]="0 0 0 0" [mpich-inactivereq-4r]="0 0 0 0" [mpich-waittestnull-4r]="0 0 0 0"
    [testthreads-serialized-4r]="0 0 0 0" [testthreads-multiple-4r]="0 0 0 0"
    [hpcc-4r]="0 0 0 16" [testmpi-4r]="12 0 0 12" [testmpi-wallonly-4r]="12 0 0 12")
# Arrows whose receive had no status ("message (inferred)"), per trace: every
# worker message of testthreads-* (4 ranks x 4 threads x 3 sources); none
# where every wildcard completion recorded its status.
declare -A EXPECT_INFERRED=([testthreads-serialized-4r]=48 [testthreads-multiple-4r]=48
                            [hpcg-4r]=0 [hpcc-4r]=0 [IMB-4r]=0 [amg-4r]=0 [testmpi-4r]=0)

out="$WORK/$NAME.slog2"
run_build "$WORK/b" -j 2 "$(trace_meta "$NAME")" -o "$out"
cat "$WORK/b.out"
if [ "$RC" -ne 0 ]; then
    cat "$WORK/b.err" >&2
    die "slog2-build exited $RC on $NAME (expected 0)"
fi
[ -s "$out" ] || die "no output file $out"
check_file "$out"

want_calls=$(expected_calls "$NAME")
file_counts "$out"
note "decoding: $want_calls calls; file: $F_STATES states, $F_EVENTS events, $F_ARROWS arrows, $F_TIMELINES timelines"

got=$((F_STATES + F_EVENTS))
[ "$got" -eq "$want_calls" ] ||
    fail "$NAME: states+events = $F_STATES+$F_EVENTS = $got, decoding has $want_calls MPI calls"

sum_calls=$(summary_field "$WORK/b.out" 'MPI calls ')
[ "$sum_calls" -eq "$want_calls" ] ||
    fail "$NAME: builder summary says 'MPI calls $sum_calls', decoding has $want_calls"
sum_states=$(summary_field "$WORK/b.out" 'states ')
sum_events=$(summary_field "$WORK/b.out" 'events ')
sum_arrows=$(summary_field "$WORK/b.out" 'arrows ')
sum_tl=$(summary_field "$WORK/b.out" 'timelines ')
[ "$sum_states $sum_events $sum_arrows $sum_tl" = "$F_STATES $F_EVENTS $F_ARROWS $F_TIMELINES" ] ||
    fail "$NAME: summary (states events arrows timelines) '$sum_states $sum_events $sum_arrows $sum_tl' != file '$F_STATES $F_EVENTS $F_ARROWS $F_TIMELINES'"

# Timelines: one per (rank, thread) that made a call.
expected_per_rank_thread_fn "$NAME" >"$WORK/want"
want_tl=$(awk '{print $1, $2}' "$WORK/want" | sort -u | wc -l)
[ "$F_TIMELINES" -eq "$want_tl" ] ||
    fail "$NAME: $F_TIMELINES timelines, decoding has $want_tl (rank, thread) pairs"
timeline_map "$out" | awk '{print $2, $3}' | sort >"$WORK/tl_got"
awk '{print $1, $2}' "$WORK/want" | sort -u >"$WORK/tl_want"
if ! diff -u "$WORK/tl_want" "$WORK/tl_got" >"$WORK/tl_diff"; then
    fail "$NAME: (rank, thread) of the timelines differ from the decoding (-want +got):"
    head -n 40 "$WORK/tl_diff" >&2
fi

# Per (rank, thread, function).
actual_per_rank_thread_fn "$out" >"$WORK/got"
if ! diff -u "$WORK/want" "$WORK/got" >"$WORK/diff"; then
    fail "$NAME: per (rank thread function count) differs from the decoding (-want +got):"
    head -n 40 "$WORK/diff" >&2
fi

# Matching.
unm=$(grep -E '^ *unmatched:' "$WORK/b.out" || true)
[ -n "$unm" ] || fail "$NAME: no 'unmatched:' line in the summary"
note "$unm"
if [ -n "${EXPECT_UNMATCHED[$NAME]:-}" ]; then
    u=$(echo "$unm" | sed -n -E 's/^ *unmatched: ([0-9]+) sends, ([0-9]+) receives, ([0-9]+) other; ([0-9]+) cancelled.*/\1 \2 \3 \4/p')
    [ "$u" = "${EXPECT_UNMATCHED[$NAME]}" ] ||
        fail "$NAME: expected 'unmatched: sends receives other; cancelled' = ${EXPECT_UNMATCHED[$NAME]}, summary says: $unm"
fi
# Every category once in the legend (categories are made by the sequential
# step the first time a function, or an inferred message, is met).
dups=$(print_tool "$out" | awk '/^categories \(/ { f = 1; next } f && /^ *id / { next } f && NF == 0 { f = 0 }
    f { for (i = 1; i <= 6; i++) $i = ""; sub(/^ +/, ""); sub(/ \[.*$/, ""); print }' | sort | uniq -d)
[ -z "$dups" ] || fail "$NAME: categories listed more than once: $dups"

# Two threads (-j 2, as run above): the summary says how busy each was, how
# long it waited for work, and the CPU time of the two chains of
# sequential steps; and, when the process may use exactly two CPUs, that
# each thread kept to its own.
thr=$(grep -E '^ *threads: ' "$WORK/b.out" || true)
echo "$thr" | grep -qE '^ *threads: 2(, each on its own CPU)?; CPU s: [0-9.]+ [0-9.]+; waited s: [0-9.]+ [0-9.]+; sequential steps: match [0-9.]+ s, write [0-9.]+ s CPU$' ||
    fail "$NAME: no well-formed 'threads:' line in the summary: '$thr'"
# (nproc counts the CPUs this process may use, unless OMP_* say otherwise.)
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
if [ "$cpus" = 2 ]; then
    echo "$thr" | grep -q 'each on its own CPU' || fail "$NAME: 2 threads on 2 CPUs, not pinned: '$thr'"
else
    echo "$thr" | grep -q 'each on its own CPU' && fail "$NAME: 2 threads on $cpus CPUs, pinned: '$thr'"
fi
if [ "$NAME" = hpcg-4r ]; then # big enough for both to show CPU time
    echo "$thr" | sed 's/, each on its own CPU//; s/;//g' | awk '{ if ($5 + 0 <= 0 || $6 + 0 <= 0) exit 1 }' ||
        fail "$NAME: a thread with no CPU time in '$thr'"
fi
if [ -n "${EXPECT_INFERRED[$NAME]:-}" ]; then
    print_tool --window all --format csv "$out" >"$WORK/csv"
    read -r n_arrows n_inferred < <(awk -F, '$1 == "arrow" { n++; if ($2 == "message (inferred)") k++ }
        END { print n + 0, k + 0 }' "$WORK/csv")
    note "$NAME: $n_arrows arrows, $n_inferred inferred"
    [ "$n_inferred" -eq "${EXPECT_INFERRED[$NAME]}" ] ||
        fail "$NAME: $n_inferred inferred arrows, expected ${EXPECT_INFERRED[$NAME]}"
fi
if [ "$NAME" = hpcg-4r ]; then
    # HPCG: every message is MPI_Send -> MPI_Irecv + MPI_Wait on COMM_WORLD.
    n_send=$(awk '$3 == "MPI_Send" {s += $4} END {print s + 0}' "$WORK/want")
    [ "$n_send" -eq 121464 ] || fail "hpcg-4r decoding has $n_send MPI_Send calls, README says 121464"
    [ "$F_ARROWS" -eq "$n_send" ] || fail "hpcg-4r: $F_ARROWS arrows, $n_send MPI_Send calls"
fi
finish
