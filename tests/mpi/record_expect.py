#!/usr/bin/env python3
"""record_expect.py - what TOPOMAP_RECORD must write for tests/mpi/record_pattern.c.

    record_expect.py P ALGO FILE

computes, from the program's text (mirrored here by hand) and the patterns of
docs/mpi.md ("Recording a job's communication"), the exact bytes and messages
every world rank sends to every other, the per-call counters and the
collective statistics, and compares them with FILE (Matrix Market, bytes),
FILE.messages.mtx and FILE.json.  Exit 0 when everything matches, 1 with the
differences otherwise.

The patterns are written here from the documentation, whole communicator at a
time (trees built and walked, block sets tracked), not translated from the C
(src/mpi/record/pmpi_rec_coll.c works per process from closed forms).
"""
import collections
import json
import math
import sys

INT, DOUBLE, CHAR = 4, 8, 1
T3D = 24  # MPI_Type_contiguous(3, MPI_DOUBLE)


class Rec:
    def __init__(self, P):
        self.P = P
        self.bytes = collections.Counter()
        self.msgs = collections.Counter()
        self.calls = collections.defaultdict(lambda: [0, 0, 0])
        self.cstats = collections.Counter()

    def send(self, kind, src, dst, nbytes):
        self.bytes[(src, dst)] += nbytes
        self.msgs[(src, dst)] += 1
        self.calls[kind][1] += 1
        self.calls[kind][2] += nbytes

    def call(self, kind, n=1):
        self.calls[kind][0] += n


# ---- communicators: lists of world ranks, index = rank in the communicator
def world(P):
    return list(range(P))


def sub_of(P, w):
    """MPI_Comm_split(color w % 2, key -w): descending world ranks."""
    return sorted([x for x in range(P) if x % 2 == w % 2], reverse=True)


def subs(P):
    return [sub_of(P, c) for c in range(min(P, 2))]


# ---- patterns: lists of (from, to, bytes) in communicator ranks
def is_pow2(p):
    return p & (p - 1) == 0


def binomial_tree(p, root):
    """parent of each relative rank v > 0: v without its lowest set bit."""
    parent = {}
    for v in range(1, p):
        parent[v] = v & (v - 1)
    real = lambda v: (v + root) % p
    size = {v: 1 for v in range(p)}
    for v in sorted(parent, reverse=True):  # children have larger relative ranks
        size[parent[v]] += size[v]
    return parent, size, real


def bin_bcast(p, root, n):
    parent, _, real = binomial_tree(p, root)
    return [(real(u), real(v), n) for v, u in parent.items()]


def bin_reduce(p, root, n):
    parent, _, real = binomial_tree(p, root)
    return [(real(v), real(u), n) for v, u in parent.items()]


def bin_gather(p, root, blocks):
    """blocks[rank]: bytes each rank contributes; the subtree's data goes up."""
    parent, _, real = binomial_tree(p, root)
    sub = {v: blocks[real(v)] for v in range(p)}
    for v in sorted(parent, reverse=True):
        sub[parent[v]] += sub[v]
    return [(real(v), real(u), sub[v]) for v, u in parent.items()]


def bin_scatter(p, root, n):
    parent, size, real = binomial_tree(p, root)
    return [(real(u), real(v), n * size[v]) for v, u in parent.items()]


def chain(p, root, n, down, acc):
    real = lambda v: (v + root) % p
    out = []
    for v in range(1, p):  # the link between v - 1 and v
        data = n * (p - v) if acc else n
        out.append((real(v - 1), real(v), data) if down else (real(v), real(v - 1), data))
    return out


def ring_skip(p, blocks, skip):
    """Every rank r sends p - 1 messages to r + 1: all blocks but blocks[skip(r)]."""
    out = []
    for r in range(p):
        sent = [b for i, b in enumerate(blocks) if i != skip(r)]
        out += [(r, (r + 1) % p, b) for b in sent]
    return out


def rd_allreduce(p, n):
    pof2 = 1 << (p.bit_length() - 1)
    rem = p - pof2
    out = [(r, r + 1, n) for r in range(0, 2 * rem, 2)]
    members = [r for r in range(2 * rem) if r % 2] + list(range(2 * rem, p))
    m = 1
    while m < pof2:
        for i, r in enumerate(members):
            out.append((r, members[i ^ m], n))
        m *= 2
    out += [(r, r - 1, n) for r in range(1, 2 * rem, 2)]
    return out


def rd_allgather(p, blocks):
    held = {r: {r} for r in range(p)}
    out = []
    m = 1
    while m < p:
        new = {}
        for r in range(p):
            out.append((r, r ^ m, sum(blocks[i] for i in held[r])))
            new[r] = held[r] | held[r ^ m]
        held = new
        m *= 2
    return out


