#!/usr/bin/env python3
"""gap.py - how far from the optimum: the lower bounds beside the default, --effort
exhaustive and Scotch (`make bench-gap`, docs/performance.md "Lower bounds and gaps").

  tools/bench/gap.py BUILD [--threads N] [--reps N] [--no-big] [--no-exhaustive] [--only K,..]

For every instance (tori, fat-trees, PSMN X5, PlaFRIM, a dragonfly; SpMV, stencils and the
real traces of tests/data/real/data/commmatrix), all in this one invocation on this machine:
  - the lower bounds (`topomap eval --json` of the consecutive placement: "bounds", every
    mapping of the job on the instance's allocation) and what they cost (bounds.time_s,
    median of --reps runs), beside the default `map`'s own mapping time (median of --reps
    runs in the same invocation): the ratio;
  - the gap (value / bound) of max congestion and average dilation of the default map, of
    `--effort exhaustive` and of Scotch 7 (`scotch_gmap -Cd -b0`, default strategy), all
    three scored by `topomap eval` against the one bound of the instance.
Prints markdown (also BUILD/bench-gap/summary.md).  Inputs are made by gen_comm.c and cached
in BUILD/bench-gap; the Scotch glue is budget.py's (scotch_util.py).
"""
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import budget  # noqa: E402  (the Scotch glue and the instance generator)

ROOT = budget.ROOT
REAL = budget.REAL
CM = os.path.join(REAL, "commmatrix")
X5 = ["--topology", os.path.join(budget.X5, "X5.topofile"), "--node-name-map",
      os.path.join(budget.X5, "X5.map")]
PLAFRIM = ["--topology", budget.PLAFRIM]


