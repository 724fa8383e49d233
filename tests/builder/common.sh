# Shared helpers for the slog2-build end-to-end tests (sourced, not run).
#
# Every test script is called as
#   SCRIPT BUILD PRINT SYNTH TRACES [ARGS...]
# with the paths of slog2-build, slog2-print, slog2-synth and the real
# traces directory (${SLOG2_SHARED_DIR}/traces). After sourcing this file
# they are in $BUILD $PRINT $SYNTH $TRACES and "$@" holds ARGS.
#
# VALGRIND, when set (the memcheck.* registrations in CMakeLists.txt), is a
# command prefix put in front of every slog2-build and slog2-print run, so
# valgrind checks the tools rather than bash. It must use an error exit code
# that the tools never return (99), so a memcheck error is not mistaken for
# the builder's exit 1 or 2.

set -euo pipefail
# Pipelines below never end in a reader that stops early (head, grep -q):
# with pipefail the writer's SIGPIPE would fail the script at random.
export LC_ALL=C

if [ $# -lt 4 ]; then
    echo "usage: $0 BUILD PRINT SYNTH TRACES [ARGS...]" >&2
    exit 2
fi
BUILD=$1 PRINT=$2 SYNTH=$3 TRACES=$4
shift 4
VALGRIND=${VALGRIND:-}
VG_STATUS=99

N_FAIL=0
fail() { echo "FAIL: $*" >&2; N_FAIL=$((N_FAIL + 1)); }
die() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "-- $*"; }

# Skip (exit 77) when the shared traces are not there.
need_traces() {
    if [ ! -d "$TRACES" ]; then
        echo "SKIP: $TRACES not found"
        exit 77
    fi
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/slog2-btest.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# run_build OUTBASE ARGS...: runs slog2-build ARGS, stdout to OUTBASE.out,
# stderr to OUTBASE.err; sets RC. Never fails the script by itself.
run_build() {
    local base=$1; shift
    RC=0
    $VALGRIND "$BUILD" "$@" >"$base.out" 2>"$base.err" || RC=$?
    if [ "$RC" -eq "$VG_STATUS" ] && [ -n "$VALGRIND" ]; then
        cat "$base.err" >&2
        die "valgrind reported errors in: slog2-build $*"
    fi
}

# print_tool ARGS...: slog2-print (under VALGRIND if set).
print_tool() {
    local rc=0
    $VALGRIND "$PRINT" "$@" || rc=$?
    if [ "$rc" -eq "$VG_STATUS" ] && [ -n "$VALGRIND" ]; then
        die "valgrind reported errors in: slog2-print $*"
    fi
    return $rc
}

# check_file FILE: slog2-print --check must pass (a failure is recorded
# with fail(), the script goes on).
check_file() {
    local out
    if ! out=$(print_tool --check "$1" 2>&1); then
        fail "slog2-print --check $1 failed:"
        printf '%s\n' "$out" >"$WORK/check.out"
        head -n 20 "$WORK/check.out" >&2
        return 0
    fi
    note "$out"
}

# build_ok BASE META OUT: slog2-build META -o OUT must exit 0 (its summary
# is shown); then OUT must pass --check, and F_* are set from it.
build_ok() {
    run_build "$1" "$2" -o "$3"
    cat "$1.out"
    if [ "$RC" -ne 0 ]; then
        sed 's/^/   stderr: /' "$1.err" >&2
        die "slog2-build exited $RC (expected 0)"
    fi
    check_file "$3"
    file_counts "$3"
}

# build_trace_csv NAME: slog2-build -q the real trace NAME into
# $WORK/NAME.slog2 (must exit 0; its path in $out) and its drawables into
# $WORK/csv (`--window all --format csv`, the header checked).
build_trace_csv() {
    out="$WORK/$1.slog2"
    run_build "$WORK/b" -q "$(trace_meta "$1")" -o "$out"
    [ "$RC" -eq 0 ] || { cat "$WORK/b.err" >&2; die "slog2-build exited $RC on $1"; }
    print_tool --window all --format csv "$out" >"$WORK/csv"
    case "$(head -n1 "$WORK/csv")" in
    kind,category,timeline,start,end,end_timeline*) ;;
    *) die "unexpected CSV header: $(head -n1 "$WORK/csv")" ;;
    esac
}

