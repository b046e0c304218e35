"""The GIL is released while the library maps: another Python thread runs."""
import threading
import time

import topomap
from conftest import LULESH, X5, X5_JOB, X5_MAP


def test_other_thread_runs_during_map():
    net = topomap.Network.load(X5, node_name_map=X5_MAP, slots=12)
    ticks, stop = [], threading.Event()

    def spin():
        while not stop.is_set():
            ticks.append(time.monotonic())
            sum(range(200))  # Python work, needs the GIL
            time.sleep(0.001)

    th = threading.Thread(target=spin)
    th.start()
    try:
        time.sleep(0.05)
        t0 = time.monotonic()
        # a chain under a time limit runs to the end of the budget (ils kicks until then: the
        # default pipeline would end early, once converged): a long map
        res = topomap.map(net, LULESH, alloc=X5_JOB, time_limit=1.5, threads=1,
                          refine=topomap.EXHAUSTIVE_PIPELINE)
        t1 = time.monotonic()
    finally:
        stop.set()
        th.join()
    assert t1 - t0 >= 1.4
    inside = [t for t in ticks if t0 + 0.2 < t < t1 - 0.2]
    # a thread that could not take the GIL would have no tick inside the call
    assert len(inside) >= 50, (len(inside), t1 - t0)
    assert res.metrics.max_congestion <= res.consecutive.max_congestion


def test_maps_in_two_threads_equal_serial():
    """Two maps at once from two Python threads (each with its own context)
    give the serial results."""
    net = topomap.Network.generate("fattree:k=4,n=3")
    from conftest import CG64
    serial = [topomap.map(net, CG64, strategy=s, threads=1).metrics.qap_J for s in ("greedy", "topdown")]
    out = [None, None]

    def run(i, s):
        out[i] = topomap.map(net, CG64, strategy=s, threads=1).metrics.qap_J

    ths = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate(("greedy", "topdown"))]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    assert out == serial
