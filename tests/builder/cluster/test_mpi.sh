#!/usr/bin/env bash
# builder.cluster.*: slog2-build-mpi under mpirun against slog2-build -j 1.
#
# usage: test_mpi.sh BUILD PRINT SYNTH TRACES BUILD_MPI MPIEXEC CASE [ARGS...]
#   BUILD_MPI and MPIEXEC are "none" when CMake found no MPI (or in a
#   sanitizer build): the test skips.
#   identity TRACE...     each real trace, P = 1..4: the same bytes, the
#                         same summary (but its timings), exit 0
#   identity-dir DIR      likewise, the trace in folder DIR (test data in
#                         the source tree)
#   synth RANKS CALLS [CHUNK]  a generated trace of RANKS ranks, likewise
#                         (CHUNK: the read-ahead, SLOG2_BUILD_MPI_CHUNK)
#   ulimit LIMIT RANKS CALLS  the same under ulimit -n LIMIT, below the
#                         files a process reads
#   errors                a trace with one rank file truncated and one
#                         missing (also one not DUMPI, a usage error, and a
#                         process that cannot see the trace):
#                         the same messages on stderr, the same exit
#                         status and the same bytes (or no file, no
#                         temporary file) as slog2-build
#   abort SIZE            process 1 killed while a generated trace of SIZE
#                         is built: the job fails, leaving no file at all
. "$(dirname "$0")/../common.sh"
BUILD_MPI=$1 MPIEXEC=$2 CASE=$3
shift 3

if [ "$BUILD_MPI" = none ] || [ "$MPIEXEC" = none ]; then
    echo "SKIP: slog2-build-mpi not built (no MPI found, or a sanitizer build)"
    exit 77
fi
mpi_args=()
version=$("$MPIEXEC" --version 2>&1 || true)
if [[ $version == *"Open MPI"* || $version == *OpenRTE* ]]; then
    # More processes than cores, and CI runs as root.
    mpi_args+=(--oversubscribe)
    [ "$(id -u)" -ne 0 ] || mpi_args+=(--allow-run-as-root)
fi

# run_mpi P BASE ARGS...: slog2-build-mpi ARGS on P processes, stdout to
# BASE.out, stderr to BASE.err without mpirun's own notices (the blocks
# between lines of dashes it prints when a process exits non-zero); RC.
run_mpi() {
    local p=$1 base=$2
    shift 2
    RC=0
    "$MPIEXEC" "${mpi_args[@]}" -n "$p" "$BUILD_MPI" "$@" >"$base.out" 2>"$base.raw" || RC=$?
    awk '/^--------------------+$/ { inside = !inside; next } !inside' "$base.raw" >"$base.err"
}

# same_build NAME META: slog2-build -j 1 and slog2-build-mpi on 1..4
# processes give the same bytes and summary.
same_build() {
    local name=$1 meta=$2 p
    run_build "$WORK/s" -j 1 "$meta" -o "$WORK/serial.slog2"
    [ "$RC" -eq 0 ] || { cat "$WORK/s.err" >&2; die "$name: slog2-build exited $RC"; }
    head -n 5 "$WORK/s.out" | sed "s|$WORK/serial.slog2|OUT|" >"$WORK/s.sum"
    for p in 1 2 3 4; do
        run_mpi "$p" "$WORK/m" "$meta" -o "$WORK/mpi.slog2"
        if [ "$RC" -ne 0 ]; then
            cat "$WORK/m.raw" >&2
            fail "$name, $p processes: exit $RC"
            continue
        fi
        cmp "$WORK/serial.slog2" "$WORK/mpi.slog2" || fail "$name, $p processes: other bytes than slog2-build -j 1"
        head -n 5 "$WORK/m.out" | sed "s|$WORK/mpi.slog2|OUT|" >"$WORK/m.sum"
        diff "$WORK/s.sum" "$WORK/m.sum" || fail "$name, $p processes: another summary"
        note "$name, $p processes: $(stat -c %s "$WORK/mpi.slog2") bytes, the same"
    done
}

# same_failure WHAT P ARGS...: slog2-build and slog2-build-mpi on P
# processes give the same stderr and exit status, and when that is 1 or 2
# neither leaves a file or a temporary one.
same_failure() {
    local what=$1 p=$2
    shift 2
    local out="$WORK/t/out.slog2"
    rm -f "$out"
    run_build "$WORK/s" "$@" -o "$out"
    local want=$RC
    [ -e "$out" ] && mv "$out" "$WORK/serial.slog2"
    run_mpi "$p" "$WORK/m" "$@" -o "$out"
    note "$what, $p processes: exit $RC (slog2-build: $want); stderr:"
    sed 's/^/   /' "$WORK/m.err"
    [ "$RC" -eq "$want" ] || fail "$what, $p processes: exit $RC, slog2-build exits $want"
    diff "$WORK/s.err" "$WORK/m.err" || fail "$what, $p processes: other messages than slog2-build's"
    if [ "$want" -eq 1 ] || [ "$want" -eq 2 ]; then
        [ ! -e "$out" ] || fail "$what, $p processes: an output after exit $RC"
    else
        cmp "$WORK/serial.slog2" "$out" || fail "$what, $p processes: other bytes than slog2-build"
    fi
    local left
    left=$(ls -A "$WORK/t" | grep -F '.tmp.' || true)
    [ -z "$left" ] || fail "$what, $p processes: temporary files left: $left"
}

case "$CASE" in
identity)
    need_traces
    for t in "$@"; do
        [ -d "$TRACES/$t" ] || die "no trace $t in $TRACES"
        same_build "$t" "$(trace_meta "$t")"
    done
    ;;
