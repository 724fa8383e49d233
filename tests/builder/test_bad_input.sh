#!/usr/bin/env bash
# builder.input.<CASE>: slog2-build on damaged, foreign or missing input and
# on command-line misuse. The damaged inputs are copies of amg-4r (4 ranks,
# 0.7 MB) with rank 1 or 2 replaced; see README.md for the list of cases.
#
# Rules checked (slog2-build --help, "Exit status"):
#   exit 1 -> an error on stderr naming the offending file, and nothing
#             written: neither OUT nor any OUT.tmp.* nor any other new file;
#   exit 2 -> a usage error on stderr, nothing written;
#   exit 3 -> a warning on stderr, OUT written and `slog2-print --check` OK.
#   No case may crash (exit >= 128) or leave a temporary file.
#
# usage: test_bad_input.sh BUILD PRINT SYNTH TRACES CASE
. "$(dirname "$0")/common.sh"
CASE=$1
DATA="$(cd "$(dirname "$0")/../data" && pwd)"
SRC=amg-4r

# copy_trace DIR: a private copy of amg-4r (meta + bins) in DIR; sets
# META and BIN0..BIN3 and FULL_CALLS.
copy_trace() {
    need_traces
    mkdir -p "$1"
    cp "$TRACES/$SRC"/*.meta "$TRACES/$SRC"/*.bin "$1"/
    META=$(ls "$1"/*.meta)
    BIN1=$(ls "$1"/*-0001.bin)
    BIN2=$(ls "$1"/*-0002.bin)
}

# rank_calls R: calls of rank R in the reference decoding.
rank_calls() { zcat "$TRACES/$SRC"/*-000"$1".txt.gz | grep -c ' entering at '; }

# listing DIR: the files in DIR (to see what a failed build left behind).
listing() { (cd "$1" && ls -A | sort); }

# expect_error DIR OUT WHAT PATTERN: last build exited 1, stderr matches
# PATTERN (grep -E), and DIR holds exactly what it held before (saved in
# $WORK/before).
expect_error() {
    local dir=$1 out=$2 what=$3 pat=$4
    [ "$RC" -eq 1 ] || fail "$what: exit $RC, expected 1"
    if ! grep -q -E -- "$pat" "$WORK/b.err"; then
        fail "$what: stderr does not match /$pat/"
    fi
    [ -s "$WORK/b.err" ] || fail "$what: nothing on stderr"
    [ ! -e "$out" ] || fail "$what: $out was written despite the error"
    listing "$dir" >"$WORK/after"
    if ! diff -u "$WORK/before" "$WORK/after" >"$WORK/ldiff"; then
        fail "$what: files left behind in the output directory:"
        cat "$WORK/ldiff" >&2
    fi
    head -n 5 "$WORK/b.err" | sed 's/^/   stderr: /'
}

# built_calls FILE: states + events in FILE.
built_calls() { file_counts "$1"; echo $((F_STATES + F_EVENTS)); }

# no_tmp DIR OUT: no OUT.tmp.* left in DIR.
no_tmp() {
    local left
    left=$(cd "$1" && ls -A | grep -F "$(basename "$2").tmp" || true)
    [ -z "$left" ] || fail "temporary files left in $1: $left"
}

# Pseudo-random bytes, the same on every run: gen_bytes N SEED.
gen_bytes() {
    awk -v n="$1" -v seed="$2" 'BEGIN { srand(seed); for (i = 0; i < n; i++) printf "%c", int(rand() * 256) }'
}

case "$CASE" in
truncated)
    # Rank 2 cut at 60% of its size, in the middle of the call stream.
    d="$WORK/t"; copy_trace "$d"
    sz=$(stat -c %s "$BIN2"); cut=$((sz * 6 / 10))
    head -c "$cut" "$BIN2" >"$d/cut" && mv "$d/cut" "$BIN2"
    out="$d/out.slog2"
    run_build "$WORK/b" "$META" -o "$out"
    cat "$WORK/b.out"; head -n 4 "$WORK/b.err" | sed 's/^/   stderr: /'
    [ "$RC" -eq 3 ] || fail "truncated rank: exit $RC, expected 3"
    grep -q -F "$(basename "$BIN2")" "$WORK/b.err" || fail "truncated rank: warning does not name $(basename "$BIN2")"
    grep -q -E 'rank 2\b' "$WORK/b.err" || fail "truncated rank: warning does not name rank 2"
    grep -q -E 'offset [0-9]+' "$WORK/b.err" || fail "truncated rank: warning has no 'offset N'"
    grep -q -i 'warning' "$WORK/b.err" || fail "truncated rank: no 'warning' on stderr"
    [ -s "$out" ] || die "truncated rank: no output"
    no_tmp "$d" "$out"
    check_file "$out"
    got=$(built_calls "$out")
    full=$(expected_calls "$SRC"); r2=$(rank_calls 2)
    note "calls: full $full, truncated build $got, without rank 2 $((full - r2))"
    [ "$got" -lt "$full" ] || fail "truncated rank: $got calls, not fewer than the full $full"
    [ "$got" -gt $((full - r2)) ] || fail "truncated rank: $got calls, expected some of rank 2's records kept (> $((full - r2)))"
    ;;
truncated-sweep)
    # Rank 2 cut at many points, from inside the lead-in to one byte short:
    # exit 1 (nothing usable) or 2 (built), never a crash; what is built
    # passes --check, has no more calls than the full trace (fewer when cut
    # in the first half) and never fewer than a shorter cut.
    d="$WORK/t"; copy_trace "$d"
    cp "$BIN2" "$WORK/orig.bin"
    sz=$(stat -c %s "$WORK/orig.bin")
    full=$(expected_calls "$SRC")
    prev=-1
    cuts="1 8 16 32 64 100 200 $((sz / 20)) $((sz / 7)) $((sz / 3)) $((sz / 2)) $((sz * 3 / 4)) $((sz * 9 / 10)) $((sz - 200)) $((sz - 20)) $((sz - 1))"
    # Under Valgrind a few cuts, one per stage: lead-in, header, stream, trailer.
    [ -z "$VALGRIND" ] || cuts="8 64 $((sz / 3)) $((sz - 20))"
    for cut in $cuts; do
        head -c "$cut" "$WORK/orig.bin" >"$BIN2"
        out="$d/out.slog2"; rm -f "$out"
        listing "$d" >"$WORK/before"
        run_build "$WORK/b" -q "$META" -o "$out"
        case "$RC" in
        1) expect_error "$d" "$out" "cut at $cut" "$(basename "$BIN2")"; note "cut at $cut/$sz: exit 1" ;;
        3)
            no_tmp "$d" "$out"
            grep -q -F "$(basename "$BIN2")" "$WORK/b.err" || fail "cut at $cut: warning does not name the file"
            check_file "$out" >/dev/null
            got=$(built_calls "$out")
            note "cut at $cut/$sz: exit 3, $got calls"
            # Cuts past the end of the call stream (in the trailing header,
            # footer, keyval and index sections) keep every call.
            [ "$got" -le "$full" ] || fail "cut at $cut: $got calls, full trace has $full"
            if [ "$cut" -le $((sz / 2)) ] && [ "$got" -ge "$full" ]; then
                fail "cut at $cut (first half of the file): all $got calls kept"
            fi
            [ "$got" -ge "$prev" ] || fail "cut at $cut: $got calls, fewer than the $prev of a shorter cut"
            prev=$got
            ;;
        *) fail "cut at $cut/$sz: exit $RC"; head -n 5 "$WORK/b.err" | sed 's/^/   stderr: /' >&2 ;;
        esac
    done
    ;;
garbage | png | text | empty | magic-then-garbage)
    d="$WORK/t"; copy_trace "$d"
    case "$CASE" in
    garbage) gen_bytes 50000 7 >"$BIN1" ;;
    png) cp "$DATA/foreign.png" "$BIN1" ;;
    text) cp "$DATA/foreign.txt" "$BIN1" ;;
    empty) : >"$BIN1" ;;
    magic-then-garbage)
        # A real lead-in and header start, then noise.
        { head -c 64 "$TRACES/$SRC"/*-0001.bin; gen_bytes 30000 9; } >"$BIN1" ;;
    esac
    out="$d/out.slog2"
    listing "$d" >"$WORK/before"
    run_build "$WORK/b" "$META" -o "$out"
    if [ "$CASE" = magic-then-garbage ]; then
        # Either refused (1) or built from what could be read (3).
        case "$RC" in
        1) expect_error "$d" "$out" "$CASE" "$(basename "$BIN1")"; note "$CASE: exit 1" ;;
        3) no_tmp "$d" "$out"; check_file "$out"; note "$CASE: exit 3, $(built_calls "$out") calls"
           grep -q -F "$(basename "$BIN1")" "$WORK/b.err" || fail "$CASE: warning does not name the file" ;;
        *) fail "$CASE: exit $RC"; cat "$WORK/b.err" >&2 ;;
        esac
    else
        expect_error "$d" "$out" "$CASE as rank 1" "$(basename "$BIN1")"
    fi
    ;;
garbage-list)
    # The same, given as an explicit list of .bin files (no .meta).
    d="$WORK/t"; copy_trace "$d"
    cp "$DATA/foreign.png" "$d/foreign.bin"
    out="$d/out.slog2"
    listing "$d" >"$WORK/before"
    run_build "$WORK/b" "$(ls "$d"/*-0000.bin)" "$d/foreign.bin" -o "$out"
    expect_error "$d" "$out" "foreign .bin in a list" "foreign\.bin"
    ;;
fifo)
    # A named pipe as a rank file or as the .meta: opening one for reading
    # waits for a writer, i.e. for ever here. Refused at once, named.
    d="$WORK/p"; copy_trace "$d"
    mkfifo "$d/pipe.bin" "$d/pipe.meta"
    out="$d/out.slog2"
    for what in bin meta; do
        listing "$d" >"$WORK/before"
        if [ "$what" = bin ]; then
            RC=0; timeout 60 $VALGRIND "$BUILD" -q "$(ls "$d"/*-0000.bin)" "$d/pipe.bin" -o "$out" >"$WORK/b.out" 2>"$WORK/b.err" || RC=$?
        else
            RC=0; timeout 60 $VALGRIND "$BUILD" -q "$d/pipe.meta" -o "$out" >"$WORK/b.out" 2>"$WORK/b.err" || RC=$?
        fi
        [ "$RC" -ne 124 ] || die "a FIFO as the .$what: slog2-build hung (killed after 60 s)"
        expect_error "$d" "$out" "FIFO as the .$what" "pipe\.$what.*not a regular file"
    done
    ;;
fd-limit)
    # More ranks than the process may open files: the build reads each
    # rank's file opening it for each read, and writes the same bytes; a
    # limit too low even for that stops it with the limit named, leaving
    # nothing behind.
    d="$WORK/f"; mkdir -p "$d"
    "$SYNTH" -q -n 40 -c 50 -o "$d/t" >/dev/null
    out="$d/out.slog2"
    # (the same -o both times: the file records its command line)
    RC=0; (ulimit -n 256 && exec "$BUILD" -q "$d/t.meta" -o "$out") 2>"$WORK/b.err" || RC=$?
    [ "$RC" -eq 0 ] || fail "40 ranks, 256 files: exit $RC: $(head -n1 "$WORK/b.err")"
    mv "$out" "$d/all.slog2"
    RC=0; (ulimit -n 24 && exec "$BUILD" -q "$d/t.meta" -o "$out") 2>"$WORK/b.err" || RC=$?
    [ "$RC" -eq 0 ] || fail "40 ranks, 24 files: exit $RC: $(head -n1 "$WORK/b.err")"
    cmp -s "$d/all.slog2" "$out" || fail "40 ranks: 24 files gave other bytes than 256"
    rm -f "$out"
    listing "$d" >"$WORK/before"
    RC=0; (ulimit -n 10 && exec "$BUILD" -q "$d/t.meta" -o "$out") >"$WORK/b.out" 2>"$WORK/b.err" || RC=$?
    expect_error "$d" "$out" "40 ranks, 10 files" 'may open only 10 files \(ulimit -n\); the build needs at least [0-9]+'
    ;;
missing)
    d="$WORK/t"; copy_trace "$d"; rm "$BIN2"
    out="$d/out.slog2"
    listing "$d" >"$WORK/before"
    run_build "$WORK/b" "$META" -o "$out"
    expect_error "$d" "$out" "missing rank 2" 'rank[s]? 2\b'
    # A numprocs far beyond the files there (a damaged .meta): the missing
    # ranks are given as ranges, in one short line.
    sed -i 's/^numprocs=.*/numprocs=100000/' "$META"
    run_build "$WORK/b" "$META" -o "$out"
    expect_error "$d" "$out" "numprocs 100000, 3 files" 'ranks 2, 4-99999 \(99997 of 100000\)'
    len=$(wc -c <"$WORK/b.err")
    [ "$len" -lt 400 ] || fail "numprocs 100000: $len bytes of error message"
    ;;
allow-missing)
    d="$WORK/t"; copy_trace "$d"; rm "$BIN2"
    out="$d/out.slog2"
    run_build "$WORK/b" --allow-missing "$META" -o "$out"
    cat "$WORK/b.out"; head -n 2 "$WORK/b.err" | sed 's/^/   stderr: /'
    [ "$RC" -eq 3 ] || fail "--allow-missing: exit $RC, expected 3"
    grep -q -E 'rank[s]? 2\b' "$WORK/b.err" || fail "--allow-missing: warning does not name rank 2"
    [ -s "$out" ] || die "--allow-missing: no output"
    no_tmp "$d" "$out"
    check_file "$out"
    got=$(built_calls "$out")
    want=$(($(expected_calls "$SRC") - $(rank_calls 2)))
    [ "$got" -eq "$want" ] || fail "--allow-missing: $got calls, ranks 0, 1 and 3 have $want"
    timeline_map "$out" | awk '$2 == 2' >"$WORK/tl2"
    # Rank 2 made no calls in this file; nothing may sit on its timeline.
    print_tool --window all --format csv "$out" >"$WORK/csv"
    for id in $(awk '{print $1}' "$WORK/tl2"); do
        n=$(awk -F, -v id="$id" 'NR > 1 && $1 != "arrow" && $3 == id' "$WORK/csv" | wc -l)
        [ "$n" -eq 0 ] || fail "--allow-missing: $n states/events on timeline $id of the missing rank 2"
    done
    # The same with the progress bar (on by default on a terminal): it
    # counts the bytes done of every rank, the missing one included.
    rm -f "$out"
    run_build "$WORK/p" --progress --allow-missing "$META" -o "$out"
    [ "$RC" -eq 3 ] || fail "--allow-missing --progress: exit $RC, expected 3"
    tr '\r' '\n' <"$WORK/p.err" | grep -q '100\.0%' || fail "--allow-missing --progress: no final progress line"
    no_tmp "$d" "$out"
    check_file "$out" >/dev/null
    ;;
