#!/usr/bin/env bash
# builder.user-functions: instrumented user-function entry/exit records
# (DUMPI Function_enter/Function_exit, names from the function-address
# section) become nested user-function states. No shared trace has them, so
# slog2-synth --user-functions writes them: solve() around every iteration,
# compute() and exchange_halo() inside it (docs/SYNTH.md).
#
#   - slog2-build exits 0 and --check passes;
#   - the builder's "MPI calls" is what slog2-synth wrote (user-function
#     records are not MPI calls) and states + events = those calls plus one
#     state per user-function call;
#   - exactly the categories solve, compute, exchange_halo are in the
#     "user function" group, each with one state per iteration per rank,
#     on the ranks' main-thread timelines only;
#   - nesting: every compute and exchange_halo state lies inside a solve
#     state of its timeline, the two never overlap each other, and solve
#     states never overlap one another;
#   - every main-thread halo Irecv/Isend (tags 100-103) lies inside an
#     exchange_halo state, and no main-thread MPI call inside compute.
#
# usage: test_user_functions.sh BUILD PRINT SYNTH TRACES RANKS CALLS_PER_RANK THREADS
. "$(dirname "$0")/common.sh"
RANKS=$1 CPR=$2 THREADS=$3

"$SYNTH" --ranks "$RANKS" --calls-per-rank "$CPR" --threads "$THREADS" --user-functions \
    -o "$WORK/in/uf" 2>"$WORK/synth.err" || { cat "$WORK/synth.err" >&2; die "slog2-synth failed"; }
written=$(sed -n -E 's/.*: ([0-9]+) ranks, ([0-9]+) calls.*/\2/p' "$WORK/synth.err")
[ -n "$written" ] || die "cannot read the call count from slog2-synth's report"

out="$WORK/uf.slog2"
build_ok "$WORK/b" "$WORK/in/uf.meta" "$out"
sum_calls=$(summary_field "$WORK/b.out" 'MPI calls ')
[ "$sum_calls" -eq "$written" ] || fail "builder summary 'MPI calls $sum_calls', slog2-synth wrote $written MPI calls"

# The user-function categories, from the category table.
print_tool "$out" | awk '/^categories \(/ {on=1; next} on && NF==0 {on=0}
    on && /user function/ {print $NF}' | sort >"$WORK/ucats"
printf '%s\n' compute exchange_halo solve >"$WORK/ucats_want"
diff -u "$WORK/ucats_want" "$WORK/ucats" >&2 || fail "user-function categories differ (-want +got)"

timeline_map "$out" >"$WORK/tlmap"
# Drawables come in tree order; sort by start time (header row first).
print_tool --window all --format csv "$out" >"$WORK/csv.raw"
{ head -n 1 "$WORK/csv.raw"; tail -n +2 "$WORK/csv.raw" | sort -t, -s -k4,4g; } >"$WORK/csv"
awk -F, -v map="$WORK/tlmap" -v ranks="$RANKS" -v states="$F_STATES" -v events="$F_EVENTS" \
    -v written="$written" '
BEGIN {
    while ((getline l < map) > 0) { split(l, f, " "); thr[f[1]] = f[3] }
    bad = 0
}
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$1 != "state" { next }
$2 == "solve" || $2 == "compute" || $2 == "exchange_halo" {
    n[$2]++
    if (thr[$3] != 0) { print "FAIL: " $2 " state on thread " thr[$3] " (timeline " $3 ")"; bad++ }
    k = $3 SUBSEP $2; c = ++cnt[k]
    s[k, c] = $4 + 0; e[k, c] = $5 + 0
    tls[$3] = 1
    next
}
thr[$3] == 0 && $2 ~ /^MPI_/ {
    m = ++nm[$3]; ms[$3, m] = $4 + 0; me[$3, m] = $5 + 0; mc[$3, m] = $2
    mt[$3, m] = $col["tag"]
}
# i-th interval of (timeline, name) containing [a, b], or 0; the intervals
# of one timeline and name are disjoint and sorted, so a scan finds it.
function inside(t, name, a, b,    i, k) {
    k = t SUBSEP name
    for (i = 1; i <= cnt[k]; i++)
        if (s[k, i] <= a && b <= e[k, i]) return i
    return 0
}
END {
    per = n["solve"] / ranks
    if (n["solve"] == 0) { print "FAIL: no solve states"; bad++ }
    if (n["solve"] % ranks) { print "FAIL: " n["solve"] " solve states, not a multiple of " ranks " ranks"; bad++ }
    if (n["compute"] != n["solve"] || n["exchange_halo"] != n["solve"]) {
        print "FAIL: solve " n["solve"] ", compute " n["compute"] ", exchange_halo " n["exchange_halo"] " (want equal)"; bad++
    }
    nt = 0; for (t in tls) nt++
    if (nt != ranks) { print "FAIL: user-function states on " nt " timelines, want " ranks; bad++ }
    if (states + events != written + n["solve"] + n["compute"] + n["exchange_halo"]) {
        print "FAIL: states+events " states + events " != MPI calls " written " + user-function states"; bad++
    }
    for (t in tls) {
        ks = t SUBSEP "solve"
        if (cnt[ks] != per) { print "FAIL: timeline " t " has " cnt[ks] " solve states, want " per; bad++ }
        for (i = 2; i <= cnt[ks]; i++)
            if (s[ks, i] < e[ks, i - 1]) { print "FAIL: solve states overlap on timeline " t; bad++; break }
        kc = t SUBSEP "compute"; kh = t SUBSEP "exchange_halo"
        for (i = 1; i <= cnt[kc]; i++) {
            if (!inside(t, "solve", s[kc, i], e[kc, i])) { print "FAIL: compute state " i " of timeline " t " not inside a solve"; bad++; break }
            if (s[kh, i] < e[kc, i]) { print "FAIL: compute and exchange_halo overlap on timeline " t; bad++; break }
        }
        for (i = 1; i <= cnt[kh]; i++)
            if (!inside(t, "solve", s[kh, i], e[kh, i])) { print "FAIL: exchange_halo " i " of timeline " t " not inside a solve"; bad++; break }
        halo = 0
        for (m = 1; m <= nm[t]; m++) {
            if ((mc[t, m] == "MPI_Irecv" || mc[t, m] == "MPI_Isend") && mt[t, m] >= 100 && mt[t, m] <= 103) {
                halo++
                if (!inside(t, "exchange_halo", ms[t, m], me[t, m])) {
                    print "FAIL: " mc[t, m] " at " ms[t, m] " on timeline " t " is outside every exchange_halo"; bad++; break
                }
            }
            if (inside(t, "compute", ms[t, m], me[t, m])) {
                print "FAIL: " mc[t, m] " at " ms[t, m] " on timeline " t " is inside compute"; bad++; break
            }
        }
        if (halo == 0) { print "FAIL: no halo messages on timeline " t; bad++ }
    }
    printf "-- %d solve, %d compute, %d exchange_halo states (%d iterations x %d ranks)\n", n["solve"], n["compute"], n["exchange_halo"], per, ranks
    exit bad ? 1 : 0
}' "$WORK/csv" || fail "user-function states (see above)"

finish
