#!/usr/bin/env python3
# gen-x5-day.py - writes topologies/psmn-x5/jobs-day.txt, the X5 example trace of
# docs/workload.md (written for topomap; deterministic, seed 35): 40 jobs over twelve hours
# on X5's compute nodes (those that are left when a job does not fit are dropped: 35
# remain), each recorded on nodes drawn at random among those free at its start, as a busy
# cluster scatters them.  Usage: tools/gen-x5-day.py > topologies/psmn-x5/jobs-day.txt
import datetime, random, re
r = random.Random(35)
leaves = {"r815": ["r815lin%d" % i for i in (104,105,106,107,110,111,112,113,114)],
          "sl1": ["sl390lin%d" % i for i in (1,2,3,4,5,7,8,9,10,11,13,14,15,16,17,18,20,21,24,25,26,27,29,33)],
          "r422": ["r422node%d" % i for i in (1,2,5,6,7,8,15,16,35,36,39,40,57,65,66,69,70,103,104)],
          "sl101": ["sl390lin%d" % i for i in range(101, 125)],
          "sl22": ["sl390lin%d" % i for i in (22, 28, 34, 37)]}
nodes = [h for l in leaves.values() for h in l]
t0 = datetime.datetime(2024, 3, 5, 8, 0, 0)
jobs, running = [], []
t = t0
def key(h): return [int(x) if x.isdigit() else x for x in re.split(r'(\d+)', h)]
def hostlist(hosts):
    """Slurm's compressed form: prefix[a-b,c],... (sorted, no padding here)."""
    groups = {}
    for h in hosts:
        m = re.match(r'(.*?)(\d+)$', h)
        groups.setdefault(m.group(1), []).append(int(m.group(2)))
    out = []
    for p in sorted(groups):
        nums, runs = sorted(groups[p]), []
        for n in nums:
            if runs and n == runs[-1][1] + 1:
                runs[-1][1] = n
            else:
                runs.append([n, n])
        txt = ",".join("%d" % a if a == b else "%d-%d" % (a, b) for a, b in runs)
        out.append(p + ("[%s]" % txt if len(nums) > 1 else txt))
    return ",".join(out)
for j in range(40):
    t += datetime.timedelta(minutes=r.randint(3, 25))
    running = [x for x in running if x[0] > t]
    busy = {h for x in running for h in x[1]}
    free = [h for h in nodes if h not in busy]
    kind = r.choice(["stencil", "stencil", "ring", "alltoall", "lulesh"])
    n = 16 if kind == "lulesh" else r.choice([4, 6, 8, 12, 16])
    if n > len(free):
        continue
    sel = sorted(r.sample(free, n), key=key)
    dur = datetime.timedelta(minutes=r.randint(20, 180))
    end = t + dur
    if kind == "lulesh":
        ppn, comm = 4, "../comm/lulesh-64.graphStats.txt"
    elif kind == "stencil":
        ppn, comm = 8, "stencil3d:%s" % r.choice(["1MiB", "4MiB", "256KiB"])
    elif kind == "ring":
        ppn, comm = 8, "ring:%s" % r.choice(["4MiB", "16MiB"])
    else:
        ppn, comm = 4, "alltoall:%s" % r.choice(["64KiB", "256KiB"])
    running.append((end, sel))
    endtxt = "Unknown" if j >= 37 else end.strftime("%Y-%m-%dT%H:%M:%S")
    jobs.append("%d|%s|%d|%s|%s|%s" % (4100 + j, hostlist(sel), ppn, comm,
                t.strftime("%Y-%m-%dT%H:%M:%S"), endtxt))
print("# A day of the PSMN X5 cluster, written for topomap's docs (docs/workload.md): 40 jobs")
print("# recorded on nodes drawn at random among the free ones, as a busy cluster scatters them.")
print("JobID|NodeList|NTasksPerNode|Comm|Start|End")
print("\n".join(jobs))