meta-missing)
    d="$WORK/t"; mkdir -p "$d"
    listing "$d" >"$WORK/before"
    run_build "$WORK/b" "$d/nope.meta" -o "$d/out.slog2"
    expect_error "$d" "$d/out.slog2" "nonexistent .meta" 'nope\.meta'
    ;;
meta-garbage)
    # A .meta that is not one (binary noise), with real .bin files next to it.
    d="$WORK/t"; copy_trace "$d"
    gen_bytes 2000 5 >"$META"
    listing "$d" >"$WORK/before"
    run_build "$WORK/b" "$META" -o "$d/out.slog2"
    expect_error "$d" "$d/out.slog2" "garbage .meta" "$(basename "$META")"
    ;;
bad-output-dir)
    need_traces
    d="$WORK/t"; mkdir -p "$d"
    run_build "$WORK/b" "$(trace_meta "$SRC")" -o "$d/no/such/dir/out.slog2"
    [ "$RC" -eq 1 ] || fail "-o into a missing directory: exit $RC, expected 1"
    grep -q -F "$d/no/such/dir" "$WORK/b.err" || fail "-o into a missing directory: error does not name the path"
    head -n 3 "$WORK/b.err" | sed 's/^/   stderr: /'
    # -o naming a directory or a device: refused before the build (the
    # output is renamed into place: a directory would fail only at the
    # end, a device would be replaced), nothing left behind
    listing "$d" >"$WORK/before"
    run_build "$WORK/b" "$(trace_meta "$SRC")" -o "$d"
    expect_error "$d" "$d/none" "-o DIR" "$d: .*exists and is a directory"
    run_build "$WORK/b" "$(trace_meta "$SRC")" -o /dev/null
    expect_error "$d" "$d/none" "-o /dev/null" "/dev/null: .*not a regular file"
    [ -c /dev/null ] || fail "-o /dev/null: /dev/null is no longer a device"
    ;;
