"""Mappings, evaluation and the mapping engine (tm_metrics_eval, tm_map_run)."""
import os

import numpy as np

from ._lib import (CONSTANTS, Context, InfeasibleError, InputFile, OutputFile, UsageError, cstr,
                   enc, ffi, lib, string)
from ._metrics import Metrics
from .comm import as_comm
from .network import Network

#: the refinement `topomap map` applies in network mode: the auto pipeline,
#: whose work `effort` sets (docs/mapping.md "Effort and time")
NETWORK_PIPELINE = "auto"
#: the chain of effort="exhaustive": every construction refined by it
EXHAUSTIVE_PIPELINE = "ils:10+ta"


def _effort_refine(refine, effort, network):
    """(refine, effort level for tm_ctx_set_effort or None) from map's and
    study's arguments, as the CLI's --refine / --effort."""
    if effort is not None and refine != "default":
        raise UsageError(lib.TM_EUSAGE, "effort sets the work of the default pipeline; with "
                                        "refine the chain given runs instead (drop one of them)")
    if refine != "default":
        return refine, None
    if not network:
        if effort is not None:
            raise UsageError(lib.TM_EUSAGE, "effort needs a network: hierarchy mode refines "
                                            "with refine only")
        return None, None
    if effort == "exhaustive":
        return EXHAUSTIVE_PIPELINE, None
    if effort is not None and not (isinstance(effort, int) and 0 <= effort <= lib.TM_EFFORT_MAX):
        raise UsageError(lib.TM_EUSAGE, "effort %r is not a level in [0, %d] or 'exhaustive'"
                         % (effort, lib.TM_EFFORT_MAX))
    return NETWORK_PIPELINE, effort
_OBJECTIVES = ("congestion", "dilation", "qap", "pareto", "time")


class Hierarchy:
    """A processing-element hierarchy (VieM semantics, docs/qap.md):
    Hierarchy("4:16:8", "1:10:100"), or Hierarchy.from_hwloc(path) for
    the cores of one node.  Use it in place of a Network for hierarchy-mode
    mapping and evaluation, or as node_hierarchy= of a network."""

    def __init__(self, levels=None, distances=None, _h=None):
        self._h = _h if _h is not None else ffi.new("tm_hier *")
        if _h is None:
            ctx = Context()
            ctx.check(lib.tm_hier_parse(ctx.ptr, enc(levels), enc(distances), self._h))
        self.spec = (levels, distances)

    @classmethod
    def from_hwloc(cls, path):
        h = ffi.new("tm_hier *")
        ctx = Context()
        with InputFile(ctx, path) as fp:
            ctx.check(lib.tm_hier_from_hwloc(ctx.ptr, fp, enc(os.fspath(path)), h))
        return cls(_h=h)

    @property
    def n_pe(self):
        return self._h.n_pe

    @property
    def levels(self):
        return [self._h.a[i] for i in range(self._h.k)]

    @property
    def distances(self):
        return [self._h.d[i] for i in range(self._h.k)]

    def __repr__(self):
        return "<topomap.Hierarchy %s / %s: %d PEs>" % (
            ":".join(map(str, self.levels)), ":".join("%g" % d for d in self.distances), self.n_pe)


