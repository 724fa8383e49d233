#!/usr/bin/env python3
"""An OTF2 archive through slog2-build, checked against otf2-print.

Usage: check_archive.py BUILD PRINT OTF2PRINT ARCHIVE_DIR ANCHOR [MODE]

MODE "build" (default): the archive builds with exit 0 and passes
slog2-print --check; per region name, the states equal otf2-print's ENTER
count (and reference-counts.tsv's, when the folder has one); every
MPI_SEND/MPI_ISEND otf2-print lists is exactly one arrow from its sender's
timeline to its receiver's, with its tag and length, ending where a state of
a receive-completing region ends on the receiver.
MODE "malformed": cut, emptied, removed and bit-flipped copies of the
archive (made here, in a temporary folder) give exit 1 with a message naming
the file and no output, or exit 3 with a file that passes --check; never a
crash. Exit 77 (skip) when the archive or otf2-print is missing.

VALGRIND in the environment is put in front of every slog2-build run."""
import collections
import csv
import io
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

BUILD, PRINT, OTF2PRINT, DIR, ANCHOR = sys.argv[1:6]
MODE = sys.argv[6] if len(sys.argv) > 6 else "build"
VALGRIND = shlex.split(os.environ.get("VALGRIND", ""))
failures = []


def fail(msg):
    print("FAIL:", msg, file=sys.stderr)
    failures.append(msg)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


if not os.path.isfile(os.path.join(DIR, ANCHOR)):
    print(f"SKIP: {DIR}/{ANCHOR} not found (SLOG2_SHARED_DIR lacks traces-otf2)")
    sys.exit(77)
if not shutil.which(OTF2PRINT) and not os.path.isfile(OTF2PRINT):
    print("SKIP: otf2-print not found (Debian package otf2-tools)")
    sys.exit(77)


def build(anchor, out, extra=()):
    r = run(VALGRIND + [BUILD, "-q", *extra, anchor, "-o", out])
    if r.returncode == 99:
        fail(f"valgrind reported errors on {anchor}:\n{r.stderr}")
    if r.returncode < 0 or r.returncode > 3:
        fail(f"slog2-build {anchor}: exit {r.returncode} (a crash?)\n{r.stderr}")
    return r


def listing(slog):
    r = run([PRINT, slog, "-w", "all", "-f", "csv"])
    if r.returncode != 0:
        fail(f"slog2-print {slog}: exit {r.returncode}: {r.stderr}")
        return []
    return list(csv.DictReader(io.StringIO(r.stdout)))


def timeline_ranks(slog):
    r = run([PRINT, slog])
    ranks = {}
    for line in r.stdout.splitlines():
        m = re.match(r"\s+(\d+)\s+rank (\d+)\s+thread (\d+)", line)
        if m:
            ranks[m.group(1)] = int(m.group(2))
    return ranks


def otf2_reference(anchor):
    """ENTER counts per region name and the sends, from otf2-print."""
    defs = run([OTF2PRINT, "-G", anchor]).stdout
    world = []
    comm_groups, comms = {}, {}
    for line in defs.splitlines():
        if line.startswith("GROUP") and "COMM_LOCATIONS" in line and re.search(r"Paradigm: (MPI|\"MPI\")", line):
            world = [int(x) for x in re.findall(r"<(\d+)>", line.split("Members:")[1])]
        elif line.startswith("GROUP") and "COMM_GROUP" in line:
            gid = int(line.split()[1])
            comm_groups[gid] = [int(x) for x in re.findall(r"(?:Members?: |, )(\d+) \(", line)]
        elif line.startswith("COMM "):
            cid = int(line.split()[1])
            comms[cid] = int(re.search(r'Group: "[^"]*" <(\d+)>', line).group(1))
    rank_of = {loc: i for i, loc in enumerate(world)}
    enters = collections.Counter()
    sends = collections.Counter()
    for line in run([OTF2PRINT, anchor]).stdout.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == "ENTER":
            enters[re.search(r'Region: "(.*)" <\d+>', line).group(1)] += 1
        elif f[0] in ("MPI_SEND", "MPI_ISEND"):
            recv = int(re.search(r"Receiver: (\d+)", line).group(1))
            comm = int(re.search(r'Communicator: "[^"]*" <(\d+)>', line).group(1))
            tag = int(re.search(r"Tag: (\d+)", line).group(1))
            length = int(re.search(r"Length: (\d+)", line).group(1))
            dst = comm_groups[comms[comm]][recv]
            sends[(rank_of[int(f[1])], dst, tag, length)] += 1
    return enters, sends


RECEIVE_ENDS = re.compile(r"^MPI_(Recv|Sendrecv.*|Wait.*|Test.*)$")


