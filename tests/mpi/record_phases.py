#!/usr/bin/env python3
"""Checks TOPOMAP_RECORD's FILE.phases (docs/mpi.md "Phases").

  record_phases.py sum FILE            the phases add up to FILE: sum over
                                       phases of repeat x entry = FILE's
                                       off-diagonal entry, for every pair
  record_phases.py expect NP ALGO FILE [K]
                                       tests/mpi/record_phases.c's phases on
                                       NP ranks with K iterations (default 3)
                                       under TOPOMAP_RECORD_COLLECTIVES ALGO
                                       (auto or skip), and the sum
Exit 0 when everything matches, 1 with the differences on stderr.  The
file is parsed here, independently of topomap's reader."""
import sys


def read_phases(path):
    lines = [l.split() for l in open(path) if l.strip() and not l.startswith("%")]
    n, k = int(lines[0][0]), int(lines[0][1])
    phases, at = [], 1
    for _ in range(k):
        word, rep, m = lines[at][0], int(lines[at][1]), int(lines[at][2])
        assert word == "phase", lines[at]
        ent = {}
        for l in lines[at + 1:at + 1 + m]:
            ent[(int(l[0]), int(l[1]))] = ent.get((int(l[0]), int(l[1])), 0) + float(l[2])
        phases.append((rep, ent))
        at += 1 + m
    assert at == len(lines), "trailing lines"
    return n, phases


def read_mtx(path):
    rows = [l.split() for l in open(path) if not l.startswith("%")][1:]
    return {(int(a), int(b)): float(c) for a, b, c in rows if a != b and float(c) > 0}


def check_sum(path, errors):
    n, phases = read_phases(path + ".phases")
    total = {}
    for rep, ent in phases:
        for key, v in ent.items():
            total[key] = total.get(key, 0) + rep * v
    whole = read_mtx(path)
    if total != whole:
        keys = sorted(set(total) | set(whole))
        errors.append("sum of the phases != %s: %s" % (path, [(k, total.get(k), whole.get(k))
                      for k in keys if total.get(k) != whole.get(k)][:10]))
    return n, phases


def main():
    errors = []
    if sys.argv[1] == "sum":
        check_sum(sys.argv[2], errors)
    else:
        np_, algo, path = int(sys.argv[2]), sys.argv[3], sys.argv[4]
        k = int(sys.argv[5]) if len(sys.argv) > 5 else 3
        n, phases = check_sum(path, errors)
        if n != np_:
            errors.append("tasks %d, expected %d" % (n, np_))
        ring = {(r + 1, (r + 1) % np_ + 1): 1000.0 for r in range(np_)}
        a2a = {(i + 1, j + 1): 16.0 for i in range(np_) for j in range(np_) if i != j}
        back = {(r + 1, (r - 1) % np_ + 1): 500.0 for r in range(np_)}
        want = [(k, ring), (1, back)] if algo == "skip" else [(k, ring), (1, a2a), (1, back)]
        got = list(phases)
        for rep, ent in want:
            if (rep, ent) in got:
                got.remove((rep, ent))
            else:
                errors.append("missing phase repeat %d: %s" % (rep, sorted(ent.items())[:4]))
        # under auto the allreduce of 4 bytes (recursive doubling) is the one left
        if algo != "skip" and (len(got) != 1 or got[0][0] != k or
                               set(got[0][1].values()) != {4.0}):
            errors.append("the allreduce phase: %s" % got)
        if algo == "skip" and got:
            errors.append("unexpected phases: %s" % got)
        if len(phases) != len(want) + (algo != "skip"):
            errors.append("%d distinct phases" % len(phases))
    for e in errors:
        print("record_phases.py: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
