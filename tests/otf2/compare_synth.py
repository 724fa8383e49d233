#!/usr/bin/env python3
"""The same slog2-synth run written as DUMPI and as OTF2 (--format otf2)
gives the same drawables through slog2-build's two inputs.

Usage: compare_synth.py SYNTH BUILD PRINT WORKDIR

Compared, after sorting: kind, category name, timeline, start, end,
end_timeline of every state, arrow and event (`slog2-print --window all
--format csv`). One difference is expected and checked apart: the DUMPI
path draws an MPI_Iprobe that found nothing as an event "MPI_Iprobe
(nothing)" (its record says flag 0), the OTF2 path as an MPI_Iprobe state
(Score-P records the region, and no record says what the probe found).
Info fields are compared per kind where both paths fill them the same way
(docs/OTF2.md says which differ and why)."""
import csv
import io
import os
import shutil
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 3):
        sys.exit("FAIL: %s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    return p.stdout


def rows(printer, path):
    out = run([printer, path, "--window", "all", "--format", "csv"])
    return list(csv.DictReader(io.StringIO(out)))


KEY = ("kind", "category", "timeline", "start", "end", "end_timeline")
# Info fields both paths take from the same arguments, per (kind, categories).
# The others differ by design (docs/OTF2.md, "Compared with DUMPI"): comm is
# a rank's handle in DUMPI and a global definition in OTF2; an
# MPI_IRECV_REQUEST has no envelope; MPI_Probe/Iprobe and MPI_Comm_* carry
# no OTF2 record; collective sizes are the writer's, not MPI's arguments.
SAME_INFO = [("arrow", None, ("bytes", "tag")),
             ("state", {"MPI_Send", "MPI_Recv", "MPI_Isend"}, ("dest", "source", "tag", "bytes")),
             ("state", {"MPI_Waitall"}, ("completed",)),
             ("state", {"MPI_Bcast", "MPI_Reduce", "MPI_Gatherv"}, ("root",))]


def main():
    synth, build, printer, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    common = ["-n", "8", "-c", "4000", "--seed", "7", "--user-functions", "-q"]
    run([synth] + common + ["-o", os.path.join(work, "run")])
    run([synth] + common + ["--format", "otf2", "-o", os.path.join(work, "run")])
    run([build, os.path.join(work, "run.meta"), "-o", os.path.join(work, "dumpi.slog2")])
    run([build, os.path.join(work, "run.otf2"), "-o", os.path.join(work, "otf2.slog2")])
    d = rows(printer, os.path.join(work, "dumpi.slog2"))
    o = rows(printer, os.path.join(work, "otf2.slog2"))

    nothing = [r for r in d if r["kind"] == "event" and r["category"] == "MPI_Iprobe (nothing)"]
    d_rest = [r for r in d if r not in nothing]
    d_probe = {(r["timeline"], r["start"]) for r in d if r["category"] == "MPI_Iprobe" and r["kind"] == "state"}
    o_probe = [r for r in o if r["category"] == "MPI_Iprobe" and r["kind"] == "state"]
    o_extra = [r for r in o_probe if (r["timeline"], r["start"]) not in d_probe]
    o_rest = [r for r in o if r not in o_extra]
    fails = []
    if len(o_extra) != len(nothing):
        fails.append("%d MPI_Iprobe (nothing) events (DUMPI) but %d extra MPI_Iprobe states (OTF2)"
                     % (len(nothing), len(o_extra)))
    kd = sorted(tuple(r[k] for k in KEY) for r in d_rest)
    ko = sorted(tuple(r[k] for k in KEY) for r in o_rest)
    if kd != ko:
        sd, so = set(kd), set(ko)
        fails.append("drawables differ: %d only from DUMPI, %d only from OTF2; e.g. %s / %s"
                     % (len(sd - so), len(so - sd), sorted(sd - so)[:2], sorted(so - sd)[:2]))
    for kind, cats, fields in SAME_INFO:
        def pick(rs):
            return sorted(tuple(r[k] for k in KEY + fields) for r in rs
                          if r["kind"] == kind and (cats is None or r["category"] in cats))
        fd, fo = pick(d_rest), pick(o_rest)
        if fd != fo:
            bad = sorted(set(fd) - set(fo))[:3]
            fails.append("%s fields %s differ, e.g. DUMPI %s" % (kind, ",".join(fields), bad))
    counts = {k: sum(1 for r in d_rest if r["kind"] == k) for k in ("state", "arrow", "event")}
    if fails:
        sys.exit("FAIL: " + "\nFAIL: ".join(fails))
    print("ok: %(state)d states, %(arrow)d arrows, %(event)d events the same" % counts
          + "; %d unsuccessful MPI_Iprobe as events (DUMPI) and states (OTF2)" % len(nothing))
    shutil.rmtree(work, ignore_errors=True)


main()
