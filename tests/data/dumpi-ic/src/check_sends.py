#!/usr/bin/env python3
"""Sanity check for the intercommunicator traces: for every sender (world rank)
the multiset of (tag, bytes) of the send calls in the dumpi2ascii decodings
(*.txt.gz) must equal the one in EXPECTED.txt.
usage: check_sends.py DIR..."""
import collections, glob, gzip, re, sys

TYPE_BYTES = {'9': 4, '14': 8}          # dumpi datatype ids: MPI_INT, MPI_DOUBLE
SENDS = ('MPI_Send', 'MPI_Isend', 'MPI_Issend', 'MPI_Ssend', 'MPI_Bsend', 'MPI_Rsend')
bad = 0
for d in sys.argv[1:]:
    exp = collections.Counter()
    for line in open(f'{d}/EXPECTED.txt'):
        f = line.split()
        exp[(int(f[0]), int(f[2]), int(f[3]))] += 1
    got = collections.Counter()
    for fn in sorted(glob.glob(f'{d}/*-[0-9][0-9][0-9][0-9].txt.gz')):
        rank = int(fn[-11:-7])
        cur = None
        for line in gzip.open(fn, 'rt'):
            m = re.match(r'(MPI_\w+) entering', line)
            if m:
                cur = {'fn': m.group(1)}
                continue
            if cur is None:
                continue
            if re.match(r'MPI_\w+ returning', line):
                if cur['fn'] in SENDS:
                    got[(rank, int(cur['tag']), int(cur['count']) * TYPE_BYTES[cur['datatype']])] += 1
                elif cur['fn'] == 'MPI_Sendrecv':
                    got[(rank, int(cur['sendtag']), int(cur['sendcount']) * TYPE_BYTES[cur['sendtype']])] += 1
                cur = None
                continue
            m = re.match(r'\S+ (\w+)=(\S+)', line)
            if m:
                cur[m.group(1)] = m.group(2)
    if exp == got:
        print(f'{d}: OK, {sum(exp.values())} sends')
    else:
        bad += 1
        print(f'{d}: MISMATCH expected-not-traced={dict(exp - got)} traced-not-expected={dict(got - exp)}')
sys.exit(1 if bad else 0)