identity-dir)
    metas=("$1"/*.meta)
    [ -f "${metas[0]}" ] || die "no .meta in $1"
    same_build "$(basename "$1")" "${metas[0]}"
    ;;
synth)
    RANKS=$1 CPR=$2
    # A third argument: SLOG2_BUILD_MPI_CHUNK, the read-ahead (a few
    # records a request: records straddle chunks, read-aheads are thrown
    # away at each rewind of the stream).
    [ $# -lt 3 ] || export SLOG2_BUILD_MPI_CHUNK=$3
    "$SYNTH" -q --ranks "$RANKS" --calls-per-rank "$CPR" --seed 7 -o "$WORK/in/t" >/dev/null ||
        die "slog2-synth failed"
    same_build "synth $RANKS ranks" "$WORK/in/t.meta"
    ;;
ulimit)
    # More rank files per process than it may hold open: owners open each
    # file for each read, as slog2-build does with its own.
    LIMIT=$1 RANKS=$2 CPR=$3
    "$SYNTH" -q --ranks "$RANKS" --calls-per-rank "$CPR" --seed 9 -o "$WORK/in/t" >/dev/null ||
        die "slog2-synth failed"
    ulimit -n "$LIMIT" 2>/dev/null || ulimit -Sn "$LIMIT"
    same_build "synth $RANKS ranks under ulimit -n $LIMIT" "$WORK/in/t.meta"
    ;;
errors)
    need_traces
    mkdir -p "$WORK/t"
    cp "$TRACES"/testmpi-4r/*.meta "$TRACES"/testmpi-4r/*.bin "$WORK/t/"
    meta=$(ls "$WORK"/t/*.meta)
    bin() { ls "$WORK"/t/*-000"$1".bin; }
    # A usage error: every process parses it, one message.
    same_failure "-j 0" 2 -j 0 "$meta"
    # A process that cannot see the trace (MPMD: process 1 given another
    # path): nothing is built, process 0 says a process stopped before the
    # build, and that process says why.
    out="$WORK/t/out.slog2"
    RC=0
    "$MPIEXEC" "${mpi_args[@]}" -n 1 "$BUILD_MPI" "$meta" -o "$out" : -n 1 "$BUILD_MPI" "$WORK/t/gone.meta" -o "$out" \
        >"$WORK/m.out" 2>"$WORK/m.raw" || RC=$?
    note "process 1 without the trace: exit $RC; stderr:"
    sed 's/^/   /' "$WORK/m.raw"
    [ "$RC" -eq 1 ] || fail "process 1 without the trace: exit $RC, expected 1"
    grep -q 'a process stopped before the build' "$WORK/m.raw" || fail "process 1 without the trace: process 0 did not say so"
    grep -q "gone.meta: No such file" "$WORK/m.raw" || fail "process 1 without the trace: its message is not shown"
    [ ! -e "$out" ] || fail "process 1 without the trace: an output was left"
    # Rank 3 (the last process's to read) cut in its call stream, rank 2
    # gone: without --allow-missing nothing is built, with it a file
    # with warnings (exit 3).
    b3=$(bin 3)
    sz=$(stat -c %s "$b3")
    head -c $((sz * 6 / 10)) "$b3" >"$WORK/cut" && mv "$WORK/cut" "$b3"
    rm "$(bin 2)"
    for p in 2 3; do
        same_failure "rank 3 truncated, rank 2 missing" "$p" "$meta"
        same_failure "rank 3 truncated, rank 2 missing, --allow-missing" "$p" --allow-missing "$meta"
    done
    grep -q 'rank 3: .*keeping every complete record' "$WORK/m.err" || fail "no warning about the truncated rank 3"
    # A rank file that is not DUMPI, found by the process that reads it.
    head -c 4096 /dev/zero >"$(bin 1)"
    same_failure "rank 1 not DUMPI" 4 --allow-missing "$meta"
    grep -q 'no DUMPI lead-in magic' "$WORK/m.err" || fail "rank 1 not DUMPI: not said"
    ;;
abort)
    # Process 1 killed mid-build: the job ends non-zero, process 0 having
    # removed its temporary file, and no output is left.
    "$SYNTH" -q --ranks 8 --size "$1" --seed 11 -o "$WORK/t/t" >/dev/null || die "slog2-synth failed"
    out="$WORK/t/out.slog2"
    "$MPIEXEC" "${mpi_args[@]}" -n 2 "$BUILD_MPI" -q "$WORK/t/t.meta" -o "$out" >"$WORK/m.out" 2>"$WORK/m.raw" &
    job=$!
    for _ in $(seq 600); do # until process 0 has created its temporary file
        [ -z "$(ls -A "$WORK/t" | grep -F '.tmp.' || true)" ] || break
        sleep 0.05
    done
    victim=
    for pid in $(pgrep -P "$job" || true); do
        if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -x 'OMPI_COMM_WORLD_RANK=1' >/dev/null; then victim=$pid; fi
    done
    [ -n "$victim" ] || { wait "$job" || true; die "process 1 not found among mpirun's children (not Open MPI?)"; }
    kill -KILL "$victim"
    RC=0; wait "$job" || RC=$?
    note "process 1 killed: exit $RC; stderr:"
    sed 's/^/   /' "$WORK/m.raw"
    [ "$RC" -ne 0 ] || fail "process 1 killed: exit 0 (the build finished first? a larger trace is needed)"
    [ ! -e "$out" ] || fail "process 1 killed: an output was left"
    left=$(ls -A "$WORK/t" | grep -F '.tmp.' || true)
    [ -z "$left" ] || fail "process 1 killed: temporary files left: $left"
    ;;
*)
    die "unknown case $CASE"
    ;;
esac
[ "$N_FAIL" -eq 0 ] || exit 1
echo "OK"