# trace_dir NAME: the folder of a real trace; trace_meta NAME: its .meta.
trace_dir() { echo "$TRACES/$1"; }
trace_meta() { ls "$TRACES/$1"/*.meta; }

# expected_calls NAME: MPI calls in the reference decodings (README.md:
# "MPI calls counts the ... entering at ... lines").
expected_calls() {
    zcat "$TRACES/$1"/*.txt.gz | grep -c ' entering at '
}

# expected_per_rank_thread_fn NAME: "rank thread function count" lines from
# the reference decodings, sorted. Rank = the NNNN of <prefix>-NNNN.txt.gz.
expected_per_rank_thread_fn() {
    local f rank
    for f in "$TRACES/$1"/*-[0-9][0-9][0-9][0-9].txt.gz; do
        rank=$(basename "$f" .txt.gz); rank=${rank##*-}; rank=$((10#$rank))
        zcat "$f" | sed -n -E "s/^([A-Za-z_0-9]+) entering at .* in thread ([0-9]+)\.\$/$rank \2 \1/p"
    done | sort | uniq -c | awk '{print $2, $3, $4, $1}' | sort
}

# summary_field FILE.out REGEX: the first number after REGEX in the
# builder's stdout summary, e.g. summary_field x.out 'MPI calls '.
summary_field() {
    local v
    v=$(grep -o -E "$2[0-9]+" "$1" | sed -n -E '1s/.*[^0-9]([0-9]+)$/\1/p') || true
    if [ -z "$v" ]; then
        echo "FAIL: no '$2N' in the builder summary:" >&2
        cat "$1" >&2
        return 1
    fi
    echo "$v"
}

# file_counts FILE.slog2: sets F_STATES F_ARROWS F_EVENTS F_TIMELINES from
# the slog2-print summary ("drawables: N (S states, A arrows, E events)",
# "timelines (T):").
file_counts() {
    local s
    s=$(print_tool "$1") || die "slog2-print $1 failed"
    F_STATES=$(echo "$s" | sed -n -E 's/^drawables: +[0-9]+ \(([0-9]+) states, ([0-9]+) arrows, ([0-9]+) events\).*/\1/p')
    F_ARROWS=$(echo "$s" | sed -n -E 's/^drawables: +[0-9]+ \(([0-9]+) states, ([0-9]+) arrows, ([0-9]+) events\).*/\2/p')
    F_EVENTS=$(echo "$s" | sed -n -E 's/^drawables: +[0-9]+ \(([0-9]+) states, ([0-9]+) arrows, ([0-9]+) events\).*/\3/p')
    F_TIMELINES=$(echo "$s" | sed -n -E 's/^timelines \(([0-9]+)\):.*/\1/p')
    if [ -z "$F_STATES" ] || [ -z "$F_TIMELINES" ]; then
        echo "$s" >&2
        die "cannot parse the slog2-print summary of $1"
    fi
}

# timeline_map FILE.slog2: "id rank thread" per timeline.
timeline_map() {
    # awk reads to the end: an early exit would kill slog2-print with
    # SIGPIPE and pipefail would fail the script.
    print_tool "$1" | awk '/^timelines \(/ {on=1; next} on && NF==0 {on=0}
        on && $2=="rank" && $4=="thread" {print $1, $3, $5}'
}

# actual_per_rank_thread_fn FILE.slog2: "rank thread function count" for
# every state and event in the file (a polling event "MPI_X (nothing)"
# counts as a call to MPI_X), sorted.
actual_per_rank_thread_fn() {
    local map="$WORK/tlmap.$$"
    timeline_map "$1" >"$map"
    print_tool --window all --format csv "$1" |
        awk -F, -v map="$map" '
            BEGIN { while ((getline l < map) > 0) { split(l, f, " "); tl[f[1]] = f[2] " " f[3] } }
            NR == 1 { next }
            $1 == "state" || $1 == "event" {
                c = $2; sub(/ \(nothing\)$/, "", c)
                if (!($3 in tl)) { print "unknown timeline " $3 > "/dev/stderr"; exit 1 }
                n[tl[$3] " " c]++
            }
            END { for (k in n) print k, n[k] }' | sort
}

finish() {
    if [ "$N_FAIL" -ne 0 ]; then
        echo "$N_FAIL check(s) failed" >&2
        exit 1
    fi
    echo "PASS"
}
