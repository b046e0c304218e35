"""What-if studies through tm_study_run (include/topomap/study.h)."""
import os

from ._lib import Context, UsageError, cstr, enc, ffi, lib, string
from .comm import as_comm
from .mapping import _OBJECTIVES, _change, _effort_refine, _gap, _time_opts

#: columns of StudyResult.rows / to_dataframe(), as `topomap study --out F.csv` writes them
COLUMNS = ["stat", "topology", "comm", "routing", "slots", "capacity", "failure", "sample",
           "scaled_cables", "failed_cables", "strategy", "status", "runs", "not_ok",
           "consecutive_max_congestion", "consecutive_avg_dilation", "consecutive_qap_J",
           "consecutive_est_time_s", "max_congestion", "avg_dilation", "qap_J", "est_time_s",
           "change_max_congestion_pct", "change_avg_dilation_pct", "change_qap_J_pct",
           "change_est_time_s_pct", "bound_max_congestion", "bound_avg_dilation", "bound_qap_J",
           "gap_max_congestion", "gap_avg_dilation", "gap_qap_J", "best", "cause"]


def _list(x):
    if x is None:
        return []
    return [x] if isinstance(x, (str, int, float, os.PathLike)) else list(x)


def _failures(fail_links, fail_link, fail_switch):
    """The failure axis: the unchanged network first, as in the CLI."""
    out = [(lib.TM_STUDY_FAIL_NONE, 0.0, None, "none")]
    for p in _list(fail_links):
        pct = float(str(p).rstrip("%"))
        out.append((lib.TM_STUDY_FAIL_RANDOM, pct, None, "links %g%%" % pct))
    for n in _list(fail_link):
        n = ",".join(n) if isinstance(n, (list, tuple)) else n
        out.append((lib.TM_STUDY_FAIL_LINKS, 0.0, n, "link " + n))
    for n in _list(fail_switch):
        n = ",".join(n) if isinstance(n, (list, tuple)) else n
        out.append((lib.TM_STUDY_FAIL_SWITCHES, 0.0, n, "switch " + n))
    return out


class StudyResult:
    """The rows of a study (grid order; mean and worst rows follow each
    group of random-failure samples): `rows` is a list of dicts keyed by
    COLUMNS, to_dataframe() the same as a pandas DataFrame."""

    def __init__(self, rows, n_runs):
        self.rows = rows
        self.n_runs = n_runs

    def to_dataframe(self):
        import pandas as pd
        return pd.DataFrame(self.rows, columns=COLUMNS)

    def __len__(self):
        return len(self.rows)

    def __repr__(self):
        return "<topomap.StudyResult %d rows, %d runs>" % (len(self.rows), self.n_runs)


