#!/usr/bin/env bash
# builder.clocks.*: ranks on several hosts, each recording its own boot
# clock (slog2-synth --hosts), put on one time axis (clocks.h).
#
# The same seed with and without --hosts simulates the same program; only
# the recorded clocks and host names differ. So, against the one-host
# build:
#   - default (--align-clocks auto): every state of a host's ranks moves by
#     one constant, the same for all its ranks and all their states; how
#     far that is from host 0's constant is how wrong the host's shift is,
#     and it must be within the bound time.clock_offsets_ns gives for the
#     host (the collectives' interval); arrows and states are as many; at
#     most 1 % of the arrows end before they start (the generator's
#     program is causal: none in the one-host build; with MPI_Init exits
#     alone a third did); the summary names the hosts;
#   - --align-clocks never: the hosts stay hours apart (span > 1000 s);
#   - -j 1 and -j 2 give the same bytes;
#   - a rank whose file was cut before its first record (no header, so no
#     hostname, no MPI_Init) is warned about by rank, exit 3;
#   - a bad --align-clocks value is a usage error;
#   - a one-host trace gets no clock line and no clock annotation, also
#     when one of its ranks was cut before its header (hostname).
#
# usage: test_clocks.sh BUILD PRINT SYNTH TRACES RANKS CALLS_PER_RANK SEED HOSTS
. "$(dirname "$0")/common.sh"
RANKS=$1 CPR=$2 SEED=$3 HOSTS=$4

synth() { # DIR ARGS...: a trace DIR/syn.meta
    local dir=$1; shift
    "$SYNTH" -q --ranks "$RANKS" --calls-per-rank "$CPR" --seed "$SEED" "$@" -o "$dir/syn" 2>"$WORK/synth.err" ||
        { cat "$WORK/synth.err" >&2; die "slog2-synth $* failed"; }
}
synth "$WORK/one"
synth "$WORK/many" --hosts "$HOSTS"

# host_of R: the generator's block placement (docs/SYNTH.md).
host_of() { echo $(($1 * HOSTS / RANKS)); }

# --- one host: as recorded, and nothing said about clocks
build_ok "$WORK/b1" "$WORK/one/syn.meta" "$WORK/one.slog2"
! grep -q '^  clocks:' "$WORK/b1.out" || fail "one host: the summary has a clock line"
print_tool "$WORK/one.slog2" >"$WORK/p1"
! grep -q 'time.clock_align' "$WORK/p1" || fail "one host: a time.clock_align annotation"
one_states=$F_STATES one_arrows=$F_ARROWS

# --- several hosts, aligned (the default)
build_ok "$WORK/b2" "$WORK/many/syn.meta" "$WORK/many.slog2"
grep -q -E "^  clocks: $HOSTS hosts, aligned by MPI_Init and collectives" "$WORK/b2.out" || fail "no 'clocks: $HOSTS hosts, aligned' in the summary"
[ "$F_STATES" -eq "$one_states" ] || fail "$F_STATES states, the one-host build has $one_states"
[ "$F_ARROWS" -eq "$one_arrows" ] || fail "$F_ARROWS arrows, the one-host build has $one_arrows"
print_tool "$WORK/many.slog2" >"$WORK/p2"
offsets=$(sed -n 's/^ *time.clock_offsets_ns = //p' "$WORK/p2")
note "offsets: $offsets"
# bound H: the error bound (ns) the file gives for synth-node-H, 0 for the
# reference host.
: >"$WORK/bounds"
echo "$offsets" | tr ';' '\n' >"$WORK/offsets"
for ((h = 0; h < HOSTS; h++)); do
    e=$(sed -n -E "s/^ *synth-node-$h=[-+][0-9]+ \((reference|collectives, within ([0-9]+) ns)\)\$/\2/p" "$WORK/offsets")
    if ! grep -q -E "^ *synth-node-$h=[-+][0-9]+ \((reference|collectives, within [0-9]+ ns)\)\$" "$WORK/offsets"; then
        fail "synth-node-$h: no shift by the reference or the collectives in '$offsets'"
    fi
    echo "$h ${e:-0}" >>"$WORK/bounds"
done