class Mapping:
    """Task -> (host vertex id, slot) in network mode (`host`, `slot`), task ->
    PE in hierarchy mode (`pe`); numpy int32 arrays.  `array` is the n x 2
    (host, slot) array; `hosts` the host names."""

    def __init__(self, host=None, slot=None, pe=None, net=None):
        self.net = net
        if pe is not None:
            self.pe = np.ascontiguousarray(pe, dtype=np.int32)
            self.host = self.slot = None
        else:
            self.host = np.ascontiguousarray(host, dtype=np.int32)
            self.slot = np.ascontiguousarray(slot, dtype=np.int32)
            if self.host.shape != self.slot.shape or self.host.ndim != 1:
                raise ValueError("host and slot must be 1-D arrays of one length")
            self.pe = None

    @classmethod
    def from_c(cls, m, net):
        n = m.n
        take = lambda p: np.frombuffer(ffi.buffer(p, 4 * n), np.int32).copy() if n else np.zeros(0, np.int32)
        if m.pe != ffi.NULL:
            return cls(pe=take(m.pe), net=net)
        return cls(take(m.host), take(m.slot), net=net)

    @classmethod
    def read(cls, net, path, n_tasks=-1):
        """An Open MPI rankfile or a plain mapping (tm_mapping_read); with a
        Hierarchy, one PE index per line."""
        ctx = Context()
        m = _c_mapping()
        hier = isinstance(net, Hierarchy)
        with InputFile(ctx, path) as fp:
            ctx.check(lib.tm_mapping_read(ctx.ptr, ffi.NULL if hier else net.ptr,
                                          net.n_pe if hier else 0, fp, enc(os.fspath(path)),
                                          int(n_tasks), m))
        return cls.from_c(m, net)

    def __len__(self):
        return len(self.pe if self.pe is not None else self.host)

    @property
    def array(self):
        if self.pe is not None:
            return self.pe.copy()
        return np.stack([self.host, self.slot], axis=1)

    @property
    def hosts(self):
        return [self.net.name(h) for h in self.host]

    def to_c(self):
        """A tm_mapping * (owned by the returned cdata)."""
        ctx = Context()
        m = _c_mapping()
        n = len(self)
        ctx.check(lib.tm_mapping_alloc(ctx.ptr, m, n, self.pe is not None))
        if self.pe is not None:
            ffi.memmove(m.pe, self.pe, 4 * n)
        else:
            ffi.memmove(m.host, self.host, 4 * n)
            ffi.memmove(m.slot, self.slot, 4 * n)
        return m

    def write(self, path, format="openmpi", full_hostnames=False):
        """A rankfile ("openmpi"), Hydra machinefile ("mpich"), Slurm hostfile
        ("slurm") or "plain" mapping, written atomically ("-": stdout)."""
        fmt = lib.tm_mapfmt_parse(enc(format))
        if fmt < 0:
            raise UsageError(lib.TM_EUSAGE, "unknown mapping format %r (openmpi, mpich, slurm, plain)" % (format,))
        ctx = Context()
        o = ffi.new("tm_mapwrite_opts *")
        o.full_hostnames = bool(full_hostnames)
        m = self.to_c()
        net = self.net.ptr if isinstance(self.net, Network) else ffi.NULL
        with OutputFile(ctx, path) as fp:
            ctx.check(lib.tm_mapping_write(ctx.ptr, net, m, fmt, o, fp))

    def __repr__(self):
        return "<topomap.Mapping of %d tasks>" % len(self)


def as_mapping(x, net, n_tasks):
    if isinstance(x, Mapping):
        return x
    if isinstance(x, (str, os.PathLike)):
        return Mapping.read(net, x, n_tasks)
    a = np.asarray(x)
    if isinstance(net, Hierarchy):
        return Mapping(pe=a, net=net)
    if a.ndim == 2 and a.shape[1] == 2 and a.dtype.kind in "iu":
        return Mapping(a[:, 0], a[:, 1], net=net)
    if a.ndim == 2 and a.shape[1] == 2:  # (host name, slot) rows
        hosts = [net._vertex(h) for h in a[:, 0]]
        return Mapping(hosts, a[:, 1].astype(np.int32), net=net)
    raise ValueError("a mapping is a Mapping, a rankfile path or an n x 2 (host, slot) array")


def _c_mapping():
    m = ffi.gc(ffi.new("tm_mapping *"), lib.tm_mapping_release)
    lib.tm_mapping_init(m)
    return m


def _alloc(ctx, net, alloc):
    a = ffi.gc(ffi.new("tm_alloc *"), lib.tm_alloc_release)
    lib.tm_alloc_init(a)
    if alloc is not None and not isinstance(alloc, (str, os.PathLike)):
        alloc = ",".join(net.name(h) if not isinstance(h, str) else h for h in alloc)
    ctx.check(lib.tm_alloc_parse(ctx.ptr, net.ptr, enc(os.fspath(alloc)) if alloc is not None
                                 else ffi.NULL, a))
    return a


def _routing_names():
    """The library's routing models, by tm_route_kind ("ecmp", ..., "ugal")."""
    names, k = [], 0
    while string(lib.tm_route_kind_name(k)) != "unknown":
        names.append(string(lib.tm_route_kind_name(k)))
        k += 1
    return names


