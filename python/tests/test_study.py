"""study() against `topomap study --out F.csv --out F.json` on the same grid."""
import json
import math

import pandas as pd
import pytest

import topomap
from conftest import CG64, run_cli

TOPOS = ["fattree:k=4,n=3", "fattree:k=4,n=3,upcap=0.5"]


def norm(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    return v


def test_study_equals_cli(tmp_path):
    """Two topologies, slots 1 (infeasible) and 2, a capacity change, two
    random-failure samples (mean and worst rows), a failed leaf switch
    (disconnected), two strategies: every row and figure."""
    csv_path, json_path = tmp_path / "s.csv", tmp_path / "s.json"
    run_cli("study", "--topology", TOPOS[0], "--topology", TOPOS[1], "--comm", CG64,
            "--alloc", "n00[00-47]", "--slots", "1,2", "--scale-capacity", "2=0.5",
            "--fail-links", "10%", "--seeds", "2", "--fail-switch", "sw-l1-000",
            "--strategy", "identity,all", "--threads", "2", "--quiet",
            "--out", csv_path, "--out", json_path)
    res = topomap.study(TOPOS, CG64, alloc="n00[00-47]", slots=[1, 2], scale_capacity="2=0.5",
                        fail_links="10%", seeds=2, fail_switch="sw-l1-000",
                        strategy=["identity", "all"], threads=1)
    cli = pd.read_csv(csv_path, float_precision="round_trip")  # %.17g read back exactly
    df = res.to_dataframe()
    assert list(df.columns) == list(cli.columns) == topomap.STUDY_COLUMNS
    assert len(df) == len(cli) == 96
    for i in range(len(df)):
        for col in df.columns:
            a, b = norm(df.iloc[i][col]), norm(cli.iloc[i][col])
            assert a == b, (i, col, a, b)
    statuses = set(df["status"])
    assert {"ok", "infeasible", "disconnected"} <= statuses
    assert {"run", "mean", "worst"} == set(df["stat"])
    j = json.loads(json_path.read_text())
    assert j["runs"] == res.n_runs


def test_study_time_options(tmp_path):
    """A non-default time model: the est_time_s columns equal the CLI's."""
    csv_path = tmp_path / "t.csv"
    run_cli("study", "--topology", TOPOS[0], "--comm", CG64, "--alloc", "n00[00-47]",
            "--slots", "2", "--strategy", "identity,greedy", "--refine", "none", "--time-model", "fluid",
            "--message-overhead", "1e-6", "--host-bandwidth", "20", "--threads", "1", "--quiet",
            "--out", csv_path)
    res = topomap.study(TOPOS[0], CG64, alloc="n00[00-47]", slots=2, strategy=["identity", "greedy"],
                        refine=None, time_model="fluid", message_overhead=1e-6,
                        host_bandwidth=20, threads=1)
    cli = pd.read_csv(csv_path, float_precision="round_trip")
    df = res.to_dataframe()
    assert len(df) == len(cli) == 2 and list(df["status"]) == ["ok", "ok"]
    for col in ("consecutive_est_time_s", "est_time_s", "change_est_time_s_pct", "qap_J"):
        assert list(df[col]) == list(cli[col]), col
    default = topomap.study(TOPOS[0], CG64, alloc="n00[00-47]", slots=2, strategy="identity",
                            refine=None, threads=1)
    assert default.rows[0]["est_time_s"] != res.rows[0]["est_time_s"]


def test_study_inputs_from_python():
    """Applications as numpy arrays; the unchanged network comes first."""
    comm = topomap.Comm.read(CG64).to_numpy()
    res = topomap.study("torus:4x4x4", [comm], scale_capacity="all=0.5", strategy="identity",
                        comm_names=["cg"])
    assert [r["capacity"] for r in res.rows] == ["none", "all=0.5"]
    a, b = res.rows
    assert b["max_congestion"] == 2 * a["max_congestion"]
    assert b["avg_dilation"] == a["avg_dilation"] and a["comm"] == "cg"


def test_study_merge_equals_cli(tmp_path):
    """The CLI's shards of a study (JSON and CSV) merged by study_merge
    (tm_study_merge) give the unsharded study's rows, the mean and worst
    rows of the random failures computed over both shards' samples."""
    args = ["study", "--topology", TOPOS[0], "--comm", CG64, "--alloc", "n00[00-47]",
            "--slots", "2", "--fail-links", "10%", "--seeds", "2",
            "--strategy", "identity,greedy", "--refine", "none", "--threads", "1", "--quiet"]
    whole = tmp_path / "whole.csv"
    run_cli(*args, "--out", whole)
    for k in range(2):
        run_cli(*args, "--shard", "%d/2" % k, "--out", tmp_path / ("s%d.json" % k),
                "--out", tmp_path / ("s%d.csv" % k))
    cli = pd.read_csv(whole, float_precision="round_trip")
    for ext in ("json", "csv"):
        res = topomap.study_merge([tmp_path / ("s1.%s" % ext), tmp_path / ("s0.%s" % ext)])
        assert res.n_shards == 2
        df = res.to_dataframe()
        assert len(df) == len(cli) and {"mean", "worst"} <= set(df["stat"])
        for i in range(len(df)):
            for col in df.columns:
                a, b = norm(df.iloc[i][col]), norm(cli.iloc[i][col])
                assert a == b, (ext, i, col, a, b)
    # one shard missing: the merge refuses, naming it
    with pytest.raises(topomap.InputError) as e:
        topomap.study_merge([tmp_path / "s0.json"])
    assert "1 of its 2 shards missing (1;" in e.value.message and e.value.exit_code == 2
    with pytest.raises(topomap.FileError):
        topomap.study_merge([tmp_path / "s0.json", tmp_path / "nosuch.json"])