# States per timeline, in time order: "timeline start end category".
states() {
    print_tool --window all --format csv "$1" |
        awk -F, 'NR > 1 && $1 == "state" { print $3, $4, $5, $2 }' | sort -k1,1n -k2,2g -k3,3g -k4,4
}
states "$WORK/one.slog2" >"$WORK/s1"
states "$WORK/many.slog2" >"$WORK/s2"
[ "$(wc -l <"$WORK/s1")" -eq "$(wc -l <"$WORK/s2")" ] || fail "state lists differ in length"
paste -d' ' "$WORK/s1" "$WORK/s2" | awk -v H="$HOSTS" -v P="$RANKS" -v bounds="$WORK/bounds" '
BEGIN { while ((getline l < bounds) > 0) { split(l, f, " "); bound[f[1]] = f[2] } }
# one: $1 tl, $2 start, $3 end, $4 cat; many: $5 tl, $6 start, $7 end, $8 cat
{
    if ($1 != $5 || $4 != $8) { bad++; if (bad < 5) print "different state: " $0 > "/dev/stderr"; next }
    h = int($1 * H / P)
    ds = sprintf("%.0f", ($6 - $2) * 1e9); de = sprintf("%.0f", ($7 - $3) * 1e9)
    if (!(h in shift)) shift[h] = ds
    if (ds != shift[h] || de != shift[h]) {
        bad++
        if (bad < 5) printf "host %d: shift %s/%s ns, its first state moved %s ns: %s\n", h, ds, de, shift[h], $0 > "/dev/stderr"
    }
}
END {
    for (h = 0; h < H; h++) {
        if (!(h in shift)) { print "host " h ": no states" > "/dev/stderr"; bad++; continue }
        rel = shift[h] - shift[0]
        printf "-- host %d: moved %s ns against the one-host build, %+.0f ns against host 0 (bound %d ns)\n", h, shift[h], rel, bound[h]
        if (rel > bound[h] || -rel > bound[h]) { print "host " h ": off by more than its bound" > "/dev/stderr"; bad++ }
    }
    exit bad > 0
}' || fail "aligned hosts are not the one-host timeline shifted per host within their bounds (above)"

print_tool --window all --format csv "$WORK/many.slog2" |
    awk -F, '$1 == "arrow" { n++; if ($5 + 0 < $4 + 0) back++ }
             END { printf "-- %d arrows, %d end before they start\n", n, back; exit !(back * 100 <= n) }' ||
    fail "more than 1 % of the arrows end before they start"

# --- the same with the writer on this thread: same bytes
run_build "$WORK/b3" -q -j 1 "$WORK/many/syn.meta" -o "$WORK/many-j1.slog2"
[ "$RC" -eq 0 ] || fail "-j 1: exit $RC"
cmp -s "$WORK/many.slog2" "$WORK/many-j1.slog2" || fail "-j 1 and -j 2 differ"

# --- never: hours apart
run_build "$WORK/b4" --align-clocks never "$WORK/many/syn.meta" -o "$WORK/raw.slog2"
[ "$RC" -eq 0 ] || { cat "$WORK/b4.err" >&2; fail "--align-clocks never: exit $RC"; }
grep -q -E "^  clocks: $HOSTS hosts, times as recorded" "$WORK/b4.out" || fail "never: no 'times as recorded' line"
span=$(sed -n -E 's/^ *span ([0-9.]+) s.*/\1/p' "$WORK/b4.out")
awk -v s="$span" 'BEGIN { exit !(s > 1000) }' || fail "never: span $span s, the hosts' clocks are hours apart"
note "never: span $span s"

# --- a rank cut before its first record: no hostname, no MPI_Init
mkdir -p "$WORK/cut"
cp "$WORK/many"/* "$WORK/cut/"
last=$(printf '%04d' $((RANKS - 1)))
head -c 24 "$WORK/many/syn-$last.bin" >"$WORK/cut/syn-$last.bin"
run_build "$WORK/b5" "$WORK/cut/syn.meta" -o "$WORK/cut.slog2"
[ "$RC" -eq 3 ] || { cat "$WORK/b5.err" >&2; fail "a cut rank: exit $RC, expected 3"; }
grep -q -E "rank $((RANKS - 1)) \(no hostname in its header\): no MPI_Init" "$WORK/b5.err" ||
    { cat "$WORK/b5.err" >&2; fail "no warning about rank $((RANKS - 1))'s clock"; }
check_file "$WORK/cut.slog2"

# --- one host with a rank killed before its header (hostname) was
# written: still one host, nothing said, nothing moved
mkdir -p "$WORK/onecut"
cp "$WORK/one"/* "$WORK/onecut/"
head -c 24 "$WORK/one/syn-$last.bin" >"$WORK/onecut/syn-$last.bin"
run_build "$WORK/b7" "$WORK/onecut/syn.meta" -o "$WORK/onecut.slog2"
[ "$RC" -eq 3 ] || { cat "$WORK/b7.err" >&2; fail "one host, a cut rank: exit $RC, expected 3"; }
! grep -q '^  clocks:' "$WORK/b7.out" || fail "one host, a cut rank: a clock line: $(grep clocks: "$WORK/b7.out")"
! grep -q -i 'clock' "$WORK/b7.err" || fail "one host, a cut rank: a clock warning: $(grep -i clock "$WORK/b7.err")"
print_tool "$WORK/onecut.slog2" >"$WORK/p7"
! grep -q 'time.clock_align' "$WORK/p7" || fail "one host, a cut rank: a time.clock_align annotation"

# --- usage
run_build "$WORK/b6" --align-clocks sometimes "$WORK/many/syn.meta" -o "$WORK/bad.slog2"
[ "$RC" -eq 2 ] || fail "--align-clocks sometimes: exit $RC, expected 2 (usage)"
grep -q -- '--align-clocks must be auto, always or never' "$WORK/b6.err" || fail "--align-clocks sometimes: '$(head -n1 "$WORK/b6.err")'"
[ ! -e "$WORK/bad.slog2" ] || fail "--align-clocks sometimes: output written"
finish