def rd_reduce_scatter(p, blocks):
    held = {r: set(range(p)) for r in range(p)}
    out = []
    m = p // 2
    while m >= 1:
        for r in range(p):
            give = {i for i in held[r] if (i & m) != (r & m)}
            out.append((r, r ^ m, sum(blocks[i] for i in give)))
        held = {r: {i for i in held[r] if (i & m) == (r & m)} for r in range(p)}
        m //= 2
    return out


def pattern(call, algo, p):
    """The pattern name docs/mpi.md gives for (call, algo)."""
    if algo == "skip":
        return "skip"
    if call in ("gatherv", "scatterv"):
        return "linear"
    if call.startswith("alltoall"):
        return "direct"
    if call in ("bcast", "reduce", "gather", "scatter"):
        return "chain" if algo == "ring" else "binomial"
    if call in ("scan", "exscan"):
        return "chain" if algo == "ring" else "rd"
    if call in ("allgather", "allgatherv"):
        a = {"auto": "ring", "recursive-doubling": "rd", "ring": "ring", "binomial": "binomial"}[algo]
    else:  # allreduce, reduce_scatter(_block), barrier
        a = {"auto": "rd", "recursive-doubling": "rd", "ring": "ring", "binomial": "binomial"}[algo]
    if a == "rd" and call in ("allgather", "allgatherv", "reduce_scatter", "reduce_scatter_block") \
            and not is_pow2(p):
        a = "ring"
    return a


