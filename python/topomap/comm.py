"""Communication matrices (tm_comm): tasks 0..n-1, directed volumes."""
import os

import numpy as np

from ._lib import Context, OutputFile, UsageError, enc, ffi, lib

_FORMATS = ("auto", "metis", "mtx", "edges", "dense", "graphstats", "mpip", "scotch")


class Comm:
    """The communication graph of an application: entry (u -> v, w) is a
    volume w sent from task u to task v (self-messages are dropped,
    duplicates summed).  Build one with Comm.read, from_numpy, from_scipy,
    from_networkx or from_edges; topomap.as_comm() takes any of those
    inputs."""

    def __init__(self, ptr, source, labels=None):
        self._c = ptr  # tm_comm * owned (released on collection)
        self.source = source
        self.labels = labels  # task -> node of the graph it came from, if any

    @classmethod
    def _empty(cls, source, labels=None):
        c = ffi.gc(ffi.new("tm_comm *"), lib.tm_comm_release)
        lib.tm_comm_init(c)
        return cls(c, source, labels)

    @classmethod
    def read(cls, path, format="auto"):
        """A file in any format of the library's readers: METIS graph, Matrix
        Market, edge list, dense matrix, graphStats.txt, mpiP report, Scotch
        (docs/formats.md); "auto" detects it by extension, then content."""
        fmt = lib.tm_comm_format_parse(enc(format))
        if fmt < 0:
            raise UsageError(lib.TM_EUSAGE, "unknown comm format %r (%s)" % (format, ", ".join(_FORMATS)))
        ctx = Context()
        obj = cls._empty(str(path))
        ctx.check(lib.tm_comm_read_file(ctx.ptr, enc(os.fspath(path)), fmt, obj._c))
        return obj

    @classmethod
    def from_edges(cls, n, src, dst, w, source="edges", labels=None):
        """From directed entries src[i] -> dst[i] of volume w[i] (tm_comm_from_entries:
        diagonal and zero entries dropped, duplicates summed; negative or
        non-finite volumes and ids outside [0, n) are InputError)."""
        src = np.ascontiguousarray(src, dtype=np.int64)
        dst = np.ascontiguousarray(dst, dtype=np.int64)
        w = np.ascontiguousarray(w, dtype=np.float64)
        if not (src.shape == dst.shape == w.shape) or src.ndim != 1:
            raise ValueError("src, dst and w must be 1-D arrays of one length")
        if n < 0 or n >= 2 ** 31 or (len(src) and (src.min() < -2 ** 31 or src.max() >= 2 ** 31 or
                                                   dst.min() < -2 ** 31 or dst.max() >= 2 ** 31)):
            raise ValueError("task ids must fit in 32 bits")
        s32, d32 = src.astype(np.int32), dst.astype(np.int32)
        obj = cls._empty(source, labels)
        ctx = Context()
        ctx.check(lib.tm_comm_from_entries(
            ctx.ptr, int(n), len(w), ffi.cast("const int32_t *", ffi.from_buffer(s32)),
            ffi.cast("const int32_t *", ffi.from_buffer(d32)),
            ffi.cast("const double *", ffi.from_buffer(w)), obj._c))
        return obj

    @classmethod
    def from_numpy(cls, matrix):
        """A dense n x n array: entry [u, v] is the volume from u to v."""
        a = np.asarray(matrix, dtype=np.float64)
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            raise ValueError("a communication matrix is square, got shape %s" % (a.shape,))
        u, v = np.nonzero(a)
        return cls.from_edges(a.shape[0], u, v, a[u, v], source="numpy")

    @classmethod
    def from_scipy(cls, matrix):
        """A scipy.sparse matrix (any format): entry (u, v) is the volume from u to v."""
        coo = matrix.tocoo()
        if coo.shape[0] != coo.shape[1]:
            raise ValueError("a communication matrix is square, got shape %s" % (coo.shape,))
        return cls.from_edges(coo.shape[0], coo.row, coo.col, coo.data, source="scipy")

    @classmethod
    def from_networkx(cls, graph, weight="weight", default=1.0, nodelist=None):
        """From a networkx graph.  Tasks are the nodes in `nodelist` order
        (default: graph.nodes order; nodes 0..n-1 keep their numbers).  A
        directed edge u -> v is a volume w from u to v; an undirected edge
        u - v is a volume w in each direction, as in a METIS graph file
        (each edge listed by both ends).  Multigraph edges add up."""
        nodes = list(nodelist) if nodelist is not None else list(graph.nodes)
        if nodelist is None and all(isinstance(x, int) for x in nodes) and \
                set(nodes) == set(range(len(nodes))):
            nodes = list(range(len(nodes)))
        index = {x: i for i, x in enumerate(nodes)}
        src, dst, w = [], [], []
        for a, b, d in graph.edges(data=True):
            vol = float(d.get(weight, default))
            src.append(index[a]), dst.append(index[b]), w.append(vol)
            if not graph.is_directed():
                src.append(index[b]), dst.append(index[a]), w.append(vol)
        return cls.from_edges(len(nodes), src, dst, w, source="networkx", labels=nodes)

    # ---- views ---------------------------------------------------------------
    @property
    def n(self):
        return self._c.n

    @property
    def nnz(self):
        return self._c.nnz

    @property
    def total_volume(self):
        return lib.tm_comm_total_volume(self._c)

    @property
    def ptr(self):
        return self._c

    def csr(self):
        """(xadj, adj, w) numpy copies of the CSR."""
        n, m = self.n, self.nnz
        xadj = np.frombuffer(ffi.buffer(self._c.xadj, 8 * (n + 1)), np.int64).copy()
        adj = np.frombuffer(ffi.buffer(self._c.adj, 4 * m), np.int32).copy() if m else np.zeros(0, np.int32)
        w = np.frombuffer(ffi.buffer(self._c.w, 8 * m), np.float64).copy() if m else np.zeros(0)
        return xadj, adj, w

    def to_scipy(self):
        """scipy.sparse.csr_matrix of the volumes."""
        import scipy.sparse as sp
        xadj, adj, w = self.csr()
        return sp.csr_matrix((w, adj, xadj), shape=(self.n, self.n))

    def to_numpy(self):
        """The dense n x n matrix (n^2 memory: small graphs only)."""
        return self.to_scipy().toarray()

    def to_networkx(self):
        """A networkx DiGraph with one edge per directed entry (attribute weight)."""
        import networkx as nx
        g = nx.DiGraph()
        g.add_nodes_from(range(self.n))
        xadj, adj, w = self.csr()
        for u in range(self.n):
            for j in range(xadj[u], xadj[u + 1]):
                g.add_edge(u, int(adj[j]), weight=float(w[j]))
        return g

    def write(self, path, format="edges"):
        """Writes "edges" (u v w per directed entry) or "metis" (needs a
        symmetric graph; volumes rounded to integers >= 1), atomically."""
        ctx = Context()
        with OutputFile(ctx, path) as fp:
            if format == "metis":
                ctx.check(lib.tm_comm_write_metis(ctx.ptr, self._c, fp))
            elif format == "edges":
                ctx.check(lib.tm_comm_write_edges(ctx.ptr, self._c, fp))
            else:
                raise UsageError(lib.TM_EUSAGE, "unknown comm output format %r (edges, metis)" % (format,))

    def __repr__(self):
        return "<topomap.Comm %s: %d tasks, %d entries, volume %g>" % (
            self.source, self.n, self.nnz, self.total_volume)


def as_comm(x, format="auto"):
    """A Comm from a Comm, a path, a numpy array, a scipy.sparse matrix or a
    networkx graph."""
    if isinstance(x, Comm):
        return x
    if isinstance(x, (str, bytes, os.PathLike)):
        return Comm.read(x, format)
    if isinstance(x, np.ndarray):
        return Comm.from_numpy(x)
    if hasattr(x, "tocoo"):
        return Comm.from_scipy(x)
    if hasattr(x, "edges") and hasattr(x, "nodes"):
        return Comm.from_networkx(x)
    if isinstance(x, (list, tuple)):
        return Comm.from_numpy(np.asarray(x))
    raise TypeError("cannot make a communication matrix from %r" % type(x).__name__)
