#!/usr/bin/env python3
"""Markdown summary of tools/bench/qap/run.sh results (docs/qap.md).
usage: summarize.py OUTDIR PEERS_TSV"""
import csv
import os
import sys
from collections import defaultdict


def load(path):
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            try:
                r["J"] = float(r["J"])
            except (TypeError, ValueError):
                continue
            r["time_s"] = float(r["time_s"]) if r.get("time_s") else None
            rows.append(r)
    return rows


def stage(r, name):
    for part in (r.get("stages") or "").split(","):
        if "=" in part:
            k, v = part.split("=")
            if k == name:
                return float(v)
    return None


def fmt_t(t):
    return "" if t is None else "%.2f" % t


def main():
    out, peers_path = sys.argv[1], sys.argv[2]
    peers = defaultdict(list)
    with open(peers_path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["tool"] in ("identity", "random"):
                continue
            peers[r["instance"]].append((float(r["J"]), float(r["wall_s"] or 0), r["tool"]))
    A = load(os.path.join(out, "A_peers.tsv"))
    print("## A. Shared peer instances (J, seconds)\n")
    by = defaultdict(dict)
    for r in A:
        by[r["instance"]][r["algo"]] = r
    algos = ["identity", "random", "mm", "allc", "bottomup", "topdown", "topdown+nc:1",
             "topdown+nc:10", "topdown+ils:10", "topdown-ms", "scotch_b0"]
    print("| instance | " + " | ".join(algos) + " | best peer | nc:10, ils:10, ms / best |")
    print("|---" * (len(algos) + 3) + "|")
    for inst, d in by.items():
        cells = []
        for a in algos:
            r = d.get(a)
            cells.append("" if not r else "%d (%s)" % (r["J"], fmt_t(r["time_s"])))
        bp = min(peers.get(inst, [(0, 0, "-")]))
        ours = [d[a] for a in ("topdown+nc:10", "topdown+ils:10", "topdown-ms") if a in d]
        ratio = " / ".join("%.4f" % (o["J"] / bp[0]) for o in ours) if bp[0] else ""
        print("| %s | %s | %d (%.2f, %s) | %s |" % (inst, " | ".join(cells), bp[0], bp[1],
                                                   bp[2], ratio))
    for name, title in (("B_generated.tsv", "B. Generated VieM-style instances (shuffled)"),):
        rows = load(os.path.join(out, name))
        if not rows:
            continue
        print("\n## %s (J, seconds)\n" % title)
        byb = defaultdict(dict)
        for r in rows:
            byb[r["instance"]][r["algo"]] = r
        print("| instance | " + " | ".join(algos) + " |")
        print("|---" * (len(algos) + 1) + "|")
        for inst, d in byb.items():
            cells = ["" if a not in d else "%d (%s)" % (d[a]["J"], fmt_t(d[a]["time_s"]))
                     for a in algos]
            print("| %s | %s |" % (inst, " | ".join(cells)))
        rel = defaultdict(list)
        for d in byb.values():
            if "mm" in d and "topdown" in d:
                rel["topdown vs mm"].append(1 - d["topdown"]["J"] / d["mm"]["J"])
            if "topdown" in d and "topdown+nc:10" in d:
                rel["topdown+nc:10 vs topdown"].append(1 - d["topdown+nc:10"]["J"] / d["topdown"]["J"])
            if "mm" in d and "allc" in d:
                rel["allc vs mm"].append(1 - d["allc"]["J"] / d["mm"]["J"])
            if "mm" in d and "random" in d:
                rel["random vs mm"].append(1 - d["random"]["J"] / d["mm"]["J"])
            if "scotch_b0" in d and "topdown+nc:10" in d:
                rel["topdown+nc:10 vs scotch"].append(1 - d["topdown+nc:10"]["J"] / d["scotch_b0"]["J"])
        print("\nAverage improvement (positive = lower J), VieM paper in brackets:\n")
        paper = {"topdown vs mm": "52%", "topdown+nc:10 vs topdown": "5.3%",
                 "allc vs mm": "1%", "random vs mm": "-67%", "topdown+nc:10 vs scotch": "-"}
        for k, v in rel.items():
            print("- %s: %.1f%% over %d instances (paper: %s)" % (k, 100 * sum(v) / len(v), len(v),
                                                               paper[k]))
    C = load(os.path.join(out, "C_general.tsv"))
    if C:
        print("\n## C. General process mapping: rgg16 onto 4:16:16, 3% (reference: KaHIP "
              "global multisection strong 675,690 in 60.7 s)\n")
        print("| algorithm | J | max load | seconds |\n|---|---|---|---|")
        for r in C:
            print("| %s | %d | %s | %s |" % (r["algo"], r["J"], r.get("max_load", ""),
                                            fmt_t(r["time_s"])))
    D = load(os.path.join(out, "D_scaling.tsv"))
    if D:
        print("\n## D. Local search scaling (rgg17 quotient graphs, 4:16:n/64)\n")
        print("| n | topdown s | nc:1 s | nc:10 s | J (topdown+nc:1+nc:10) | mm s | np s |")
        print("|---|---|---|---|---|---|---|")
        byd = defaultdict(dict)
        for r in D:
            byd[r["instance"]][r["algo"].split("+")[0]] = r
        for inst, d in byd.items():
            t, m = d.get("topdown"), d.get("mm")
            print("| %s | %s | %s | %s | %s | %s | %s |" % (
                inst, fmt_t(stage(t, "topdown")) if t else "", fmt_t(stage(t, "nc:1")) if t else "",
                fmt_t(stage(t, "nc:10")) if t else "", "%d" % t["J"] if t else "",
                fmt_t(stage(m, "mm")) if m else "", fmt_t(stage(m, "np")) if m else ""))
    E = os.path.join(out, "E_xl.tsv")
    if os.path.exists(E):
        print("\n## E. 2^19 PEs (4:16:128:64, 1:10:100:1000; rgg 2^22 cut into 2^19 Hilbert "
              "blocks)\n")
        print("| algorithm | J | seconds | peak RSS MiB |\n|---|---|---|---|")
        with open(E) as f:
            for r in csv.DictReader(f, delimiter="\t"):
                print("| %s | %s | %s | %.0f |" % (r["algo"], r["J"], r["time_s"],
                                                  float(r["peak_kib"] or 0) / 1024))


if __name__ == "__main__":
    main()