def expand(call, algo, p, root=0, n=0, blocks=None, tsize=0, count=0, sends=None):
    pat = pattern(call, algo, p)
    if pat == "skip" or p == 1:
        return []
    if call == "gatherv":
        return [(r, root, blocks[r]) for r in range(p) if r != root]
    if call == "scatterv":
        return [(root, r, blocks[r]) for r in range(p) if r != root]
    if pat == "direct":
        return [(r, j, sends[r][j]) for r in range(p) for j in range(p) if j != r]
    if call in ("bcast", "reduce", "gather", "scatter"):
        if pat == "chain":
            return chain(p, root, n, call in ("bcast", "scatter"), call in ("gather", "scatter"))
        return {"bcast": lambda: bin_bcast(p, root, n), "reduce": lambda: bin_reduce(p, root, n),
                "gather": lambda: bin_gather(p, root, [n] * p),
                "scatter": lambda: bin_scatter(p, root, n)}[call]()
    if call in ("scan", "exscan"):
        if pat == "chain":
            return [(r, r + 1, n) for r in range(p - 1)]
        out, m = [], 1
        while m < p:
            out += [(r, r ^ m, n) for r in range(p) if r ^ m < p]
            m *= 2
        return out
    if call in ("allgather", "allgatherv"):
        if pat == "ring":
            return ring_skip(p, blocks, lambda r: (r + 1) % p)
        if pat == "rd":
            return rd_allgather(p, blocks)
        return bin_gather(p, 0, blocks) + bin_bcast(p, 0, sum(blocks))
    if call in ("reduce_scatter", "reduce_scatter_block"):
        if pat == "ring":
            return ring_skip(p, blocks, lambda r: r)
        if pat == "rd":
            return rd_reduce_scatter(p, blocks)
        return bin_reduce(p, 0, sum(blocks)) + [(0, i, blocks[i]) for i in range(1, p)]
    if call == "allreduce":
        if pat == "rd":
            return rd_allreduce(p, n)
        if pat == "ring":
            blk = [(count // p + (b < count % p)) * tsize for b in range(p)]
            return ring_skip(p, blk, lambda r: r) + ring_skip(p, blk, lambda r: (r + 1) % p)
        return bin_reduce(p, 0, n) + bin_bcast(p, 0, n)
    if call == "barrier":
        if pat == "rd":
            out, m = [], 1
            while m < p:
                out += [(r, (r + m) % p, 0) for r in range(p)]
                m *= 2
            return out
        if pat == "ring":
            return [(r, (r + 1) % p, 0) for r in range(p)] * 2
        return bin_reduce(p, 0, 0) + bin_bcast(p, 0, 0)
    raise ValueError(call)


# ---- the program ------------------------------------------------------------
def collective(rec, algo, comm, name, kind, statbytes, **kw):
    p = len(comm)
    rec.call(kind, p)
    rec.cstats[(kind, p, statbytes, algo != "skip")] += 1
    for a, b, nb in expand(name, algo, p, **kw):
        rec.send(kind, comm[a], comm[b], nb)


def collectives(rec, algo, comm):
    p = len(comm)
    root = 1 % p
    C = lambda *a, **k: collective(rec, algo, comm, *a, **k)
    C("bcast", "MPI_Bcast", 40, root=root, n=40)
    C("reduce", "MPI_Reduce", 24, root=root, n=24)
    C("allreduce", "MPI_Allreduce", 28, n=28, count=7, tsize=INT)
    C("allreduce", "MPI_Allreduce", 8, n=8, count=2, tsize=INT)
    C("gather", "MPI_Gather", 8, root=root, n=8)
    C("gatherv", "MPI_Gatherv", 1, root=root, blocks=[r + 1 for r in range(p)])
    C("scatter", "MPI_Scatter", 3, root=root, n=3)
    C("scatterv", "MPI_Scatterv", 8, root=root, blocks=[(i + 2) * INT for i in range(p)])
    C("allgather", "MPI_Allgather", 8, blocks=[8] * p)
    C("allgatherv", "MPI_Allgatherv", INT, blocks=[(i % 3 + 1) * INT for i in range(p)])
    C("alltoall", "MPI_Alltoall", 8, sends=[[8] * p for _ in range(p)])
    C("alltoallv", "MPI_Alltoallv", sum((0 + i) % 4 + 1 for i in range(p)),
      sends=[[(r + i) % 4 + 1 for i in range(p)] for r in range(p)])
    wb = [3 if i % 2 else DOUBLE for i in range(p)]
    C("alltoallw", "MPI_Alltoallw", sum(wb), sends=[wb] * p)
    rs = [(i % 2 + 1) * INT for i in range(p)]
    C("reduce_scatter", "MPI_Reduce_scatter", sum(rs), blocks=rs)
    C("reduce_scatter_block", "MPI_Reduce_scatter_block", 16, blocks=[16] * p)
    C("scan", "MPI_Scan", 16, n=16)
    C("exscan", "MPI_Exscan", 16, n=16)
    C("barrier", "MPI_Barrier", 0)
    C("allreduce", "MPI_Iallreduce", 40, n=40, count=5, tsize=DOUBLE)
    C("bcast", "MPI_Ibcast", 3, root=root, n=3)
    C("alltoall", "MPI_Ialltoall", 4, sends=[[4] * p for _ in range(p)])
    C("allgather", "MPI_Iallgather", 2, blocks=[2] * p)
    C("scan", "MPI_Iscan", 8, n=8)
    C("barrier", "MPI_Ibarrier", 0)


def dims_create_2(P):
    d1 = max(d for d in range(1, int(math.isqrt(P)) + 1) if P % d == 0)
    return P // d1, d1


def program(P, algo):
    rec = Rec(P)
    to = lambda w, k: (w + k) % P
    # world point-to-point: (kind, distance, bytes) per process
    for kind, k, nb in (("MPI_Send", 1, 40), ("MPI_Bsend", 2, 24), ("MPI_Ssend", 3, 7),
                        ("MPI_Rsend", 1, 20), ("MPI_Isend", 2, 11), ("MPI_Ibsend", 1, 2 * T3D),
                        ("MPI_Issend", 3, 8), ("MPI_Irsend", 2, 16), ("MPI_Sendrecv", 1, 48),
                        ("MPI_Sendrecv_replace", 2, 36), ("MPI_Send", 1, 0),
                        ("MPI_Send", 1, INT)):  # the last: beside the Recv_init
        for w in range(P):
            rec.call(kind)
            rec.send(kind, w, to(w, k), nb)
    rec.call("MPI_Send", P)  # to MPI_PROC_NULL: a call, no message
    for kind, k, nb, starts in (("MPI_Send_init", 1, 13, 3), ("MPI_Bsend_init", 2, 8, 2),
                                ("MPI_Ssend_init", 3, 8, 2), ("MPI_Rsend_init", 1, 3, 1)):
        for w in range(P):
            rec.call(kind)
            for _ in range(starts):
                rec.send(kind, w, to(w, k), nb)
    barriers_world = 3  # before MPI_Rsend, MPI_Irsend, the Rsend_init start
    for _ in range(barriers_world):
        collective(rec, algo, world(P), "barrier", "MPI_Barrier", 0)
    # sub-communicators: ring sends, reversed order
    for sub in subs(P):
        q = len(sub)
        for r in range(q):
            rec.call("MPI_Send")
            rec.send("MPI_Send", sub[r], sub[(r + 1) % q], 8 * INT)
            rec.call("MPI_Isend")
            rec.send("MPI_Isend", sub[r], sub[(r - 1) % q], 3 * DOUBLE)
    # intercommunicator: local rank r -> remote rank r % remote size
    g = subs(P)
    for me, other in ((g[0], g[1]), (g[1], g[0])):
        for r in range(len(me)):
            rec.call("MPI_Send")
            rec.send("MPI_Send", me[r], other[r % len(other)], 5 * DOUBLE)
        rec.call("MPI_Barrier", len(me))
        rec.cstats[("MPI_Barrier", len(me), 0, False)] += 1
    # neighbourhood collectives
    for kind, per in (("MPI_Neighbor_allgather", [12, 12]), ("MPI_Neighbor_alltoall", [16, 16]),
                      ("MPI_Neighbor_alltoallv", [4, 16]), ("MPI_Neighbor_alltoallw", [2, 8]),
                      ("MPI_Ineighbor_alltoall", [5, 5]), ("MPI_Ineighbor_allgather", [4, 4])):
        for w in range(P):
            rec.call(kind)
            for k, nb in zip((1, 3), per):
                rec.send(kind, w, to(w, k), nb)
    d0, d1 = dims_create_2(P)
    for w in range(P):
        x, y = divmod(w, d1)
        rec.call("MPI_Neighbor_alltoall")
        nbrs = [((x - 1) % d0, y), ((x + 1) % d0, y), (x, y - 1), (x, y + 1)]
        for a, b in nbrs:
            if 0 <= b < d1:
                rec.send("MPI_Neighbor_alltoall", w, a * d1 + b, 3 * INT)
    for w in range(P):
        rec.call("MPI_Neighbor_allgatherv")
        for v in ((w + 1) % P, (w - 1) % P):
            rec.send("MPI_Neighbor_allgatherv", w, v, 2 * DOUBLE)
    collectives(rec, algo, world(P))
    for sub in subs(P):
        collectives(rec, algo, sub)
    return rec


# ---- comparison ---------------------------------------------------------------
def read_mtx(path):
    with open(path) as f:
        lines = [l for l in f if not l.startswith("%")]
    n, m, nnz = map(int, lines[0].split())
    out = {}
    for l in lines[1:]:
        i, j, v = l.split()
        assert (int(i) - 1, int(j) - 1) not in out, ("duplicate entry", l)
        out[(int(i) - 1, int(j) - 1)] = float(v)
    assert len(out) == nnz, (path, len(out), nnz)
    return n, m, out


def main():
    P, algo, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    rec = program(P, algo)
    errors = []

    def same(what, want, got):
        if want != got:
            keys = sorted(set(want) | set(got), key=str)
            diff = [(k, want.get(k), got.get(k)) for k in keys if want.get(k) != got.get(k)]
            errors.append("%s: %d differences (key, expected, recorded): %s"
                          % (what, len(diff), diff[:12]))

    for f, counter in ((path, rec.bytes), (path + ".messages.mtx", rec.msgs)):
        n, m, got = read_mtx(f)
        if (n, m) != (P, P):
            errors.append("%s: size %dx%d, expected %dx%d" % (f, n, m, P, P))
        same(f, {k: float(v) for k, v in counter.items() if v > 0}, got)
    d = json.load(open(path + ".json"))
    same("json calls", {k: v for k, v in rec.calls.items()},
         {k: [v["calls"], v["messages"], v["bytes"]] for k, v in d["calls"].items()})
    same("json collectives", dict(rec.cstats),
         {(c["call"], c["comm_size"], c["bytes"], c["expanded"]): c["calls"]
          for c in d["collectives"]})
    for key, want in (("ranks", P), ("collectives_algorithm", algo),
                      ("bytes", sum(rec.bytes.values())), ("messages", sum(rec.msgs.values())),
                      ("pairs", sum(1 for v in rec.bytes.values() if v > 0)),
                      ("numbering", "MPI_COMM_WORLD")):
        if d[key] != want:
            errors.append("json %s: %r, expected %r" % (key, d[key], want))
    if len(d["hosts"]) != P or not (0 <= d["wall_time_s"] <= d["wall_time_max_s"]):
        errors.append("json hosts/wall time: %r %r %r" % (d["hosts"], d["wall_time_s"],
                                                          d["wall_time_max_s"]))
    if errors:
        print("record_expect P=%d %s:\n  " % (P, algo) + "\n  ".join(errors))
        sys.exit(1)
    print("record_expect P=%d %s: %d pairs, %d messages, %d bytes: exact"
          % (P, algo, len(rec.bytes), sum(rec.msgs.values()), sum(rec.bytes.values())))


if __name__ == "__main__":
    main()