def study(topologies, comms, alloc=None, slots=None, scale_capacity=None, fail_links=None,
          fail_link=None, fail_switch=None, seeds=1, routing="ecmp", strategy="all",
          refine="default", objective="pareto", seed=1, threads=None, node_name_map=None,
          separate_hcas=False, comm_names=None, time_model="smpi", latency_per_hop=None,
          message_overhead=None, host_bandwidth=None, time_exact_max=None, effort=None):
    """A what-if study (docs/study.md): every combination of the topologies
    (files or generator specs), slots per host, capacity changes
    (scale_capacity: "2=0.5" items; the unchanged network always comes
    first), failures (fail_links: percentages with `seeds` samples each;
    fail_link: "A:B[,C:D]"; fail_switch: "S[,S2]"; "none" comes first),
    routing models, applications (comms: anything topomap.as_comm takes)
    and strategies, each mapped with tm_map_run and compared with the
    scenario's consecutive placement, as `topomap study` does.  The rows do
    not depend on `threads` (None = all cores).  The time options (as in
    evaluate: time_model, latency_per_hop, message_overhead, host_bandwidth,
    time_exact_max) set the model of the est_time_s columns (docs/time.md);
    refine and effort as in map()."""
    topologies = [os.fspath(t) if isinstance(t, os.PathLike) else t for t in _list(topologies)]
    comm_in = _list(comms) if not hasattr(comms, "shape") else [comms]
    comm_objs = [as_comm(c) for c in comm_in]
    if comm_names is None:
        comm_names = [str(c) if isinstance(c, (str, os.PathLike)) else getattr(o, "source", "comm")
                      for c, o in zip(comm_in, comm_objs)]
    if objective not in _OBJECTIVES:
        raise UsageError(lib.TM_EUSAGE, "unknown objective %r (%s)" % (objective, ", ".join(_OBJECTIVES)))
    refine, level = _effort_refine(refine, effort, True)
    scales = [None] + [s for s in _list(scale_capacity)]
    fails = _failures(fail_links, fail_link, fail_switch)
    slot_list = [int(s) for s in _list(slots)] or [0]
    routings = []
    for r in _list(routing):
        k = lib.tm_route_kind_parse(enc(r))
        if k < 0 or k == lib.TM_ROUTE_LFT:
            raise UsageError(lib.TM_EUSAGE, "unknown study routing %r (ecmp, single, dor, ftree, "
                                            "minhop, updn)" % (r,))
        routings.append(k)
    strategies = _list(strategy)

    keep = []

    def strings(items):
        cs = [cstr(s) for s in items]
        keep.append(cs)
        arr = ffi.new("const char *[]", cs)
        keep.append(arr)
        return arr

    spec = ffi.new("tm_study_spec *")
    spec.topologies, spec.n_topologies = strings(topologies), len(topologies)
    nm = cstr(node_name_map)
    spec.node_name_map, spec.separate_hcas = nm, bool(separate_hcas)
    slot_arr = ffi.new("int32_t[]", slot_list)
    spec.slots, spec.n_slots = slot_arr, len(slot_list)
    spec.scales, spec.n_scales = strings(scales), len(scales)
    fail_arr = ffi.new("tm_study_failure[]", len(fails))
    for i, (kind, pct, names, _) in enumerate(fails):
        fail_arr[i].kind, fail_arr[i].pct = kind, pct
        if names is not None:
            keep.append(cstr(names))
            fail_arr[i].names = keep[-1]
    spec.failures, spec.n_failures = fail_arr, len(fails)
    spec.samples = int(seeds)
    rout_arr = ffi.new("tm_route_kind[]", routings)
    spec.routings, spec.n_routings = rout_arr, len(routings)
    comm_arr = ffi.new("const tm_comm *[]", [c.ptr for c in comm_objs])
    spec.comms, spec.n_comms = comm_arr, len(comm_objs)
    spec.strategies, spec.n_strategies = strings(strategies), len(strategies)
    al = cstr(os.fspath(alloc) if isinstance(alloc, os.PathLike) else
              (",".join(alloc) if isinstance(alloc, (list, tuple)) else alloc))
    spec.alloc = al
    rf = cstr(refine if refine not in (None, "none") else None)
    spec.refine = rf
    spec.objective = lib.tm_objective_parse(enc(objective))
    topt = _time_opts(time_model, latency_per_hop, message_overhead, host_bandwidth,
                      time_exact_max)
    spec.time = topt

    ctx = Context(seed=seed, threads=0 if threads is None else threads, effort=level)
    res = ffi.gc(ffi.new("tm_study_result *"), lib.tm_study_result_release)
    lib.tm_study_result_init(res)
    ctx.check(lib.tm_study_run(ctx.ptr, spec, res))
    rows = []
    for i in range(res.n_rows):
        r = res.rows[i]
        ok = r.status == lib.TM_STUDY_OK
        summary = r.stat != lib.TM_STUDY_RUN
        fig = lambda v: v if ok else None
        rows.append({
            "stat": string(lib.tm_study_stat_name(r.stat)),
            "topology": topologies[r.topology], "comm": comm_names[r.comm],
            "routing": string(lib.tm_route_kind_name(routings[r.routing])),
            "slots": slot_list[r.slots], "capacity": scales[r.scale] or "none",
            "failure": fails[r.failure][3], "sample": r.sample,
            "scaled_cables": r.scaled_cables, "failed_cables": r.failed_cables,
            "strategy": strategies[r.strategy], "status": string(lib.tm_study_status_name(r.status)),
            "runs": r.runs if summary else None, "not_ok": r.not_ok if summary else None,
            "consecutive_max_congestion": fig(r.base_congestion),
            "consecutive_avg_dilation": fig(r.base_dilation), "consecutive_qap_J": fig(r.base_J),
            "consecutive_est_time_s": fig(r.base_est_time_s),
            "max_congestion": fig(r.max_congestion), "avg_dilation": fig(r.avg_dilation),
            "qap_J": fig(r.qap_J), "est_time_s": fig(r.est_time_s),
            "change_max_congestion_pct": fig(_change(r.base_congestion, r.max_congestion)),
            "change_avg_dilation_pct": fig(_change(r.base_dilation, r.avg_dilation)),
            "change_qap_J_pct": fig(_change(r.base_J, r.qap_J)),
            "change_est_time_s_pct": fig(_change(r.base_est_time_s, r.est_time_s)),
            "bound_max_congestion": fig(r.bound_congestion),
            "bound_avg_dilation": fig(r.bound_dilation), "bound_qap_J": fig(r.bound_J),
            "gap_max_congestion": fig(_gap(r.max_congestion, r.bound_congestion)),
            "gap_avg_dilation": fig(_gap(r.avg_dilation, r.bound_dilation)),
            "gap_qap_J": fig(_gap(r.qap_J, r.bound_J)),
            "best": string(r.best) or None, "cause": string(r.cause) or None})
    return StudyResult(rows, res.n_runs)
