#!/usr/bin/env bash
# tm-test: serial (it measures wall time against --time-limit)
# `map --effort` and `--time-limit` (docs/mapping.md "Effort and time"):
# the effort is work, not seconds (the same answer on every machine); a
# time limit is a cap on the default pipeline's levels, which end early
# when the answer stops improving; a longer budget never returns an answer
# a shorter one dominates, nor one the default's dominates when it is at
# least as long as the default's run.  Timing-free checks only (the machine
# may be loaded): what ran, and the figures.
set -eu
. "$(dirname "$0")/lib.sh"
spmv512_edges > spmv.edges
stencil_edges 6 > st6.edges
# LULESH's 64 ranks relabelled on a 4x4x4 torus under dimension-order
# routing (the issue's case): a job small enough to converge in seconds
python3 - "$TOPO_DIR/comm/lulesh-64.graphStats.txt" > lul.edges <<'P'
import random, sys
r = random.Random(5)
p = list(range(64))
r.shuffle(p)
for line in open(sys.argv[1]).read().splitlines()[1:]:
    if line.startswith("-"):
        break
    a, rest = line.split(" , ")
    b, w = rest.split(" = ")
    w = float(w) / 2
    print(p[int(a)], p[int(b)], w)
    print(p[int(b)], p[int(a)], w)
P
LUL="--topology torus:4x4x4 --comm lul.edges --routing dor"
# not dominated: a (C, D, J) triple from JSON file $1 against file $2
not_dominated() {
    python3 - "$1" "$2" <<'P' | grep -qx True
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
fa = [a["max_congestion"], a["avg_dilation"], a["qap_network_J"]]
fb = [b["max_congestion"], b["avg_dilation"], b["qap_network_J"]]
tol = lambda x: 1e-9 * max(1, abs(x))
dom = all(y <= x + tol(x) for x, y in zip(fa, fb)) and any(y < x - tol(x) for x, y in zip(fa, fb))
print(not dom)
P
}

# the default: the auto pipeline at the level of its size (64 tasks: 3),
# every level done; the effort's answer is the same with 1 and 2 threads
expect_exit 0 "$TOPOMAP" map $LUL --json --threads 2 --out d.txt
echo "$OUT" > d.json
[ "$(json_get "['refine']" < d.json)" = auto ]
[ "$(json_get "['effort']['asked']" < d.json)" = "3 (default)" ]
[ "$(json_get "['effort']['levels']" < d.json)" = 3 ]
[ "$(json_get "['effort']['stop']" < d.json)" = effort ]
# 64 tasks, 1,048 entries: the schedule runs on two renamings (restarts)
[ "$(json_get "['effort']['restarts']" < d.json)" = 2 ]
expect_exit 0 "$TOPOMAP" map $LUL --effort 3 --threads 1 --out d1.txt
cmp d.txt d1.txt
expect_in "effort             3: 3 levels in each of 2 runs (restarts), ended: effort" "$OUT"
# the same job renumbered: the same answer (the restarts rename the
# canonical job, not the one given)
python3 -c "
import random
r = random.Random(9); p = list(range(64)); r.shuffle(p)
for l in open('lul.edges'):
    a, b, w = l.split(); print(p[int(a)], p[int(b)], w)" > lul2.edges
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --comm lul2.edges --routing dor --json --out /dev/null
echo "$OUT" | json_py "(d['max_congestion'], d['avg_dilation'])" > fig2.txt
json_py "(d['max_congestion'], d['avg_dilation'])" < d.json > fig1.txt
cmp fig1.txt fig2.txt
# more effort never gives a worse answer (every level only adds candidates)
for e in 0 1 2 4; do
    expect_exit 0 "$TOPOMAP" map $LUL --effort $e --json --out /dev/null
    echo "$OUT" > e$e.json
    [ "$(json_get "['effort']['levels']" < e$e.json)" = $e ]
done
not_dominated e1.json e0.json
not_dominated e2.json e1.json
not_dominated d.json e2.json
not_dominated e4.json d.json
# --effort exhaustive: the chain ils:10+ta on every construction
expect_exit 0 "$TOPOMAP" map $LUL --effort exhaustive --json --out /dev/null
[ "$(echo "$OUT" | json_get "['refine']")" = ils:10+ta ]
[ "$(echo "$OUT" | json_get "['effort']['pipeline']")" = chain ]