def _route(ctx, net, routing, lmc_spread=False, roots=None):
    """A tm_route for a model the library names ("ecmp", "single", "dor",
    "ftree", "minhop", "updn", "valiant", "ugal", ...) or "lft:DIR"
    (forwarding-table dumps)."""
    o = ffi.new("tm_route_opts *")
    keep = []
    if routing.startswith("lft:"):
        kind = lib.TM_ROUTE_LFT
        keep.append(cstr(routing[4:]))
        o.lft_dir = keep[-1]
    else:
        kind = lib.tm_route_kind_parse(enc(routing))
        if kind < 0 or kind == lib.TM_ROUTE_LFT:
            raise UsageError(lib.TM_EUSAGE, "unknown routing %r (%s)" % (routing, ", ".join(
                "lft:DIR" if n == "lft" else n for n in _routing_names())))
    o.lmc_spread = bool(lmc_spread)
    if roots is not None:
        ids = [net._vertex(r) for r in roots]
        keep.append(ffi.new("int32_t[]", ids))
        o.roots, o.n_roots = keep[-1], len(ids)
    out = ffi.new("tm_route **")
    ctx.check(lib.tm_route_new_opts(ctx.ptr, net.ptr, kind, o, out))
    return ffi.gc(out[0], lib.tm_route_free)


def _node_hier(node_hierarchy):
    if node_hierarchy is None:
        return ffi.NULL
    if not isinstance(node_hierarchy, Hierarchy):
        node_hierarchy = Hierarchy(*node_hierarchy)
    return node_hierarchy._h


_TIME_MODELS = {"smpi": "TM_TIME_SMPI", "fluid": "TM_TIME_FLUID"}
#: TM_TIME_OPTS_INIT's values (include/topomap/metrics.h, read with the headers'
#: other macros by _cdefgen.py; tests/test_abi.py checks them against the compiler)
TIME_DEFAULTS = {k: CONSTANTS[k] if k in CONSTANTS else getattr(lib, k)
                 for k in ("TM_TIME_LATENCY_PER_HOP_DEFAULT", "TM_TIME_HOST_BANDWIDTH_DEFAULT",
                           "TM_TIME_EXACT_MAX_FLOWS_DEFAULT")}


def _time_opts(time_model="smpi", latency_per_hop=None, message_overhead=None,
               host_bandwidth=None, time_exact_max=None):
    """A tm_time_opts * (docs/time.md) from the keyword arguments of
    evaluate/map/study, with the CLI's limits (--time-model,
    --latency-per-hop, --message-overhead, --host-bandwidth,
    --time-exact-max); None keeps the default."""
    if time_model not in _TIME_MODELS:
        raise UsageError(lib.TM_EUSAGE, "unknown time_model %r (smpi, fluid)" % (time_model,))
    t = ffi.new("tm_time_opts *")
    t.model = getattr(lib, _TIME_MODELS[time_model])
    t.latency_per_hop_s = TIME_DEFAULTS["TM_TIME_LATENCY_PER_HOP_DEFAULT"]
    t.message_overhead_s = 0.0
    t.host_bandwidth_gbps = TIME_DEFAULTS["TM_TIME_HOST_BANDWIDTH_DEFAULT"]
    t.exact_max_flows = TIME_DEFAULTS["TM_TIME_EXACT_MAX_FLOWS_DEFAULT"]
    for name, field, lo, hi, val in (
            ("latency_per_hop", "latency_per_hop_s", 0.0, 1.0, latency_per_hop),
            ("message_overhead", "message_overhead_s", 0.0, 1.0, message_overhead),
            ("host_bandwidth", "host_bandwidth_gbps", 1e-6, 1e9, host_bandwidth),
            ("time_exact_max", "exact_max_flows", 0, 1 << 40, time_exact_max)):
        if val is None:
            continue
        if not lo <= val <= hi:
            raise UsageError(lib.TM_EUSAGE, "%s %r outside [%g, %g]" % (name, val, lo, hi))
        setattr(t, field, int(val) if field == "exact_max_flows" else float(val))
    return t


def _change(base, v):
    """Percent change against the consecutive placement (0 when base is 0), as the CLI
    (tm_study_change_pct)."""
    return lib.tm_study_change_pct(base, v)


_CHANGE_FIGS = ("max_congestion", "avg_dilation", "qap_J", "est_time_s")


