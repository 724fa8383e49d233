#!/usr/bin/env bash
# slog2-build tells an OTF2 anchor file by its first bytes, not its name.
# Usage: test_detect.sh BUILD ARCHIVE_DIR (the Score-P ping-pong)
set -euo pipefail
BUILD=$1 DIR=$2
[ -f "$DIR/traces.otf2" ] || { echo "SKIP: $DIR not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$DIR" "$tmp/a"
chmod -R u+w "$tmp/a"
# The anchor renamed: libotf2 finds the .def and the folder by the anchor's
# stem, so the copy keeps the stem and only the suffix changes.
mv "$tmp/a/traces.otf2" "$tmp/a/traces.anchor"
rc=0
"$BUILD" -q "$tmp/a/traces.anchor" -o "$tmp/out.slog2" 2>"$tmp/err" || rc=$?
# Whatever libotf2 makes of the new suffix, it must have been read as OTF2.
if grep -q "DUMPI\|\.meta" "$tmp/err"; then
    echo "FAIL: an anchor file under another name was taken for DUMPI: $(cat "$tmp/err")"; exit 1
fi
echo "-- renamed anchor: exit $rc $(head -c 200 "$tmp/err")"
printf 'not an archive\n' >"$tmp/fake.otf2"
rc=0
"$BUILD" -q "$tmp/fake.otf2" -o "$tmp/fake.slog2" 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || { echo "FAIL: fake .otf2: exit $rc"; exit 1; }
grep -q "fake.otf2" "$tmp/err" || { echo "FAIL: the error does not name the file: $(cat "$tmp/err")"; exit 1; }
[ ! -e "$tmp/fake.slog2" ] || { echo "FAIL: output written for a fake archive"; exit 1; }
# -o naming the anchor itself is refused (it would replace the archive).
rc=0
"$BUILD" -q "$DIR/traces.otf2" -o "$DIR/traces.otf2" 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] || { echo "FAIL: -o ANCHOR: exit $rc, expected 2"; exit 1; }
echo "ok"
