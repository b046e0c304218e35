"""Many jobs on one fabric (docs/workload.md): workload_eval, alloc and replay
through tm_workload_eval, tm_pick_nodes and tm_replay (include/topomap/workload.h),
their shards (tm_shard_assign, tm_workload_eval_costs, tm_replay_shard_owners) and
the merge of the CLI's shard files (tm_workload_merge, include/topomap/workload_doc.h).

Every figure comes from the library; the tables are pandas DataFrames whose
columns are those `topomap workload eval|replay --out F.csv` writes (one row
per job), so a table from Python and one from the CLI compare cell by cell.
"""
import contextlib
import math
import os
import time

from ._lib import CONSTANTS, Context, InputFile, UsageError, cstr, enc, ffi, lib, libc, string
from .comm import as_comm
from .mapping import _route, _time_opts

#: columns of workload_eval(...).jobs, as `topomap workload eval --out F.csv` writes them
#: (TM_WORKLOAD_EVAL_CSV_HEADER, include/topomap/workload_doc.h)
EVAL_COLUMNS = CONSTANTS["TM_WORKLOAD_EVAL_CSV_HEADER"].split(",")
#: columns of replay(...).jobs, as `topomap workload replay --out F.csv` writes them
REPLAY_COLUMNS = CONSTANTS["TM_WORKLOAD_REPLAY_CSV_HEADER"].split(",")
#: columns of the slowdown statistics (summary tables)
STATS = ["jobs", "mean", "min", "median", "p90", "p99", "max", "slowed"]


def _df(rows, columns):
    import pandas as pd
    return pd.DataFrame(rows, columns=columns)


class Workload:
    """A jobs file read against a network (tm_workload): `path` is the file,
    or a pandas DataFrame with the file's columns (JobID, NodeList, ...),
    whose relative Comm paths are then relative to the current folder."""

    def __init__(self, net, jobs, default_comm=None, comm_format=None):
        ctx = Context()
        self.net = net
        self._w = ffi.gc(ffi.new("tm_workload *"), lib.tm_workload_release)
        lib.tm_workload_init(self._w)
        o = ffi.new("tm_workload_read_opts *")
        keep = cstr(default_comm)
        o.default_comm = keep
        o.comm_format = lib.TM_COMM_AUTO if comm_format is None else \
            lib.tm_comm_format_parse(enc(comm_format))
        if o.comm_format < 0:
            raise UsageError(lib.TM_EUSAGE, "unknown comm_format %r" % (comm_format,))
        if hasattr(jobs, "columns"):  # a DataFrame: the '|' text sacct -P prints
            text = "|".join(str(c) for c in jobs.columns) + "\n" + "".join(
                "|".join("" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)
                         for v in row) + "\n" for row in jobs.itertuples(index=False))
            buf = ffi.new("char[]", text.encode("utf-8"))
            f = libc.fmemopen(buf, len(text.encode("utf-8")), b"r")
            if f == ffi.NULL:
                raise MemoryError("fmemopen")
            try:
                ctx.check(lib.tm_workload_read(ctx.ptr, net.ptr, f, b"jobs", o, self._w))
            finally:
                libc.fclose(f)
            self.source = "jobs"
        else:
            self.source = os.fspath(jobs)
            ctx.check(lib.tm_workload_read_file(ctx.ptr, net.ptr, enc(self.source), o, self._w))

    @property
    def ptr(self):
        return self._w

    def __len__(self):
        return self._w.n_jobs

    @property
    def has_times(self):
        return bool(self._w.has_times)

    def job_id(self, j):
        return string(self._w.job[j].id)

    def index_of(self, job_id):
        for j in range(self._w.n_jobs):
            if string(self._w.job[j].id) == str(job_id):
                return j
        raise UsageError(lib.TM_EUSAGE, "no job %r in %s" % (job_id, self.source))

    def at(self, when):
        """The indices of the jobs running at `when` (an ISO 8601 time)."""
        t = ffi.new("double *")
        if lib.tm_workload_parse_time(enc(when), t) < 0:
            raise UsageError(lib.TM_EUSAGE, "%r is not a time YYYY-MM-DDTHH:MM:SS" % (when,))
        ctx = Context()
        out, n = ffi.new("int32_t **"), ffi.new("int32_t *")
        ctx.check(lib.tm_workload_at(ctx.ptr, self._w, t[0], out, n))
        try:
            return [out[0][i] for i in range(n[0])]
        finally:
            libc.free(out[0])

    # ---- the row fields, as the CLI writes them (src/cli/workload_out.c) ----
    def comm_label(self, j):
        job = self._w.job[j]
        if job.matrix >= 0:
            return string(self._w.matrix_path[job.matrix])
        b, name = job.pattern_bytes, string(lib.tm_pattern_name(job.pattern))
        if math.fmod(b, 1048576.0) == 0:
            return "%s:%gMiB" % (name, b / 1048576.0)
        if math.fmod(b, 1024.0) == 0:
            return "%s:%gKiB" % (name, b / 1024.0)
        return "%s:%.17gB" % (name, b)

    def time_label(self, t):
        if not self.has_times:
            return None
        if math.isinf(t):
            return "Unknown"
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(math.floor(t)))


