"""Networks: generated, read from files, built from a networkx graph."""
import os

import numpy as np

from ._lib import Context, InputFile, OutputFile, UsageError, cstr, enc, ffi, lib, string

_WRITERS = ("ibnetdiscover", "graphml", "dot", "slurm", "slurm-yaml")


class Network:
    """A finalized, checked host network (tm_net): hosts and switches joined
    by cables; cable c is the directed links 2c (a -> b) and 2c+1 (b -> a).
    Build one with Network.load / generate / read_* / from_networkx."""

    def __init__(self, ptr, source):
        self._ptr = ffi.gc(ptr, lib.tm_net_free)
        self.source = source

    # ---- construction ------------------------------------------------------
    @classmethod
    def load(cls, spec, node_name_map=None, separate_hcas=False, slots=None):
        """A generator spec ("torus:8x8x8", docs/generators.md) or a file: an
        ibnetdiscover dump (plain, -g or -p; with its GUID -> name map), a
        .graphml file or an .xml topology spec, as `topomap --topology`
        reads it.  slots: slots of every host (default: as the input says)."""
        ctx = Context()
        o = ffi.new("tm_topo_opts *")
        keep = cstr(node_name_map)  # alive until the call returns
        o.node_name_map = keep
        o.keep_hcas_separate = bool(separate_hcas)
        o.slots = _slots(slots)
        out = ffi.new("tm_net **")
        ctx.check(lib.tm_topology_load(ctx.ptr, enc(os.fspath(spec) if isinstance(spec, os.PathLike)
                                                    else spec), o, out))
        return cls(out[0], str(spec))

    @classmethod
    def generate(cls, spec, slots=None):
        """A generated network: "torus:8x8x8", "fattree:k=4,n=3",
        "clos:leaves=8,hosts_per_leaf=16,spines=4,cap=100", "dragonfly:h=2",
        ... (docs/generators.md; topomap.generator_help())."""
        if not lib.tm_gen_is_spec(enc(spec)):
            # the generator's own message ("unknown generator 'x' (known: ...)")
            ctx = Context()
            scratch = cls(_new_net(ctx), spec)
            ctx.check(lib.tm_gen_build(ctx.ptr, enc(spec), ffi.NULL, scratch._ptr))
            raise UsageError(lib.TM_EUSAGE, "'%s' is not a generator spec" % (spec,))
        return cls.load(spec, slots=slots)

    @classmethod
    def read_ibnetdiscover(cls, path, node_name_map=None, separate_hcas=False, slots=None):
        """An ibnetdiscover dump (tm_ibnet_read) with an optional
        --node-name-map file (GUID -> host name)."""
        ctx = Context()
        nm = ffi.new("tm_nodemap **")
        if node_name_map is not None:
            with InputFile(ctx, node_name_map) as fp:
                ctx.check(lib.tm_nodemap_read(ctx.ptr, fp, enc(os.fspath(node_name_map)), nm))
        try:
            o = ffi.new("tm_ibnet_opts *")
            o.nodemap = nm[0]
            o.keep_hcas_separate = bool(separate_hcas)
            o.slots = _slots(slots)
            return cls._read(ctx, path, lambda fp, name, net: lib.tm_ibnet_read(ctx.ptr, fp, name, o, net))
        finally:
            if nm[0] != ffi.NULL:
                lib.tm_nodemap_free(nm[0])

    @classmethod
    def read_graphml(cls, path):
        """GraphML (tm_graphml_read: node attributes name, kind, slots,
        transit; edge attribute capacity; docs/graphml.md)."""
        ctx = Context()
        return cls._read(ctx, path, lambda fp, name, net: lib.tm_graphml_read(ctx.ptr, fp, name, net))

    @classmethod
    def read_xml(cls, path):
        """A topomap XML topology spec (tm_xmlspec_read, docs/xml-spec.md)."""
        ctx = Context()
        return cls._read(ctx, path, lambda fp, name, net: lib.tm_xmlspec_read(ctx.ptr, fp, name, net))

    @classmethod
    def _read(cls, ctx, path, reader):
        net = cls(_new_net(ctx), str(path))  # owns the tm_net from here on
        with InputFile(ctx, path) as fp:
            ctx.check(reader(fp, enc(os.fspath(path)), net._ptr))
        _finalize(ctx, net._ptr)
        return net

    @classmethod
    def from_networkx(cls, graph, capacity="capacity", default_capacity=1.0, default_slots=1):
        """A network from a networkx Graph or MultiGraph (parallel edges are
        parallel cables) through tm_net_add_vertex / tm_net_add_cable.  Node
        attributes: "kind" ("host" or "switch"; default host), "slots" (hosts;
        default default_slots), "transit" (True/False; default: the library's
        rule), "name" (default str(node)).  Edge attribute `capacity`
        (Gbit/s per direction; default default_capacity)."""
        ctx = Context()
        obj = cls(_new_net(ctx), "networkx")
        net = obj._ptr
        ids = {}
        vid = ffi.new("int32_t *")
        for node, attrs in graph.nodes(data=True):
            kind = attrs.get("kind", "host")
            if kind not in ("host", "switch"):
                raise UsageError(lib.TM_EUSAGE, "node %r: kind %r is not 'host' or 'switch'"
                                 % (node, kind))
            k = lib.TM_VERTEX_HOST if kind == "host" else lib.TM_VERTEX_SWITCH
            slots = int(attrs.get("slots", default_slots if kind == "host" else 0))
            ctx.check(lib.tm_net_add_vertex(ctx.ptr, net, enc(attrs.get("name", str(node))), k,
                                            slots, vid))
            ids[node] = vid[0]
            if "transit" in attrs:
                t = lib.TM_TRANSIT_YES if attrs["transit"] else lib.TM_TRANSIT_NO
                ctx.check(lib.tm_net_set_transit(ctx.ptr, net, vid[0], t))
        for u, v, attrs in graph.edges(data=True):
            cap = float(attrs.get(capacity, default_capacity))
            ctx.check(lib.tm_net_add_cable(ctx.ptr, net, ids[u], ids[v], cap, ffi.NULL))
        _finalize(ctx, net)
        return obj

    # ---- queries ---------------------------------------------------------------
    @property
    def ptr(self):
        return self._ptr

    @property
    def n_vertices(self):
        return lib.tm_net_n_vertices(self._ptr)

    @property
    def n_hosts(self):
        return lib.tm_net_n_hosts(self._ptr)

    @property
    def n_switches(self):
        return lib.tm_net_n_switches(self._ptr)

    @property
    def n_cables(self):
        return lib.tm_net_n_cables(self._ptr)

    @property
    def n_links(self):
        return 2 * self.n_cables

    @property
    def total_slots(self):
        return lib.tm_net_total_slots(self._ptr)

    @property
    def n_parts(self):
        return lib.tm_net_n_parts(self._ptr)

    def name(self, v):
        return string(lib.tm_net_name(self._ptr, self._vertex(v)))

    def find(self, name):
        """Vertex id of a name, or -1."""
        return lib.tm_net_find(self._ptr, enc(name))

    def kind(self, v):
        return "host" if lib.tm_net_kind(self._ptr, self._vertex(v)) == lib.TM_VERTEX_HOST else "switch"

    def slots(self, v):
        return lib.tm_net_slots(self._ptr, self._vertex(v))

    @property
    def names(self):
        """Vertex names in id order."""
        return [string(lib.tm_net_name(self._ptr, v)) for v in range(self.n_vertices)]

    @property
    def hosts(self):
        """Host vertex ids, in id order (numpy int32)."""
        return np.array([v for v in range(self.n_vertices)
                         if lib.tm_net_kind(self._ptr, v) == lib.TM_VERTEX_HOST], dtype=np.int32)

    def cables(self):
        """(a, b, capacity, enabled) numpy arrays indexed by cable id."""
        n = self.n_cables
        a = np.empty(n, np.int32)
        b = np.empty(n, np.int32)
        cap = np.empty(n, np.float64)
        en = np.empty(n, bool)
        pa, pb = ffi.new("int32_t *"), ffi.new("int32_t *")
        for c in range(n):
            lib.tm_net_cable(self._ptr, c, pa, pb)
            a[c], b[c] = pa[0], pb[0]
            cap[c] = lib.tm_net_capacity(self._ptr, c)
            en[c] = lib.tm_net_cable_enabled(self._ptr, c)
        return a, b, cap, en

    def links(self):
        """(tail, head, capacity) numpy arrays indexed by directed link id
        (the finalized network's CSR snapshot)."""
        g = lib.tm_net_csr_get(self._ptr)
        n = g.n_links
        return (np.frombuffer(ffi.buffer(g.tail_of, 4 * n), np.int32).copy(),
                np.frombuffer(ffi.buffer(g.head_of, 4 * n), np.int32).copy(),
                np.frombuffer(ffi.buffer(g.cap, 8 * n), np.float64).copy())

    def _vertex(self, v):
        if isinstance(v, str):
            i = self.find(v)
            if i < 0:
                raise KeyError("no vertex named %r" % v)
            return i
        v = int(v)
        if not 0 <= v < self.n_vertices:
            raise IndexError("vertex id %d out of range" % v)
        return v

    def __repr__(self):
        return "<topomap.Network %s: %d hosts, %d switches, %d cables>" % (
            self.source, self.n_hosts, self.n_switches, self.n_cables)

    # ---- export ----------------------------------------------------------------
    def to_networkx(self, link_load=None):
        """A networkx MultiGraph: nodes are vertex names with kind, slots,
        transit (effective) and id; one edge per cable (key: cable id) with
        capacity and enabled; with link_load (n_links loads, e.g.
        Evaluation.link_load): load_ab, load_ba and congestion (the larger
        direction's load / capacity)."""
        import networkx as nx
        g = nx.MultiGraph()
        names = self.names
        for v, name in enumerate(names):
            g.add_node(name, id=v, kind=self.kind(v), slots=self.slots(v),
                       transit=bool(lib.tm_net_is_transit(self._ptr, v)))
        a, b, cap, en = self.cables()
        if link_load is not None:
            link_load = np.asarray(link_load, dtype=np.float64)
            if link_load.shape != (self.n_links,):
                raise ValueError("link_load has %s entries, the network %d links"
                                 % (link_load.shape, self.n_links))
        for c in range(len(a)):
            attrs = {"capacity": float(cap[c]), "enabled": bool(en[c])}
            if link_load is not None:
                la, lb = float(link_load[2 * c]), float(link_load[2 * c + 1])
                attrs.update(load_ab=la, load_ba=lb, congestion=max(la, lb) / cap[c])
            g.add_edge(names[a[c]], names[b[c]], key=c, **attrs)
        return g

    def write(self, path, format=None, link_load=None):
        """Writes the network with the library's writers, atomically:
        "ibnetdiscover", "graphml" (with link_load: load and congestion per
        edge), "dot", "slurm" (topology.conf) or "slurm-yaml"; format
        defaults from the extension (.graphml, .dot, .yaml, .conf, else
        ibnetdiscover)."""
        fmt = format or _format_of(os.fspath(path))
        if fmt not in _WRITERS:
            raise UsageError(lib.TM_EUSAGE, "unknown network format %r (%s)" % (fmt, ", ".join(_WRITERS)))
        ctx = Context()
        loads = ffi.NULL
        if link_load is not None:
            arr = np.ascontiguousarray(link_load, dtype=np.float64)
            if arr.shape != (self.n_links,):
                raise ValueError("link_load has %s entries, the network %d links" % (arr.shape, self.n_links))
            loads = ffi.cast("const double *", ffi.from_buffer(arr))
        with OutputFile(ctx, path) as fp:
            if fmt == "ibnetdiscover":
                ctx.check(lib.tm_ibnet_write(ctx.ptr, self._ptr, fp))
            elif fmt == "graphml":
                ctx.check(lib.tm_graphml_write(ctx.ptr, self._ptr, loads, fp))
            elif fmt == "dot":
                ctx.check(lib.tm_dot_write(ctx.ptr, self._ptr, loads, fp))
            else:
                o = ffi.new("tm_slurm_opts *")
                o.yaml = fmt == "slurm-yaml"
                ctx.check(lib.tm_slurm_topology_write(ctx.ptr, self._ptr, o, fp))


def generator_help():
    """The generators and their options (what `topomap topo --help` lists)."""
    return string(lib.tm_gen_help())


def _format_of(path):
    for ext, fmt in ((".graphml", "graphml"), (".dot", "dot"), (".yaml", "slurm-yaml"),
                     (".conf", "slurm")):
        if path.endswith(ext):
            return fmt
    return "ibnetdiscover"


def _slots(slots):
    if slots is None:
        return 0
    if int(slots) < 1:
        raise UsageError(lib.TM_EUSAGE, "slots must be >= 1, got %r" % (slots,))
    return int(slots)


def _new_net(ctx):
    out = ffi.new("tm_net **")
    ctx.check(lib.tm_net_new(ctx.ptr, out))
    return out[0]


def _finalize(ctx, net):
    ctx.check(lib.tm_net_finalize(ctx.ptr, net))
    ctx.check(lib.tm_net_check(ctx.ptr, net))