class Gap(budget.Bench):
    def __init__(self, build, threads, reps, big, exhaustive):
        super().__init__(build, threads, reps, big)
        self.out = os.path.join(build, "bench-gap")
        os.makedirs(self.out, exist_ok=True)
        self.exhaustive = exhaustive

    def run_json(self, args):
        p = subprocess.run([self.tm] + args, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("topomap " + " ".join(args) + ": " + p.stderr[-400:])
        return json.loads(p.stdout)

    def edges_of(self, path):
        """An edge list for Scotch's glue: graphStats pairs (half each way) or a dense CSV."""
        out = os.path.join(self.out, os.path.basename(path) + ".edges")
        if os.path.exists(out):
            return out
        with open(out, "w") as f:
            if path.endswith(".csv"):
                for i, line in enumerate(open(path)):
                    for j, v in enumerate(line.strip().split(",")):
                        if v and float(v) > 0 and i != j:
                            f.write("%d %d %r\n" % (i, j, float(v)))
            else:
                for line in open(path).read().splitlines()[1:]:
                    if line.startswith("-"):
                        break
                    a, rest = line.split(" , ")
                    b, w = rest.split(" = ")
                    f.write("%s %s %r\n%s %s %r\n" % (a, b, float(w) / 2, b, a, float(w) / 2))
        return out

    def scored(self, inst, mapping):
        d = self.run_json(["eval"] + inst["eval_args"] + ["--mapping", mapping, "--json",
                                                            "--threads", str(self.threads)])
        return d["max_congestion"], d["avg_dilation"]

    def scotch_default(self, inst):
        plain, _ = self.scotch_plain(inst, [], 1, inst["scotch_comm"])
        return self.scored(inst, plain)

    def instance(self, inst):
        args = inst["args"] + ["--threads", str(self.threads)]
        bt, mt = [], []
        for _ in range(self.reps):
            b = self.run_json(["eval"] + args + ["--json"])["bounds"]
            bt.append(b["time_s"])
        m = os.path.join(self.out, "m.txt")
        for _ in range(self.reps):
            d = self.run_json(["map"] + args + ["--json", "--out", m, "--format", "plain"])
            mt.append(d["mapping_time_s"])
        row = {"label": inst["label"], "n": d["n_tasks"], "C": b["max_congestion"],
               "D": b["avg_dilation"], "byC": b["by"]["max_congestion"],
               "byD": b["by"]["avg_dilation"], "bt": statistics.median(bt),
               "mt": statistics.median(mt), "default": self.scored(inst, m)}
        if self.exhaustive and not inst.get("no_exhaustive"):
            self.run_json(["map"] + args + ["--effort", "exhaustive", "--json", "--out", m,
                                             "--format", "plain"])
            row["exhaustive"] = self.scored(inst, m)
        try:
            row["scotch"] = self.scotch_default(inst)
        except (RuntimeError, subprocess.CalledProcessError) as e:
            row["scotch_error"] = str(e)[:120]
        return row

    def instances(self):
        o = self
        c = lambda name, spec, p, seed=None: o.comm(name, spec, p, seed)
        st12r, st8r = c("st12r", "stencil:12x12x12", "-", 7), c("st8r", "stencil:8x8x8", "-", 7)
        st16r = c("st16r", "stencil:16x16x16", "-", 7)
        st10r = c("st10r", "stencil:10x10x10", "-", 7)
        spmv512, spmv1728 = c("spmv512", "grid7:64x64x64", 512), c("spmv1728", "grid7:64x64x64", 1728)
        sp4096, sp1000 = c("sp4096", "grid7:64x64x64", 4096, 5), c("sp1000", "grid7:50x50x50", 1000, 1)
        sp2d, sp27 = c("sp2d1024", "grid7:128x128x1", 1024, 3), c("sp27-1331", "grid27:44x44x44", 1331, 2)
        g27, rgg500 = c("g27-712", "grid27:40x40x40", 712, 7), c("rgg-500", "rgg:50000,12", 500, 7)
        rgg1000 = c("rgg1000", "rgg:20000,8", 1000, 4)
        cnca = lambda f: os.path.join(CM, "cnca_mpiP_cm", f)
        maplib_cg = os.path.join(CM, "maplib", "cg", "comm_matrix.p2p.size.csv")
        demo = os.path.join(budget.DEMO, "psmn-x5")
        T = lambda t: ["--topology", t]
        out = [
            ("t-st12r", "stencil 12^3 relabelled, torus:12x12x12", st12r, T("torus:12x12x12"),
             {"torus3d": (12, 12, 12)}),
            ("t-st8r-s8", "stencil 8^3 relabelled, torus:4x4x4 x 8 slots", st8r,
             T("torus:4x4x4") + ["--slots", "8"], {"slots": 8}),
            ("t-spmv512", "SpMV 512, torus:8x8x8", spmv512, T("torus:8x8x8"), {"torus3d": (8, 8, 8)}),
            ("t-spmv1728", "SpMV 1,728, torus:12x12x12", spmv1728, T("torus:12x12x12"),
             {"torus3d": (12, 12, 12)}),
            ("t-sp4096", "SpMV 4,096, torus:16x16x16", sp4096, T("torus:16x16x16"),
             {"torus3d": (16, 16, 16)}),
            ("t-sp27", "27-point SpMV 1,331, torus:11x11x11", sp27, T("torus:11x11x11"),
             {"torus3d": (11, 11, 11)}),
            ("t-sp2d", "2D SpMV 1,024, torus:32x32", sp2d, T("torus:32x32"), {"slots": 1}),
            ("t-mg", "NPB MG C 1,024 (trace), torus:16x8x8", cnca("npb_mg_C_1024.graphStats.txt"),
             T("torus:16x8x8"), {"slots": 1}),
            ("t-lulesh", "LULESH 1,000 (trace), torus:10x10x10", cnca("lulesh_1000.graphStats.txt"),
             T("torus:10x10x10"), {"torus3d": (10, 10, 10)}),
            ("t-cg64", "MapLib CG 64 (trace), torus:4x4x4", maplib_cg, T("torus:4x4x4"),
             {"torus3d": (4, 4, 4)}),
            ("f-st16r", "stencil 16^3 relabelled, fattree:k=8,n=4", st16r, T("fattree:k=8,n=4"),
             {"slots": 1}),
            ("f-st16r-s4", "stencil 16^3 relabelled, fattree:k=16,n=3 x 4 slots", st16r,
             T("fattree:k=16,n=3") + ["--slots", "4"], {"slots": 4}),
            ("f-sp1000", "SpMV 1,000, fattree:k=16,n=3", sp1000, T("fattree:k=16,n=3"), {"slots": 1}),
            ("f-spmv512-s4", "SpMV 512, fattree:k=8,n=3 x 4 slots", spmv512,
             T("fattree:k=8,n=3") + ["--slots", "4"], {"slots": 4}),
            ("f-cg", "NPB CG C 1,024 (trace), fattree:k=16,n=3", cnca("npb_cg_C_1024.graphStats.txt"),
             T("fattree:k=16,n=3"), {"slots": 1}),
            ("x5-712", "PSMN X5 (real), 89 hosts x 8, grid27 712", g27, X5 + ["--slots", "8"],
             {"slots": 8}),
            ("x5-demo", "PSMN X5, the demo's job: 16 hosts x 12, LULESH 64 (trace)",
             os.path.join(budget.DEMO, "comm", "lulesh-64.graphStats.txt"),
             ["--topology", os.path.join(demo, "X5.topofile"), "--node-name-map",
              os.path.join(demo, "X5.map"), "--slots", "12", "--alloc",
              os.path.join(demo, "job-64-scattered.hostfile")],
             {"slots": 12, "hostfile": os.path.join(demo, "job-64-scattered.hostfile")}),
            ("x5-clover", "PSMN X5, 89 hosts x 13, CloverLeaf 1,152 (trace)",
             cnca("cloverleaf_1152.graphStats.txt"), X5 + ["--slots", "13"], {"slots": 13}),
            ("p-rgg500", "PlaFRIM (real), 125 hosts x 4, rgg 500", rgg500, PLAFRIM + ["--slots", "4"],
             {"slots": 4}),
            ("p-lulesh", "PlaFRIM, 125 hosts x 8, LULESH 1,000 (trace)", cnca("lulesh_1000.graphStats.txt"),
             PLAFRIM + ["--slots", "8"], {"slots": 8}),
            ("d-st10r", "stencil 10^3 relabelled, dragonfly:h=4", st10r, T("dragonfly:h=4"), {"slots": 1}),
            ("d-rgg1000", "rgg 1,000, dragonfly:h=4", rgg1000, T("dragonfly:h=4"), {"slots": 1}),
            ("d-miniamr", "miniAMR 1,000 (trace), dragonfly:h=4", cnca("miniamr_1000.graphStats.txt"),
             T("dragonfly:h=4"), {"slots": 1}),
        ]
        if o.big:
            st = c("st131r", "stencil:64x64x32", "-", 7)
            out.append(("t-st131r", "stencil 64x64x32 relabelled (131,072 tasks), torus:64x64x32",
                        st, T("torus:64x64x32"), {"torus3d": (64, 64, 32), "no_exhaustive": True}))
        res = []
        for key, label, comm, topo, extra in out:
            inst = dict(extra, key=key, label=label, comm=comm, args=topo + ["--comm", comm])
            inst["scotch_comm"] = comm if comm.endswith(".edges") else self.edges_of(comm)
            # scored on the instance's allocation (its --alloc too): the one bound
            inst["eval_args"] = list(inst["args"])
            res.append(inst)
        return res


def fmt_gap(v, b):
    if b <= 0:
        return "-"
    return "%.2f" % (v / b)


def main():
    a = sys.argv[1:]
    build = a[0] if a and not a[0].startswith("--") else "build"
    threads = int(a[a.index("--threads") + 1]) if "--threads" in a else 2
    reps = int(a[a.index("--reps") + 1]) if "--reps" in a else 3
    g = Gap(build, threads, reps, "--no-big" not in a, "--no-exhaustive" not in a)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    g.say("Machine: %s, %d cores, %s; %s; load before: %s; topomap with %d threads, %d reps" % (
        os.uname().machine, os.cpu_count(), cpu, time.strftime("%Y-%m-%d"),
        open("/proc/loadavg").read().split()[:3], threads, reps))
    g.say()
    g.say("| instance | tasks | bound C (by) / D (by) | default gap C / D | exhaustive gap C / D "
          "| Scotch gap C / D | bounds s / default map s |")
    g.say("|---|---:|---|---|---|---|---|")
    only = a[a.index("--only") + 1].split(",") if "--only" in a else None
    notes = []
    for inst in g.instances():
        if only and inst["key"] not in only:
            continue
        r = g.instance(inst)
        pair = lambda k: ("%s / %s" % (fmt_gap(r[k][0], r["C"]), fmt_gap(r[k][1], r["D"]))
                          if k in r else "-")
        g.say("| %s | %d | %.4g (%s) / %.4g (%s) | %s | %s | %s | %.3f / %.3f = %.2f |" % (
            r["label"], r["n"], r["C"], r["byC"], r["D"], r["byD"], pair("default"),
            pair("exhaustive"), pair("scotch"), r["bt"], r["mt"],
            r["bt"] / r["mt"] if r["mt"] > 0 else 0))
        if "scotch_error" in r:
            notes.append("%s: Scotch failed (%s)" % (r["label"], r["scotch_error"]))
    g.say()
    for note in notes:
        g.say("- " + note)
    g.say("load after: %s" % open("/proc/loadavg").read().split()[:3])
    open(os.path.join(g.out, "summary.md"), "w").write("\n".join(g.lines) + "\n")


if __name__ == "__main__":
    main()
