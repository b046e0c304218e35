#!/usr/bin/env bash
# sim.sh - `make bench-sim`: topomap's mappings run as real MPI programs in
# SimGrid's SMPI (docs/time.md "Simulated proof").
#
#   tools/bench/sim.sh [BUILD]      (BUILD defaults to build; programs in BUILD/sim/)
#
# For each fabric x program: the platform is `topomap topo export --format
# simgrid --routing R --alloc A` (the routes of the routing topomap maps
# under), the program runs once consecutive (rank i on the i-th slot of the
# allocation: `map --strategy identity --refine none --format smpi`), which
# also records its communication matrix (TM_COMM_MATRIX, bytes per pair of
# ranks), then `topomap map --routing R --objective time --format smpi`
# maps that matrix (for the time the platform's routing gives, never a
# placement predicted slower than consecutive) and the program runs again
# on the mapped hostfile.  Simulated communication
# time (MPI_Wtime around the communication, max over ranks) with
# smpi/simulate-computation:no and SMPI's default network model.
# Printed per case: simulated times and their ratio, topomap's est_time_s
# (the phases the program wrote, TM_COMM_PHASES: each exchange that runs
# one after the other timed alone, times its repeat count; mapped on one
# iteration's matrix) for both placements and
# its ratio (when the build has the time model,
# otherwise n/a), congestion of both and its ratio; then Spearman's rank
# correlation of the predicted (est_time_s, else congestion) against the
# simulated speed-ups.  CSV in BUILD/bench-sim/results.csv, the table in
# BUILD/bench-sim/summary.md.
#
# Cases: torus:4x4x4 with its 64 hosts allocated in a shuffled order
# (seeded), dimension-order routes; fattree:k=4,n=3 in allocation order
# and in the same shuffled order (its hosts have the same names), with
# OpenSM's fat-tree routing (ftree); PSMN X5 (real InfiniBand fabric,
# topologies/psmn-x5) with its 64-rank job scattered over 16 nodes, min-hop
# routing.  Programs: examples/halo3d.c (HALO3D_NO_DIST_GRAPH), spmv.c,
# fft3d.c, 64 ranks each.
set -eu
BUILD=${1:-build}
OUT=$BUILD/bench-sim
TM=$BUILD/topomap
SIMDIR=$BUILD/sim
mkdir -p "$OUT"
rm -f "$OUT/topomap.log" # topomap's warnings (X5's unnamed CAs) go there
SIM=(--cfg=smpi/simulate-computation:no --cfg=smpi/host-speed:1Gf --log=root.thres:error)
TOPO=topologies

python3 -c "
import random
h = ['n%04d' % i for i in range(64)]
random.Random(2025).shuffle(h)
print('\n'.join(h))" > "$OUT/torus-shuffled.txt"
python3 -c "print('\n'.join('n%04d' % i for i in range(64)))" > "$OUT/ft-hosts.txt"

# name | topology options | allocation | routing
CASES=(
  "torus4x4x4-shuffled|--topology torus:4x4x4|$OUT/torus-shuffled.txt|dor"
  "fattree-k4n3|--topology fattree:k=4,n=3|$OUT/ft-hosts.txt|ftree"
  "fattree-k4n3-shuffled|--topology fattree:k=4,n=3|$OUT/torus-shuffled.txt|ftree"
  "psmn-x5-scattered|--topology $TOPO/psmn-x5/X5.topofile --node-name-map $TOPO/psmn-x5/X5.map --slots 12|$TOPO/psmn-x5/job-64-scattered.hostfile|minhop"
)
# program, its arguments; the last one is the number of iterations
PROGS=("halo3d 48 3" "spmv 20000 3" "fft3d 64 1")
NP=64

# a ring over NP tasks: only for the identity mapping (the placement does
# not depend on the matrix)
python3 -c "
n = $NP
print('%%MatrixMarket matrix coordinate real general')
print(n, n, n)
for i in range(n): print(i + 1, (i + 1) % n + 1, 1)" > "$OUT/ring.mtx"

sim_time() { sed -n "s/^$1: communication time \([^ ]*\) s.*/\1/p" "$2"; }

echo "case,program,ranks,routing,sim_consecutive_s,sim_mapped_s,sim_speedup,est_consecutive_s,est_mapped_s,est_speedup,est_error_consecutive_pct,est_error_mapped_pct,congestion_consecutive,congestion_mapped,congestion_ratio,fell_back" \
  > "$OUT/results.csv"
for c in "${CASES[@]}"; do
    IFS='|' read -r name topo alloc routing <<< "$c"
    # shellcheck disable=SC2086
    "$TM" topo export $topo --format simgrid --routing "$routing" --alloc "$alloc" \
        --out "$OUT/$name.xml" 2>> "$OUT/topomap.log"
    # shellcheck disable=SC2086
    "$TM" map $topo --alloc "$alloc" --comm "$OUT/ring.mtx" --strategy identity --refine none \
        --routing "$routing" --format smpi --out "$OUT/$name.consecutive" > /dev/null \
        2>> "$OUT/topomap.log"
    for p in "${PROGS[@]}"; do
        set -- $p
        prog=$1; shift
        tag=$name-$prog
        TM_COMM_MATRIX="$OUT/$tag.mtx" TM_COMM_PHASES="$OUT/$tag.phases" smpirun -platform "$OUT/$name.xml" \
            -hostfile "$OUT/$name.consecutive" -np $NP "${SIM[@]}" "$SIMDIR/$prog" "$@" \
            > "$OUT/$tag.consecutive.out" 2>&1 || { cat "$OUT/$tag.consecutive.out"; exit 1; }
        # map one iteration's bytes (the recorded matrix sums them all);
        # est_time_s is the whole run's, from its phases (--comm-phases)
        iters=${*: -1}
        python3 - "$OUT/$tag.mtx" "$iters" > "$OUT/$tag.iter.mtx" <<'P'
