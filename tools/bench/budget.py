#!/usr/bin/env python3
"""budget.py - quality against wall time, topomap beside Scotch, in one run
(`make bench-budget`, docs/performance.md "Effort and time").

  tools/bench/budget.py BUILD [--threads N] [--no-big] [--reps N] [--only KEY,...]

(--only: the instances whose key is listed, e.g. --only st131r for the 131,072-task case;
keys: spmv512 spmv1728 ps16r-ft x5-712 x5-demo plafrim, the m-* cases (more fabrics and
jobs, the default and Scotch only: m-sp1000 m-sp1331 m-sp2d-3d m-sp2d-2d m-sp4096 m-ps12r
m-sp1000-ft m-rgg1000-ft m-rgg1000-df m-sp1000-percs m-rgg500-x5), st131r.)

For every instance, all in this one invocation on this machine:
  - Scotch 7 `scotch_gmap -Cd -b0` with its default strategy, with -cq
    (quality) and -cs (speed): wall time (median of --reps runs) and the
    mapping judged by `topomap eval` (max congestion, average dilation, J);
  - the consecutive placement;
  - topomap's default (`topomap map`, no option): median wall time of --reps
    runs, its figures, and its wall time over Scotch's (default strategy)
    against the target max(1 s, 10 x Scotch);
  - topomap --effort 0, 2, 3 (work levels, machine-independent answers);
  - topomap --time-limit T for T in fractions and multiples of the
    default's own time: the curve, whether a longer budget ever returned an
    answer a shorter one dominates, which budgets of 1x the default's time
    or more returned an answer the default's dominates, and the smallest
    budget whose answer beats every Scotch point on both congestion and
    dilation.
Prints markdown (also BUILD/bench-budget/summary.md).  The instance inputs
are made by tools/bench/gen_comm.c (comm.sh) and cached in BUILD/bench-budget.
"""
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UTIL = os.path.join(ROOT, "tools", "bench", "scotch_util.py")
REAL = os.path.join(ROOT, "tests", "data", "real", "data")
X5 = os.path.join(REAL, "ibnetdiscover", "psmn_X5")
PLAFRIM = os.path.join(REAL, "ibnetdiscover_p", "plafrim", "ib-subnet-fe80_0000_0000_0000.txt")
DEMO = os.path.join(ROOT, "topologies")


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def timed(cmd):
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return time.monotonic() - t0, p


