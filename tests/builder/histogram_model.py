#!/usr/bin/env python3
"""Brute-force model of slog2-print --messages --histogram (docs/ANALYSIS.md).

    histogram_model.py KEY MESSAGES.csv HISTOGRAM.csv

MESSAGES.csv is `slog2-print --messages --format csv` for a window (one row
per message: sender,receiver,send_s,recv_s,category,bytes,tag,comm);
HISTOGRAM.csv is `--messages --histogram KEY --format csv` for the same
window, KEY tag or comm. Recomputes the histograms from the rows alone:
per value of KEY (empty: unknown, listed last) the sizes in bins [2^k,
2^(k+1)) (0 bytes: [0, 1); unknown: low and high empty) and the transfer
times in bins [10^k, 10^(k+1)) ns (<= 0: low empty, high 0), empty bins
left out, and compares line by line: exit 0 when equal, 1 otherwise.
"""
import csv
import sys
from collections import defaultdict


def ns(text):
    neg = text.startswith("-")
    if neg:
        text = text[1:]
    whole, _, frac = text.partition(".")
    v = int(whole or "0") * 1_000_000_000 + int((frac + "000000000")[:9])
    return -v if neg else v


def secs(t):
    return f"{t // 1_000_000_000}.{t % 1_000_000_000:09d}"


def main():
    key, messages, histogram = sys.argv[1:4]
    by = defaultdict(lambda: (defaultdict(int), defaultdict(int)))
    with open(messages, newline="") as f:
        for r in csv.DictReader(f):
            b, t = by[r[key]]
            size = r["bytes"]
            if size == "" or int(size) < 0:
                b[("", "")] += 1
            elif int(size) == 0:
                b[("0", "1")] += 1
            else:
                k = int(size).bit_length() - 1
                b[(str(1 << k), str(1 << (k + 1)))] += 1
            d = ns(r["recv_s"]) - ns(r["send_s"])
            if d <= 0:
                t[("", "0.000000000")] += 1
            else:
                k = len(str(d)) - 1
                t[(secs(10**k), secs(10 ** (k + 1)))] += 1
    keys = sorted((k for k in by if k != ""), key=int) + ([""] if "" in by else [])
    want = [f"{key},histogram,low,high,messages"]
    for k in keys:
        b, t = by[k]
        order = lambda item: -1 if item[0][0] == "" and item[0][1] == "0.000000000" else (
            float("inf") if item[0][0] == "" else int(item[0][0].replace(".", "")))
        for lo_hi, n in sorted(b.items(), key=order):
            want.append(f"{k},bytes,{lo_hi[0]},{lo_hi[1]},{n}")
        for lo_hi, n in sorted(t.items(), key=order):
            want.append(f"{k},time_s,{lo_hi[0]},{lo_hi[1]},{n}")
    with open(histogram) as f:
        have = f.read().splitlines()
    if have == want:
        return 0
    for i in range(max(len(have), len(want))):
        a = have[i] if i < len(have) else "(none)"
        w = want[i] if i < len(want) else "(none)"
        if a != w:
            print(f"line {i + 1}: slog2-print {a!r}, model {w!r}", file=sys.stderr)
            break
    print(f"{len(have)} lines vs {len(want)} in the model", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
