"""evaluate() against `topomap eval --json` and `--export-loads`."""
import csv

import numpy as np
import pytest

import topomap
from conftest import CASES, run_cli

# the CLI's JSON key -> the Metrics attribute it prints (src/cli/report.c)
KEYS = {"n_tasks": "n_tasks", "total_volume": "total_volume", "max_congestion": "max_congestion",
        "max_congestion_links_total": "n_max_links_total", "approximate": "approximate",
        "avg_dilation": "avg_dilation", "max_dilation": "max_dilation", "qap_network_J": "qap_J",
        "hosts_used": "hosts_used", "messages": "messages",
        "inter_host_volume": "inter_host_volume", "links_used": "links_used",
        "congestion_sum_sq": "congestion_sum_sq"}


def same_metrics(cli, m, other=()):
    """Every figure the CLI prints equals the module's (bit for bit: the
    CLI prints %.17g and both ran the same library code)."""
    for k, attr in KEYS.items():
        assert cli[k] == getattr(m, attr), (k, cli[k], getattr(m, attr))
    # a figure the CLI prints under its tm_metrics name (a new one, such as
    # an estimated time) is compared as soon as the header declares the field
    # (time_s: the CLI's is the whole command's wall time, not the evaluation's)
    same_name = {k for k in cli if k in topomap.METRICS_FIELDS and k not in KEYS and k != "time_s"}
    for k in same_name:
        assert cli[k] == getattr(m, k), (k, cli[k], getattr(m, k))
    assert cli["congestion_histogram"] == list(m.hist)
    assert [tuple(x) for x in cli["max_congestion_links"]] == m.max_congestion_links
    if "bounds" in cli and m.bounds is not None:  # eval (map: same_result)
        same_bounds(cli, m)
    unknown = set(cli) - set(KEYS) - same_name - {"congestion_histogram", "max_congestion_links", "mode",
                                      "mapping", "routing", "time_s", "report", "lmc_spread",
                                      "bounds", "gap"} - set(other)
    assert not unknown, "figures the test does not compare: %s" % unknown


def same_bounds(cli, m):
    """The CLI's "bounds" and "gap" equal the module's (time_s apart)."""
    strip = lambda d: {k: v for k, v in d.items() if k != "time_s"}
    assert strip(cli["bounds"]) == strip(m.bounds)
    assert cli["gap"] == m.gap
    # a bound is a bound: never above the figure it bounds
    for k, g in cli["gap"].items():
        assert g is None or g >= 1 - 1e-12, (k, g)


def same_consecutive(cli, m):
    """eval --mapping's comparison with the consecutive placement."""
    key = {"qap_network_J": "qap_J"}
    assert set(cli["consecutive"]) == {"max_congestion", "avg_dilation", "qap_network_J",
                                       "est_time_s", "time_lower_bound_s"}
    for k, v in cli["consecutive"].items():
        assert v == getattr(m.consecutive, key.get(k, k)), k
    assert {key.get(k, k): v for k, v in cli["change_pct"].items()} == m.change_pct


@pytest.fixture(scope="module", params=CASES, ids=[c[0] for c in CASES])
def case(request):
    cid, args, load, comm, alloc = request.param
    net = topomap.Network.load(**load)
    return cid, args, net, topomap.Comm.read(comm), comm, alloc


def test_consecutive_and_loads(case, tmp_path):
    cid, args, net, comm, comm_path, alloc = case
    extra = ["--alloc", alloc] if alloc else []
    loads = tmp_path / "loads.csv"
    cli = run_cli("eval", *args, "--comm", comm_path, *extra, "--json", "--export-loads", loads)
    m = topomap.evaluate(net, comm, alloc=alloc)
    same_metrics(cli, m)
    assert m.n_links == net.n_links and m.link_load.shape == (net.n_links,)
    df = m.link_loads()
    with open(loads) as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(df) > 0
    assert list(df["from"]) == [r["from"] for r in rows]
    assert list(df["to"]) == [r["to"] for r in rows]
    for col in ("capacity", "load", "congestion"):
        assert np.array_equal(df[col].to_numpy(), np.array([float(r[col]) for r in rows])), col
    # the loads explain the maximum: load / capacity at the listed links
    tail, head, cap = net.links()
    assert np.max(m.link_load / cap) == pytest.approx(m.max_congestion, rel=1e-12)