def _gap(value, bound):
    """value / bound as the CLI prints it: 1 for a value of 0, None (JSON
    null) over a bound of 0."""
    if not value > 0:
        return 1.0
    return value / bound if bound > 0 else None


def _bounds(b, metrics, network):
    """The lower bounds (tm_bounds) and the gap of `metrics` as dicts with
    the keys of `map --json` / `eval --json` ("bounds", "gap";
    docs/bounds.md)."""
    keys = ["max_congestion", "avg_dilation", "qap_network_J"] if network else ["J"]
    vals = [b.max_congestion, b.avg_dilation, b.qap_J] if network else [b.qap_J]
    by = [b.congestion_by, b.dilation_by, b.J_by] if network else [b.J_by]
    mine = ([metrics.max_congestion, metrics.avg_dilation, metrics.qap_J] if network
            else [metrics.qap_J])
    methods = {}
    for i in range(b.n_methods):
        m = b.method[i]
        figs = [m.max_congestion, m.avg_dilation, m.qap_J] if network else [m.qap_J]
        methods[string(m.name)] = {k: v for k, v in zip(keys, figs) if v == v}  # NaN: none
    bounds = dict(zip(keys, vals))
    bounds.update({"by": {k: string(x) for k, x in zip(keys, by)}, "methods": methods,
                   "tasks_per_slot": b.tasks_per_slot, "flow_sources": b.flow_sources,
                   "time_s": b.time_s})
    return bounds, {k: _gap(v, lb) for k, v, lb in zip(keys, mine, vals)}


def _compute_bounds(ctx, p, tasks_per_slot=0):
    b = ffi.new("tm_bounds *")
    o = ffi.new("tm_bounds_opts *")
    o.tasks_per_slot = tasks_per_slot
    ctx.check(lib.tm_bounds_compute(ctx.ptr, p, o, b))
    return b


def _most_per_slot(m, slots):
    """The most tasks a C mapping puts on one slot (PE) when it has more
    tasks than slots, else 0 (the problem's one per slot), as the CLI."""
    if m.n <= slots:
        return 0
    if m.pe != ffi.NULL:
        keys = [m.pe[i] for i in range(m.n)]
    else:
        keys = [(m.host[i], m.slot[i]) for i in range(m.n)]
    from collections import Counter
    return max(Counter(keys).values())