def _hostlist(net, hosts):
    names = [net.name(h) for h in hosts]
    arr = [ffi.new("char[]", n.encode("utf-8")) for n in names]
    ptrs = ffi.new("const char *[]", arr)
    out = ffi.new("char **")
    ctx = Context()
    if lib.tm_hostlist_compress(ctx.ptr, ptrs, len(names), out) != lib.TM_EOK:
        return ",".join(names)
    try:
        return string(out[0])
    finally:
        libc.free(out[0])


def _row(wl, r, hosts, policy=None, rr=None):
    """One row of EVAL_COLUMNS (REPLAY_COLUMNS with policy and rr)."""
    w, j = wl.ptr, r.job
    job = w.job[j]
    placed = rr is None or bool(rr.placed)
    nb = " ".join(wl.job_id(r.neighbours[k]) for k in range(r.n_neighbours))
    fig = (lambda v: v) if placed else (lambda v: None)
    row = {"job": wl.job_id(j), "index": j, "line": job.line,
           "nodes": _hostlist(wl.net, [hosts[k] for k in range(job.n_hosts)]) if hosts != ffi.NULL
           else None,
           "n_nodes": job.n_hosts, "n_tasks": job.n_tasks, "comm": wl.comm_label(j),
           "start": wl.time_label(job.start), "end": wl.time_label(job.end),
           "alone_max_congestion": fig(r.alone.max_congestion),
           "alone_avg_dilation": fig(r.alone.avg_dilation), "alone_qap_J": fig(r.alone.qap_J),
           "alone_est_time_s": fig(r.alone.est_time_s),
           "shared_max_congestion": fig(r.shared.max_congestion),
           "shared_est_time_s": fig(r.shared.est_time_s), "slowdown": fig(r.slowdown),
           "time_approximate": fig(bool(r.shared.time_approximate or r.alone.time_approximate)),
           "group": wl.job_id(r.group) if r.group >= 0 else None,
           "links_used": r.links_used, "links_shared": r.links_shared,
           "shares_with": nb or None}
    if rr is not None:
        row["policy"] = policy
        row["placed"] = placed
        row["worst_slowdown"] = fig(rr.worst_slowdown)
        row["worst_max_congestion"] = fig(rr.worst_max_congestion)
        row["intervals"] = fig(rr.intervals)
    return row


def _stats_of(st):
    """A tm_slowdown_stats as a dict keyed by STATS."""
    return {"jobs": st.n, "mean": st.mean, "min": st.min, "median": st.median, "p90": st.p90,
            "p99": st.p99, "max": st.max, "slowed": st.slowed}


def _stats(ctx, values):
    arr = ffi.new("double[]", list(values) or [0.0])
    st = ffi.new("tm_slowdown_stats *")
    ctx.check(lib.tm_slowdown_stats_compute(ctx.ptr, arr, len(values), st))
    return _stats_of(st)


