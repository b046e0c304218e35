#!/usr/bin/env python3
"""VieM-style instances for tools/bench/qap/run.sh, made with the generator
of the shared benchmark (../shared/bench/qap/make_instances.py, imported,
so the construction is exactly the peers'): base graph (rgg<e> with radius
0.55*sqrt(ln n / n), or the 64^3 grid) partitioned into n blocks with
gpmetis, quotient graph as communication graph, plus a shuffled copy.

usage: gen_instances.py SHARED WORKDIR base:n [base:n ...]
prints one path per instance (the _shuf variant)."""
import importlib.util
import os
import sys


def main():
    shared, work = sys.argv[1], sys.argv[2]
    os.environ["WORK"] = os.path.join(work, "base")
    os.environ["INST"] = os.path.join(work, "inst")
    spec = importlib.util.spec_from_file_location(
        "make_instances", os.path.join(shared, "bench", "qap", "make_instances.py"))
    mi = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mi)
    for item in sys.argv[3:]:
        base, n = item.split(":")
        path = mi.comm_graph(base, int(n))
        print(mi.shuffled(path))


if __name__ == "__main__":
    main()
