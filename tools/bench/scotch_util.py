#!/usr/bin/env python3
"""scotch_util.py - glue between topomap files and Scotch 7 (tools/bench/map-scotch.sh).

  scotch_util.py grf EDGES OUT.grf
      task graph: undirected, weights = volume u->v + v->u (Scotch's edge loads),
      scaled down when their sum exceeds 2^25: Debian's Scotch 7 reads and sums
      loads in 32-bit integers, and traced byte volumes (LULESH: 2.6e9 a face)
      wrap around (a weight of 3e9 is read as 852,516,352; CommExpan goes
      negative), which made Scotch map those jobs on garbage weights
  scotch_util.py target NET.graphml SLOTS OUT.src.grf OUT.list OUT.names [HOSTFILE]
      the network (hosts and switches) as a Scotch source graph with host loads
      = SLOTS, the list of host vertices for `amk_grf -l`, and the host names
      in that order; with HOSTFILE ("host [slots=N]" lines, a job's
      allocation) only its hosts are listed, in its order, with its slots
  scotch_util.py plain SCOTCH.map NAMES OUT.plain [LIST]
      Scotch's mapping (task -> target index, the list order; with the
      `amk_grf -l` LIST of a fabric: task -> the host's source vertex) as a
      topomap plain mapping ("host slot" per task; slots numbered in task
      order)
"""
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict


# The largest sum of edge loads handed to Scotch: its loads are 32-bit, and it
# multiplies them by target distances (up to 2^6 here) in its gains.
SCOTCH_LOAD_SUM = 2 ** 25


def grf(edges, out):
    w, n = defaultdict(float), 0
    for line in open(edges):
        p = line.split()
        if len(p) < 3:
            continue
        u, v, x = int(p[0]), int(p[1]), float(p[2])
        n = max(n, u + 1, v + 1)
        if u != v:
            w[(min(u, v), max(u, v))] += x
    adj = defaultdict(list)
    total = sum(w.values())
    scale = min(1.0, SCOTCH_LOAD_SUM / total) if total > 0 else 1.0
    for (u, v), x in w.items():
        x = max(1, int(round(x * scale)))
        adj[u].append((v, x))
        adj[v].append((u, x))
    with open(out, "w") as f:
        f.write("0\n%d %d\n0 010\n" % (n, 2 * len(w)))
        for u in range(n):
            f.write(" ".join([str(len(adj[u]))] + ["%d %d" % (x, v) for v, x in sorted(adj[u])]) + "\n")


def read_hostfile(path, slots):
    out = []
    for line in open(path):
        p = line.split("#")[0].split()
        if p:
            n = int(p[1].split("=")[1]) if len(p) > 1 and p[1].startswith("slots=") else int(slots)
            out.append((p[0], n))
    return out


def target(graphml, slots, src, lst, names, hostfile=None):
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    g = ET.parse(graphml).getroot().find("g:graph", ns)
    ids, name, kind = [], {}, {}
    for nd in g.findall("g:node", ns):
        i = nd.get("id")
        ids.append(i)
        for d in nd.findall("g:data", ns):
            if d.get("key") == "name":
                name[i] = d.text
            elif d.get("key") == "kind":
                kind[i] = d.text
    idx = {i: k for k, i in enumerate(ids)}
    adj = defaultdict(set)
    for e in g.findall("g:edge", ns):
        a, b = idx[e.get("source")], idx[e.get("target")]
        if a != b:
            adj[a].add(b)
            adj[b].add(a)
    hosts = [k for k in range(len(ids)) if kind[ids[k]] == "host"]
    load = {k: int(slots) for k in hosts}
    if hostfile:
        by_name = {name[ids[k]]: k for k in hosts}
        job = read_hostfile(hostfile, slots)
        hosts = [by_name[h] for h, _ in job]
        load = {by_name[h]: n for h, n in job}
    with open(src, "w") as f:
        f.write("0\n%d %d\n0 001\n" % (len(ids), sum(len(v) for v in adj.values())))
        for k in range(len(ids)):
            f.write(" ".join([str(load.get(k, 1)), str(len(adj[k]))] + [str(x) for x in sorted(adj[k])]) + "\n")
    with open(lst, "w") as f:
        f.write("%d\n%s\n" % (len(hosts), " ".join(map(str, hosts))))
    with open(names, "w") as f:
        f.write("".join(name[ids[k]] + "\n" for k in hosts))


def plain(smap, names, out, lst=None):
    tok = open(smap).read().split()
    k = int(tok[0])
    hosts = [x.strip() for x in open(names) if x.strip()]
    m = {int(tok[1 + 2 * i]): int(tok[2 + 2 * i]) for i in range(k)}
    if lst:  # terminal labels are the listed source vertices: their place in the list
        labels = [int(x) for x in open(lst).read().split()[1:]]
        where = {v: i for i, v in enumerate(labels)}
        m = {t: where[v] for t, v in m.items()}
    used = defaultdict(int)
    with open(out, "w") as f:
        for t in range(k):
            h = hosts[m[t]]
            f.write("%s %d\n" % (h, used[h]))
            used[h] += 1


if __name__ == "__main__":
    {"grf": grf, "target": target, "plain": plain}[sys.argv[1]](*sys.argv[2:])