def _workload(net, jobs, default_comm, comm_format):
    return jobs if isinstance(jobs, Workload) else Workload(net, jobs, default_comm, comm_format)


def shard_assign(costs, n):
    """The shard (0..n-1) of each item of estimated cost costs[i], as the
    CLI deals the runs of a study and the jobs of `workload eval --shard`
    (tm_shard_assign: longest first, each to the shard with the least cost
    so far; a function of the costs and n alone).  A numpy int32 array."""
    import numpy as np
    c = [int(x) for x in costs]
    owner = ffi.new("int32_t[]", len(c) or 1)
    ctx = Context()
    ctx.check(lib.tm_shard_assign(ctx.ptr, ffi.new("int64_t[]", c or [0]), len(c), int(n), owner))
    return np.array([owner[i] for i in range(len(c))], dtype=np.int32)


def _shard(spec):
    """(K, N) of "K/N" (tm_shard_parse: the CLI's --shard)."""
    s = ffi.new("tm_shard *")
    ctx = Context()
    ctx.check(lib.tm_shard_parse(ctx.ptr, enc(spec), s))
    return s.k, s.n


def _eval_shard_rows(ctx, wl, topt, set_, spec):
    """The job indices of shard spec ("K/N") of an eval over set_ (None:
    every job), as `workload eval --shard K/N` deals them."""
    k, n = _shard(spec)
    jobs = list(range(len(wl))) if set_ is None else list(set_)
    if len(jobs) < n:
        raise UsageError(lib.TM_EUSAGE, "shard %s: %d jobs, so at most %d shards"
                         % (spec, len(jobs), len(jobs)))
    arr = ffi.new("int32_t[]", jobs or [0])
    cost = ffi.new("int64_t[]", len(jobs) or 1)
    lib.tm_workload_eval_costs(ctx.ptr, wl.ptr, topt, arr, len(jobs), cost)
    owner = shard_assign([cost[i] for i in range(len(jobs))], n)
    return [j for j, o in zip(jobs, owner) if o == k]


def _replay_shard_rows(ctx, wl, topt, spec):
    """The job indices of shard spec ("K/N") of an as-recorded replay, as
    `workload replay --policy as-recorded --shard K/N` deals them."""
    k, n = _shard(spec)
    if len(wl) < n:
        raise UsageError(lib.TM_EUSAGE, "shard %s: the trace has %d jobs, so at most %d shards"
                         % (spec, len(wl), len(wl)))
    owner = ffi.new("int32_t[]", len(wl) or 1)
    ctx.check(lib.tm_replay_shard_owners(ctx.ptr, wl.ptr, topt, n, owner))
    return [j for j in range(len(wl)) if owner[j] == k]


class WorkloadResult:
    """workload_eval's answer: `jobs` (a DataFrame, one row per job,
    EVAL_COLUMNS), `fabric` (max_congestion, max_congestion_link, links_used,
    links_shared), `shared_links` (a DataFrame: from, to, congestion, jobs,
    shares) and `slowdown` (the statistics of the rows' slowdowns);
    `n_shards`: the shards workload_merge joined (0: computed whole)."""

    n_shards = 0

    def __init__(self, jobs, fabric, shared_links, slowdown):
        self.jobs, self.fabric, self.shared_links, self.slowdown = (jobs, fabric, shared_links,
                                                                    slowdown)

    def __repr__(self):
        return "<topomap.WorkloadResult %d jobs, fabric max congestion %g>" % (
            len(self.jobs), self.fabric["max_congestion"])


