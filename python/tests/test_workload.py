"""workload_eval, alloc and replay against `topomap workload eval|replay --out F.csv` and
`topomap alloc --json` on the same inputs (docs/workload.md): every cell of every row."""
import math
import os

import pandas as pd
import pytest

import topomap
from conftest import DATA, TOPO, X5, X5_MAP, run_cli

JOBS = os.path.join(DATA, "workload", "x5-jobs.txt")
SACCT = os.path.join(DATA, "workload", "x5-sacct.txt")
DAY = os.path.join(TOPO, "psmn-x5", "jobs-day.txt")
X5_ARGS = ["--topology", X5, "--node-name-map", X5_MAP]


@pytest.fixture(scope="module")
def x5():
    return topomap.Network.load(X5, node_name_map=X5_MAP)


def norm(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, (bool,)) or v in ("true", "false"):
        return v in (True, "true")
    return v


def same_tables(df, csv_path):
    cli = pd.read_csv(csv_path, float_precision="round_trip", dtype={"job": str, "group": str},
                      keep_default_na=False, na_values=[""])
    assert list(df.columns) == list(cli.columns)
    assert len(df) == len(cli)
    for i in range(len(df)):
        for col in df.columns:
            a, b = norm(df.iloc[i][col]), norm(cli.iloc[i][col])
            if isinstance(a, float) or isinstance(b, float):
                assert a == pytest.approx(b, rel=0, abs=0) or a == b, (i, col, a, b)
            else:
                assert str(a) == str(b), (i, col, a, b)


@pytest.mark.parametrize("routing", ["ecmp", "minhop"])
def test_workload_eval_equals_cli(x5, tmp_path, routing):
    out = tmp_path / "w.csv"
    run_cli("workload", "eval", *X5_ARGS, "--jobs", JOBS, "--routing", routing, "--out", out)
    res = topomap.workload_eval(x5, JOBS, routing=routing, threads=1)
    assert list(res.jobs.columns) == topomap.WORKLOAD_COLUMNS
    same_tables(res.jobs, out)
    cli = run_cli("workload", "eval", *X5_ARGS, "--jobs", JOBS, "--routing", routing, "--json")
    assert res.fabric["max_congestion"] == cli["fabric"]["max_congestion"]
    assert res.fabric["links_shared"] == cli["fabric"]["links_shared"]
    assert len(res.shared_links) == len(cli["fabric"]["shared_links"])
    for k in ("mean", "median", "p90", "max", "slowed"):
        assert res.slowdown[k] == cli["slowdown"][k]
    # the statistics are pandas' own (linear interpolation)
    assert res.slowdown["p90"] == pytest.approx(res.jobs["slowdown"].quantile(0.9), rel=1e-12)


def test_workload_eval_at_rows_and_dataframe(x5, tmp_path):
    # --at: the jobs running then
    out = tmp_path / "a.csv"
    run_cli("workload", "eval", *X5_ARGS, "--jobs", JOBS, "--at", "2024-03-05T10:45:00",
            "--out", out)
    res = topomap.workload_eval(x5, JOBS, at="2024-03-05T10:45:00")
    same_tables(res.jobs, out)
    assert list(res.jobs["job"]) == ["2001", "2002", "2003"]
    # rows: a shard gives the same rows
    part = topomap.workload_eval(x5, JOBS, rows=["2003", "2001"])
    assert list(part.jobs["job"]) == ["2003", "2001"]
    whole = res = topomap.workload_eval(x5, JOBS)
    for _, r in part.jobs.iterrows():
        w = whole.jobs[whole.jobs["job"] == r["job"]].iloc[0]
        assert r["slowdown"] == w["slowdown"] and r["shared_est_time_s"] == w["shared_est_time_s"]
    # a DataFrame of the file's columns: the same figures
    df = pd.read_csv(SACCT, sep="|", dtype=str, keep_default_na=False)
    a = topomap.workload_eval(x5, df)
    b = topomap.workload_eval(x5, SACCT)
    assert list(a.jobs["job"]) == ["3001", "3002", "3003_7"]
    assert list(a.jobs["shared_est_time_s"]) == list(b.jobs["shared_est_time_s"])