input-forms)
    # The three input forms (.meta, its directory, the list of .bin files)
    # build the same drawables.
    need_traces
    d="$WORK/t"; mkdir -p "$d"
    run_build "$WORK/b" -q "$(trace_meta "$SRC")" -o "$d/meta.slog2"
    [ "$RC" -eq 0 ] || fail "input .meta: exit $RC"
    # the directory as shell completion types it, with a slash: the
    # .meta found in it is named with one slash
    run_build "$WORK/b" -q "$TRACES/$SRC/" -o "$d/dir.slog2"
    [ "$RC" -eq 0 ] || fail "input directory: exit $RC"
    print_tool "$d/dir.slog2" >"$d/dir.txt"
    grep -q "source.meta = $TRACES/$SRC/[^/]*\.meta\$" "$d/dir.txt" ||
        fail "input directory: source.meta is '$(sed -n 's/^ *source.meta = //p' "$d/dir.txt")'"
    # named relative to where the build ran, the file still records where
    # its source is: absolute paths, whatever the working directory
    (cd "$TRACES/$SRC" && $VALGRIND "$BUILD" -q ./*.meta -o "$d/rel.slog2") || fail "relative .meta: exit $?"
    print_tool "$d/rel.slog2" >"$d/rel.txt"
    grep -q "source.meta = $TRACES/$SRC/[^/]*\.meta\$" "$d/rel.txt" && grep -q "builder.command = slog2-build /" "$d/rel.txt" ||
        fail "relative .meta: annotations not absolute: $(grep -E 'source.meta|builder.command' "$d/rel.txt")"
    run_build "$WORK/b" -q "$TRACES/$SRC"/*.bin -o "$d/list.slog2"
    [ "$RC" -eq 0 ] || { cat "$WORK/b.err" >&2; fail "input .bin list: exit $RC"; }
    for f in meta dir list; do
        print_tool --window all --format csv "$d/$f.slog2" | sort >"$d/$f.csv"
    done
    cmp -s "$d/meta.csv" "$d/dir.csv" || fail "directory input gives other drawables than the .meta"
    cmp -s "$d/meta.csv" "$d/list.csv" || { fail "a .bin list gives other drawables than the .meta:"; diff "$d/meta.csv" "$d/list.csv" >"$d/csv.diff" || true; head -n 10 "$d/csv.diff" >&2; }
    ;;
progress)
    # --progress outside a terminal (as with 2>log): the bar is drawn, each
    # update one line no wider than $COLUMNS - 1 (a wrapped line is not
    # erased by the next \r), the bar dropped when it does not fit, and the
    # last update is 100.0%.
    need_traces
    for cols in 200 80 40; do
        RC=0; COLUMNS=$cols $VALGRIND "$BUILD" --progress "$TRACES/$SRC" -o "$WORK/p.slog2" >/dev/null 2>"$WORK/p.err" || RC=$?
        [ "$RC" -eq 0 ] || fail "--progress, $cols columns: exit $RC"
        tr '\r' '\n' <"$WORK/p.err" | sed 's/\x1b\[K//' | grep -v '^$' >"$WORK/p.lines"
        widest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$WORK/p.lines")
        last=$(tail -n 1 "$WORK/p.lines")
        note "$cols columns: $(wc -l <"$WORK/p.lines") updates, widest $widest: $last"
        [ "$widest" -lt "$cols" ] || fail "--progress, $cols columns: a line of $widest characters"
        case "$last" in *100.0%*) ;; *) fail "--progress, $cols columns: last update '$last' is not 100.0%" ;; esac
        case "$cols:$last" in
        200:\[###*) ;;
        200:*) fail "--progress, 200 columns: no bar in '$last'" ;;
        esac
        # Before the bar, a line counts the rank files as they open: the
        # first and the last of amg-4r's four, and no bar before them.
        first=$(head -n 1 "$WORK/p.lines")
        [ "$first" = "opening rank files  1/4" ] || fail "--progress, $cols columns: first update '$first', expected the first rank file opening"
        opened=$(grep -n -m 1 '^opening rank files  4/4$' "$WORK/p.lines" | cut -d: -f1)
        bar=$(grep -n -m 1 '%' "$WORK/p.lines" | cut -d: -f1)
        [ -n "$opened" ] || fail "--progress, $cols columns: no 'opening rank files  4/4' line"
        [ -n "$opened" ] && [ -n "$bar" ] && [ "$opened" -lt "$bar" ] || fail "--progress, $cols columns: the bar before the last rank file opened"
    done
    # Cut to the terminal as the bar is.
    RC=0; COLUMNS=12 $VALGRIND "$BUILD" --progress "$TRACES/$SRC" -o "$WORK/p.slog2" >/dev/null 2>"$WORK/p.err" || RC=$?
    [ "$RC" -eq 0 ] || fail "--progress, 12 columns: exit $RC"
    first=$(tr '\r' '\n' <"$WORK/p.err" | sed 's/\x1b\[K//' | grep -v '^$' | head -n 1)
    [ "$first" = "opening ran" ] || fail "--progress, 12 columns: first update '$first', expected 'opening ran'"
    ;;
help)
    RC=0; $VALGRIND "$BUILD" --help >"$WORK/h.out" 2>"$WORK/h.err" || RC=$?
    [ "$RC" -eq 0 ] || fail "--help: exit $RC"
    grep -q -i '^usage' "$WORK/h.out" || fail "--help: no 'Usage' on stdout"
    grep -q -- '--allow-missing' "$WORK/h.out" || fail "--help: --allow-missing not documented"
    grep -q -i 'exit status' "$WORK/h.out" || fail "--help: exit status not documented"
    grep -q '^  2  usage error' "$WORK/h.out" || fail "--help: exit status 2 (usage error) not documented"
    ! grep -q 'OPTION?' "$WORK/h.out" || fail "--help: GLib's ellipsis shown as '?'"
    [ "$(grep -c 'INPUT\.\.\.' "$WORK/h.out")" -ge 1 ] && ! grep -q 'INPUT\.\.\. INPUT' "$WORK/h.out" ||
        fail "--help: usage line names INPUT... twice or not at all"
    RC=0; $VALGRIND "$BUILD" --version >"$WORK/v.out" 2>"$WORK/v.err" || RC=$?
    [ "$RC" -eq 0 ] || fail "--version: exit $RC"
    grep -q -E '^slog2-build [0-9]+\.[0-9]+\.[0-9]+ \(writes \.slog2 format [0-9]+\.[0-9]+\)$' "$WORK/v.out" ||
        fail "--version: '$(head -n1 "$WORK/v.out")'"
    ;;
no-input)
    RC=0; $VALGRIND "$BUILD" >"$WORK/n.out" 2>"$WORK/n.err" || RC=$?
    [ "$RC" -eq 2 ] || fail "no input: exit $RC, expected 2 (usage)"
    [ "$RC" -lt 128 ] || fail "no input: crashed ($RC)"
    [ -z "$VALGRIND" ] || [ "$RC" -ne "$VG_STATUS" ] || fail "no input: valgrind errors"
    [ -s "$WORK/n.err" ] || fail "no input: nothing on stderr"
    note "no input: exit $RC: $(head -n1 "$WORK/n.err")"
    # a .meta in a list of inputs: said so, not 'no DUMPI lead-in magic'
    printf 'numprocs=1\n' >"$WORK/a.meta"
    printf 'x' >"$WORK/a-0000.bin"
    RC=0; $VALGRIND "$BUILD" "$WORK/a-0000.bin" "$WORK/a.meta" -o "$WORK/n.slog2" >"$WORK/n.out" 2>"$WORK/n.err" || RC=$?
    [ "$RC" -eq 2 ] || fail "a .meta in a list: exit $RC, expected 2 (usage)"
    grep -q -F 'a.meta: a .meta among 2 inputs' "$WORK/n.err" || fail "a .meta in a list: $(head -n1 "$WORK/n.err")"
    [ ! -e "$WORK/n.slog2" ] || fail "a .meta in a list: output written"
    ;;
bad-option)
    RC=0; $VALGRIND "$BUILD" --no-such-option x.meta >"$WORK/n.out" 2>"$WORK/n.err" || RC=$?
    [ "$RC" -eq 2 ] || fail "unknown option: exit $RC, expected 2 (usage)"
    [ "$RC" -lt 128 ] || fail "unknown option: crashed ($RC)"
    [ -z "$VALGRIND" ] || [ "$RC" -ne "$VG_STATUS" ] || fail "unknown option: valgrind errors"
    grep -q -- 'no-such-option' "$WORK/n.err" || fail "unknown option: not named on stderr"
    RC=0; $VALGRIND "$BUILD" "" -o "$WORK/e.slog2" >"$WORK/n.out" 2>"$WORK/n.err" || RC=$?
    [ "$RC" -eq 2 ] || fail "an empty input name: exit $RC, expected 2 (usage)"
    grep -q 'empty name' "$WORK/n.err" || fail "an empty input name: '$(head -n1 "$WORK/n.err")'"
    for j in "-j 0" "-j -1" "-j x" -j0 -qj0; do
        # shellcheck disable=SC2086 # the option and its value as two words, or one
        RC=0; $VALGRIND "$BUILD" $j -o "$WORK/j.slog2" x.meta >"$WORK/n.out" 2>"$WORK/n.err" || RC=$?
        [ "$RC" -eq 2 ] || fail "$j: exit $RC, expected 2 (usage)"
        grep -q -- '-j' "$WORK/n.err" || fail "$j: '$(head -n1 "$WORK/n.err")'"
        [ ! -e "$WORK/j.slog2" ] || fail "$j: output written"
    done
    # -o - means standard output to users, which a .slog2 cannot go to: a
    # usage error, not a file named "-".
    cd "$WORK"
    RC=0; $VALGRIND "$BUILD" -o - "$TRACES/$SRC" >"$WORK/n.out" 2>"$WORK/n.err" || RC=$?
    cd - >/dev/null
    [ "$RC" -eq 2 ] || fail "-o -: exit $RC, expected 2 (usage)"
    grep -q 'standard output' "$WORK/n.err" || fail "-o -: '$(head -n1 "$WORK/n.err")'"
    [ ! -e "$WORK/-" ] || fail "-o -: wrote a file named '-'"
    # An input that is not there: named, with no offset (there is no byte
    # to point at).
    for missing in "$WORK/gone.meta" "$WORK/gone-0000.bin"; do
        RC=0; $VALGRIND "$BUILD" -o "$WORK/m.slog2" "$missing" >"$WORK/n.out" 2>"$WORK/n.err" || RC=$?
        [ "$RC" -eq 1 ] || fail "missing $missing: exit $RC, expected 1"
        grep -q -F "$missing: " "$WORK/n.err" || fail "missing $missing: not named: '$(head -n1 "$WORK/n.err")'"
        grep -q 'No such file' "$WORK/n.err" || fail "missing $missing: no reason: '$(head -n1 "$WORK/n.err")'"
        ! grep -q 'offset' "$WORK/n.err" || fail "missing $missing: an offset for a file not there: '$(head -n1 "$WORK/n.err")'"
        [ ! -e "$WORK/m.slog2" ] || fail "missing $missing: output written"
    done
    [ -d "$TRACES" ] || { echo "SKIP: $TRACES not found"; exit 77; }
    for pb in 1 3 5000 x; do
        RC=0; $VALGRIND "$BUILD" --preview-bins="$pb" -o "$WORK/pb.slog2" "$TRACES/$SRC" >"$WORK/n.out" 2>"$WORK/n.err" || RC=$?
        [ "$RC" -eq 2 ] || fail "--preview-bins=$pb (must be even, 2..4096): exit $RC, expected 2 (usage)"
        [ "$RC" -lt 128 ] || fail "--preview-bins=$pb: crashed ($RC)"
        [ -z "$VALGRIND" ] || [ "$RC" -ne "$VG_STATUS" ] || fail "--preview-bins=$pb: valgrind errors"
    done
    ;;
output-is-input)
    # -o naming one of the inputs (a rank's .bin, the .meta, or the file
    # behind an input given as a symlink): exit 1, the error names it, and
    # the input is untouched (the .slog2 would have been renamed over it).
    d="$WORK/o"; copy_trace "$d"
    cp "$d"/*.bin "$d"/*.meta "$WORK/"
    ln -s "$(basename "$BIN2")" "$d/link2.bin"
    BIN0=$(ls "$d"/*-0000.bin); BIN3=$(ls "$d"/*-0003.bin)
    for target in "$BIN1" "$META" "$BIN2"; do
        listing "$d" >"$WORK/before"
        if [ "$target" = "$BIN2" ]; then
            run_build "$WORK/b" -q "$BIN0" "$BIN1" "$d/link2.bin" "$BIN3" -o "$target"
        else
            run_build "$WORK/b" -q "$META" -o "$target"
        fi
        what="-o $(basename "$target")"
        [ "$RC" -eq 1 ] || fail "$what: exit $RC, expected 1"
        grep -q -F -- "$(basename "$target")" "$WORK/b.err" || fail "$what: the error does not name it"
        grep -q -i 'input' "$WORK/b.err" || fail "$what: the error does not say it is an input"
        cmp -s "$target" "$WORK/$(basename "$target")" || fail "$what: the input was changed"
        listing "$d" >"$WORK/after"
        diff -u "$WORK/before" "$WORK/after" >&2 || fail "$what: files left behind"
        head -n 1 "$WORK/b.err" | sed 's/^/   stderr: /'
    done
    # A symlink as the output is replaced itself; its target stays as it was.
    ln -s "$(basename "$BIN1")" "$d/out-link.slog2"
    run_build "$WORK/b" -q "$META" -o "$d/out-link.slog2"
    [ "$RC" -eq 0 ] || fail "-o SYMLINK-TO-INPUT: exit $RC, expected 0 (the link is replaced, not its target)"
    cmp -s "$BIN1" "$WORK/$(basename "$BIN1")" || fail "-o SYMLINK-TO-INPUT: the link's target was changed"
    [ ! -L "$d/out-link.slog2" ] || fail "-o SYMLINK-TO-INPUT: still a symlink"
    check_file "$d/out-link.slog2" >/dev/null
    ;;
output-too-big)
    # The output outgrows the file size limit (ulimit -f: amg-4r makes about
    # 220 KB), as on a full disk or a quota: nothing is left and
    # the one error is all stderr says (no footer-count warnings about the
    # ranks left unread). With SIGXFSZ at its default the build dies of it
    # after removing its temporary file; with SIGXFSZ ignored the write
    # fails with EFBIG, a plain error naming the output (exit 1).
    d="$WORK/f"; copy_trace "$d"
    out="$d/out.slog2"
    listing "$d" >"$WORK/before"
    if [ -z "$VALGRIND" ]; then
        RC=0
        (ulimit -f 100; exec "$BUILD" -q -j 1 "$META" -o "$out") 2>"$WORK/f.err" || RC=$?
        note "SIGXFSZ: exit $RC: $(cat "$WORK/f.err")"
        [ "$RC" -eq $((128 + $(kill -l XFSZ))) ] || fail "file size limit: exit $RC, expected death by SIGXFSZ"
        grep -q -F 'removed' "$WORK/f.err" || fail "file size limit: no 'removed TEMP' on stderr"
        listing "$d" >"$WORK/after"
        diff -u "$WORK/before" "$WORK/after" >&2 || fail "file size limit: files left behind"
    fi
    # hpcg-4r (8 MB of output) under a 1000 KiB limit: the write fails
    # an eighth of the way through the ranks.
    RC=0
    (ulimit -f 1000; trap '' XFSZ; exec $VALGRIND "$BUILD" -q "$TRACES/hpcg-4r" -o "$out") >"$WORK/b.out" 2>"$WORK/b.err" || RC=$?
    [ -z "$VALGRIND" ] || [ "$RC" -ne "$VG_STATUS" ] || { cat "$WORK/b.err" >&2; die "valgrind reported errors"; }
    expect_error "$d" "$out" "file size limit, SIGXFSZ ignored" "out\.slog2.*(too large|File too large)"
    if grep -v -E 'valgrind|^==' "$WORK/b.err" | grep -q -i 'warning'; then
        fail "file size limit: warnings besides the error:"
        head -n 5 "$WORK/b.err" >&2
    fi
    ;;
killed)
    # A build stopped by SIGTERM (a batch system's time limit) or SIGHUP (a
    # dropped session) removes its temporary file and dies of that signal;
    # under nohup (SIGHUP ignored) it carries on and finishes.
    d="$WORK/k"; mkdir -p "$d"
    # 4 x 1M calls (about 230 MB): a one-thread build takes over a second,
    # the signal comes as soon as the temporary file appears.
    "$SYNTH" -n 4 -c 1000000 -o "$d/t" >/dev/null
    for sig in TERM HUP; do
        out="$d/out.slog2"; rm -f "$out"
        listing "$d" >"$WORK/before"
        RC=0
        "$BUILD" -q -j 1 "$d/t.meta" -o "$out" 2>"$WORK/k.err" &
        pid=$!
        for _ in $(seq 3000); do
            [ -z "$(cd "$d" && ls -A | grep -F out.slog2.tmp || true)" ] || break
            sleep 0.01
        done
        kill -s "$sig" "$pid"
        wait "$pid" || RC=$?
        code=$((128 + $(kill -l "$sig")))
        note "SIG$sig: exit $RC: $(cat "$WORK/k.err")"
        [ "$RC" -eq "$code" ] || fail "SIG$sig: exit $RC, expected $code (the build ended before the signal, or ignored it)"
        grep -q -E 'stopped by a signal; removed .*out\.slog2\.tmp\.' "$WORK/k.err" || fail "SIG$sig: no 'removed TEMP' on stderr"
        [ ! -e "$out" ] || fail "SIG$sig: $out exists"
        listing "$d" >"$WORK/after"
        diff -u "$WORK/before" "$WORK/after" >&2 || fail "SIG$sig: files left behind"
    done
    # Ignored when the build starts: stays ignored.
    out="$d/out.slog2"
    RC=0
    (trap '' HUP; exec "$BUILD" -q -j 1 "$d/t.meta" -o "$out") &
    pid=$!
    for _ in $(seq 3000); do
        [ -z "$(cd "$d" && ls -A | grep -F out.slog2.tmp || true)" ] || break
        sleep 0.01
    done
    kill -s HUP "$pid"
    wait "$pid" || RC=$?
    note "SIGHUP ignored: exit $RC"
    [ "$RC" -eq 0 ] || fail "SIGHUP ignored at start (nohup): exit $RC, expected the build to finish"
    check_file "$out" >/dev/null
    no_tmp "$d" "$out"
    ;;
footer-mismatch)
    # Rank 1's footer says 5 more calls of its first counted function than
    # the stream holds: the build warns (exit 3) naming the file, the
    # function and both counts, found by reading the rank again.
    d="$WORK/t"; copy_trace "$d"
    command -v python3 >/dev/null || { note "no python3: skipped"; finish; exit 0; }
    fn=$(python3 - "$BIN1" <<'PY'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
at = b.rfind(struct.pack('>Q', 0xf007fee7))
if at < 0: sys.exit(0)
at += 8  # DUMPI is big-endian
for l in range(0, 300):
    n, = struct.unpack_from('>I', b, at + 4 * l)
    if n:
        struct.pack_into('>I', b, at + 4 * l, n + 5)
        open(p, 'wb').write(b)
        print(l, n, n + 5)
        break
PY
)
    read -r label decoded said <<<"$fn"
    [ -n "$said" ] || fail "no footer count found in $BIN1"
    out="$d/out.slog2"
    run_build "$WORK/b" -q "$META" -o "$out"
    note "label $label: footer $said, stream $decoded: exit $RC: $(head -c 300 "$WORK/b.err")"
    [ "$RC" -eq 3 ] || fail "exit $RC, expected 3 (a warning)"
    grep -q -E "$(basename "$BIN1"): footer counts $said calls of MPI_[A-Za-z_]+, $decoded were decoded" "$WORK/b.err" ||
        fail "no warning naming the file and both counts"
    [ "$(grep -c 'footer counts' "$WORK/b.err")" -eq 1 ] || fail "more than one footer warning"
    check_file "$out" >/dev/null
    no_tmp "$d" "$out"
    ;;
*) die "unknown case $CASE" ;;
esac
if [ -n "$VALGRIND" ] && [ "$RC" -eq "$VG_STATUS" ]; then
    fail "valgrind reported errors (exit $VG_STATUS)"
fi
finish