def evaluate(net, comm, mapping=None, alloc=None, routing="ecmp", approximate=False,
             link_loads=True, hop_distance=None, node_hierarchy=None, threads=None,
             lmc_spread=False, roots=None, time_model="smpi", latency_per_hop=None,
             message_overhead=None, host_bandwidth=None, time_exact_max=None):
    """The exact figures of `mapping` (as `topomap eval`): a Mapping, a
    rankfile path or an n x 2 (host, slot) array; None: the consecutive
    placement of `alloc` (a hostlist, a hostfile path or a list of hosts;
    None: every host).  With a Hierarchy instead of a Network: J of a PE
    mapping (default identity).  Returns a Metrics; link_load is kept
    unless link_loads=False.  threads: None = all cores (the figures do not
    depend on it).  time_model ("smpi", "fluid"), latency_per_hop (s),
    message_overhead (s), host_bandwidth (Gbit/s) and time_exact_max
    (messages) set the time model of est_time_s (docs/time.md; None: the
    default).  With a mapping whose tasks fit the allocation's slots, the
    result's `consecutive` is the consecutive placement's Metrics (same
    options) and `change_pct` the percent change of max_congestion,
    avg_dilation, qap_J and est_time_s against it, as `eval --mapping`:
    the consecutive placement of `alloc`, or without `alloc` of the same
    job on the mapping's own hosts in name order, each with as many slots
    as the mapping uses there (`baseline` is "alloc" or "mapping_hosts")."""
    comm = as_comm(comm)
    ctx = Context(threads=0 if threads is None else threads)
    if isinstance(net, Hierarchy):
        m = _hier_mapping(ctx, net, comm, mapping)
        out = ffi.gc(ffi.new("tm_metrics *"), lib.tm_metrics_release)
        lib.tm_metrics_init(out)
        ctx.check(lib.tm_metrics_eval_hier(ctx.ptr, net._h, comm.ptr, m, out))
        res = Metrics(out)
        p = ffi.new("tm_problem *")
        p.comm, p.hier, p.imbalance = comm.ptr, net._h, -1.0
        res.bounds, res.gap = _bounds(_compute_bounds(ctx, p, _most_per_slot(m, net.n_pe)), res,
                                      False)
        return res
    a = _alloc(ctx, net, alloc)
    if mapping is None:
        total = lib.tm_alloc_total_slots(a)
        if comm.n > total:
            raise InfeasibleError(lib.TM_EINFEASIBLE, "%d tasks but only %d slots on %d hosts (an "
                                  "oversubscribed placement needs a mapping)" % (comm.n, total, a.n))
        m = _c_mapping()
        ctx.check(lib.tm_mapping_consecutive(ctx.ptr, a, comm.n, m))
    else:
        m = as_mapping(mapping, net, comm.n).to_c()
        if m.n != comm.n:
            raise UsageError(lib.TM_EUSAGE, "the mapping has %d tasks, the communication matrix %d"
                             % (m.n, comm.n))
    ctx.check(lib.tm_mapping_check(ctx.ptr, net.ptr, a if alloc is not None else ffi.NULL, m))
    if mapping is not None and alloc is None:
        # as `eval --mapping` without --alloc: the baseline is the same job on
        # the mapping's own hosts in name order (tm_alloc_of_mapping)
        ctx.check(lib.tm_alloc_of_mapping(ctx.ptr, net.ptr, m, a))
    route = _route(ctx, net, routing, lmc_spread, roots)
    o = ffi.new("tm_metrics_opts *")
    o.keep_link_loads = bool(link_loads)
    o.approximate = bool(approximate)
    nh = _node_hier(node_hierarchy)
    o.node_hier = nh
    o.hop_distance = float(hop_distance or 0.0)
    topt = _time_opts(time_model, latency_per_hop, message_overhead, host_bandwidth,
                      time_exact_max)
    o.time = topt
    out = ffi.gc(ffi.new("tm_metrics *"), lib.tm_metrics_release)
    lib.tm_metrics_init(out)
    ctx.check(lib.tm_metrics_eval(ctx.ptr, route, comm.ptr, m, o, out))
    res = Metrics(out, net)
    if mapping is not None and comm.n <= lib.tm_alloc_total_slots(a):
        o.keep_link_loads = False
        cm = _c_mapping()
        ctx.check(lib.tm_mapping_consecutive(ctx.ptr, a, comm.n, cm))
        cons = ffi.gc(ffi.new("tm_metrics *"), lib.tm_metrics_release)
        lib.tm_metrics_init(cons)
        ctx.check(lib.tm_metrics_eval(ctx.ptr, route, comm.ptr, cm, o, cons))
        res.consecutive = Metrics(cons, net)
        res.change_pct = {f: _change(getattr(res.consecutive, f), getattr(res, f))
                          for f in _CHANGE_FIGS}
        res.baseline = "alloc" if alloc is not None else "mapping_hosts"
    # every mapping of the job on the allocation the baseline uses
    p = ffi.new("tm_problem *")
    p.net, p.route, p.alloc, p.comm, p.hier = net.ptr, route, a, comm.ptr, nh
    p.imbalance, p.hop_distance = -1.0, float(hop_distance or 0.0)
    res.bounds, res.gap = _bounds(
        _compute_bounds(ctx, p, _most_per_slot(m, lib.tm_alloc_total_slots(a))), res, True)
    return res


def _hier_mapping(ctx, hier, comm, mapping):
    if mapping is not None:
        return as_mapping(mapping, hier, comm.n).to_c()
    p = ffi.new("tm_problem *")
    p.comm, p.hier = comm.ptr, hier._h
    m = _c_mapping()
    ctx.check(lib.tm_strategy_find(b"identity").run(ctx.ptr, p, 0, m))
    return m


class StrategyRow:
    """One strategy run of map(): name ("greedy#2"), refine ("" for none),
    metrics, the construction's figures before refinement (construction:
    dict of max_congestion, avg_dilation, qap_J), reverted (the refinement
    was undone), screened, time_s, refine_time_s."""

    def __init__(self, r, net):
        self.name = string(r.name)
        self.refine = string(r.refine)
        self.metrics = Metrics(r.metrics, net)
        self.construction = {"max_congestion": r.start_congestion,
                             "avg_dilation": r.start_dilation, "qap_J": r.start_J}
        self.reverted = bool(r.reverted)
        self.screened = bool(r.screened)
        self.time_s = r.time_s
        self.refine_time_s = r.refine_time_s

    def __repr__(self):
        return "<StrategyRow %s%s: %r>" % (self.name, " + " + self.refine if self.refine else "",
                                         self.metrics)


