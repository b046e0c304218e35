"""Round trips between the library's objects and numpy / scipy / networkx / files."""
import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import topomap
from conftest import CG64, DATA, LULESH, X5, X5_MAP, run_cli


def test_numpy_and_file_readers_agree():
    """cg-64.size.csv read by the library's dense reader equals the same
    matrix given as a numpy array (loaded by numpy)."""
    a = np.loadtxt(CG64, delimiter=",")
    c_file = topomap.Comm.read(CG64)
    c_np = topomap.Comm.from_numpy(a)
    for x, y in zip(c_file.csr(), c_np.csr()):
        assert np.array_equal(x, y)
    assert np.array_equal(c_np.to_numpy(), np.where(np.eye(64, dtype=bool), 0, a))
    assert c_np.total_volume == pytest.approx(a.sum() - np.trace(a), rel=1e-15)


def test_every_ring_format_is_the_same_graph():
    ref = topomap.Comm.read(DATA + "/comm/ring.mtx").to_scipy()
    for ext in ("csv", "edges", "graph", "grf", "mat", "mpiP"):
        c = topomap.Comm.read(DATA + "/comm/ring." + ext)
        assert c.n == ref.shape[0]
        assert abs(c.to_scipy() - ref).max() == 0 or ext == "mpiP"


def test_scipy_round_trip():
    m = sp.random(50, 50, density=0.1, random_state=4, format="lil") * 100
    m.setdiag(0)
    m = m.tocsr()
    m.eliminate_zeros()
    c = topomap.Comm.from_scipy(m.tocoo())
    assert abs(c.to_scipy() - m).max() == 0
    assert c.nnz == m.nnz
    # duplicates in COO form add up, as in the library's entry builder
    coo = sp.coo_matrix(([1.0, 2.0, 5.0], ([0, 0, 1], [1, 1, 0])), shape=(3, 3))
    assert topomap.Comm.from_scipy(coo).to_numpy().tolist() == [[0, 3, 0], [5, 0, 0], [0, 0, 0]]


def test_networkx_comm_conventions():
    g = nx.Graph()
    g.add_edge("a", "b", weight=4)
    g.add_edge("b", "c", weight=2)
    c = topomap.Comm.from_networkx(g)
    assert c.labels == ["a", "b", "c"]
    # an undirected edge is a volume in each direction (METIS convention)
    assert c.to_numpy().tolist() == [[0, 4, 0], [4, 0, 2], [0, 2, 0]]
    d = nx.DiGraph([(2, 0, {"weight": 3}), (0, 1, {"weight": 1}), (1, 2)])
    cd = topomap.Comm.from_networkx(d)
    assert cd.to_numpy().tolist() == [[0, 1, 0], [0, 0, 1], [3, 0, 0]]
    back = cd.to_networkx()
    assert sorted(back.edges(data="weight")) == [(0, 1, 1.0), (1, 2, 1.0), (2, 0, 3.0)]


def test_comm_write_read(tmp_path):
    c = topomap.Comm.read(LULESH)
    c.write(tmp_path / "l.edges", "edges")
    assert abs(topomap.Comm.read(tmp_path / "l.edges").to_scipy() - c.to_scipy()).max() == 0


def test_network_networkx_round_trip():
    """A fat-tree exported to networkx and rebuilt through tm_net_add_*
    gives the same figures for the same placement."""
    net = topomap.Network.generate("fattree:k=4,n=3,slots=2")
    g = net.to_networkx()
    assert g.number_of_nodes() == net.n_vertices and g.number_of_edges() == net.n_cables
    assert sum(1 for _, k in g.nodes(data="kind") if k == "switch") == net.n_switches
    back = topomap.Network.from_networkx(g)
    assert (back.n_hosts, back.n_switches, back.n_cables, back.total_slots) == \
        (net.n_hosts, net.n_switches, net.n_cables, net.total_slots)
    comm = topomap.Comm.read(CG64)
    a, b = topomap.evaluate(net, comm), topomap.evaluate(back, comm)
    for f in ("max_congestion", "avg_dilation", "qap_J", "links_used"):
        assert getattr(a, f) == getattr(b, f), f


def test_network_from_handmade_graph_matches_cli(tmp_path):
    """Two switches with two parallel 100G cables, two hosts on each (slots
    2), written as GraphML by the library and evaluated by the CLI."""
    g = nx.MultiGraph()
    for s in ("s1", "s2"):
        g.add_node(s, kind="switch")
    for h, s in (("h1", "s1"), ("h2", "s1"), ("h3", "s2"), ("h4", "s2")):
        g.add_node(h, kind="host", slots=2)
        g.add_edge(h, s, capacity=50.0)
    g.add_edge("s1", "s2", capacity=100.0)
    g.add_edge("s1", "s2", capacity=100.0)
    net = topomap.Network.from_networkx(g)
    assert net.n_cables == 6 and net.total_slots == 8
    comm = np.zeros((8, 8))
    comm[0, 7] = comm[7, 0] = 300.0
    comm[1, 2] = 10.0
    m = topomap.evaluate(net, comm)
    # consecutive: tasks 0-1 on h1, 2-3 on h2, ..., 6-7 on h4.  h1 -> s1
    # carries 300 (0 -> 7) + 10 (1 -> 2) over 50G: 6.2; each spine cable
    # half of 300 over 100G: 1.5
    assert m.max_congestion == pytest.approx(6.2, rel=1e-15)
    assert m.max_congestion_links == [("h1", "s1")]
    df = m.link_loads()
    spine = df[(df["from"] == "s1") & (df["to"] == "s2")]
    assert spine["load"].tolist() == [150.0, 150.0] and spine["congestion"].tolist() == [1.5, 1.5]
    net.write(tmp_path / "n.graphml")
    np.savetxt(tmp_path / "c.csv", comm, delimiter=",")
    cli = run_cli("eval", "--topology", tmp_path / "n.graphml", "--comm", tmp_path / "c.csv", "--json")
    assert (cli["max_congestion"], cli["avg_dilation"], cli["qap_network_J"]) == \
        (m.max_congestion, m.avg_dilation, m.qap_J)
    again = topomap.Network.read_graphml(tmp_path / "n.graphml")
    assert topomap.evaluate(again, comm).qap_J == m.qap_J


def test_files_and_writers(tmp_path):
    net = topomap.Network.read_ibnetdiscover(X5, node_name_map=X5_MAP, slots=12)
    assert net.n_hosts == 89 and net.n_switches == 11
    same = topomap.Network.load(X5, node_name_map=X5_MAP, slots=12)
    assert same.names == net.names
    net.write(tmp_path / "x5.topo")
    again = topomap.Network.read_ibnetdiscover(tmp_path / "x5.topo", slots=12)
    assert again.n_cables == net.n_cables and sorted(again.names) == sorted(net.names)
    net.write(tmp_path / "topology.conf")
    assert "SwitchName=" in (tmp_path / "topology.conf").read_text()
    xml = topomap.Network.read_xml(DATA + "/xml/explicit.xml")
    assert xml.n_hosts > 0
    loads = topomap.evaluate(net, LULESH, alloc=topomap_x5_job()).link_load
    net.write(tmp_path / "l.graphml", link_load=loads)
    assert "congestion" in (tmp_path / "l.graphml").read_text()
    g = net.to_networkx(link_load=loads)
    assert max(c for _, _, c in g.edges(data="congestion")) == \
        pytest.approx(topomap.evaluate(net, LULESH, alloc=topomap_x5_job()).max_congestion)


def topomap_x5_job():
    from conftest import X5_JOB
    return X5_JOB
