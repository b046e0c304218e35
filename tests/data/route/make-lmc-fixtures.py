#!/usr/bin/env python3
"""Writes the hand-made LMC 1 fabric (tests/data/route/lmc1) and its bad
table directory (tests/data/bad/lft/lmc-missing).  Run from the repository
root; the outputs are committed, this script documents them.

Fabric (a plain ibnetdiscover dump, which carries `lid N lmc M`): hosts a,
b on leaf1 (LID 10) ports 1, 2; hosts c, d on leaf2 (LID 11) ports 1, 2;
leafN port 3 -> spine1 (LID 20) port N, leafN port 4 -> spine2 (LID 21)
port N.  The hosts have LMC 1: a = LIDs 2-3, b = 4-5, c = 6-7, d = 8-9.
The tables send every host's base LID (path bit 0) down spine1 and its
second LID (path bit 1) down spine2, as an LMC-aware subnet manager
spreads the LIDs of a port.  So a -> c and b -> d, on base LIDs only, both
climb leaf1 -> spine1; spread over both LIDs, each uplink carries half of
each flow.
"""
import os

SW = {"leaf1": (10, 0x1000), "leaf2": (11, 0x1100), "spine1": (20, 0x2000), "spine2": (21, 0x2100)}
CA = {"a": (2, 0xA00, "leaf1", 1), "b": (4, 0xB00, "leaf1", 2),
      "c": (6, 0xC00, "leaf2", 1), "d": (8, 0xD00, "leaf2", 2)}
UP = [("leaf1", 3, "spine1", 1), ("leaf1", 4, "spine2", 1),
      ("leaf2", 3, "spine1", 2), ("leaf2", 4, "spine2", 2)]


def lft(sw):
    t = {}
    for n, (lid, g) in SW.items():
        t[lid] = 0 if n == sw else None
    for h, (lid, g, leaf, p) in CA.items():
        for bit, spine_port in ((0, 3), (1, 4)):
            if sw == leaf:
                t[lid + bit] = p
            elif sw.startswith("leaf"):
                t[lid + bit] = spine_port
            else:  # a spine: down to the host's leaf
                t[lid + bit] = 1 if leaf == "leaf1" else 2
    for n, (lid, g) in SW.items():
        if t[lid] is None:
            if sw.startswith("leaf"):
                t[lid] = {"leaf1": 3, "leaf2": 3, "spine1": 3, "spine2": 4}[n]
            else:
                t[lid] = {"leaf1": 1, "leaf2": 2, "spine1": 1, "spine2": 1}[n]
    return t


def plain_dump():
    peers = {n: [] for n in SW}
    for h, (lid, g, leaf, p) in CA.items():
        peers[leaf].append((p, '"H-%016x"[1](%x)' % (g, g + 1), '"%s HCA-1" lid %d 4xEDR' % (h, lid)))
    for a, pa, b, pb in UP:
        peers[a].append((pa, '"S-%016x"[%d]' % (SW[b][1], pb), '"%s" lid %d 4xEDR' % (b, SW[b][0])))
        peers[b].append((pb, '"S-%016x"[%d]' % (SW[a][1], pa), '"%s" lid %d 4xEDR' % (a, SW[a][0])))
    out = ["#", "# Topology file: hand-made (make-lmc-fixtures.py)", "#"]
    for n, (lid, g) in SW.items():
        out += ["", "vendid=0x2c9", "devid=0xcb20", "switchguid=0x%x(%x)" % (g, g),
                'Switch\t8 "S-%016x"\t\t# "%s" base port 0 lid %d lmc 0' % (g, n, lid)]
        for p, peer, tail in sorted(peers[n]):
            out.append("[%d]\t%s\t\t# %s" % (p, peer, tail))
    for h, (lid, g, leaf, p) in CA.items():
        lg = SW[leaf]
        out += ["", "vendid=0x2c9", "devid=0x1017", "caguid=0x%x" % g,
                'Ca\t1 "H-%016x"\t\t# "%s HCA-1"' % (g, h),
                '[1](%x) \t"S-%016x"[%d]\t\t# lid %d lmc 1 "%s" lid %d 4xEDR'
                % (g + 1, lg[1], p, lid, leaf, lg[0])]
    return "\n".join(out) + "\n"


def dest(lid):
    for n, (l, g) in SW.items():
        if l == lid:
            return "(Switch portguid 0x%016x: '%s')" % (g, n)
    for h, (l, g, s, p) in CA.items():
        if l <= lid <= l + 1:
            return "(Channel Adapter portguid 0x%016x: '%s HCA-1')" % (g + 1, h)
    return "(unknown)"


def table(n, t):
    lid, g = SW[n]
    rows = ["Unicast lids [0x0-0x15] of switch Lid %d guid 0x%016x (%s):" % (lid, g, n),
            "  Lid  Out   Destination", "       Port     Info "]
    rows += ["0x%04x %03d : %s" % (l, t[l], dest(l)) for l in sorted(t)]
    rows.append("%d valid lids dumped " % len(t))
    return "\n".join(rows) + "\n"


def write_dir(path, drop=None):
    os.makedirs(path, exist_ok=True)
    for f in os.listdir(path):
        os.remove(os.path.join(path, f))
    for n in SW:
        t = lft(n)
        if drop and drop[0] == n:
            del t[drop[1]]
        with open(os.path.join(path, "ibroute-%d.txt" % SW[n][0]), "w") as f:
            f.write(table(n, t))


base = "tests/data/route/lmc1"
os.makedirs(base, exist_ok=True)
open(base + "/fabric.txt", "w").write(plain_dump())
open(base + "/pairs.edges", "w").write("0 2 1\n1 3 1\n")
write_dir(base + "/tables")
# leaf1 has no entry for c's second LID (7): only --lmc-spread needs it
write_dir("tests/data/bad/lft/lmc-missing", drop=("leaf1", 7))