def workload_eval(net, jobs, routing="ecmp", at=None, rows=None, default_comm=None,
                  comm_format=None, threads=None, lmc_spread=False, roots=None, max_shared=64,
                  time_model="smpi", latency_per_hop=None, message_overhead=None,
                  host_bandwidth=None, time_exact_max=None, shard=None):
    """Every job of `jobs` (a jobs file, a DataFrame with its columns, or a
    Workload) alone and with the others' traffic, as `topomap workload eval`
    (docs/workload.md): alone the figures of `eval`, shared the congestion of
    its links with every job's load and its est_time_s with the others' flows
    in one max-min simulation, and the slowdown.  at: only the jobs running
    then (ISO 8601); rows: the job ids to give rows for (the others stay the
    background: a shard); shard: "K/N", the rows of shard K of N as
    `topomap workload eval --shard K/N` deals them (by estimated cost).  The
    time options are those of evaluate()."""
    wl = _workload(net, jobs, default_comm, comm_format)
    ctx = Context(threads=0 if threads is None else threads)
    route = _route(ctx, net, routing, lmc_spread, roots)
    topt = _time_opts(time_model, latency_per_hop, message_overhead, host_bandwidth,
                      time_exact_max)
    o = ffi.new("tm_workload_eval_opts *")
    o.time = topt
    keep = []
    s = None
    if at is not None:
        s = wl.at(at)
        keep.append(ffi.new("int32_t[]", s or [0]))
        o.set, o.n_set = keep[-1], len(s)
    if rows is not None and shard is not None:
        raise UsageError(lib.TM_EUSAGE, "rows and shard: give one")
    r = [wl.index_of(x) for x in rows] if rows is not None else (
        _eval_shard_rows(ctx, wl, topt, s, shard) if shard is not None else None)
    if r is not None:
        keep.append(ffi.new("int32_t[]", r or [0]))
        o.rows, o.n_rows = keep[-1], len(r)
    o.max_shared = int(max_shared)
    res = ffi.gc(ffi.new("tm_workload_result *"), lib.tm_workload_result_release)
    lib.tm_workload_result_init(res)
    ctx.check(lib.tm_workload_eval(ctx.ptr, route, wl.ptr, o, res))
    table = [_row(wl, res.rows[i], wl.ptr.job[res.rows[i].job].host) for i in range(res.n_rows)]
    csr = lib.tm_net_csr_get(net.ptr)

    def ends(link):
        return [net.name(csr.tail_of[link]), net.name(csr.head_of[link])]

    fabric = {"max_congestion": res.max_congestion,
              "max_congestion_link": ends(res.max_link) if res.max_link >= 0 else None,
              "links_used": res.links_used, "links_shared": res.links_shared}
    shared = []
    for i in range(res.n_shared):
        s = res.shared[i]
        tot = sum(s.load[k] for k in range(s.n_jobs))
        a, b = ends(s.link)
        shared.append({"from": a, "to": b, "congestion": s.congestion,
                       "jobs": [wl.job_id(s.jobs[k]) for k in range(s.n_jobs)],
                       "shares": [s.load[k] / tot if tot > 0 else 0 for k in range(s.n_jobs)]})
    st = _stats(ctx, [row["slowdown"] for row in table])
    return WorkloadResult(_df(table, EVAL_COLUMNS), fabric,
                          _df(shared, ["from", "to", "congestion", "jobs", "shares"]), st)


def _tree(ctx, net, slurm_topology):
    t = ffi.new("tm_slurm_tree **")
    if slurm_topology is None:
        ctx.check(lib.tm_slurm_tree_from_net(ctx.ptr, net.ptr, t))
    else:
        with InputFile(ctx, slurm_topology) as f:
            ctx.check(lib.tm_slurm_tree_read(ctx.ptr, net.ptr, f, enc(os.fspath(slurm_topology)),
                                             t))
    return ffi.gc(t[0], lib.tm_slurm_tree_free)


PICK_COLUMNS = ["policy", "feasible", "nodes", "est_time_s", "max_congestion", "slowdown",
                "alone_max_congestion", "alone_avg_dilation", "alone_qap_J", "alone_est_time_s",
                "time_approximate", "neighbours", "neighbours_slowdown", "candidates", "reason"]


class AllocResult:
    """alloc's answer: `nodes` (the Slurm hostlist of the policy asked) and
    `picks`, a DataFrame with one row per policy (topomap, slurm-tree, random:
    PICK_COLUMNS, the figures `topomap alloc --json` gives)."""

    def __init__(self, nodes, picks, policy):
        self.nodes, self.picks, self.policy = nodes, picks, policy

    def __repr__(self):
        return "<topomap.AllocResult %s: %s>" % (self.policy, self.nodes)


