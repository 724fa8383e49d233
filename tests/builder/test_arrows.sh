#!/usr/bin/env bash
# builder.arrows.<NAME>: message arrows are causal and well formed, read from
# `slog2-print --window all --format csv`.
#
# For every arrow:
#   - end >= start (a message is received after it was sent);
#   - end_timeline is set, is a timeline of the file and differs from
#     timeline, except for messages a rank sends to itself: the number of
#     arrows with end_timeline == timeline must equal the number of
#     point-to-point sends on MPI_COMM_WORLD whose dest is the sender's own
#     rank in the decoding (16 in amg-4r, where hypre sends to itself; 0 in
#     the others);
#   - it starts exactly at the start of a send-type state on its timeline
#     and ends exactly at the end of a state on end_timeline (the call that
#     completed the receive).
# For hpcg-4r (all messages are MPI_Send -> MPI_Irecv + MPI_Wait) also:
#   - each MPI_Send state starts exactly one arrow, with the same bytes and
#     tag and end_timeline == its dest; each arrow ends at an MPI_Wait.
#
# usage: test_arrows.sh BUILD PRINT SYNTH TRACES NAME
. "$(dirname "$0")/common.sh"
need_traces
NAME=$1

build_trace_csv "$NAME"
file_counts "$out"

# Self-sends in the decoding: send-type records on COMM_WORLD (comm=2) whose
# dest is the rank of the file.
want_self=0
for f in "$TRACES/$NAME"/*-[0-9][0-9][0-9][0-9].txt.gz; do
    r=$(basename "$f" .txt.gz); r=$((10#${r##*-}))
    c=$(zcat "$f" | awk -v r="$r" '
        / entering at / { fn = $1; dest = ""; comm = ""; next }
        /^int dest=/ { split($2, x, "="); dest = x[2] }
        /^MPI_Comm comm=/ { split($2, x, "="); comm = x[2] }
        / returning at / {
            if (fn ~ /^MPI_(Send|Isend|Bsend|Ibsend|Ssend|Issend|Rsend|Irsend|Sendrecv|Sendrecv_replace)$/ && dest == r && comm == 2) n++
            fn = ""
        }
        END { print n + 0 }')
    want_self=$((want_self + c))
done

# Send-type calls: an arrow starts at the send's start. Persistent sends
# start at MPI_Start/MPI_Startall; MPI_Sendrecv both sends and receives.
SENDS='^MPI_(Send|Isend|Bsend|Ibsend|Ssend|Issend|Rsend|Irsend|Sendrecv|Sendrecv_replace|Start|Startall)$'

awk -F, -v want_self="$want_self" -v ntl="$F_TIMELINES" -v sends="$SENDS" -v hpcg=$([ "$NAME" = hpcg-4r ] && echo 1 || echo 0) '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$1 == "state" {
    ends[$3 "," $5] = 1
    if ($2 ~ sends) sendat[$3 "," $4]++
    if (hpcg && $2 == "MPI_Send") { k = $3 "," $4; hs[k]++; hdest[k] = $col["dest"]; hbytes[k] = $col["bytes"]; htag[k] = $col["tag"] }
    if (hpcg && $2 == "MPI_Wait") waitend[$3 "," $5] = 1
    next
}
$1 == "arrow" {
    n++
    a[n] = $0
    next
}
function bad(msg, line) { nbad++; if (nbad <= 20) print "bad arrow (" msg "): " line > "/dev/stderr" }
END {
    for (i = 1; i <= n; i++) {
        split(a[i], f, ",")
        tl = f[3]; s = f[4]; e = f[5]; etl = f[6]
        if (etl == "") { bad("no end_timeline", a[i]); continue }
        if (tl !~ /^[0-9]+$/ || etl !~ /^[0-9]+$/ || tl + 0 >= ntl || etl + 0 >= ntl) bad("timeline out of range", a[i])
        if (etl == tl) nself++
        if (e + 0 < s + 0) bad("end < start", a[i])
        if (!((tl "," s) in sendat)) bad("does not start at a send call on its timeline", a[i])
        if (!((etl "," e) in ends)) bad("does not end at the end of a call on end_timeline", a[i])
        if (hpcg) {
            k = tl "," s
            used[k]++
            if (!(k in hs)) bad("hpcg: not at an MPI_Send", a[i])
            else if (hdest[k] != etl || hbytes[k] != f[col["bytes"]] || htag[k] != f[col["tag"]])
                bad("hpcg: dest/bytes/tag differ from the MPI_Send (dest " hdest[k] " bytes " hbytes[k] " tag " htag[k] ")", a[i])
            if (!((etl "," e) in waitend)) bad("hpcg: does not end at an MPI_Wait", a[i])
        }
    }
    if (hpcg) for (k in hs) if (used[k] != hs[k]) { nbad++; if (nbad <= 40) print "hpcg: MPI_Send at " k " starts " used[k] + 0 " arrows" > "/dev/stderr" }
    if (nself + 0 != want_self) { nbad++; print "arrows with end_timeline == timeline: " nself + 0 ", self-sends in the decoding: " want_self > "/dev/stderr" }
    printf "-- %d arrows checked (%d self-messages), %d problems\n", n, nself, nbad
    exit nbad > 0
}' "$WORK/csv" || fail "$NAME: arrows are not causal / well formed (see above)"

n_csv=$(grep -c '^arrow,' "$WORK/csv" || true)
[ "$n_csv" -eq "$F_ARROWS" ] || fail "$NAME: $n_csv arrows in the CSV, summary says $F_ARROWS"
[ "$F_ARROWS" -gt 0 ] || fail "$NAME: no arrows at all"
finish
