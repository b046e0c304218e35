#!/usr/bin/env python3
"""Writes the hand-made LFT fabric (tests/data/route/lft2), its tables in
every dump format the reader knows (tables/: ibroute, one file per switch;
dump/: dump_lfts.sh, one file with directed-route headers; osm/: OpenSM's
opensm-lfts.dump; fdbs/: OpenSM's opensm.fdbs / ibdiagnet2.fdbs) and the
bad forwarding-table directories (tests/data/bad/lft/*).  Run from the
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


def dump_lfts(tables):
    """dump_fts (dump_lfts.sh): ibroute's blocks, the switch named by its
    directed route (rdma-core dump_fts.c dump_unicast_tables)."""
    blocks = []
    for i, (n, t) in enumerate(tables.items()):
        b = table(n, t).replace("switch Lid %d" % SW[n][0], "switch DR path slid 0; dlid 0; 0,%d" % i)
        if i == 1:  # dump_fts -n: no destination column
            b = "\n".join(l.split(" : ")[0] + " " if l.startswith("0x") else l for l in b.split("\n"))
        blocks.append(b)
    return "".join(blocks)


def osm_lfts(tables):
    """opensm-lfts.dump (opensm/osm_dump.c dump_ucast_lfts)."""
    out = []
    for n, t in tables.items():
        lid, g = SW[n]
        out.append("Unicast lids [0-%d] of switch Lid %d guid 0x%016x ('%s'):" % (max(t), lid, g, n))
        out += ["0x%04x %03u # %s" % (l, t[l], dest(l)[1:-1]) for l in sorted(t)]
        out.append("%d lids dumped" % max(t))
    return "\n".join(out) + "\n"


def fdbs(tables, prefix="osm_ucast_mgr_", extra=()):
    """opensm.fdbs / ibdiagnet2.fdbs (opensm/osm_dump.c dump_ucast_routes)."""
    out = list(extra)
    for n, t in tables.items():
        out += ["%sdump_ucast_routes: Switch 0x%016x" % (prefix, SW[n][1]), "LID    : Port : Hops : Optimal"]
        for l in range(1, max(t) + 1):
            out.append("0x%04X : %03u  : %02u   : yes" % (l, t[l], 0 if t[l] == 0 else 1) if l in t
                       else "0x%04X : UNREACHABLE" % l)
        out.append("")
    return "\n".join(out) + "\n"


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
write_dir(base + "/dump", {}, raw={"dump_lfts.out": dump_lfts(LFT)})
write_dir(base + "/osm", {}, raw={"opensm-lfts.dump": osm_lfts(LFT)})
write_dir(base + "/fdbs", {}, raw={"ibdiagnet2.fdbs": fdbs(LFT, extra=["# ibdiagnet-style comment", "PLFT_NUM: 0"])})

bad = "tests/data/bad/lft"
without = lambda n: {k: v for k, v in LFT.items() if k != n}
# errors when reading the files
write_dir(bad + "/header", {}, raw={"x.txt": "Unicast lids [0x0-] of switch Lid 10\n"})
write_dir(bad + "/row", {}, raw={"x.txt": table("leaf1", LFT["leaf1"]).replace("0x0003 003", "0x0003 0z3")})
write_dir(bad + "/range", {}, raw={"x.txt": table("leaf1", LFT["leaf1"]).replace("0x0003 003", "0x0030 003")})
write_dir(bad + "/same-switch", {}, raw={"x.txt": table("leaf1", LFT["leaf1"]) + table("leaf1", LFT["leaf1"])})
write_dir(bad + "/no-header", {}, raw={"x.txt": "0x0001 001 : (x)\n"})
write_dir(bad + "/not-ibroute", {}, raw={"x.txt": "Routing table of switch 0x1000\n"})
write_dir(bad + "/multicast", {}, raw={"x.txt": "\nSwitch 0x0000000000001000\nLID    : Out Port(s)\n0xC000 : 0x001  0x002 \n"})
# the dump_ucast_routes family (opensm.fdbs, ibdiagnet2.fdbs)
one = {"leaf1": LFT["leaf1"]}
write_dir(bad + "/fdbs-header", {}, raw={"x.fdbs": fdbs(one).replace("Switch 0x", "Switch 0xzz")})
write_dir(bad + "/fdbs-row", {}, raw={"x.fdbs": fdbs(one).replace("0x0003 : 003", "0x0003 : 0z3")})
write_dir(bad + "/fdbs-plft", {}, raw={"x.fdbs": fdbs(one, extra=["PLFT_NUM: 1"])})
write_dir(bad + "/mixed", {}, raw={"x.txt": table("leaf1", LFT["leaf1"]) + fdbs({"leaf2": LFT["leaf2"]})})

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
