"""map() against `topomap map --json` (and its rankfile) on the same inputs."""
import pytest

import topomap
from conftest import CASES, run_cli
from test_eval import same_bounds, same_metrics


@pytest.fixture(scope="module", params=CASES, ids=[c[0] for c in CASES])
def case(request):
    cid, args, load, comm, alloc = request.param
    return cid, args, topomap.Network.load(**load), topomap.Comm.read(comm), comm, alloc


# keys of `map --json` beside the figures (compared in same_result or run parameters)
MAP_KEYS = {"objective", "strategy", "out", "strategies", "seed", "best", "consecutive", "refine",
            "mapping_time_s", "change_pct", "predicted_slower_than_consecutive",
            "fell_back_to_consecutive", "fallback_reason", "effort"}
ROW_KEYS = {"name", "refine", "construction", "refinement_undone", "screened", "refine_time_s"}


def same_result(cli, res, other=()):
    assert cli["best"] == res.best
    same_metrics(cli, res.metrics, MAP_KEYS | set(other) | {"bounds", "gap"})
    same_bounds(cli, res)
    same_metrics(cli["consecutive"], res.consecutive)
    assert cli["change_pct"] == res.change_pct
    for k in ("predicted_slower_than_consecutive", "fell_back_to_consecutive"):
        assert cli.get(k) == getattr(res, k), k
    if "effort" in cli:  # network mode: what ran, counted the same way
        assert {k: v for k, v in cli["effort"].items() if k != "asked"} == res.effort
    assert [r["name"] for r in cli["strategies"]] == [r.name for r in res.rows]
    for c, r in zip(cli["strategies"], res.rows):
        assert c["refine"] == (r.refine or "none")
        same_metrics(c, r.metrics, ROW_KEYS)
        assert c["screened"] == r.screened
        if r.refine:
            assert c["refinement_undone"] == r.reverted
            assert c["construction"] == r.construction


def test_all_strategies_default_pipeline(case, tmp_path):
    """`map` with its defaults (every strategy, the default pipeline, pareto, seed 1):
    the same rows, figures, choice and rankfile."""
    cid, args, net, comm, comm_path, alloc = case
    extra = ["--alloc", alloc] if alloc else []
    rf = tmp_path / "cli.rankfile"
    cli = run_cli("map", *args, "--comm", comm_path, *extra, "--json", "--out", rf)
    res = topomap.map(net, comm, alloc=alloc)
    same_result(cli, res)
    res.mapping.write(tmp_path / "py.rankfile")
    assert (tmp_path / "py.rankfile").read_text() == rf.read_text()
    # the mapping is a numpy (host, slot) array the evaluation accepts
    assert res.mapping.array.shape == (comm.n, 2)
    assert topomap.evaluate(net, comm, res.mapping.array).qap_J == res.metrics.qap_J


@pytest.mark.parametrize("strategy,refine,objective,seed", [
    ("greedy", "nc:1+ta", "congestion", 7),
    ("topdown", "none", "qap", 1),
    ("recursive", "ta", "dilation", 3),
    ("greedy", "ils:10+ta", "time", 1),
])
def test_strategy_refine_objective_seed(strategy, refine, objective, seed):
    cid, args, load, comm_path, alloc = CASES[1]
    net = topomap.Network.load(**load)
    cli = run_cli("map", *args, "--comm", comm_path, "--strategy", strategy, "--refine", refine,
                  "--objective", objective, "--seed", seed, "--json", "--out", "/dev/null")
    res = topomap.map(net, comm_path, strategy=strategy, refine=refine, objective=objective,
                      seed=seed, threads=1)
    assert cli["refine"] == refine and cli["objective"] == objective
    same_result(cli, res)


def test_every_registered_strategy_and_refinement_runs():
    """The registry the module lists is the library's: every network-mode
    strategy and refinement runs through map()."""
    names = [s["name"] for s in topomap.strategies()]
    assert {"identity", "topdown", "greedy", "recursive", "rcm", "grow"} <= set(names)
    net = topomap.Network.generate("fattree:k=4,n=2")
    comm = topomap.Comm.read(CASES[0][3]).to_numpy()[:16, :16]
    for s in names:
        res = topomap.map(net, comm, strategy=s, refine="none")
        assert res.rows[0].name.split("#")[0] == s
    for r in topomap.refiners():
        res = topomap.map(net, comm, strategy="identity", refine=r["name"])
        assert res.rows[0].refine == r["name"]