def test_workload_errors(x5):
    with pytest.raises(topomap.InputError) as e:
        topomap.workload_eval(x5, os.path.join(DATA, "bad", "workload", "unknown-host.txt"))
    assert "unknown-host.txt:2: job 1: unknown host 'sl390lin999'" in str(e.value)
    assert e.value.exit_code == 2
    with pytest.raises(topomap.UsageError):
        topomap.workload_eval(x5, JOBS, at="noon")
    with pytest.raises(topomap.UsageError):
        topomap.replay(x5, JOBS, policies="best")


def test_alloc_equals_cli(x5):
    cli = run_cli("alloc", *X5_ARGS, "--jobs", JOBS, "--nodes", "8", "--ppn", "8", "--routing",
                  "minhop", "--json")
    res = topomap.alloc(x5, 8, ppn=8, jobs=JOBS, routing="minhop")
    assert res.nodes == cli["nodes"]
    picks = res.picks.set_index("policy")
    for name, key in (("topomap", "topomap"), ("slurm-tree", "slurm_tree"), ("random", "random")):
        c, p = cli[key], picks.loc[name]
        assert bool(p["feasible"]) == c["feasible"]
        assert p["nodes"] == c["nodes"]
        for f in ("est_time_s", "max_congestion", "slowdown", "neighbours_slowdown"):
            assert p[f] == c[f], (name, f)
        assert p["alone_est_time_s"] == c["alone"]["est_time_s"]
        assert p["neighbours"] == c["neighbours"]
    assert picks.loc["topomap", "est_time_s"] <= picks.loc["slurm-tree", "est_time_s"]
    # a matrix as the job's communication, a list of free hosts
    free = ["sl390lin%d" % i for i in range(101, 125)]
    r2 = topomap.alloc(x5, 16, ppn=4, comm=os.path.join(TOPO, "comm", "lulesh-64.graphStats.txt"),
                       free=free, policy="slurm-tree")
    assert r2.nodes == "sl390lin[101-116]"
    with pytest.raises(topomap.InfeasibleError):
        topomap.alloc(x5, 30, ppn=1, free=free)


def test_replay_equals_cli(x5, tmp_path):
    out = tmp_path / "r.csv"
    cli = run_cli("workload", "replay", *X5_ARGS, "--trace", DAY, "--routing", "minhop",
                  "--policy", "as-recorded,topomap", "--out", out, "--json")
    res = topomap.replay(x5, DAY, policies=["as-recorded", "topomap"], routing="minhop")
    assert list(res.jobs.columns) == topomap.REPLAY_COLUMNS
    same_tables(res.jobs, out)
    for (_, s), c in zip(res.summary.iterrows(), cli["summary"]):
        assert s["policy"] == c["policy"] and s["jobs"] == c["jobs"]
        assert s["placed"] == c["slowdown"]["jobs"]
        for k in ("mean", "median", "p90", "p99", "max", "slowed"):
            assert s[k] == c["slowdown"][k], (s["policy"], k)
        assert s["max_congestion_peak"] == c["max_congestion_peak"]
    tl = res.timeline
    assert len(tl) == len(cli["timeline"])
    assert list(tl["max_congestion"]) == [t["max_congestion"] for t in cli["timeline"]]
    # as-recorded sharded by job: the same rows
    part = topomap.replay(x5, DAY, policies="as-recorded", routing="minhop", rows=["4102", "4112"])
    whole = res.jobs[res.jobs["policy"] == "as-recorded"].set_index("job")
    for _, r in part.jobs.iterrows():
        assert r["slowdown"] == whole.loc[r["job"], "slowdown"]