def alloc(net, nodes, ppn=None, comm=None, free=None, jobs=None, at=None, policy="topomap",
          routing="ecmp", seed=1, slurm_topology=None, default_comm=None, comm_format=None,
          threads=None, lmc_spread=False, roots=None, time_model="smpi", latency_per_hop=None,
          message_overhead=None, host_bandwidth=None, time_exact_max=None):
    """The nodes of a new job of `nodes` nodes x `ppn` tasks (default: the
    free nodes' slots, when they all have the same), as `topomap alloc`:
    comm is a pattern ("stencil3d", "ring:4MiB", ...; default stencil3d) or
    anything topomap.as_comm takes; free a hostlist or a list of hosts
    (default: every host; the running jobs' nodes are left out); jobs the running jobs (a
    jobs file, DataFrame or Workload; at: those running then).  Every policy
    is run: `picks` compares them, `nodes` is `policy`'s."""
    if policy not in ("topomap", "slurm-tree", "random"):
        raise UsageError(lib.TM_EUSAGE, "unknown policy %r (topomap, slurm-tree, random)"
                         % (policy,))
    ctx = Context(threads=0 if threads is None else threads)
    route = _route(ctx, net, routing, lmc_spread, roots)
    topt = _time_opts(time_model, latency_per_hop, message_overhead, host_bandwidth,
                      time_exact_max)
    wl = _workload(net, jobs, default_comm, comm_format) if jobs is not None else None
    keep = []
    rq = ffi.new("tm_pick_request *")
    running = list(range(len(wl))) if wl is not None and at is None else (
        wl.at(at) if wl is not None else [])
    if wl is not None:
        rq.running = wl.ptr
        keep.append(ffi.new("int32_t[]", running or [0]))
        rq.set, rq.n_set = keep[-1], len(running)
    fr = ffi.gc(ffi.new("tm_alloc *"), lib.tm_alloc_release)
    lib.tm_alloc_init(fr)
    if free is not None:
        expr = free if isinstance(free, str) else ",".join(
            net.name(h) if not isinstance(h, str) else h for h in free)
        ctx.check(lib.tm_alloc_from_hostlist(ctx.ptr, net.ptr, enc(expr), fr))
    else:
        ctx.check(lib.tm_alloc_all(ctx.ptr, net.ptr, fr))
    # the nodes of the running jobs are not free, whatever `free` says
    busy = {wl.ptr.job[j].host[k] for j in running for k in range(wl.ptr.job[j].n_hosts)} \
        if wl is not None else set()
    hosts = [fr.host[i] for i in range(fr.n) if fr.host[i] not in busy]
    slots = [fr.slots[i] for i in range(fr.n) if fr.host[i] not in busy]
    if ppn is None:
        if len(set(slots)) > 1:
            raise UsageError(lib.TM_EUSAGE, "the free nodes have different slots (%d and %d): "
                             "give ppn" % (min(slots), max(slots)))
        ppn = slots[0] if slots else 1
    keep.append(ffi.new("int32_t[]", hosts or [0]))
    rq.free, rq.n_free = keep[-1], len(hosts)
    rq.n_nodes, rq.ppn = int(nodes), int(ppn)
    spec = "stencil3d" if comm is None else comm
    kind, nbytes, why = ffi.new("tm_pattern *"), ffi.new("double *"), ffi.new("const char **")
    k = lib.tm_pattern_parse(enc(spec), kind, nbytes, why) if isinstance(spec, str) else 0
    if k < 0:
        raise UsageError(lib.TM_EUSAGE, "comm %r: %s" % (spec, string(why[0])))
    c = None
    if k > 0:
        rq.pattern, rq.pattern_bytes = kind[0], nbytes[0]
    else:
        c = as_comm(comm)
        rq.comm = c.ptr
    rq.time = topt
    tree = _tree(ctx, net, slurm_topology)
    rq.tree = tree
    rq.seed = int(seed)
    rows, chosen = [], None
    for name in ("topomap", "slurm-tree", "random"):
        p = ffi.gc(ffi.new("tm_pick *"), lib.tm_pick_release)
        lib.tm_pick_init(p)
        err = lib.tm_pick_nodes(ctx.ptr, route, rq, lib.tm_pick_policy_parse(enc(name)), p)
        if err == lib.TM_EINFEASIBLE and name != policy:
            ctx.flush_warnings()
            rows.append({"policy": name, "feasible": False,
                         "reason": string(lib.tm_ctx_errmsg(ctx.ptr))})
            continue
        ctx.check(err)
        hl = _hostlist(net, [p.hosts[i] for i in range(p.n_hosts)])
        if name == policy:
            chosen = hl
        rows.append({"policy": name, "feasible": True, "nodes": hl,
                     "est_time_s": p.shared.est_time_s, "max_congestion": p.shared.max_congestion,
                     "slowdown": p.slowdown, "alone_max_congestion": p.alone.max_congestion,
                     "alone_avg_dilation": p.alone.avg_dilation, "alone_qap_J": p.alone.qap_J,
                     "alone_est_time_s": p.alone.est_time_s,
                     "time_approximate": bool(p.shared.time_approximate or
                                              p.alone.time_approximate),
                     "neighbours": p.n_neighbours, "neighbours_slowdown": p.neighbours_slowdown,
                     "candidates": p.candidates if name == "topomap" else None})
    return AllocResult(chosen, _df(rows, PICK_COLUMNS), policy)


