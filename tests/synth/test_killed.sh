#!/usr/bin/env bash
# test_killed.sh SYNTH WORKDIR: slog2-synth stopped by SIGTERM (a batch
# system's limit) or SIGHUP (a dropped session) while writing removes every
# temporary rank file, says so, and dies of that signal; under an ignored
# SIGTERM (as nohup leaves SIGHUP) it carries on and finishes the trace.
# (Not SIGINT: a background job of a script has it ignored, and keeps it so.)
set -u
SYNTH=$1
WORK=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$WORK" && mkdir -p "$WORK" || fail "cannot make $WORK"
for sig in TERM HUP; do
    d="$WORK/$sig"; mkdir -p "$d"
    # 4 x 4M calls: seconds of writing; the signal comes once the files exist
    "$SYNTH" -n 4 -c 4000000 -o "$d/t" 2>"$d/err" &
    pid=$!
    for _ in $(seq 3000); do
        [ "$(ls "$d" | grep -c '\.tmp\.')" -lt 4 ] || break
        sleep 0.01
    done
    [ "$(ls "$d" | grep -c '\.tmp\.')" -eq 4 ] || fail "SIG$sig: the 4 temporary files never appeared: $(ls "$d")"
    kill -s "$sig" "$pid"
    RC=0; wait "$pid" || RC=$?
    [ "$RC" -eq $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: exit $RC (finished before the signal?)"
    left=$(ls "$d" | grep -v '^err$' || true)
    [ -z "$left" ] || fail "SIG$sig: left behind: $left"
    grep -q 'stopped by a signal; removed its 4 temporary files' "$d/err" || fail "SIG$sig: stderr: $(cat "$d/err")"
    echo "SIG$sig: exit $RC, $(cat "$d/err")"
done
# an ignored signal stays ignored: the trace is finished
d="$WORK/ignored"; mkdir -p "$d"
( trap '' TERM; exec "$SYNTH" -q -n 2 -c 300000 -o "$d/t" ) &
pid=$!
for _ in $(seq 3000); do
    [ "$(ls "$d" | grep -c '\.tmp\.')" -lt 2 ] || break
    sleep 0.01
done
kill -s TERM "$pid" 2>/dev/null
RC=0; wait "$pid" || RC=$?
[ "$RC" -eq 0 ] || fail "ignored SIGTERM: exit $RC"
[ -s "$d/t.meta" ] && [ -s "$d/t-0000.bin" ] && [ -s "$d/t-0001.bin" ] || fail "ignored SIGTERM: trace incomplete: $(ls "$d")"
echo PASS
