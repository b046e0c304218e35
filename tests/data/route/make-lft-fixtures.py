#!/usr/bin/env python3
"""Writes the hand-made LFT fabric (tests/data/route/lft2) and the bad
forwarding-table directories (tests/data/bad/lft/*).  Run from the
repository root; the outputs are committed, this script documents them.

Fabric: hosts a, b (LIDs 1, 2) on leaf1 (LID 10) ports 1, 2; hosts c, d
(LIDs 3, 4) on leaf2 (LID 11) ports 1, 2; leafN port 3 -> spine1 (LID 20)
port N, leafN port 4 -> spine2 (LID 21) port N.  leaf1's table sends both
LID 3 and LID 4 up port 3 (spine1): flows a->c and b->d share that uplink.
"""
import os

SW = {"leaf1": (10, 0x1000), "leaf2": (11, 0x1100), "spine1": (20, 0x2000), "spine2": (21, 0x2100)}
CA = {"a": (1, 0xA01, "leaf1", 1), "b": (2, 0xB01, "leaf1", 2),
      "c": (3, 0xC01, "leaf2", 1), "d": (4, 0xD01, "leaf2", 2)}
UP = [("leaf1", 3, "spine1", 1), ("leaf1", 4, "spine2", 1),
      ("leaf2", 3, "spine1", 2), ("leaf2", 4, "spine2", 2)]
LFT = {
    "leaf1": {1: 1, 2: 2, 3: 3, 4: 3, 10: 0, 11: 3, 20: 3, 21: 4},
    "leaf2": {1: 3, 2: 4, 3: 1, 4: 2, 10: 3, 11: 0, 20: 3, 21: 4},
    "spine1": {1: 1, 2: 1, 3: 2, 4: 2, 10: 1, 11: 2, 20: 0, 21: 1},
    "spine2": {1: 1, 2: 1, 3: 2, 4: 2, 10: 1, 11: 2, 20: 1, 21: 0},
}


def ports_dump(no_lid_for=None):
    out = []
    def sw(n, p, peer_t, peer_lid, peer_p, peer_g, peer_d):
        lid, g = SW[n]
        out.append("SW %5d %3d 0x%016x 4x EDR - %s %5d %3d 0x%016x ( '%s' - '%s' )"
                   % (lid, p, g, peer_t, peer_lid, peer_p, peer_g, n, peer_d))
    for h, (lid, g, s, p) in CA.items():
        hl = 0 if h == no_lid_for else lid
        slid, sg = SW[s]
        out.append("CA %5d %3d 0x%016x 4x EDR - SW %5d %3d 0x%016x ( '%s HCA-1' - '%s' )"
                   % (hl, 1, g, slid, p, sg, h, s))
        sw(s, p, "CA", hl, 1, g, h + " HCA-1")
    for a, pa, b, pb in UP:
        sw(a, pa, "SW", SW[b][0], pb, SW[b][1], b)
        sw(b, pb, "SW", SW[a][0], pa, SW[a][1], a)
    return "\n".join(out) + "\n"


def dest(lid):
    for n, (l, g) in SW.items():
        if l == lid:
            return "(Switch portguid 0x%016x: '%s')" % (g, n)
    for h, (l, g, s, p) in CA.items():
        if l == lid:
            return "(Channel Adapter portguid 0x%016x: '%s HCA-1')" % (g, h)
    return "(unknown)"


def table(n, t, extra=()):
    lid, g = SW[n]
    rows = ["Unicast lids [0x0-0x15] of switch Lid %d guid 0x%016x (%s):" % (lid, g, n),
            "  Lid  Out   Destination", "       Port     Info "]
    for l in sorted(t):
        rows.append("0x%04x %03d : %s" % (l, t[l], dest(l)))
    rows += list(extra)
    rows.append("%d valid lids dumped " % len(t))
    return "\n".join(rows) + "\n"


def write_dir(path, tables, extra=None, raw=None):
    os.makedirs(path, exist_ok=True)
    for f in os.listdir(path):
        os.remove(os.path.join(path, f))
    for n, t in tables.items():
        with open(os.path.join(path, "ibroute-%d.txt" % SW[n][0]), "w") as f:
            f.write(table(n, t, (extra or {}).get(n, ())))
    for name, text in (raw or {}).items():
        with open(os.path.join(path, name), "w") as f:
            f.write(text)


def changed(n, lid, port):
    t = {k: dict(v) for k, v in LFT.items()}
    t[n][lid] = port
    return t


base = "tests/data/route/lft2"
os.makedirs(base, exist_ok=True)
open(base + "/fabric.txt", "w").write(ports_dump())
open(base + "/fabric-nolid-c.txt", "w").write(ports_dump(no_lid_for="c"))
write_dir(base + "/tables", LFT)

bad = "tests/data/bad/lft"
without = lambda n: {k: v for k, v in LFT.items() if k != n}
# errors when reading the files
write_dir(bad + "/header", {}, raw={"x.txt": "Unicast lids [0x0-] of switch Lid 10\n"})
write_dir(bad + "/row", {}, raw={"x.txt": table("leaf1", LFT["leaf1"]).replace("0x0003 003", "0x0003 0z3")})
write_dir(bad + "/range", {}, raw={"x.txt": table("leaf1", LFT["leaf1"]).replace("0x0003 003", "0x0030 003")})
write_dir(bad + "/two-headers", {}, raw={"x.txt": table("leaf1", LFT["leaf1"]) + table("leaf2", LFT["leaf2"])})
write_dir(bad + "/no-header", {}, raw={"x.txt": "0x0001 001 : (x)\n"})
write_dir(bad + "/not-ibroute", {}, raw={"x.txt": "Switch 0x0000000000001000\nLID : Out Port(s)\n"})
write_dir(bad + "/empty", {}, raw={"x.txt": ""})
write_dir(bad + "/twice", LFT, raw={"z.txt": table("leaf1", LFT["leaf1"])})
write_dir(bad + "/lid-mismatch", {}, raw={"x.txt": table("leaf1", LFT["leaf1"]).replace("switch Lid 10", "switch Lid 12")})
write_dir(bad + "/port", {}, raw={"x.txt": table("leaf1", LFT["leaf1"]).replace("0x0003 003", "0x0003 256")})
# errors when a flow needs a broken entry (a -> c)
write_dir(bad + "/missing-table", without("spine1"))
write_dir(bad + "/first-missing", without("leaf1"))
write_dir(bad + "/no-cable", changed("leaf1", 3, 7))
write_dir(bad + "/loop", changed("spine1", 3, 1))
write_dir(bad + "/no-entry", {k: ({l: p for l, p in v.items() if not (k == "leaf1" and l == 3)}) for k, v in LFT.items()})
write_dir(bad + "/conflict", LFT, extra={"leaf1": ["0x0003 004 : (again)"]})
write_dir(bad + "/wrong-host", changed("leaf2", 3, 2))
write_dir(bad + "/port0", changed("leaf2", 3, 0))
