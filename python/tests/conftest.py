"""Shared fixtures: the CLI under test and the repository's inputs.

TOPOMAP (the CLI, default <repo>/build/topomap) is run on the same inputs
as the module, and its JSON is the reference every figure is compared with.
The module loads $TOPOMAP_LIBRARY (tests/cli/t75-python.sh sets it to the
library under test).
"""
import json
import os
import subprocess

import pytest

# the topomap checkout (its inputs, headers and CLI); tests/cli/t75-python.sh
# runs a copy of these tests and names the checkout in TOPOMAP_SOURCE
REPO = os.environ.get("TOPOMAP_SOURCE",
                      os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
TOPOMAP = os.environ.get("TOPOMAP", os.path.join(REPO, "build", "topomap"))
TOPO = os.path.join(REPO, "topologies")
DATA = os.path.join(REPO, "tests", "data")

X5 = os.path.join(TOPO, "psmn-x5", "X5.topofile")
X5_MAP = os.path.join(TOPO, "psmn-x5", "X5.map")
X5_JOB = os.path.join(TOPO, "psmn-x5", "job-64-scattered.hostfile")
LULESH = os.path.join(TOPO, "comm", "lulesh-64.graphStats.txt")
CG64 = os.path.join(TOPO, "comm", "cg-64.size.csv")
RING = os.path.join(DATA, "comm", "ring.mtx")

# (id, CLI topology arguments, Network.load keywords, comm, alloc)
CASES = [
    ("torus", ["--topology", "torus:4x4x4"], dict(spec="torus:4x4x4"), CG64, None),
    ("fattree", ["--topology", "fattree:k=4,n=3"], dict(spec="fattree:k=4,n=3"), CG64, None),
    ("x5", ["--topology", X5, "--node-name-map", X5_MAP, "--slots", "12"],
     dict(spec=X5, node_name_map=X5_MAP, slots=12), LULESH, X5_JOB),
]


def run_cli(*args, expect=0):
    """Runs the CLI; returns its stdout (parsed when it is JSON)."""
    # the CLI is a program of its own: an ASan runtime preloaded for python
    # (t75-python.sh under make test-asan) would clash with the one it links
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    p = subprocess.run([TOPOMAP] + [str(a) for a in args], capture_output=True, text=True, env=env)
    assert p.returncode == expect, "topomap %s: exit %d\n%s" % (" ".join(map(str, args)),
                                                                  p.returncode, p.stderr)
    out = p.stdout.strip()
    return json.loads(out) if out.startswith("{") else p