def test_shard_assign():
    """tm_shard_assign: longest first, each to the least loaded shard (the
    lowest among equals); every shard gets an item when n <= items."""
    owner = topomap.shard_assign([9, 5, 3, 3, 2, 1], 3)
    loads = [sum(c for c, o in zip([9, 5, 3, 3, 2, 1], owner) if o == s) for s in range(3)]
    assert owner[0] == 0 and owner[1] == 1 and sorted(loads) == [7, 7, 9]
    assert list(topomap.shard_assign([1, 1, 1, 1], 4)) != [0, 0, 0, 0]
    assert sorted(topomap.shard_assign([1, 1, 1, 1], 4)) == [0, 1, 2, 3]
    with pytest.raises(topomap.UsageError):
        topomap.shard_assign([1, 2], 0)


def test_workload_shards_and_merge(x5, tmp_path):
    """workload_eval(shard="K/N") gives the rows of the CLI's --shard K/N;
    workload_merge of the CLI's shard files (JSON: the whole document; CSV:
    the rows) gives the tables of the whole run."""
    whole = topomap.workload_eval(x5, DAY, routing="minhop")
    seen = []
    for k in range(3):
        out = tmp_path / ("e%d.csv" % k)
        run_cli("workload", "eval", *X5_ARGS, "--jobs", DAY, "--routing", "minhop",
                "--shard", "%d/3" % k, "--out", out, "--out", tmp_path / ("e%d.json" % k))
        part = topomap.workload_eval(x5, DAY, routing="minhop", shard="%d/3" % k)
        cli = pd.read_csv(out, dtype={"job": str, "group": str})
        assert list(part.jobs["job"]) == list(cli["job"]) and len(part.jobs) > 0
        seen += list(part.jobs["index"])
    assert sorted(seen) == list(range(len(whole.jobs)))
    for ext in ("json", "csv"):
        m = topomap.workload_merge(sorted(tmp_path.glob("e*.%s" % ext)))
        assert m.n_shards == 3
        pd.testing.assert_frame_equal(m.jobs, whole.jobs)
        for k in ("mean", "median", "p90", "p99", "max", "slowed"):
            assert m.slowdown[k] == whole.slowdown[k]
    assert m.fabric is None  # CSV: the rows only
    m = topomap.workload_merge(sorted(tmp_path.glob("e*.json")))
    assert m.fabric == whole.fabric
    pd.testing.assert_frame_equal(m.shared_links, whole.shared_links)
    # an as-recorded replay in two shards
    rec = topomap.replay(x5, DAY, policies="as-recorded", routing="minhop")
    for k in range(2):
        run_cli("workload", "replay", *X5_ARGS, "--trace", DAY, "--routing", "minhop",
                "--policy", "as-recorded", "--shard", "%d/2" % k,
                "--out", tmp_path / ("r%d.json" % k))
        part = topomap.replay(x5, DAY, policies="as-recorded", routing="minhop",
                              shard="%d/2" % k)
        cli = run_cli("workload", "replay", *X5_ARGS, "--trace", DAY, "--routing", "minhop",
                      "--policy", "as-recorded", "--shard", "%d/2" % k, "--json")
        assert list(part.jobs["job"]) == [r["job"] for r in cli["jobs"]]
    m = topomap.workload_merge([tmp_path / "r1.json", tmp_path / "r0.json"])
    pd.testing.assert_frame_equal(m.jobs, rec.jobs)
    pd.testing.assert_frame_equal(m.summary, rec.summary)
    pd.testing.assert_frame_equal(m.timeline, rec.timeline)
    with pytest.raises(topomap.UsageError):
        topomap.workload_eval(x5, DAY, shard="3/3")
    with pytest.raises(topomap.UsageError):
        topomap.replay(x5, DAY, shard="0/2")  # every policy: no shards
    with pytest.raises(topomap.InputError) as e:
        topomap.workload_merge([tmp_path / "e0.json", tmp_path / "r0.json"])
    assert e.value.exit_code == 2
