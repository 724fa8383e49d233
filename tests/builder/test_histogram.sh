#!/usr/bin/env bash
# builder.histogram.<trace>: slog2-print --messages --histogram tag|comm on a
# real trace, for the whole span and windows, equals the histograms
# recomputed from the listed messages (histogram_model.py); the filters
# apply to it as to the list, and the counts add up to the messages.
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
need_traces
TRACE=$1
PY=${PYTHON3:-python3}
MODEL="$(dirname "$0")/histogram_model.py"
build_trace_csv "$TRACE"
check_file "$out"
# four of analysis_model.py's windows (a file: head would close the pipe early)
"$PY" "$(dirname "$0")/analysis_model.py" --windows "$WORK/csv" >"$WORK/all-windows"
sed -n 1,4p "$WORK/all-windows" >"$WORK/windows"
for w in all $(cat "$WORK/windows"); do
    print_tool --window "$w" --messages --format csv "$out" >"$WORK/msgs.csv"
    for key in tag comm; do
        print_tool --window "$w" --messages --histogram "$key" --format csv "$out" >"$WORK/h.csv"
        "$PY" "$MODEL" "$key" "$WORK/msgs.csv" "$WORK/h.csv" || fail "$TRACE window $w: --histogram $key differs"
    done
done
# a filter narrows the histogram as it narrows the list
print_tool --messages --from 0 --bytes 1:1000000 --format csv "$out" >"$WORK/msgs.csv"
print_tool --messages --from 0 --bytes 1:1000000 --histogram tag --format csv "$out" >"$WORK/h.csv"
"$PY" "$MODEL" tag "$WORK/msgs.csv" "$WORK/h.csv" || fail "$TRACE --from 0 --bytes: --histogram tag differs"
# every message in one bin of each histogram
n=$(($(print_tool --messages --format csv "$out" | wc -l) - 1))
for h in bytes time_s; do
    s=$(print_tool --messages --histogram comm --format csv "$out" | awk -F, -v h="$h" '$2 == h { s += $5 } END { print s + 0 }')
    [ "$s" = "$n" ] || fail "$TRACE: the $h histogram holds $s messages of $n"
done
[ "$n" -gt 0 ] || fail "$TRACE: no messages"
[ "$N_FAIL" -eq 0 ] || exit 1
