"""Library errors as exceptions carrying the library's message and code."""
import numpy as np
import pytest

import topomap
from conftest import DATA, X5, run_cli


def test_bad_generator_spec():
    with pytest.raises(topomap.UsageError) as e:
        topomap.Network.load("torus:0x4")
    assert e.value.code == topomap.lib.TM_EUSAGE and e.value.exit_code == 1
    assert "torus:0x4" in e.value.message
    # the same message as the CLI's
    p = run_cli("topo", "info", "--topology", "torus:0x4", expect=1)
    assert e.value.message in p.stderr


def test_malformed_file_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 9 2.0\n")
    with pytest.raises(topomap.InputError) as e:
        topomap.Comm.read(bad)
    assert e.value.exit_code == 2 and str(bad) + ":3:" in e.value.message
    assert isinstance(e.value, ValueError) and isinstance(e.value, topomap.TopomapError)


def test_missing_file():
    with pytest.raises(topomap.FileError) as e:
        topomap.Network.read_graphml("/nonexistent/x.graphml")
    assert "cannot open" in e.value.message and e.value.code == topomap.lib.TM_EIO


def test_too_many_tasks():
    with pytest.raises(topomap.InfeasibleError) as e:
        topomap.map(topomap.Network.generate("torus:2x2"), np.ones((5, 5)))
    assert e.value.exit_code == 3 and "5 tasks" in e.value.message


def test_unknown_strategy_and_refinement():
    net, comm = topomap.Network.generate("torus:2x2"), np.ones((4, 4))
    with pytest.raises(topomap.UsageError) as e:
        topomap.map(net, comm, strategy="nosuch")
    assert "nosuch" in e.value.message
    with pytest.raises(topomap.UsageError):
        topomap.map(net, comm, refine="nosuch:3")
    with pytest.raises(topomap.UsageError):
        topomap.evaluate(net, comm, routing="dor2")


def test_bad_entries_and_mapping():
    with pytest.raises(topomap.InputError):
        topomap.Comm.from_numpy(np.array([[0, -1.0], [1, 0]]))
    net = topomap.Network.generate("torus:2x2")
    with pytest.raises(topomap.InputError):  # slot 0 of host 0 used twice
        topomap.evaluate(net, np.ones((2, 2)), mapping=np.array([[0, 0], [0, 0]]))
    with pytest.raises(topomap.InputError):  # unknown host in an allocation
        topomap.evaluate(net, np.ones((2, 2)), alloc="nosuchhost")


def test_library_warnings_are_python_warnings():
    with pytest.warns(topomap.TopomapWarning, match="has no hostname"):
        topomap.Network.load(X5)


def test_error_in_study_is_raised():
    with pytest.raises(topomap.UsageError):
        topomap.study("torus:2x2", np.ones((4, 4)), strategy="nosuch")
    with pytest.raises(topomap.FileError):
        topomap.study(DATA + "/nonexistent.topo", np.ones((4, 4)))


def test_not_a_generator_spec():
    with pytest.raises(topomap.UsageError, match=r"unknown generator 'foo' \(known: torus"):
        topomap.Network.generate("foo:3")
    with pytest.raises(topomap.UsageError, match="expected <generator>:<parameters>"):
        topomap.Network.generate(X5)  # a file is not a generator spec