@pytest.mark.parametrize("routing", ["single", "updn"])
def test_routing(case, routing):
    cid, args, net, comm, comm_path, alloc = case
    if cid == "torus" and routing == "updn":
        routing = "dor"
    extra = ["--alloc", alloc] if alloc else []
    cli = run_cli("eval", *args, "--comm", comm_path, *extra, "--routing", routing, "--json")
    assert cli["routing"] == routing
    same_metrics(cli, topomap.evaluate(net, comm, alloc=alloc, routing=routing, link_loads=False))


def test_given_mapping(case, tmp_path):
    """A rankfile written by `topomap map`, evaluated by both, and the same
    mapping given as an array."""
    cid, args, net, comm, comm_path, alloc = case
    extra = ["--alloc", alloc] if alloc else []
    rf = tmp_path / "job.rankfile"
    run_cli("map", *args, "--comm", comm_path, *extra, "--strategy", "greedy", "--refine", "none",
            "--out", rf, "--hostnames", "full")
    cli = run_cli("eval", *args, "--comm", comm_path, *extra, "--mapping", rf, "--json")
    m1 = topomap.evaluate(net, comm, mapping=str(rf), alloc=alloc)
    same_metrics(cli, m1, other=("consecutive", "change_pct", "baseline", "baseline_hosts"))
    same_consecutive(cli, m1)
    assert m1.baseline == cli["baseline"] == ("alloc" if alloc else "mapping_hosts")
    mp = topomap.Mapping.read(net, rf)
    m2 = topomap.evaluate(net, comm, mapping=mp.array, alloc=alloc)
    same_metrics(cli, m2, other=("consecutive", "change_pct", "baseline", "baseline_hosts"))
    same_consecutive(cli, m2)
    named = np.array([[net.name(h), s] for h, s in mp.array], dtype=object)
    assert topomap.evaluate(net, comm, mapping=named).qap_J == cli["qap_network_J"]


def test_time_options(case):
    """A non-default time model: the same est_time_s and lower bound as the CLI."""
    cid, args, net, comm, comm_path, alloc = case
    extra = ["--alloc", alloc] if alloc else []
    cli = run_cli("eval", *args, "--comm", comm_path, *extra, "--json", "--time-model", "fluid",
                  "--latency-per-hop", "1e-6", "--message-overhead", "2e-6",
                  "--host-bandwidth", "40", "--time-exact-max", "16")
    m = topomap.evaluate(net, comm, alloc=alloc, link_loads=False, time_model="fluid",
                         latency_per_hop=1e-6, message_overhead=2e-6, host_bandwidth=40,
                         time_exact_max=16)
    same_metrics(cli, m)
    default = topomap.evaluate(net, comm, alloc=alloc, link_loads=False)
    assert m.est_time_s != default.est_time_s
    assert m.consecutive is None and m.change_pct is None
    with pytest.raises(topomap.UsageError):
        topomap.evaluate(net, comm, alloc=alloc, time_model="lognormal")
    with pytest.raises(topomap.UsageError):
        topomap.evaluate(net, comm, alloc=alloc, host_bandwidth=0)


def test_hierarchy_mode():
    cli = run_cli("eval", "--hierarchy", "4:4:4", "--distances", "1:10:100", "--comm",
                  CASES[0][3], "--json")
    h = topomap.Hierarchy("4:4:4", "1:10:100")
    m = topomap.evaluate(h, CASES[0][3])
    assert cli["J"] == m.qap_J and cli["n_tasks"] == m.n_tasks
    assert cli["total_volume"] == m.total_volume


def test_metrics_fields_follow_the_struct():
    """Every field of tm_metrics is an attribute (a figure added to the
    header appears without other changes: the module's declarations are
    made from it, _cdefgen.py)."""
    m = topomap.evaluate(topomap.Network.generate("torus:2x2"), np.ones((4, 4)))
    for f in topomap.METRICS_FIELDS:
        assert hasattr(m, f), f
    d = m.as_dict()
    assert set(d) == set(topomap.METRICS_FIELDS) - {"link_load"}