class Bench:
    def __init__(self, build, threads, reps, big):
        self.build, self.threads, self.reps, self.big = build, threads, reps, big
        self.tm = os.path.join(build, "topomap")
        self.out = os.path.join(build, "bench-budget")
        os.makedirs(self.out, exist_ok=True)
        gen = os.path.join(self.out, "gen_comm")
        if not os.path.exists(gen):
            sh(["cc", "-O2", "-std=c11", "-D_GNU_SOURCE", "-o", gen,
                os.path.join(ROOT, "tools", "bench", "gen_comm.c"), "-lmetis", "-lm"])
        self.gen = gen
        self.lines = []

    def say(self, s=""):
        print(s, flush=True)
        self.lines.append(s)

    def comm(self, name, spec, p, seed=None):
        path = os.path.join(self.out, name + ".edges")
        if not os.path.exists(path) or os.path.getsize(path) == 0:
            sh([self.gen, spec, str(p), path] + ([str(seed)] if seed is not None else []))
        return path

    # ---- Scotch --------------------------------------------------------
    def scotch_target(self, inst):
        """The Scotch target of an instance: torus3D on a cube torus, else
        amk_grf -l of the fabric's hosts (and the job's allocation)."""
        tgt = os.path.join(self.out, inst["key"] + ".tgt")
        names = os.path.join(self.out, inst["key"] + ".names")
        if os.path.exists(tgt) and os.path.exists(names):
            return tgt, names
        if inst.get("torus3d"):
            x, y, z = inst["torus3d"]
            open(tgt, "w").write("torus3D %d %d %d\n" % (x, y, z))
            plain = os.path.join(self.out, inst["key"] + ".cons")
            sh([self.tm, "map"] + inst["args"] + ["--strategy", "identity", "--refine", "none",
                                                   "--format", "plain", "--out", plain])
            open(names, "w").write("".join(l.split()[0] + "\n" for l in open(plain)))
            return tgt, names
        gml = os.path.join(self.out, inst["key"] + ".graphml")
        args, topo = inst["args"], []
        for k, a in enumerate(args[:-1]):
            if a in ("--topology", "--node-name-map"):
                topo += [a, args[k + 1]]
        sh([self.tm, "topo", "export"] + topo + ["--format", "graphml", "--out", gml])
        src, lst = tgt + ".src.grf", tgt + ".list"
        extra = [inst["hostfile"]] if inst.get("hostfile") else []
        sh([UTIL, "target", gml, str(inst["slots"]), src, lst, names] + extra)
        sh(["amk_grf", "-l" + lst, src, tgt])
        return tgt, names

    def evaluate(self, inst, plain):
        p = sh([self.tm, "eval"] + inst["eval_args"] + ["--mapping", plain, "--json"])
        d = json.loads(p.stdout)
        return d["max_congestion"], d["avg_dilation"], d["qap_network_J"]

    def scotch_plain(self, inst, flag, reps=1, edges=None):
        """Scotch's mapping of inst (`scotch_gmap -Cd -b0` with flag, reps runs) as a
        topomap plain mapping: (its path, the wall times).  edges: the job as an edge
        list when inst["comm"] is not one."""
        comm = edges or inst["comm"]
        grf = os.path.join(self.out, os.path.basename(comm) + ".grf")
        if not os.path.exists(grf):
            sh([UTIL, "grf", comm, grf])
        tgt, names = self.scotch_target(inst)
        smap = os.path.join(self.out, "scotch.map")
        walls = []
        for _ in range(reps):
            w, p = timed(["scotch_gmap", "-Cd", "-b0"] + flag + [grf, tgt, smap])
            if p.returncode != 0:
                raise RuntimeError("scotch_gmap failed: " + p.stderr[-300:])
            walls.append(w)
        plain = os.path.join(self.out, "scotch.plain")
        lst = tgt + ".list"  # a fabric's target: labels are its source vertices
        sh([UTIL, "plain", smap, names, plain] + ([lst] if os.path.exists(lst) else []))
        return plain, walls

    def scotch(self, inst):
        pts = []
        for label, flag in (("default", []), ("quality -cq", ["-cq"]), ("speed -cs", ["-cs"])):
            plain, walls = self.scotch_plain(inst, flag, inst.get("scotch_reps", self.reps))
            c, d, j = self.evaluate(inst, plain)
            pts.append({"label": "Scotch " + label, "C": c, "D": d, "J": j,
                        "wall": statistics.median(walls)})
        return pts

    # ---- topomap -------------------------------------------------------
    def topomap(self, inst, extra, reps=1):
        walls, d = [], None
        for _ in range(reps):
            cmd = [self.tm, "map"] + inst["args"] + ["--threads", str(self.threads), "--json",
                                                     "--out", os.path.join(self.out, "m.txt")]
            w, p = timed(cmd + extra)
            if p.returncode != 0:
                raise RuntimeError(" ".join(cmd + extra) + ": " + p.stderr[-300:])
            walls.append(w)
            d = json.loads(p.stdout)
        e = d.get("effort", {})
        return {"C": d["max_congestion"], "D": d["avg_dilation"], "J": d["qap_network_J"],
                "wall": statistics.median(walls), "best": d["best"], "levels": e.get("levels"),
                "stop": e.get("stop"), "cons": d["consecutive"]}

    # ---- one instance --------------------------------------------------
    def instance(self, inst):
        sc = self.scotch(inst)
        best_c, best_d = min(p["C"] for p in sc), min(p["D"] for p in sc)
        s_default = sc[0]
        dflt = self.topomap(inst, [], self.reps)
        cons = dflt["cons"]
        target = max(1.0, 10 * s_default["wall"])
        self.say()
        self.say("### %s" % inst["label"])
        self.say()
        self.say("| run | max congestion / avg dilation | J | wall s | vs Scotch (C, D) | note |")
        self.say("|---|---|---|---|---|---|")
        for p in sc:
            self.say("| %s | %.4g / %.4g | %.4g | %.3f | %.2f, %.2f | |" % (
                p["label"], p["C"], p["D"], p["J"], p["wall"], p["C"] / best_c, p["D"] / best_d))
        self.say("| consecutive | %.4g / %.4g | %.4g | | %.2f, %.2f | |" % (
            cons["max_congestion"], cons["avg_dilation"], cons["qap_network_J"],
            cons["max_congestion"] / best_c, cons["avg_dilation"] / best_d))
        # beats Scotch: no worse on both objectives and better on one (every Scotch point
        # taken on each objective); "strictly" when better on both.  On a non-blocking
        # fat-tree both reach the host links' bound of congestion, which cannot be beaten.
        tol = 1e-9
        beats = lambda p: (p["C"] <= best_c * (1 + tol) and p["D"] <= best_d * (1 + tol) and
                           (p["C"] < best_c * (1 - tol) or p["D"] < best_d * (1 - tol)))
        strictly = lambda p: p["C"] < best_c * (1 - tol) and p["D"] < best_d * (1 - tol)
        self.say("| **default** | %.4g / %.4g | %.4g | %.3f | %.2f, %.2f | %s; %.1fx Scotch's "
                 "time (target <= %.2f s): %s |" % (
                     dflt["C"], dflt["D"], dflt["J"], dflt["wall"], dflt["C"] / best_c,
                     dflt["D"] / best_d, ("beats Scotch on both" if strictly(dflt) else
                                          "beats Scotch (equal congestion)" if beats(dflt)
                                          else "does NOT beat Scotch"),
                     dflt["wall"] / s_default["wall"], target,
                     "met" if dflt["wall"] <= target else "MISSED"))
        # exhaustive: every construction refined by ils:10+ta (the old default), what the
        # highest effort buys over the default (docs/performance.md "Effort and time")
        for e in inst.get("efforts", (0, 2, 3, "exhaustive")):
            p = self.topomap(inst, ["--effort", str(e)])
            self.say("| --effort %s | %.4g / %.4g | %.4g | %.3f | %.2f, %.2f | %s; %.1fx the "
                     "default's time |" % (
                         e, p["C"], p["D"], p["J"], p["wall"], p["C"] / best_c, p["D"] / best_d,
                         "every row ils:10+ta" if e == "exhaustive" else "%d levels" % p["levels"],
                         p["wall"] / dflt["wall"]))
        curve, smallest, worse = [], None, []
        for f in inst.get("budgets", (0.1, 0.2, 0.35, 0.5, 0.75, 1, 1.5, 2, 4, 8)):
            t = max(0.01, round(f * dflt["wall"], 3))
            p = self.topomap(inst, ["--time-limit", str(t)])
            for q in curve:  # a longer budget must not be dominated by a shorter one's answer
                if (q["C"] <= p["C"] and q["D"] <= p["D"] and q["J"] <= p["J"] and
                        (q["C"] < p["C"] or q["D"] < p["D"] or q["J"] < p["J"])):
                    worse.append((q["T"], t))
            p["T"], p["f"] = t, f
            curve.append(p)
            if smallest is None and beats(p):
                smallest = t
            self.say("| --time-limit %g (%.2fx default) | %.4g / %.4g | %.4g | %.3f | %.2f, %.2f | "
                     "%d levels, %s%s |" % (
                         t, f, p["C"], p["D"], p["J"], p["wall"], p["C"] / best_c, p["D"] / best_d,
                         p["levels"] or 0, p["stop"], ", beats Scotch" if beats(p) else ""))
        # budgets of 1x the default's (median) wall time and more (by the factor: T is
        # rounded) whose answer the default's dominates; a run a little slower than the
        # default's median is cut before its last level at 1x (docs/mapping.md)
        dominated = lambda p: (p["C"] >= dflt["C"] and p["D"] >= dflt["D"] and
                               p["J"] >= dflt["J"] and
                               (p["C"] > dflt["C"] or p["D"] > dflt["D"] or p["J"] > dflt["J"]))
        worse_than_default = ["%gx" % p["f"] for p in curve if p["f"] >= 1 and dominated(p)]
        self.say()
        if curve:
            self.say("Smallest budget that beats every Scotch point on both objectives: %s. "
                     "Longer budgets dominated by shorter ones: %s. Budgets of at least the "
                     "default's time whose answer the default's dominates: %s." % (
                         "%g s (%.1fx Scotch's default time)" % (
                             smallest, smallest / s_default["wall"])
                         if smallest is not None else "none in the list",
                         ", ".join("%g < %g" % w for w in worse) if worse else "none",
                         ", ".join(worse_than_default) if worse_than_default else "none"))
        return {"label": inst["label"], "scotch": s_default, "best_c": best_c, "best_d": best_d,
                "default": dflt, "target": target, "beats": beats(dflt),
                "strictly": strictly(dflt), "smallest": smallest, "monotone": not worse}

    def instances(self):
        o = self
        spmv512 = o.comm("spmv512", "grid7:64x64x64", 512)
        spmv1728 = o.comm("spmv1728", "grid7:64x64x64", 1728)
        ps16r = o.comm("ps16r", "stencil:16x16x16", "-", 7)
        g27 = o.comm("g27-712", "grid27:40x40x40", 712, 7)
        rgg = o.comm("rgg-500", "rgg:50000,12", 500, 7)
        x5 = ["--topology", os.path.join(X5, "X5.topofile"), "--node-name-map",
              os.path.join(X5, "X5.map")]
        demo_x5 = ["--topology", os.path.join(DEMO, "psmn-x5", "X5.topofile"), "--node-name-map",
                   os.path.join(DEMO, "psmn-x5", "X5.map")]
        demo_job = os.path.join(DEMO, "psmn-x5", "job-64-scattered.hostfile")
        lulesh = os.path.join(DEMO, "comm", "lulesh-64.graphStats.txt")
        lulesh_edges = os.path.join(o.out, "lulesh-64.edges")  # for scotch_util grf
        with open(lulesh_edges, "w") as f:
            for line in open(lulesh).read().splitlines()[1:]:
                if line.startswith("-"):
                    break
                a, rest = line.split(" , ")
                b, w = rest.split(" = ")
                f.write("%s %s %r\n%s %s %r\n" % (a, b, float(w) / 2, b, a, float(w) / 2))
        out = [
            {"key": "spmv512", "label": "SpMV 512 parts, torus:8x8x8", "comm": spmv512,
             "args": ["--topology", "torus:8x8x8", "--comm", spmv512], "torus3d": (8, 8, 8)},
            {"key": "spmv1728", "label": "SpMV 1,728 parts, torus:12x12x12", "comm": spmv1728,
             "args": ["--topology", "torus:12x12x12", "--comm", spmv1728],
             "torus3d": (12, 12, 12)},
            {"key": "ps16r-ft", "label": "stencil 16^3 relabelled, fattree:k=8,n=4 (512 hosts x 8)",
             "comm": ps16r, "args": ["--topology", "fattree:k=8,n=4", "--comm", ps16r], "slots": 8},
            {"key": "x5-712", "label": "PSMN X5 (real), all 89 hosts x 8, grid27 712",
             "comm": g27, "args": x5 + ["--slots", "8", "--comm", g27], "slots": 8},
            {"key": "x5-demo", "label": "PSMN X5 (real), the demo's job: 16 scattered hosts x 4, "
             "LULESH 64 (make demo)", "comm": lulesh_edges,
             "args": demo_x5 + ["--slots", "12", "--alloc", demo_job, "--comm", lulesh],
             "slots": 12, "hostfile": demo_job},
            {"key": "plafrim", "label": "PlaFRIM (real), all 125 hosts x 4, rgg 500", "comm": rgg,
             "args": ["--topology", PLAFRIM, "--slots", "4", "--comm", rgg], "slots": 4},
        ]
        # more fabrics and jobs, the default beside Scotch only (no efforts, no budget curve):
        # what the default does outside the six instances above
        sp1000 = o.comm("sp1000", "grid7:50x50x50", 1000, 1)
        sp1331 = o.comm("sp27-1331", "grid27:44x44x44", 1331, 2)
        sp2d = o.comm("sp2d1024", "grid7:128x128x1", 1024, 3)
        rgg1000 = o.comm("rgg1000", "rgg:20000,8", 1000, 4)
        sp4096 = o.comm("sp4096", "grid7:64x64x64", 4096, 5)
        ps12r = o.comm("ps12r", "stencil:12x12x12", "-", 7)
        rgg500 = o.comm("rgg-500", "rgg:50000,12", 500, 7)
        one = {"efforts": (), "budgets": (), "more": True}
        for key, label, comm, topo, extra in (
                ("m-sp1000", "SpMV 1,000 parts, torus:10x10x10", sp1000, ["torus:10x10x10"],
                 {"torus3d": (10, 10, 10)}),
                ("m-sp1331", "27-point SpMV 1,331 parts, torus:11x11x11", sp1331,
                 ["torus:11x11x11"], {"torus3d": (11, 11, 11)}),
                ("m-sp2d-3d", "2D SpMV 1,024 parts, torus:8x8x16", sp2d, ["torus:8x8x16"],
                 {"torus3d": (8, 8, 16)}),
                ("m-sp2d-2d", "2D SpMV 1,024 parts, torus:32x32", sp2d, ["torus:32x32"],
                 {"slots": 1}),
                ("m-sp4096", "SpMV 4,096 parts, torus:16x16x16", sp4096, ["torus:16x16x16"],
                 {"torus3d": (16, 16, 16)}),
                ("m-ps12r", "stencil 12^3 relabelled, torus:12x12x12", ps12r, ["torus:12x12x12"],
                 {"torus3d": (12, 12, 12)}),
                ("m-sp1000-ft", "SpMV 1,000 parts, fattree:k=16,n=3", sp1000,
                 ["fattree:k=16,n=3"], {"slots": 1}),
                ("m-rgg1000-ft", "rgg 1,000, fattree:k=16,n=3", rgg1000, ["fattree:k=16,n=3"],
                 {"slots": 1}),
                ("m-rgg1000-df", "rgg 1,000, dragonfly:h=4", rgg1000, ["dragonfly:h=4"],
                 {"slots": 1}),
                ("m-sp1000-percs", "SpMV 1,000 parts, percs:supernodes=32", sp1000,
                 ["percs:supernodes=32"], {"slots": 1}),
                ("m-rgg500-x5", "rgg 500 on PSMN X5 (real), 89 hosts x 8", rgg500, None,
                 {"slots": 8})):
            args = (["--topology"] + topo if topo else x5 + ["--slots", "8"]) + ["--comm", comm]
            out.append(dict(one, key=key, label=label, comm=comm, args=args, **extra))
        if o.big:
            st = o.comm("st131r", "stencil:64x64x32", "-", 7)
            out.append({"key": "st131r", "label": "stencil 64x64x32 relabelled (131,072 tasks), "
                        "torus:64x64x32", "comm": st,
                        "args": ["--topology", "torus:64x64x32", "--comm", st],
                        "torus3d": (64, 64, 32), "scotch_reps": 1, "efforts": (0,),
                        "budgets": (0.25, 0.5, 1, 2)})
        for i in out:
            i["eval_args"] = [a for a in i["args"]]
            if "--alloc" in i["eval_args"]:  # eval takes the mapping's hosts
                k = i["eval_args"].index("--alloc")
                del i["eval_args"][k:k + 2]
        return out


