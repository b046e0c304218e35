"""What-if studies through tm_study_run, and their shards joined through
tm_study_merge (include/topomap/study.h)."""
import contextlib
import os

from ._lib import CONSTANTS, Context, InputFile, UsageError, cstr, enc, ffi, lib, string
from .comm import as_comm
from .mapping import _OBJECTIVES, _effort_refine, _routing_names, _time_opts

#: columns of StudyResult.rows / to_dataframe(), as `topomap study --out F.csv` writes them
#: (TM_STUDY_CSV_HEADER, include/topomap/study.h)
COLUMNS = CONSTANTS["TM_STUDY_CSV_HEADER"].split(",")


def _list(x):
    if x is None:
        return []
    return [x] if isinstance(x, (str, int, float, os.PathLike)) else list(x)


def _failures(fail_links, fail_link, fail_switch):
    """The failure axis: the unchanged network first, as in the CLI."""
    out = [(lib.TM_STUDY_FAIL_NONE, 0.0, None)]
    for p in _list(fail_links):
        out.append((lib.TM_STUDY_FAIL_RANDOM, float(str(p).rstrip("%")), None))
    for n in _list(fail_link):
        out.append((lib.TM_STUDY_FAIL_LINKS, 0.0, ",".join(n) if isinstance(n, (list, tuple))
                    else n))
    for n in _list(fail_switch):
        out.append((lib.TM_STUDY_FAIL_SWITCHES, 0.0, ",".join(n) if isinstance(n, (list, tuple))
                    else n))
    return out


def _fail_label(f):
    """A failure as the outputs name it ("links 5%"): tm_study_failure_label."""
    buf = ffi.new("char[]", 512)
    lib.tm_study_failure_label(f, buf, 512)
    return string(buf)


def _axes(spec, comm_names):
    """The labels of a spec's axes, as the outputs print them."""
    return {"topology": [string(spec.topologies[i]) for i in range(spec.n_topologies)],
            "comm": list(comm_names),
            "routing": [string(lib.tm_route_kind_name(spec.routings[i]))
                        for i in range(spec.n_routings)],
            "slots": [int(spec.slots[i]) for i in range(spec.n_slots)],
            "capacity": [string(spec.scales[i]) or "none" for i in range(spec.n_scales)],
            "failure": [_fail_label(ffi.addressof(spec.failures[i]))
                        for i in range(spec.n_failures)],
            "strategy": [string(spec.strategies[i]) for i in range(spec.n_strategies)]}


# (column, figure): the consecutive placement's, the mapping's and the change
_FIGS = [("max_congestion", lib.TM_STUDY_FIG_CONGESTION),
         ("avg_dilation", lib.TM_STUDY_FIG_DILATION), ("qap_J", lib.TM_STUDY_FIG_J),
         ("est_time_s", lib.TM_STUDY_FIG_TIME)]


def _rows(res, ax):
    """The rows of a tm_study_result as dicts of COLUMNS (the CSV's)."""
    rows = []
    for i in range(res.n_rows):
        r = res.rows + i
        ok = r.status == lib.TM_STUDY_OK
        summary = r.stat != lib.TM_STUDY_RUN
        row = {"stat": string(lib.tm_study_stat_name(r.stat)),
               "topology": ax["topology"][r.topology], "comm": ax["comm"][r.comm],
               "routing": ax["routing"][r.routing], "slots": ax["slots"][r.slots],
               "capacity": ax["capacity"][r.scale], "failure": ax["failure"][r.failure],
               "sample": r.sample, "scaled_cables": r.scaled_cables,
               "failed_cables": r.failed_cables, "strategy": ax["strategy"][r.strategy],
               "status": string(lib.tm_study_status_name(r.status)),
               "runs": r.runs if summary else None, "not_ok": r.not_ok if summary else None,
               "best": string(r.best) or None, "cause": string(r.cause) or None}
        for name, k in _FIGS:
            base, v = lib.tm_study_row_fig(r, True, k), lib.tm_study_row_fig(r, False, k)
            row["consecutive_" + name] = base if ok else None
            row[name] = v if ok else None
            row["change_%s_pct" % name] = lib.tm_study_change_pct(base, v) if ok else None
            if k != lib.TM_STUDY_FIG_TIME:  # the lower bounds and gaps (topomap/bounds.h)
                gap = lib.tm_study_row_gap(r, k)
                row["bound_" + name] = lib.tm_study_row_bound(r, k) if ok else None
                row["gap_" + name] = gap if ok and gap != float("inf") else None
        rows.append(row)
    return rows


class StudyResult:
    """The rows of a study (grid order; mean and worst rows follow each
    group of random-failure samples): `rows` is a list of dicts keyed by
    COLUMNS, to_dataframe() the same as a pandas DataFrame; `n_shards`: the
    shards study_merge joined (0 for study())."""

    def __init__(self, rows, n_runs, n_shards=0):
        self.rows = rows
        self.n_runs = n_runs
        self.n_shards = n_shards

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
            raise UsageError(lib.TM_EUSAGE, "unknown study routing %r (%s)" % (r, ", ".join(
                n for n in _routing_names() if n != "lft")))
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
    for i, (kind, pct, names) in enumerate(fails):
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
    return StudyResult(_rows(res, _axes(spec, comm_names)), res.n_runs)


def study_merge(files):
    """The --out files of the shards of one study (`topomap study --shard
    K/N --out F`, K = 0..N-1, all JSON or all CSV) joined into the whole
    study with tm_study_merge, as `topomap study merge` does: a StudyResult
    whose rows are the unsharded study's (the mean and worst rows computed
    over every sample).  The files must be the N shards of one study, each
    once (the same options and input files): else an InputError naming the
    file (docs/study.md "Shards")."""
    paths = [os.fspath(f) for f in ([files] if isinstance(files, (str, os.PathLike))
                                    else files)]
    if not paths:
        raise UsageError(lib.TM_EUSAGE, "no shard files")
    ctx = Context()
    m = ffi.gc(ffi.new("tm_study_merged *"), lib.tm_study_merged_release)
    names = [cstr(p) for p in paths]
    with contextlib.ExitStack() as stack:
        fps = [stack.enter_context(InputFile(ctx, p)) for p in paths]
        ctx.check(lib.tm_study_merge(ctx.ptr, ffi.new("FILE *[]", fps),
                                     ffi.new("const char *[]", names), len(paths), m))
    comm_names = [string(m.comm_names[i]) for i in range(m.spec.n_comms)]
    return StudyResult(_rows(m.res, _axes(m.spec, comm_names)), m.res.n_runs, m.n_shards)
