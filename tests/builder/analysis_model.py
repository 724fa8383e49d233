#!/usr/bin/env python3
"""Brute-force model of slog2-print --matrix and --profile (docs/ANALYSIS.md).

    analysis_model.py DRAWABLES.csv WINDOW MATRIX.csv PROFILE.csv
    analysis_model.py --windows DRAWABLES.csv

DRAWABLES.csv is `slog2-print --window all --format csv` (every drawable);
WINDOW is T0:T1 in seconds (as given to --window) or `all`; MATRIX.csv and
PROFILE.csv are what `slog2-print --window WINDOW --matrix|--profile
--by-timeline --format csv` printed. Recomputes both from the drawables
alone, by the rules in docs/ANALYSIS.md, and compares: exit 0 when equal,
1 with the differences on stderr.

--windows prints windows to test, one a line: slices of the span, and
windows whose edges cut the longest states in the middle.

Message sizes: the DUMPI builder's message categories name their first
field of type bytes `bytes`, so that column is the size here.
"""
import csv
import sys
from collections import defaultdict


def ns(text):
    """Seconds printed with 9 decimals to integer ns, without float error."""
    neg = text.startswith("-")
    if neg:
        text = text[1:]
    whole, _, frac = text.partition(".")
    v = int(whole or "0") * 1_000_000_000 + int((frac + "000000000")[:9])
    return -v if neg else v


def fmt(t):
    return f"{t // 1_000_000_000}.{t % 1_000_000_000:09d}"


def windows(drawables):
    st, lo, hi = [], None, None
    with open(drawables, newline="") as f:
        for r in csv.DictReader(f):
            s, e = ns(r["start"]), ns(r["end"])
            lo = min(s, e) if lo is None else min(lo, s, e)
            hi = max(s, e) if hi is None else max(hi, s, e)
            if r["kind"] == "state":
                st.append((e - s, s, e))
    span = hi - lo
    out = [(lo + span // 10, lo + span * 4 // 10), (lo + span // 2, lo + span // 2 + span // 1000 + 1),
           (lo, lo + span // 3), (lo + span * 2 // 3, hi)]
    starts = sorted(x[1] for x in st)
    if starts:
        q = lambda f: starts[int(f * (len(starts) - 1))]
        out += [(q(0.3), q(0.6)), (q(0.5), q(0.5) + max(1, (q(0.6) - q(0.3)) // 100))]
    st.sort(reverse=True)
    long = [x for x in st if x[0] >= 2][:4]
    for i in range(0, len(long) - 1, 2):
        a, b = (long[i][1] + long[i][2]) // 2, (long[i + 1][1] + long[i + 1][2]) // 2
        out.append((min(a, b), max(a, b)))
    if long:
        out.append(((long[0][1] + long[0][2]) // 2, (long[0][1] + long[0][2]) // 2 + 1))
    for a, b in out:
        print(f"{fmt(a)}:{fmt(b)}")


def main():
    if sys.argv[1] == "--windows":
        windows(sys.argv[2])
        return 0
    drawables, window, matrix_csv, profile_csv = sys.argv[1:5]
    states = defaultdict(list)  # timeline -> [(start, end, category)]
    arrows = []
    t_min = t_max = None
    with open(drawables, newline="") as f:
        for r in csv.DictReader(f):
            s, e = ns(r["start"]), ns(r["end"])
            lo, hi = min(s, e), max(s, e)
            t_min = lo if t_min is None else min(t_min, lo)
            t_max = hi if t_max is None else max(t_max, hi)
            if r["kind"] == "state":
                states[int(r["timeline"])].append((s, e, r["category"]))
            elif r["kind"] == "arrow":
                b = r.get("bytes", "")
                arrows.append((int(r["timeline"]), int(r["end_timeline"]), s, e, int(b) if b != "" else None))
    if window == "all":
        t0, t1 = t_min, t_max
    else:
        a, b = window.split(":")
        t0, t1 = ns(a), ns(b)

    # Matrix: messages sent in [t0, t1].
    want_m = defaultdict(lambda: [0, 0, 0, 0])  # messages, bytes, time, unknown
    for snd, rcv, s, e, b in arrows:
        if t0 <= s <= t1:
            c = want_m[(snd, rcv)]
            c[0] += 1
            c[1] += b if b is not None and b >= 0 else 0
            c[2] += e - s
            c[3] += 0 if b is not None and b >= 0 else 1

    # Profile: states meeting the window, cut to it; the parent of a state
    # is the containing state of its timeline last in (start, -end,
    # category) order (categories compared by id: the CSV gives names, so
    # ties between equal intervals of two categories are not checked).
    want_p = defaultdict(lambda: [0, 0, 0, None, None])  # calls, incl, excl, min, max
    for tl, v in states.items():
        v = [x for x in v if x[0] <= t1 and x[1] >= t0]
        v.sort(key=lambda x: (x[0], -x[1]))
        clip = [min(e, t1) - max(s, t0) for s, e, _ in v]
        child = [0] * len(v)
        stack = []
        for i, (s, e, _) in enumerate(v):
            while stack and v[stack[-1]][1] < e:
                stack.pop()
            if stack:
                child[stack[-1]] += clip[i]
            stack.append(i)
        for i, (s, e, cat) in enumerate(v):
            p = want_p[(cat, tl)]
            p[0] += 1
            p[1] += clip[i]
            p[2] += clip[i] - child[i]
            p[3] = clip[i] if p[3] is None else min(p[3], clip[i])
            p[4] = clip[i] if p[4] is None else max(p[4], clip[i])

    bad = []
    got_m = {}
    with open(matrix_csv, newline="") as f:
        for r in csv.DictReader(f):
            got_m[(int(r["sender"]), int(r["receiver"]))] = [
                int(r["messages"]), int(r["bytes"]), ns(r["time_s"]), int(r["unknown_bytes"])]
    if got_m != dict(want_m):
        for k in sorted(set(got_m) | set(want_m)):
            if got_m.get(k) != want_m.get(k):
                bad.append(f"matrix {k}: got {got_m.get(k)}, want {want_m.get(k)}")
    got_p = {}
    with open(profile_csv, newline="") as f:
        for r in csv.DictReader(f):
            got_p[(r["category"], int(r["timeline"]))] = [
                int(r["calls"]), ns(r["inclusive_s"]), ns(r["exclusive_s"]), ns(r["min_s"]), ns(r["max_s"])]
    if got_p != dict(want_p):
        for k in sorted(set(got_p) | set(want_p)):
            if got_p.get(k) != want_p.get(k):
                bad.append(f"profile {k}: got {got_p.get(k)}, want {want_p.get(k)}")
    for line in bad[:20]:
        print(line, file=sys.stderr)
    n_msg = sum(c[0] for c in want_m.values())
    n_st = sum(p[0] for p in want_p.values())
    print(f"window {window}: {len(want_m)} pairs, {n_msg} messages, {len(want_p)} (category, timeline) rows, "
          f"{n_st} states: {'differ' if bad else 'equal'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