def test_hierarchy_mode_map():
    comm = CASES[0][3]
    cli = run_cli("map", "--hierarchy", "4:4:4", "--distances", "1:10:100", "--comm", comm,
                  "--json", "--out", "/dev/null")
    res = topomap.map(topomap.Hierarchy("4:4:4", "1:10:100"), comm)
    assert cli["best"] == res.best and cli["J"] == res.metrics.qap_J
    assert cli["consecutive"]["J"] == res.consecutive.qap_J
    assert [r["name"] for r in cli["strategies"]] == [r.name for r in res.rows]
    assert sorted(res.mapping.pe.tolist()) == list(range(64))
    hs = {s["name"] for s in topomap.strategies("hierarchy")}
    assert {"mm", "allc", "bottomup", "topdown-c"} <= hs


def test_time_options():
    """A non-default time model: the same est_time_s in every row and change_pct."""
    cid, args, load, comm_path, alloc = CASES[1]
    net = topomap.Network.load(**load)
    cli = run_cli("map", *args, "--comm", comm_path, "--strategy", "greedy", "--refine", "none",
                  "--time-model", "fluid", "--latency-per-hop", "2e-6", "--json",
                  "--out", "/dev/null")
    res = topomap.map(net, comm_path, strategy="greedy", refine=None, threads=1,
                      time_model="fluid", latency_per_hop=2e-6)
    same_result(cli, res)
    default = topomap.map(net, comm_path, strategy="greedy", refine=None, threads=1)
    assert res.metrics.est_time_s != default.metrics.est_time_s
    assert "est_time_s" in res.change_pct


def test_more_tasks_than_slots(tmp_path):
    """General process mapping (`map --imbalance`): 64 tasks on 8 hosts."""
    comm = CASES[0][3]
    rf = tmp_path / "cli.txt"
    cli = run_cli("map", "--topology", "torus:2x2x2", "--comm", comm, "--imbalance", "0.03",
                  "--json", "--format", "plain", "--out", rf)
    net = topomap.Network.generate("torus:2x2x2")
    res = topomap.map(net, comm, imbalance=0.03)
    same_result(cli, res, {"general"})
    assert cli["general"] == {"blocks": res.blocks, "block_bound": res.block_bound,
                              "block_weight_max": res.block_weight_max}
    res.mapping.write(tmp_path / "py.txt", "plain")
    assert (tmp_path / "py.txt").read_text() == rf.read_text()
    with pytest.raises(topomap.InfeasibleError):
        topomap.map(net, comm)  # one task per slot without imbalance


def test_objective_time_fallback(tmp_path):
    """objective="time" on the hand-computed chain of t18-time: greedy is
    predicted slower (1.5 s against 1.25 s), so the result is the
    consecutive placement, as in `map --objective time`."""
    comm = tmp_path / "chain.mtx"
    comm.write_text("%%MatrixMarket matrix coordinate real general\n4 4 3\n"
                    "1 2 1.25e8\n2 3 1.25e8\n3 4 1.25e8\n")
    net = topomap.Network.generate("mesh:4")
    opts = dict(strategy="greedy", refine=None, time_model="fluid", latency_per_hop=0.25,
                threads=1)
    res = topomap.map(net, str(comm), objective="time", **opts)
    assert res.best == "consecutive" and res.fell_back_to_consecutive
    assert res.metrics.est_time_s == 1.25 and [r.name for r in res.rows] == ["greedy", "consecutive"]
    assert not res.predicted_slower_than_consecutive
    slow = topomap.map(net, str(comm), objective="congestion", **opts)
    assert slow.best == "greedy" and slow.metrics.est_time_s == 1.5
    assert slow.predicted_slower_than_consecutive and not slow.fell_back_to_consecutive
    cli = run_cli("map", "--topology", "mesh:4", "--comm", comm, "--strategy", "greedy",
                  "--refine", "none", "--time-model", "fluid", "--latency-per-hop", "0.25",
                  "--objective", "time", "--json", "--out", "/dev/null")
    same_result(cli, res)


def test_objective_time_tolerance(tmp_path):
    """objective="time" keeps the consecutive placement when the best row's
    predicted speed-up is within the time model's error (10 %): one message
    t0 -> t3 on mesh:4, greedy 1.05 s against 1.15 s (1.095x) at 0.05 s per
    hop, 1.06 s against 1.18 s (1.113x) at 0.06 s (t18-time)."""
    comm = tmp_path / "far.mtx"
    comm.write_text("%%MatrixMarket matrix coordinate real general\n4 4 1\n1 4 1.25e8\n")
    net = topomap.Network.generate("mesh:4")
    opts = dict(strategy="greedy", refine=None, time_model="fluid", threads=1, objective="time")
    res = topomap.map(net, str(comm), latency_per_hop=0.05, **opts)
    assert res.best == "consecutive" and res.fell_back_to_consecutive
    assert res.rows[0].metrics.est_time_s == 1.05 and res.metrics.est_time_s == 1.15
    res = topomap.map(net, str(comm), latency_per_hop=0.06, **opts)
    assert res.best == "greedy" and not res.fell_back_to_consecutive
    assert res.metrics.est_time_s == 1.06 and res.consecutive.est_time_s == 1.18
