"""topomap: map MPI processes onto HPC interconnects (libtopomap from Python).

    import topomap
    net = topomap.Network.generate("torus:8x8x8")
    comm = topomap.Comm.read("app.mtx")          # or a numpy / scipy / networkx matrix
    base = topomap.evaluate(net, comm)            # the consecutive placement
    res = topomap.map(net, comm, strategy="all")  # every strategy, refined
    print(res.consecutive.max_congestion, res.metrics.max_congestion)
    res.metrics.link_loads()                      # pandas DataFrame (evaluate keeps the loads)
    topomap.workload_eval(net, "jobs.txt").jobs   # many jobs on one fabric (docs/workload.md)

Every call goes to libtopomap.so through cffi (no figure is computed in
Python); docs/python.md.
"""
from ._lib import (LIBRARY_PATH, FileError, InfeasibleError, InputError, InternalError,
                   OutOfMemoryError, TopomapError, TopomapWarning, UsageError, ffi, lib)
from ._metrics import FIELDS as METRICS_FIELDS
from ._metrics import Metrics
from .comm import Comm, as_comm
from .mapping import (EXHAUSTIVE_PIPELINE, NETWORK_PIPELINE, Hierarchy, Mapping, MapResult,
                      StrategyRow, evaluate, map, refiners, strategies)
from .network import Network, generator_help
from .study import COLUMNS as STUDY_COLUMNS
from .study import StudyResult, study, study_merge
from .workload import (EVAL_COLUMNS as WORKLOAD_COLUMNS, REPLAY_COLUMNS, AllocResult,
                       ReplayResult, Workload, WorkloadResult, alloc, replay, shard_assign,
                       workload_eval, workload_merge)

__version__ = "0.1.0"

__all__ = ["Network", "Comm", "Hierarchy", "Mapping", "Metrics", "MapResult", "StrategyRow",
           "StudyResult", "evaluate", "map", "study", "study_merge", "strategies", "refiners",
           "as_comm", "Workload", "WorkloadResult", "AllocResult", "ReplayResult",
           "workload_eval", "alloc", "replay", "workload_merge", "shard_assign",
           "WORKLOAD_COLUMNS", "REPLAY_COLUMNS",
           "generator_help", "TopomapError", "UsageError", "InputError", "FileError",
           "InfeasibleError", "OutOfMemoryError", "InternalError", "TopomapWarning",
           "LIBRARY_PATH", "METRICS_FIELDS", "STUDY_COLUMNS", "NETWORK_PIPELINE",
           "EXHAUSTIVE_PIPELINE"]