# a budget far longer than the job needs: the levels end once two in a row
# improved nothing by 0.1 % ("converged"), not at the limit, and the answer
# is never worse than the default's (a budget at least as long as its run)
expect_exit 0 "$TOPOMAP" map $LUL --time-limit 600 --json --out l.txt
echo "$OUT" > l.json
[ "$(json_get "['effort']['stop']" < l.json)" = converged ]
json_py "d['time_s'] < 300" < l.json | grep -qx True
not_dominated l.json d.json
# a short budget's answer never dominates a longer one's
expect_exit 0 "$TOPOMAP" map $LUL --time-limit 0.05 --json --out /dev/null
echo "$OUT" > s.json
not_dominated l.json s.json

# budget 0: the consecutive placement and topdown's construction, nothing
# refined; "time limit" says why it ended
expect_exit 0 "$TOPOMAP" map --topology torus:8x8x8 --comm spmv.edges --time-limit 0 --json \
    --out r0.txt
echo "$OUT" > r0.json
[ "$(json_py "' '.join(r['name'] for r in d['strategies'])" < r0.json)" = "identity topdown" ]
json_py "all(r['refine'] == 'none' for r in d['strategies'])" < r0.json | grep -qx True
[ "$(json_get "['effort']['stop']" < r0.json)" = "time limit" ]
[ "$(json_get "['effort']['levels']" < r0.json)" = 0 ]
[ "$(wc -l < r0.txt)" = 512 ]
# the answer is never dominated by consecutive (pareto objective)
json_py "not (d['consecutive']['max_congestion'] <= d['max_congestion'] and
              d['consecutive']['avg_dilation'] <= d['avg_dilation'] and
              (d['consecutive']['max_congestion'], d['consecutive']['avg_dilation']) !=
              (d['max_congestion'], d['avg_dilation']))" < r0.json | grep -qx True
# an explicit chain is kept under a budget; --effort and --refine exclude each other
expect_exit 0 "$TOPOMAP" map --topology torus:8x8x8 --comm spmv.edges --time-limit 0.5 \
    --refine nc:1 --json --out /dev/null
[ "$(echo "$OUT" | json_get "['refine']")" = "nc:1" ]
expect_exit 1 "$TOPOMAP" map --topology torus:8x8x8 --comm spmv.edges --effort 2 --refine nc:1
expect_in "--effort" "$ERR"
expect_in "--refine" "$ERR"
expect_exit 1 "$TOPOMAP" map --topology torus:8x8x8 --comm spmv.edges --effort 13
expect_in "--effort expects a level in [0, 12] or 'exhaustive'" "$ERR"
expect_exit 1 "$TOPOMAP" map --hierarchy 4:4 --distances 1:10 --comm spmv.edges --effort 1
expect_in "--effort needs a network" "$ERR"

# with an explicit chain under a limit, a result consecutive beats gives way
# to it: consecutive is the exact embedding of a natural stencil on its
# torus; rcm is worse (checked without a limit), so under a limit the answer
# is the consecutive placement, as a row of its own, with its figures
expect_exit 0 "$TOPOMAP" map --topology torus:6x6x6 --comm st6.edges --strategy rcm --refine none \
    --json --out /dev/null
echo "$OUT" | json_py "d['avg_dilation'] > d['consecutive']['avg_dilation']" | grep -qx True
expect_exit 0 "$TOPOMAP" map --topology torus:6x6x6 --comm st6.edges --strategy rcm --refine none \
    --time-limit 5 --json --out rc.txt
echo "$OUT" > rc.json
[ "$(json_get "['best']" < rc.json)" = consecutive ]
json_py "((d['max_congestion'], d['avg_dilation'], d['qap_network_J']) ==
          (d['consecutive']['max_congestion'], d['consecutive']['avg_dilation'],
           d['consecutive']['qap_network_J']))" < rc.json | grep -qx True
expect_exit 0 "$TOPOMAP" eval --topology torus:6x6x6 --comm st6.edges --mapping rc.txt --json
echo "$OUT" | json_py "d['avg_dilation'] == 1" | grep -qx True
# the text report names the row, without the chain it did not have (rcm +
# nc:1 converges within the budget, short of the embedding)
expect_exit 0 "$TOPOMAP" map --topology torus:6x6x6 --comm st6.edges --strategy rcm --refine nc:1 \
    --json --out /dev/null
echo "$OUT" | json_py "d['avg_dilation'] > d['consecutive']['avg_dilation']" | grep -qx True
expect_exit 0 "$TOPOMAP" map --topology torus:6x6x6 --comm st6.edges --strategy rcm --refine nc:1 \
    --time-limit 5 --out rc2.txt
echo "$OUT" | grep -qx "strategy           consecutive" || { echo "strategy line: $OUT"; exit 1; }
