#!/usr/bin/env bash
# builder.volumes.<NAME>: the "sent" and "received" bytes of collective and
# Sendrecv states, recomputed here from the reference decodings (dumpi2ascii
# text) by the MPI rules, call for call.
#
# The rules, written out again independently of builder/volume.c, from the
# calling rank's buffers (MPI-3.1 ch. 5):
#   Bcast: the root sends count, the others receive it; Reduce: all send
#   count, the root receives it; Allreduce/Scan/Exscan: count both ways;
#   Gather(v): all send sendcount, the root receives commsize x recvcount
#   (sum of recvcounts); Scatter(v) the mirror image; Allgather(v): send
#   sendcount, receive commsize x recvcount (sum); Alltoall: commsize x
#   each way; Alltoallv: the sums; Reduce_scatter: sends sum(recvcounts),
#   receives its own entry; Sendrecv(_replace): the send half (0 to
#   PROC_NULL) and the status's byte count.
# Sizes come from the decoding's "Datatype N (...) has size S" lines, for
# the predefined datatypes only (ids below 28): a derived datatype's id is
# reused after MPI_Type_free and the table holds one size per id, so the
# builder reports those as unknown and they are not compared.
# The caller's rank in the communicator and its size come from the record
# (commrank, commsize), MPI_COMM_WORLD, or else the program's own last
# MPI_Comm_rank / MPI_Comm_size answer for that handle; where none of them
# tells, the value is not compared. The test fails unless most values are
# compared, and each compared one must equal the file's.
#
# usage: test_volumes.sh BUILD PRINT SYNTH TRACES NAME
. "$(dirname "$0")/common.sh"
need_traces
NAME=$1

build_trace_csv "$NAME"
timeline_map "$out" >"$WORK/tl"