import sys
lines = open(sys.argv[1]).read().splitlines()
k = float(sys.argv[2])
for i, line in enumerate(lines):
    f = line.split()
    if line.startswith('%') or len(f) != 3 or i < 3:
        print(line)
    else:
        print(f[0], f[1], repr(float(f[2]) / k))
P
        # shellcheck disable=SC2086
        "$TM" map $topo --alloc "$alloc" --comm "$OUT/$tag.iter.mtx" --routing "$routing" \
            --objective time --comm-phases "$OUT/$tag.phases" --format smpi --out "$OUT/$tag.mapped" \
            --json --quiet > "$OUT/$tag.map.json" 2>> "$OUT/topomap.log"
        smpirun -platform "$OUT/$name.xml" -hostfile "$OUT/$tag.mapped" -np $NP "${SIM[@]}" \
            "$SIMDIR/$prog" "$@" > "$OUT/$tag.mapped.out" 2>&1 \
            || { cat "$OUT/$tag.mapped.out"; exit 1; }
        python3 - "$name" "$prog" "$NP" "$routing" "$(sim_time "$prog" "$OUT/$tag.consecutive.out")" \
            "$(sim_time "$prog" "$OUT/$tag.mapped.out")" "$OUT/$tag.map.json" "$iters" \
            >> "$OUT/results.csv" <<'P'
import json, sys
name, prog, np_, routing, tc, tm, js, iters = sys.argv[1:]
d = json.load(open(js))
c = d['consecutive']
def ratio(a, b):
    return '%.4g' % (a / b) if a is not None and b else 'n/a'
def err(est, sim):
    return '%+.1f' % (100 * (est - sim) / sim) if est is not None and sim else 'n/a'
ec, em = c.get('est_time_s'), d.get('est_time_s')
tc, tm = float(tc), float(tm)
print(','.join([name, prog, np_, routing, '%.6g' % tc, '%.6g' % tm, ratio(tc, tm),
                '%.6g' % ec if ec is not None else 'n/a', '%.6g' % em if em is not None else 'n/a',
                ratio(ec, em), err(ec, tc), err(em, tm),
                '%.6g' % c['max_congestion'], '%.6g' % d['max_congestion'],
                ratio(c['max_congestion'], d['max_congestion']),
                str(d.get('fell_back_to_consecutive', False)).lower()]))
P
    done
done

python3 - "$OUT/results.csv" "$(uname -n)" > "$OUT/summary.md" <<'P'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r
def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else float('nan')
print('SimGrid SMPI %s on %s, smpi/simulate-computation:no, default network model\n' %
      ('3.32', sys.argv[2]))
print('| case | program | routing | simulated consecutive -> mapped | sim speed-up | '
      'est_time_s consecutive -> mapped | est error (cons. / mapped) | est speed-up | '
      'congestion ratio |')
print('|---|---|---|---|---|---|---|---|---|')
for r in rows:
    print('| %s | %s | %s | %s -> %s s | %s | %s -> %s | %s %% / %s %% | %s | %s |' % (
        r['case'], r['program'], r['routing'], r['sim_consecutive_s'], r['sim_mapped_s'],
        r['sim_speedup'], r['est_consecutive_s'], r['est_mapped_s'],
        r['est_error_consecutive_pct'], r['est_error_mapped_pct'], r['est_speedup'],
        r['congestion_ratio']))
sim = [float(r['sim_speedup']) for r in rows]
def sign(x):
    return 1 if x > 1.02 else -1 if x < 1 / 1.02 else 0
print()
for key, label in (('est_speedup', 'est_time_s'), ('congestion_ratio', 'congestion')):
    if all(r[key] != 'n/a' for r in rows):
        pred = [float(r[key]) for r in rows]
        same = sum(sign(p) == sign(s) for p, s in zip(pred, sim))
        print('Spearman(%s speed-up, simulated speed-up) over %d cases: %.3f; same sign '
              '(faster / within 2 %% / slower) in %d/%d'
              % (label, len(rows), spearman(pred, sim), same, len(rows)))
    else:
        print('Spearman(%s speed-up, simulated speed-up): n/a (no %s in this build)' %
              (label, label))
errs = [float(r[k]) for r in rows for k in ('est_error_consecutive_pct', 'est_error_mapped_pct')
        if r[k] != 'n/a']
if errs:
    print('est_time_s within +-20 %% of the simulated time in %d/%d placements (worst %+.1f %%)'
          % (sum(abs(e) <= 20 for e in errs), len(errs), max(errs, key=abs)))
slower = [r for r in rows if float(r['sim_speedup']) < 0.98]
print('map --objective time kept the consecutive placement (every candidate predicted '
      'slower): %s' % (', '.join('%s/%s' % (r['case'], r['program']) for r in rows
                                if r['fell_back'] == 'true') or 'none'))
print('mapped slower than consecutive in simulation (beyond 2 %%): %s' %
      (', '.join('%s/%s' % (r['case'], r['program']) for r in slower) or 'none'))
P
cat "$OUT/summary.md"
echo "CSV: $OUT/results.csv"
