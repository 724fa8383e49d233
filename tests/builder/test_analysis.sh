#!/usr/bin/env bash
# builder.analysis.<trace>: slog2-print --matrix and --profile on a real
# trace, for the whole span and for windows whose edges cut states, equal a
# brute-force computation from the drawables alone (analysis_model.py;
# docs/ANALYSIS.md says what counts). The answers read the file's node
# summaries where they can, so this also checks that summaries and
# records agree.
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
need_traces
TRACE=$1
PY=${PYTHON3:-python3}
MODEL="$(dirname "$0")/analysis_model.py"
build_trace_csv "$TRACE"
check_file "$out"
note "$(print_tool --profile --stats "$out" 2>&1 >/dev/null)"
"$PY" "$MODEL" --windows "$WORK/csv" >"$WORK/windows"
for w in all $(cat "$WORK/windows"); do
    print_tool --window "$w" --matrix --format csv "$out" >"$WORK/m.csv"
    print_tool --window "$w" --profile --by-timeline --format csv "$out" >"$WORK/p.csv"
    "$PY" "$MODEL" "$WORK/csv" "$w" "$WORK/m.csv" "$WORK/p.csv" || fail "$TRACE window $w differs"
    # The same without summaries (every record read) must agree too.
    SLOG2_NO_SUMMARY=1 print_tool --window "$w" --profile --by-timeline --format csv "$out" >"$WORK/p2.csv"
    cmp -s "$WORK/p.csv" "$WORK/p2.csv" || fail "$TRACE window $w: profile with and without summaries differ"
done
[ "$N_FAIL" -eq 0 ] || exit 1