class ReplayResult:
    """replay's answer: `jobs` (a DataFrame, one row per (policy, job),
    REPLAY_COLUMNS), `summary` (one row per policy: jobs, not_placed, placed,
    the statistics of the placed jobs' slowdowns, the fabric's peak and
    time-weighted mean max congestion) and
    `timeline` (one row per (policy, interval): t0, t1 in seconds since the
    first start, running, busy_nodes, max_congestion); `n_shards`: the
    shards workload_merge joined (0: computed whole)."""

    n_shards = 0

    def __init__(self, jobs, summary, timeline):
        self.jobs, self.summary, self.timeline = jobs, summary, timeline

    def __repr__(self):
        return "<topomap.ReplayResult %d rows, %d policies>" % (len(self.jobs), len(self.summary))


POLICIES = ["as-recorded", "slurm-tree", "random", "topomap"]


def replay(net, trace, policies="all", routing="ecmp", partition=None, seed=1, rows=None,
           slurm_topology=None, default_comm=None, comm_format=None, threads=None,
           lmc_spread=False, roots=None, time_model="smpi", latency_per_hop=None,
           message_overhead=None, host_bandwidth=None, time_exact_max=None, shard=None):
    """A trace (a jobs file with Start and End, a DataFrame or a Workload)
    replayed under each policy ("as-recorded", "slurm-tree", "random",
    "topomap"; "all" or a list), as `topomap workload replay`: every job with
    the jobs running beside it, time-weighted over its run.  partition: the
    hosts the policies may give (a hostlist or a list; default every host);
    rows: as-recorded only, the job ids to give rows for (a shard); shard:
    as-recorded only, "K/N", the rows of shard K of N as `topomap workload
    replay --policy as-recorded --shard K/N` deals them (runs of jobs in
    start order)."""
    wl = _workload(net, trace, default_comm, comm_format)
    names = POLICIES if policies == "all" else ([policies] if isinstance(policies, str)
                                                else list(policies))
    for n in names:
        if lib.tm_replay_policy_parse(enc(n)) < 0:
            raise UsageError(lib.TM_EUSAGE, "unknown policy %r (%s)" % (n, ", ".join(POLICIES)))
    ctx = Context(threads=0 if threads is None else threads)
    route = _route(ctx, net, routing, lmc_spread, roots)
    topt = _time_opts(time_model, latency_per_hop, message_overhead, host_bandwidth,
                      time_exact_max)
    o = ffi.new("tm_replay_opts *")
    o.time, o.seed = topt, int(seed)
    keep = []
    if partition is not None:
        expr = partition if isinstance(partition, str) else ",".join(
            net.name(h) if not isinstance(h, str) else h for h in partition)
        part = ffi.gc(ffi.new("tm_alloc *"), lib.tm_alloc_release)
        lib.tm_alloc_init(part)
        ctx.check(lib.tm_alloc_from_hostlist(ctx.ptr, net.ptr, enc(expr), part))
        keep.append(part)
        o.partition, o.n_partition = part.host, part.n
    if rows is not None and shard is not None:
        raise UsageError(lib.TM_EUSAGE, "rows and shard: give one")
    if shard is not None and names != ["as-recorded"]:
        raise UsageError(lib.TM_EUSAGE, "shard: as-recorded only (policies=\"as-recorded\")")
    r = [wl.index_of(x) for x in rows] if rows is not None else (
        _replay_shard_rows(ctx, wl, topt, shard) if shard is not None else None)
    if r is not None:
        keep.append(ffi.new("int32_t[]", r or [0]))
        o.rows, o.n_rows = keep[-1], len(r)
    tree = _tree(ctx, net, slurm_topology) if slurm_topology is not None else None
    o.tree = tree if tree is not None else ffi.NULL
    table, summary, timeline = [], [], []
    for name in names:
        res = ffi.gc(ffi.new("tm_replay_result *"), lib.tm_replay_result_release)
        lib.tm_replay_result_init(res)
        ctx.check(lib.tm_replay(ctx.ptr, route, wl.ptr, lib.tm_replay_policy_parse(enc(name)), o,
                                res))
        slows = []
        for i in range(res.n_rows):
            rr = res.rows[i]
            table.append(_row(wl, rr.r, rr.hosts, name, rr))
            if rr.placed:
                slows.append(rr.r.slowdown)
        peak = max((res.intervals[i].max_congestion for i in range(res.n_intervals)), default=0.0)
        span = sum(res.intervals[i].t1 - res.intervals[i].t0 for i in range(res.n_intervals))
        mean = (sum((res.intervals[i].t1 - res.intervals[i].t0) * res.intervals[i].max_congestion
                    for i in range(res.n_intervals)) / span) if span > 0 else 0.0
        st = _stats(ctx, slows)
        st["placed"] = st.pop("jobs")
        summary.append(dict({"policy": name, "jobs": res.n_rows, "not_placed": res.not_placed,
                             "max_congestion_peak": peak, "max_congestion_mean": mean}, **st))
        for i in range(res.n_intervals):
            iv = res.intervals[i]
            timeline.append({"policy": name, "t0": iv.t0, "t1": iv.t1, "running": iv.running,
                             "busy_nodes": iv.busy_nodes, "max_congestion": iv.max_congestion})
    return ReplayResult(_df(table, REPLAY_COLUMNS),
                        _df(summary, ["policy", "jobs", "not_placed", "placed"] + STATS[1:] +
                            ["max_congestion_peak", "max_congestion_mean"]),
                        _df(timeline, ["policy", "t0", "t1", "running", "busy_nodes",
                                       "max_congestion"]))