def check_build(tmp):
    anchor = os.path.join(DIR, ANCHOR)
    out = os.path.join(tmp, "out.slog2")
    r = build(anchor, out)
    if r.returncode != 0:
        fail(f"slog2-build {anchor}: exit {r.returncode}, expected 0\n{r.stderr}")
        return
    c = run([PRINT, "--check", out])
    if c.returncode != 0:
        fail(f"slog2-print --check: {c.stdout}{c.stderr}")
    enters, sends = otf2_reference(anchor)
    rows = listing(out)
    states = collections.Counter(d["category"] for d in rows if d["kind"] == "state")
    if states != enters:
        fail(f"states per region differ from otf2-print's ENTER counts:\n  slog2: {dict(states)}\n  otf2:  {dict(enters)}")
    ref = os.path.join(DIR, "reference-counts.tsv")
    if os.path.isfile(ref):
        with open(ref) as f:
            want = {row["region"]: int(row["enters"]) for row in csv.DictReader(f, delimiter="\t")}
        if dict(states) != want:
            fail(f"states per region differ from reference-counts.tsv:\n  {dict(states)}\n  {want}")
    ranks = timeline_ranks(out)
    arrows = [d for d in rows if d["kind"] == "arrow"]
    got = collections.Counter((ranks[d["timeline"]], ranks[d["end_timeline"]], int(d["tag"]), int(d["bytes"]))
                              for d in arrows)
    if got != sends:
        missing, extra = sends - got, got - sends
        fail(f"arrows differ from otf2-print's sends: missing {dict(missing)}, extra {dict(extra)}")
    ends = {(d["timeline"], d["end"]) for d in rows if d["kind"] == "state" and RECEIVE_ENDS.match(d["category"])}
    off = [d for d in arrows if (d["end_timeline"], d["end"]) not in ends]
    if off:
        fail(f"{len(off)} arrows do not end where a receive-completing region ends, e.g. {off[0]}")
    print(f"-- {ANCHOR}: {sum(states.values())} states in {len(states)} regions, "
          f"{len(arrows)} arrows for {sum(sends.values())} sends")


def copy_archive(tmp, name):
    dst = os.path.join(tmp, name)
    shutil.copytree(DIR, dst)
    for root, dirs, files in os.walk(dst):
        os.chmod(root, 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)
    return dst


def check_one_malformed(tmp, name, damage):
    d = copy_archive(tmp, name)
    what = damage(d)
    out = os.path.join(tmp, name + ".slog2")
    r = build(os.path.join(d, ANCHOR), out)
    leftovers = [f for f in os.listdir(tmp) if ".tmp." in f]
    if leftovers:
        fail(f"{name} ({what}): temporary files left: {leftovers}")
    if r.returncode == 0:
        # A damage the format tolerates must not lose records silently.
        print(f"-- {name} ({what}): built, exit 0")
    elif r.returncode == 1:
        if os.path.exists(out):
            fail(f"{name} ({what}): exit 1 but {out} exists")
        if d not in r.stderr:
            fail(f"{name} ({what}): the error does not name the archive: {r.stderr!r}")
        print(f"-- {name} ({what}): exit 1: {r.stderr.strip().splitlines()[0]}")
    elif r.returncode == 3:
        c = run([PRINT, "--check", out])
        if c.returncode != 0:
            fail(f"{name} ({what}): exit 3 but the file fails --check: {c.stdout}")
        print(f"-- {name} ({what}): exit 3: {r.stderr.strip().splitlines()[0]}")
    else:
        fail(f"{name} ({what}): exit {r.returncode}: {r.stderr}")
    shutil.rmtree(d)


def evt_files(d):
    sub = [os.path.join(root, f) for root, _, files in os.walk(d) for f in files if f.endswith(".evt")]
    return sorted(sub)


def truncate(path, frac):
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(int(size * frac))


def flip(path, seed):
    data = bytearray(open(path, "rb").read())
    rnd = random.Random(seed)
    for _ in range(max(1, len(data) // 64)):
        i = rnd.randrange(len(data))
        data[i] ^= 1 << rnd.randrange(8)
    open(path, "wb").write(bytes(data))


def check_malformed(tmp):
    stem = ANCHOR[:-len(".otf2")]
    cases = [
        ("evt-half", lambda d: (truncate(evt_files(d)[-1], 0.5), "last .evt cut in half")[1]),
        ("evt-empty", lambda d: (truncate(evt_files(d)[0], 0), "first .evt emptied")[1]),
        ("evt-removed", lambda d: (os.remove(evt_files(d)[0]), "first .evt removed")[1]),
        ("def-half", lambda d: (truncate(os.path.join(d, stem + ".def"), 0.5), "global .def cut in half")[1]),
        ("def-removed", lambda d: (os.remove(os.path.join(d, stem + ".def")), "global .def removed")[1]),
        ("anchor-cut", lambda d: (truncate(os.path.join(d, ANCHOR), 0.3), "anchor cut")[1]),
    ]
    for seed in range(4):
        cases.append((f"evt-flip{seed}", lambda d, s=seed: (flip(evt_files(d)[s % len(evt_files(d))], s),
                                                            "bits flipped in an .evt")[1]))
    cases.append(("def-flip", lambda d: (flip(os.path.join(d, stem + ".def"), 7), "bits flipped in the .def")[1]))
    for name, damage in cases:
        check_one_malformed(tmp, name, damage)


with tempfile.TemporaryDirectory(prefix="slog2-otf2-") as tmp:
    if MODE == "build":
        check_build(tmp)
    else:
        check_malformed(tmp)
if failures:
    print(f"{len(failures)} check(s) failed", file=sys.stderr)
    sys.exit(1)