FUNCS="MPI_Bcast MPI_Reduce MPI_Allreduce MPI_Scan MPI_Exscan MPI_Gather MPI_Gatherv MPI_Scatter MPI_Scatterv MPI_Allgather MPI_Allgatherv MPI_Alltoall MPI_Alltoallv MPI_Reduce_scatter MPI_Sendrecv MPI_Sendrecv_replace"
nranks=$(ls "$TRACES/$NAME"/*-[0-9][0-9][0-9][0-9].txt.gz | wc -l)

# expected: "rank function seq sent received" (value "?" = not computable)
for f in "$TRACES/$NAME"/*-[0-9][0-9][0-9][0-9].txt.gz; do
    r=$(basename "$f" .txt.gz); r=$((10#${r##*-}))
    gzip -dc "$f" | awk -v rank="$r" -v nranks="$nranks" -v funcs="$FUNCS" '
    BEGIN { n = split(funcs, fl, " "); for (i = 1; i <= n; i++) want[fl[i]] = 1 }
    /^Datatype [0-9]+ \(.*\) has size / { size[$2] = $NF; next }
    / entering at walltime / {
        fn = $1; inside = want[fn] || fn == "MPI_Comm_size" || fn == "MPI_Comm_rank"
        delete a; delete arr; next }
    / returning at walltime / {
        # what the program last asked of this communicator handle
        if (fn == "MPI_Comm_size") csz[a["comm"]] = a["size"]
        else if (fn == "MPI_Comm_rank") crk[a["comm"]] = a["rank"]
        else if (inside) {
            if (a["comm"] in csz) a["asked_size"] = csz[a["comm"]]
            if (a["comm"] in crk) a["asked_rank"] = crk[a["comm"]]
            calls[++nc] = fn SUBSEP encode()
        }
        inside = 0; next }
    inside {
        # "int name=value", "MPI_Datatype name=value (NAME)", "int name[N]=[a, b]" or "=<IGNORED>"
        line = $0; sub(/^[A-Za-z_]+ /, "", line)
        eq = index(line, "="); name = substr(line, 1, eq - 1); val = substr(line, eq + 1)
        sub(/\[.*$/, "", name)
        if (val ~ /^\[\{bytes=/) { v = val; sub(/^\[\{bytes=/, "", v); sub(/,.*$/, "", v); a[name] = v }
        else if (val ~ /^\[/) { v = val; gsub(/[\[\] ]/, "", v); arr[name] = v }
        else if (val !~ /^</) { v = val; sub(/ .*$/, "", v); a[name] = v }
    }
    function encode(  k, s) { s = ""; for (k in a) s = s k "=" a[k] ";"; for (k in arr) s = s k "=[" arr[k] "];"; return s }
    END {
        for (i = 1; i <= nc; i++) {
            split(calls[i], p, SUBSEP); fn = p[1]
            delete a; delete arr
            m = split(p[2], kv, ";")
            for (j = 1; j < m; j++) {
                e = index(kv[j], "="); k = substr(kv[j], 1, e - 1); v = substr(kv[j], e + 1)
                if (v ~ /^\[/) { gsub(/[\[\]]/, "", v); arr[k] = v } else a[k] = v
            }
            seq[fn]++
            print rank, fn, seq[fn], sent(fn), recvd(fn)
        }
    }
    function bytes(count, type) {
        if (count == "" || type == "") return "?"
        if (count + 0 == 0) return 0
        if (!(type in size) || size[type] + 0 <= 0 || type + 0 >= 28) return "?"
        return count * size[type]
    }
    function mul(v, n) { return (v == "?" || n == "?") ? "?" : v * n }
    function world() { return a["comm"] == "" || a["comm"] == 2 }
    function csize() {
        if ("commsize" in a) return a["commsize"]
        if (world()) return nranks
        return ("asked_size" in a) ? a["asked_size"] : "?" }
    function me() {
        if ("commrank" in a) return a["commrank"]
        if (world()) return rank
        return ("asked_rank" in a) ? a["asked_rank"] : "?" }
    function root(  m) { m = me(); if (m == "?" || a["root"] == "" || a["root"] < 0) return "?"; return m == a["root"] }
    function rooted(is, want, v) { if (is == "?") return "?"; return is == want ? v : 0 }
    function sum(list, type,   n, x, t, i, b) {
        if (!(list in arr)) return 0          # root-only array not recorded
        n = split(arr[list], x, ","); t = 0
        for (i = 1; i <= n; i++) { b = bytes(x[i], type); if (b == "?") return "?"; t += b }
        return t
    }
    function opt(count, type) { return (count in a) ? bytes(a[count], a[type]) : 0 }
    function sent(fn) {
        if (fn == "MPI_Bcast") return rooted(root(), 1, bytes(a["count"], a["datatype"]))
        if (fn ~ /^MPI_(Reduce|Allreduce|Scan|Exscan)$/) return bytes(a["count"], a["datatype"])
        if (fn ~ /^MPI_(Gather|Gatherv|Allgather|Allgatherv)$/) return opt("sendcount", "sendtype")
        if (fn == "MPI_Scatter") return rooted(root(), 1, mul(bytes(a["sendcount"], a["sendtype"]), csize()))
        if (fn == "MPI_Scatterv" || fn == "MPI_Alltoallv") return sum("sendcounts", a["sendtype"])
        if (fn == "MPI_Alltoall") return mul(bytes(a["sendcount"], a["sendtype"]), csize())
        if (fn == "MPI_Reduce_scatter") return sum("recvcounts", a["datatype"])
        if (a["dest"] == -2) return 0
        if (fn == "MPI_Sendrecv") return bytes(a["sendcount"], a["sendtype"])
        return bytes(a["count"], a["datatype"])   # Sendrecv_replace
    }
    function recvd(fn,   m, x) {
        if (fn == "MPI_Bcast") return rooted(root(), 0, bytes(a["count"], a["datatype"]))
        if (fn == "MPI_Reduce") return rooted(root(), 1, bytes(a["count"], a["datatype"]))
        if (fn ~ /^MPI_(Allreduce|Scan|Exscan)$/) return bytes(a["count"], a["datatype"])
        if (fn == "MPI_Gather") return rooted(root(), 1, mul(bytes(a["recvcount"], a["recvtype"]), csize()))
        if (fn == "MPI_Gatherv" || fn == "MPI_Allgatherv" || fn == "MPI_Alltoallv") return sum("recvcounts", a["recvtype"])
        if (fn == "MPI_Scatter" || fn == "MPI_Scatterv") return opt("recvcount", "recvtype")
        if (fn == "MPI_Allgather" || fn == "MPI_Alltoall") return mul(bytes(a["recvcount"], a["recvtype"]), csize())
        if (fn == "MPI_Reduce_scatter") {
            m = me(); if (m == "?" || !("recvcounts" in arr)) return "?"
            split(arr["recvcounts"], x, ","); return bytes(x[m + 1], a["datatype"])
        }
        if (a["source"] == -2) return 0
        if ("status" in a) return a["status"]
        if (fn == "MPI_Sendrecv") return bytes(a["recvcount"], a["recvtype"])
        return bytes(a["count"], a["datatype"])
    }'
done | sort -k1,1n -k2,2 -k3,3n >"$WORK/want"

# got: the same from the file, thread-0 timelines, calls in start order.
awk -F, -v funcs="$FUNCS" '
    NR == FNR { tl[$1] = $2; th[$1] = $3; next }
    FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
               if (!("sent" in col) || !("received" in col)) { print "NOCOLUMNS"; exit }
               n = split(funcs, fl, " "); for (i = 1; i <= n; i++) want[fl[i]] = 1; next }
    $1 == "state" && want[$2] && th[$3] == 0 {
        s = $col["sent"]; r = $col["received"]
        print tl[$3], $2, $4, (s == "" ? "unknown" : s), (r == "" ? "unknown" : r) }' \
    FS=' ' "$WORK/tl" FS=, "$WORK/csv" |
    sort -k1,1n -k2,2 -k3,3g |
    awk '{ seq[$1 " " $2]++; print $1, $2, seq[$1 " " $2], $4, $5 }' |
    sort -k1,1n -k2,2 -k3,3n >"$WORK/got"
grep -q NOCOLUMNS "$WORK/got" && die "$NAME: the CSV has no sent/received columns"

n_want=$(wc -l <"$WORK/want"); n_got=$(wc -l <"$WORK/got")
[ "$n_want" -gt 0 ] || die "$NAME: no collective or Sendrecv calls in the decoding"
[ "$n_want" -eq "$n_got" ] || fail "$NAME: $n_want such calls in the decoding, $n_got states in the file"

join -j1 <(awk '{print $1"/"$2"/"$3, $4, $5}' "$WORK/want") \
         <(awk '{print $1"/"$2"/"$3, $4, $5}' "$WORK/got") >"$WORK/joined"
read -r compared skipped bad < <(awk '
    { for (k = 0; k < 2; k++) {
          w = $(2 + k); g = $(4 + k)
          if (w == "?") { skipped++; continue }
          compared++
          if (w != g) { bad++; if (bad <= 10) print "MISMATCH", $1, (k ? "received" : "sent"), "want", w, "file", g > "/dev/stderr" }
      } }
    END { print compared + 0, skipped + 0, bad + 0 }' "$WORK/joined")
note "$NAME: $n_want calls, $compared values compared, $skipped not computable from the decoding alone, $bad differ"
[ "$bad" -eq 0 ] || fail "$NAME: $bad sent/received values differ from the decoding"
[ "$compared" -ge $((3 * (compared + skipped) / 4)) ] ||
    fail "$NAME: only $compared of $((compared + skipped)) values could be compared"
finish
