#!/usr/bin/env bash
# test_fdlimit.sh SYNTH WORKDIR: slog2-synth with more ranks than it may
# open files (`ulimit -n`) writes the same bytes as with every file open,
# and a write that fails (a file size limit standing in for a full disk; a
# rank's name taken by a directory) exits 1 with the file named and leaves
# no trace, whole or partial, behind.
set -u
SYNTH=$1
WORK=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$WORK" && mkdir -p "$WORK" || fail "cannot make $WORK"
RANKS=200
"$SYNTH" -q --seed 3 -n $RANKS -c 300 --user-functions -o "$WORK/open/t" || fail "run without a limit failed"
for lim in 64 5; do
    d="$WORK/lim$lim"
    ( ulimit -n $lim && exec "$SYNTH" -q --seed 3 -n $RANKS -c 300 --user-functions -o "$d/t" ) 2>"$WORK/err$lim" ||
        fail "ulimit -n $lim: $(cat "$WORK/err$lim")"
    [ "$(ls "$d" | wc -l)" -eq $((RANKS + 1)) ] || fail "ulimit -n $lim: $(ls "$d" | wc -l) files, want $((RANKS + 1))"
    for f in "$WORK"/open/*; do
        cmp -s "$f" "$d/$(basename "$f")" || fail "ulimit -n $lim: $(basename "$f") differs"
    done
    echo "ulimit -n $lim: $RANKS ranks, the same $((RANKS + 1)) files"
done

# No space: SIGXFSZ ignored, so a write past `ulimit -f` fails with EFBIG.
d="$WORK/full"
RC=0
( trap '' XFSZ; ulimit -n 32 && ulimit -f 64 && exec "$SYNTH" -q -n 40 -c 3000 -o "$d/t" ) 2>"$WORK/err-full" || RC=$?
[ "$RC" -eq 1 ] || fail "file size limit: exit $RC, want 1 ($(cat "$WORK/err-full"))"
grep -q "$d/t-00[0-9][0-9]\.bin: File too large" "$WORK/err-full" || fail "file size limit: stderr: $(cat "$WORK/err-full")"
[ -z "$(ls "$d")" ] || fail "file size limit: left behind: $(ls "$d" | head)"
echo "file size limit: exit 1, $(cat "$WORK/err-full")"

# The last rank's name is a directory: its rename fails after the others'.
d="$WORK/taken"
mkdir -p "$d/t-0039.bin"
RC=0
( ulimit -n 32 && exec "$SYNTH" -q -n 40 -c 300 -o "$d/t" ) 2>"$WORK/err-taken" || RC=$?
[ "$RC" -eq 1 ] || fail "rank name taken: exit $RC, want 1"
grep -q "$d/t-0039.bin: " "$WORK/err-taken" || fail "rank name taken: stderr: $(cat "$WORK/err-taken")"
[ "$(ls "$d")" = "t-0039.bin" ] || fail "rank name taken: left behind: $(ls "$d" | head)"
echo "rank name taken: exit 1, $(cat "$WORK/err-taken")"
echo PASS