# ---- the CLI's shard files merged (tm_workload_merge) ---------------------------

def _doc_row(x):
    """One row of a tm_workload_doc as the CSV has it (REPLAY_COLUMNS when
    it has a policy, else EVAL_COLUMNS)."""
    placed = bool(x.placed)
    fig = (lambda v: v) if placed else (lambda v: None)
    ids = " ".join(string(x.shares_with[k]) for k in range(x.n_shares))
    row = {"job": string(x.job), "index": x.index, "line": x.line,
           "nodes": string(x.nodes) or None, "n_nodes": x.n_nodes, "n_tasks": x.n_tasks,
           "comm": string(x.comm), "start": string(x.start), "end": string(x.end),
           "alone_max_congestion": fig(x.alone.max_congestion),
           "alone_avg_dilation": fig(x.alone.avg_dilation), "alone_qap_J": fig(x.alone.qap_J),
           "alone_est_time_s": fig(x.alone.est_time_s),
           "shared_max_congestion": fig(x.shared.max_congestion),
           "shared_est_time_s": fig(x.shared.est_time_s), "slowdown": fig(x.slowdown),
           "time_approximate": fig(bool(x.shared.time_approximate or x.alone.time_approximate)),
           "group": string(x.group), "links_used": x.links_used,
           "links_shared": x.links_shared, "shares_with": ids or None}
    if x.policy != ffi.NULL:
        row["policy"] = string(x.policy)
        row["placed"] = placed
        row["worst_slowdown"] = fig(x.worst_slowdown)
        row["worst_max_congestion"] = fig(x.worst_max_congestion)
        row["intervals"] = fig(x.intervals)
    return row