def main():
    a = sys.argv[1:]
    build = a[0] if a and not a[0].startswith("--") else "build"
    threads = int(a[a.index("--threads") + 1]) if "--threads" in a else 2
    reps = int(a[a.index("--reps") + 1]) if "--reps" in a else 3
    b = Bench(build, threads, reps, "--no-big" not in a)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    b.say("Machine: %s, %d cores, %s; %s; load before: %s; topomap with %d threads" % (
        os.uname().machine, os.cpu_count(), cpu, time.strftime("%Y-%m-%d"),
        open("/proc/loadavg").read().split()[:3], threads))
    only = a[a.index("--only") + 1].split(",") if "--only" in a else None
    rows = [b.instance(i) for i in b.instances() if only is None or i["key"] in only]
    b.say()
    b.say("### Summary: the default against Scotch (default strategy), same run")
    b.say()
    b.say("| instance | Scotch C / D, wall | topomap default C / D, wall | time ratio | target | "
          "beats Scotch (every point) | smallest budget beating Scotch |")
    b.say("|---|---|---|---|---|---|---|")
    for r in rows:
        s, d = r["scotch"], r["default"]
        b.say("| %s | %.4g / %.4g, %.3f s | %.4g / %.4g, %.3f s | %.1fx | <= %.2f s: %s | %s | %s |" % (
            r["label"], s["C"], s["D"], s["wall"], d["C"], d["D"], d["wall"], d["wall"] / s["wall"],
            r["target"], "met" if d["wall"] <= r["target"] else "MISSED",
            "yes" if r["strictly"] else "yes (equal congestion)" if r["beats"] else "NO",
            "%g s" % r["smallest"] if r["smallest"] is not None else "-"))
    b.say()
    b.say("load after: %s" % open("/proc/loadavg").read().split()[:3])
    open(os.path.join(b.out, "summary.md"), "w").write("\n".join(b.lines) + "\n")


if __name__ == "__main__":
    main()
