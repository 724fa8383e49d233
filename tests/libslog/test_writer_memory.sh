#!/usr/bin/env bash
# libslog.writer-memory (label slow): the writer's peak RSS does not grow
# with trace length: 1 M and 10 M MPI-like drawables on 256 timelines,
# written by slog-bench in separate processes; the 10x run's peak must stay
# within 1.3x of the 1x run's (one open node per tree level remains, so a
# little growth with log(length) is expected; measured 12.1 vs 14.4 MB).
set -euo pipefail
bench=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rss() { "$bench" write "$1" 256 "$work/w.slog2" | sed -n 's/.*peak_rss_kb=\([0-9]*\).*/\1/p'; }
a=$(rss 1000000)
b=$(rss 10000000)
echo "writer peak RSS: 1 M drawables ${a} KiB, 10 M drawables ${b} KiB"
if [ -z "$a" ] || [ -z "$b" ]; then echo "FAIL: no figures from slog-bench"; exit 1; fi
if [ $((b * 10)) -gt $((a * 13)) ]; then
    echo "FAIL: peak RSS grows with length: ${b} KiB > 1.3 x ${a} KiB"
    exit 1
fi
echo "ok"