class MapResult:
    """The result of map(): mapping (a Mapping), metrics (its Metrics),
    consecutive (the consecutive placement's Metrics, None when there is
    none), best (the name of the chosen row), rows (every strategy run),
    change_pct (figure -> percent change against consecutive: max_congestion,
    avg_dilation, qap_J, est_time_s; qap_J alone in hierarchy mode), time_s,
    predicted_slower_than_consecutive and fell_back_to_consecutive (network
    mode, as `map --json`; objective "time" appends a row "consecutive" and
    returns it when no row is predicted faster by more than the time
    model's error, TM_TIME_GAIN_TOLERANCE), for more tasks than
    slots: blocks, block_bound, block_weight_max, and effort (what ran, as
    `map --json`'s "effort": pipeline, levels, rows_refined, restarts, stop,
    kicks, ta_moves, evaluations); bounds and gap: the lower bounds on every mapping
    of the job and the result's gap, with the keys of `map --json`
    (docs/bounds.md)."""

    bounds = None
    gap = None

    def __init__(self, res, net, info=None):
        net_or_none = net if isinstance(net, Network) else None
        self.mapping = Mapping.from_c(res.mapping, net)
        self.rows = [StrategyRow(res.rows[i], net_or_none) for i in range(res.n_rows)]
        self.best = self.rows[res.best].name
        self.metrics = self.rows[res.best].metrics
        self.consecutive = Metrics(res.consecutive, net_or_none) if res.consecutive != ffi.NULL else None
        self.time_s = res.time_s
        self.blocks, self.block_bound, self.block_weight_max = (
            res.blocks, res.block_bound, res.block_weight_max)
        self.effort = None if info is None else {
            "pipeline": string(info.pipeline), "levels": info.levels,
            "rows_refined": info.rows_refined, "restarts": info.restarts,
            "stop": string(info.stop), "kicks": info.kicks,
            "ta_moves": info.ta_moves, "evaluations": info.evaluations}

    @property
    def predicted_slower_than_consecutive(self):
        c, m = self.consecutive, self.metrics
        if c is None or self.mapping.pe is not None:
            return None
        # the CLI's rule (cmd_map.c worse_than): beyond rounding
        return m.est_time_s > c.est_time_s * (1 + 1e-9) + 1e-12

    @property
    def fell_back_to_consecutive(self):
        # only the time objective's fallback adds a row of that name
        if self.consecutive is None or self.mapping.pe is not None:
            return None
        return self.best == "consecutive"

    @property
    def change_pct(self):
        c, m = self.consecutive, self.metrics
        if c is None:
            return {}
        figs = ["qap_J"] if self.mapping.pe is not None else _CHANGE_FIGS
        return {f: _change(getattr(c, f), getattr(m, f)) for f in figs}

    def __repr__(self):
        return "<topomap.MapResult best=%s %r>" % (self.best, self.metrics)


