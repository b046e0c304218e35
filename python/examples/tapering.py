#!/usr/bin/env python3
"""What does tapering cost LULESH on a Clos, with and without mapping?

The study of docs/study.md ("A study end to end") from Python: LULESH 2.0
(64 ranks, a real mpiP trace) scattered over a 128-host 2-level Clos
(8 leaves x 16 hosts, 4 spines, 100 Gbit/s cables), the leaf uplinks
tapered 2:1, 4:1 and 8:1; every scenario mapped by topomap.study (the
library's what-if engine) and compared with the consecutive placement.
Writes a two-panel figure (matplotlib, Agg backend) and prints the table.

    python3 tapering.py [OUT.png] [--strategy all] [--slots 1]

docs/python.md shows this script and its figure (docs/img/python-tapering.png).
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402

import topomap  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("TOPOMAP_SOURCE", os.path.join(HERE, "..", ".."))
TOPOLOGY = "clos:leaves=8,hosts_per_leaf=16,spines=4,cap=100"
COMM = os.path.join(ROOT, "topologies", "comm", "lulesh-64.graphStats.txt")
ALLOC = os.path.join(ROOT, "topologies", "examples", "clos128-job64-scattered.hostfile")
TAPERS = {"1:1": None, "2:1": "2=0.5", "4:1": "2=0.25", "8:1": "2=0.125"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default="tapering.png")
    ap.add_argument("--strategy", default="all", help="mapping strategy (default: all)")
    ap.add_argument("--slots", type=int, default=1, help="ranks per node (default 1)")
    args = ap.parse_args()

    res = topomap.study(TOPOLOGY, COMM, alloc=ALLOC, slots=args.slots,
                        scale_capacity=[s for s in TAPERS.values() if s],
                        strategy=args.strategy, comm_names=["LULESH-64"])
    df = res.to_dataframe()
    df.insert(0, "tapering", list(TAPERS))
    print(df[["tapering", "consecutive_max_congestion", "max_congestion",
              "change_max_congestion_pct", "consecutive_avg_dilation", "avg_dilation",
              "best"]].to_string(index=False))

    x = range(len(df))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8, 3.2))
    w = 0.38
    ax1.bar([i - w / 2 for i in x], df["consecutive_max_congestion"] / 1e7, w,
            label="consecutive", color="#9e9e9e")
    ax1.bar([i + w / 2 for i in x], df["max_congestion"] / 1e7, w,
            label="mapped (%s)" % args.strategy, color="#1f77b4")
    ax1.set_ylabel("max congestion (1e7 B / (Gbit/s))")
    ax1.set_title("busiest link")
    ax2.bar([i - w / 2 for i in x], df["consecutive_avg_dilation"], w, color="#9e9e9e")
    ax2.bar([i + w / 2 for i in x], df["avg_dilation"], w, color="#1f77b4")
    ax2.set_ylabel("average dilation (hops)")
    ax2.set_title("distance travelled")
    for ax in (ax1, ax2):
        ax.set_xticks(list(x))
        ax.set_xticklabels(df["tapering"])
        ax.set_xlabel("leaf uplink tapering")
    ax1.legend(loc="upper left", fontsize=8)
    fig.suptitle("LULESH-64 scattered on a 128-host Clos, %d rank%s per node"
                 % (args.slots, "" if args.slots == 1 else "s"), fontsize=10)
    fig.tight_layout()
    fig.savefig(args.out, dpi=90)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
