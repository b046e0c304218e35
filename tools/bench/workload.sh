#!/usr/bin/env bash
# workload.sh - the cost of `topomap alloc` in a scheduler's path and of
# `topomap workload replay` (docs/workload.md "Performance"): 1,000-node
# fabrics (fattree:k=10,n=3, 1,000 hosts; a 1,024-host Clos of 32 leaves)
# with 70 % of the nodes busy with running jobs (stencils, rings and
# all-to-alls of 4-64 nodes x 16 tasks, deterministic: seed 7), a 64-node
# x 16-task job placed, ECMP and single-path routing.  Prints the median
# and the minimum of REPS runs of CPU seconds (user + system, what the
# scheduler pays; wall time on a shared machine is noise), the slurm-tree
# emulation alone beside it (the baseline: what Slurm's own choice costs
# to emulate) and the predicted times of the three picks.  Then a replay
# of TRACE_JOBS jobs on the Clos, every policy.
# Usage: tools/bench/workload.sh [BUILD_DIR]; REPS (default 5), TRACE_JOBS (default 200).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
tm=$build/topomap
reps=${REPS:-5} trace_jobs=${TRACE_JOBS:-200}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
echo "machine: $(uname -n), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1 /proc/loadavg)"

# jobs NHOSTS BUSY SEED: a jobs file of running jobs on n0000.. (disjoint nodes)
jobs() {
    python3 - "$@" <<'P'
import random, sys
nh, busy, seed = map(int, sys.argv[1:4])
r = random.Random(seed)
free, rows, used, j = list(range(nh)), ["JobID|NodeList|NTasksPerNode|Comm"], 0, 0
pats = ["stencil3d:1MiB", "ring:4MiB", "alltoall:16KiB", "stencil3d:256KiB"]
while used < busy:
    n = r.choice([4, 8, 16, 32, 64])
    if n > len(free):
        break
    if r.random() < 0.6:   # a block of neighbours in the free list
        s = r.randrange(0, len(free) - n + 1)
        sel = free[s:s + n]
    else:                  # scattered
        sel = sorted(r.sample(free, n))
    fs = set(sel)
    free = [h for h in free if h not in fs]
    rows.append("J%d|%s|16|%s" % (j, ",".join("n%04d" % i for i in sel), r.choice(pats)))
    used, j = used + n, j + 1
print("\n".join(rows))
P
}

# cpu CMD...: user + system seconds of one run
cpu() {
    /usr/bin/time -f '%U %S' -o "$work/t" "$@" > "$work/out" 2>/dev/null
    awk '{print $1 + $2}' "$work/t"
}

stats() { sort -g | awk '{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f (%.3f)", m, v[1]}'; }

echo
echo "alloc: a 64 x 16 stencil3d job, 70 % of the nodes busy; CPU s, median (minimum) of $reps runs"
echo "| fabric | routing | topomap pick | slurm-tree pick alone | est_time_s: topomap | slurm-tree | random | candidates |"
echo "|---|---|---|---|---|---|---|---|"
for case in "fattree:k=10,n=3 1000" "clos:leaves=32,hosts_per_leaf=32,spines=16 1024"; do
    set -- $case
    jobs "$2" $(( $2 * 7 / 10 )) 7 > "$work/bg.jobs"
    for r in ecmp single; do
        args=(alloc --topology "$1" --jobs "$work/bg.jobs" --nodes 64 --ppn 16 --routing "$r"
              --threads 1)
        t_top=$(for i in $(seq "$reps"); do cpu "$tm" "${args[@]}"; done | stats)
        t_sl=$(for i in $(seq "$reps"); do cpu "$tm" "${args[@]}" --policy slurm-tree; done | stats)
        "$tm" "${args[@]}" --json > "$work/a.json" 2>/dev/null
        python3 - "$1" "$r" "$t_top" "$t_sl" "$work/a.json" <<'P'
import json, sys
f, r, a, b, path = sys.argv[1:6]
d = json.load(open(path))
est = lambda k: "%.4g" % d[k]["est_time_s"] if d[k]["feasible"] else "-"
print("| `%s` | %s | %s | %s | %s | %s | %s | %d |" % (f, r, a, b, est("topomap"), est("slurm_tree"),
      est("random"), d["topomap"]["candidates"]))
P
    done
done

echo
echo "replay: $trace_jobs jobs over a day on the Clos (1,024 hosts), ECMP, each policy; CPU s of one run"
python3 - "$trace_jobs" > "$work/trace.jobs" <<'P'
import datetime, random, sys
n_jobs = int(sys.argv[1])
r = random.Random(11)
t0 = datetime.datetime(2024, 3, 5)
free, running, rows = set(range(1024)), [], ["JobID|NodeList|NTasksPerNode|Comm|Start|End"]
t = t0
pats = ["stencil3d:1MiB", "ring:4MiB", "alltoall:16KiB", "stencil3d:256KiB"]
for j in range(n_jobs):
    t += datetime.timedelta(seconds=r.randint(30, 600))
    for e, hs in [x for x in running if x[0] <= t]:
        free |= hs
    running = [x for x in running if x[0] > t]
    n = r.choice([4, 8, 16, 32, 64])
    if n > len(free):
        continue
    sel = set(r.sample(sorted(free), n))
    free -= sel
    end = t + datetime.timedelta(seconds=r.randint(600, 14400))
    running.append((end, sel))
    rows.append("T%d|%s|16|%s|%s|%s" % (j, ",".join("n%04d" % i for i in sorted(sel)),
                r.choice(pats), t.isoformat(), end.isoformat()))
print("\n".join(rows))
P
echo "| policy | CPU s | mean slowdown | p90 | max |"
echo "|---|---|---|---|---|"
for p in as-recorded slurm-tree random topomap; do
    s=$(cpu "$tm" workload replay --topology clos:leaves=32,hosts_per_leaf=32,spines=16 \
        --trace "$work/trace.jobs" --policy "$p" --threads 1 --json)
    python3 - "$p" "$s" "$work/out" <<'P'
import json, sys
p, s, path = sys.argv[1:4]
st = json.load(open(path))["summary"][0]["slowdown"]
print("| %s | %s | %.3f | %.3f | %.3f |" % (p, s, st["mean"], st["p90"], st["max"]))
P
done