def map(net, comm, alloc=None, strategy="all", refine="default", objective="pareto",
        threads=None, seed=1, routing="ecmp", time_limit=None, imbalance=None,
        hop_distance=None, node_hierarchy=None, lmc_spread=False, roots=None,
        time_model="smpi", latency_per_hop=None, message_overhead=None, host_bandwidth=None,
        time_exact_max=None, effort=None):
    """Maps the tasks of `comm` onto `net` (tm_map_run_ex, as `topomap map`):
    strategy is a name of topomap.strategies() or "all"; refine a chain of
    topomap.refiners() ("nc:1+ta"), None for none, "default" for the CLI's
    (the auto pipeline in network mode, none in hierarchy mode); effort the
    auto pipeline's level (0..12; None: 1, or with time_limit levels until
    converged) or "exhaustive" (ils:10+ta on every construction), as
    --effort: the same mapping on every machine and thread count unless
    time_limit cuts it (docs/mapping.md "Effort and time"); objective one of
    congestion, dilation, qap, pareto, time (est_time_s first; the
    consecutive placement unless a row is predicted faster by more than the
    time model's 10 % error; network mode); threads None =
    all cores (without a time limit the result does not depend on it); seed
    as --seed.  With a
    Hierarchy instead of a Network: hierarchy mode.  imbalance (>= 0): more
    tasks than slots (general process mapping).  The time options (as in
    evaluate) set the est_time_s of the rows (network mode).  The GIL is
    released while the library maps."""
    comm = as_comm(comm)
    if objective not in _OBJECTIVES:
        raise UsageError(lib.TM_EUSAGE, "unknown objective %r (%s)" % (objective, ", ".join(_OBJECTIVES)))
    refine, level = _effort_refine(refine, effort, not isinstance(net, Hierarchy))
    ctx = Context(seed=seed, threads=0 if threads is None else threads, time_limit=time_limit,
                  effort=level)
    p = ffi.new("tm_problem *")
    p.comm = comm.ptr
    p.imbalance = -1.0 if imbalance is None else float(imbalance)
    keep = []
    if isinstance(net, Hierarchy):
        p.hier = net._h
        if imbalance is None and comm.n > net.n_pe:
            raise InfeasibleError(lib.TM_EINFEASIBLE, "%d tasks but only %d PEs (one-to-one mapping); "
                                  "give imbalance for general process mapping" % (comm.n, net.n_pe))
    else:
        a = _alloc(ctx, net, alloc)
        route = _route(ctx, net, routing, lmc_spread, roots)
        keep += [a, route]
        p.net, p.route, p.alloc = net.ptr, route, a
        p.hier = _node_hier(node_hierarchy)
        p.hop_distance = float(hop_distance or 0.0)
        topt = _time_opts(time_model, latency_per_hop, message_overhead, host_bandwidth,
                          time_exact_max)
        keep.append(topt)
        p.time = topt
    res = ffi.gc(ffi.new("tm_map_result *"), lib.tm_map_result_release)
    lib.tm_map_result_init(res)
    obj = lib.tm_objective_parse(enc(objective))
    info = ffi.new("tm_map_info *")
    # the lower bounds first: the default pipeline stops its levels once
    # within 1 % of them (tm_problem.bounds)
    b = _compute_bounds(ctx, p)
    p.bounds = b
    ctx.check(lib.tm_map_run_ex(ctx.ptr, p, enc(strategy), enc(refine) if refine not in (None, "none")
                                else ffi.NULL, obj, res, info))
    out = MapResult(res, net, info)
    slots = net.n_pe if isinstance(net, Hierarchy) else lib.tm_alloc_total_slots(p.alloc)
    most = _most_per_slot(res.mapping, slots) if imbalance is not None else 0
    if most > b.tasks_per_slot:  # a balance cap the result exceeds: bounds over its own
        b = _compute_bounds(ctx, p, most)
    out.bounds, out.gap = _bounds(b, out.metrics, not isinstance(net, Hierarchy))
    return out


def strategies(mode="network"):
    """The library's strategy registry: dicts of name, help, modes
    ("network", "hierarchy") and in_all (part of "all"); `mode` filters
    (None: all)."""
    out = []
    s = lib.tm_strategies()
    i = 0
    while s[i].name != ffi.NULL:
        modes = [n for bit, n in ((lib.TM_MODE_NETWORK, "network"), (lib.TM_MODE_HIERARCHY, "hierarchy"))
                 if s[i].modes & bit]
        if mode is None or mode in modes:
            out.append({"name": string(s[i].name), "help": string(s[i].help), "modes": modes,
                        "in_all": bool(s[i].in_all)})
        i += 1
    return out


def refiners(mode="network"):
    """The library's refinements: dicts of name, help and modes (chain them
    with '+', give an argument after ':' as in "nc:10")."""
    out = []
    r = lib.tm_refiners()
    i = 0
    while r[i].name != ffi.NULL:
        modes = [n for bit, n in ((lib.TM_MODE_NETWORK, "network"), (lib.TM_MODE_HIERARCHY, "hierarchy"))
                 if r[i].modes & bit]
        if mode is None or mode in modes:
            out.append({"name": string(r[i].name), "help": string(r[i].help), "modes": modes})
        i += 1
    return out