def workload_merge(files):
    """The --out files of the shards of one `topomap workload eval` or
    as-recorded `workload replay` (`--shard K/N --out F`, K = 0..N-1, all
    JSON or all CSV) joined into the whole result with tm_workload_merge, as
    `topomap workload merge` does: a WorkloadResult (eval) or ReplayResult
    (replay) whose tables equal those of workload_eval / replay run whole.
    CSV shards hold the rows only: fabric and shared_links are then None,
    as are a replay's timeline and the summary's congestion figures.  The
    files must be the N shards of one run, each once: else an InputError
    naming the file (docs/workload.md "Shards")."""
    paths = [os.fspath(f) for f in ([files] if isinstance(files, (str, os.PathLike))
                                    else files)]
    ctx = Context()
    d = ffi.gc(ffi.new("tm_workload_doc *"), lib.tm_workload_doc_release)
    lib.tm_workload_doc_init(d)
    n_shards = ffi.new("int32_t *")
    names = [cstr(p) for p in paths]
    with contextlib.ExitStack() as stack:
        fps = [stack.enter_context(InputFile(ctx, p)) for p in paths]
        ctx.check(lib.tm_workload_merge(ctx.ptr, ffi.new("FILE *[]", fps or [ffi.NULL]),
                                        ffi.new("const char *[]", names or [ffi.NULL]),
                                        len(paths), d, n_shards))
    table = [_doc_row(d.rows[i]) for i in range(d.n_rows)]
    head = bool(d.has_head)
    if not d.replay:
        f = d.fabric
        fabric = {"max_congestion": f.max_congestion,
                  "max_congestion_link": [string(f.max_from), string(f.max_to)]
                  if f.max_from != ffi.NULL else None,
                  "links_used": f.links_used, "links_shared": f.links_shared} if head else None
        shared = [{"from": string(getattr(s, "from")), "to": string(s.to),
                   "congestion": s.congestion,
                   "jobs": [string(s.jobs[k].job) for k in range(s.n_jobs)],
                   "shares": [s.jobs[k].share for k in range(s.n_jobs)]}
                  for s in (f.shared[i] for i in range(f.n_shared))]
        res = WorkloadResult(_df(table, EVAL_COLUMNS), fabric,
                             _df(shared, ["from", "to", "congestion", "jobs", "shares"])
                             if head else None, _stats_of(d.slowdown))
    else:
        summary = []
        for p in range(d.n_policies):
            s = d.summary[p]
            st = _stats_of(s.slowdown)
            st["placed"] = st.pop("jobs")
            summary.append(dict({"policy": string(s.policy), "jobs": s.jobs,
                                 "not_placed": s.not_placed,
                                 "max_congestion_peak": s.peak if head else None,
                                 "max_congestion_mean": s.mean if head else None}, **st))
        timeline = [{"policy": string(iv.policy), "t0": iv.t0, "t1": iv.t1,
                     "running": iv.running, "busy_nodes": iv.busy_nodes,
                     "max_congestion": iv.max_congestion}
                    for iv in (d.timeline[i] for i in range(d.n_intervals))]
        res = ReplayResult(_df(table, REPLAY_COLUMNS),
                           _df(summary, ["policy", "jobs", "not_placed", "placed"] + STATS[1:] +
                               ["max_congestion_peak", "max_congestion_mean"]),
                           _df(timeline, ["policy", "t0", "t1", "running", "busy_nodes",
                                          "max_congestion"]) if head else None)
    res.n_shards = n_shards[0]
    return res
