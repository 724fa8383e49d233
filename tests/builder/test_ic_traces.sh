#!/usr/bin/env bash
# Intercommunicator traces (tests/data/dumpi-ic): every message the program
# says it sent must be an arrow with the right ends.
#
#   test_ic_traces.sh BUILD PRINT SYNTH TRACES DIR
#
# DIR is one trace folder of tests/data/dumpi-ic. Its EXPECTED.txt was
# written by the sending ranks themselves through PMPI_ calls (so it is not
# derived from the trace), one line per message:
#   sender_world receiver_world tag bytes comm_kind [unreceived|cancelled]
# Checks:
#  * slog2-build exits 0 and the file passes slog2-print --check;
#  * the arrows, as (sender rank, receiver rank, tag, bytes), are exactly the
#    lines without a note, as a multiset: a message on a split, dup, created
#    or merged communicator that is translated to the wrong world ranks
#    gives a wrong arrow or none;
#  * the unmatched sends (summary and the messages.unmatched annotation) are
#    exactly the `unreceived` lines, and nothing else is left unmatched;
#  * the cancelled count is the number of MPI_Test_cancelled calls that
#    returned true (each program asks once per cancelled request).
. "$(dirname "$0")/common.sh"

DIR=${1:?usage: $0 BUILD PRINT SYNTH TRACES DIR}
[ -f "$DIR/EXPECTED.txt" ] || die "no EXPECTED.txt in $DIR"
META=$(ls "$DIR"/*.meta)
OUT="$WORK/t.slog2"

build_ok "$WORK/b" "$META" "$OUT"

# sender receiver tag bytes, one line per arrow, sorted.
print_tool --window all --format csv "$OUT" >"$WORK/csv"
timeline_map "$OUT" >"$WORK/tl"
awk -F, -v map="$WORK/tl" '
    BEGIN { while ((getline l < map) > 0) { split(l, f, " "); rank[f[1]] = f[2] } }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 == "arrow" {
        if (!($3 in rank) || !($6 in rank)) { print "unknown timeline in: " $0 > "/dev/stderr"; exit 1 }
        print rank[$3], rank[$6], $(col["tag"]), $(col["bytes"])
    }' "$WORK/csv" | sort >"$WORK/arrows"
awk 'NF == 5 {print $1, $2, $3, $4}' "$DIR/EXPECTED.txt" | sort >"$WORK/expected"
if ! cmp -s "$WORK/arrows" "$WORK/expected"; then
    fail "arrows differ from EXPECTED.txt (< arrows, > expected):"
    diff "$WORK/arrows" "$WORK/expected" | grep '^[<>]' | head -n 40 >&2 || true
else
    note "$(wc -l <"$WORK/arrows") arrows, each as in EXPECTED.txt"
fi

# Unmatched sends: "send A->B tag T comm C xN; ..." in the annotation.
n_unrec=$(awk '$6 == "unreceived"' "$DIR/EXPECTED.txt" | wc -l)
print_tool "$OUT" | sed -n 's/^ *messages\.unmatched = //p' | tr ';' '\n' |
    sed -n -E 's/^ *send ([0-9]+)->([0-9]+) tag (-?[0-9]+) comm [0-9]+ x([0-9]+)$/\1 \2 \3 \4/p' |
    awk '{for (i = 0; i < $4; i++) print $1, $2, $3}' | sort >"$WORK/unmatched"
awk '$6 == "unreceived" {print $1, $2, $3}' "$DIR/EXPECTED.txt" | sort >"$WORK/unreceived"
cmp -s "$WORK/unmatched" "$WORK/unreceived" ||
    fail "unmatched sends in the file: $(tr '\n' ',' <"$WORK/unmatched"); unreceived in EXPECTED.txt: $(tr '\n' ',' <"$WORK/unreceived")"

n_cancel=$(zcat "$DIR"/*.txt.gz | grep -c '^int cancelled=1$' || true)
want="unmatched: $n_unrec sends, 0 receives, 0 other; $n_cancel cancelled"
grep -q -F "$want" "$WORK/b.out" "$WORK/b.err" ||
    fail "summary is not '$want': $(grep -h 'unmatched:' "$WORK/b.out" "$WORK/b.err" || true)"
note "$want"

finish
