#!/usr/bin/env bash
# `map --time-limit T` as a budget for the whole run (docs/mapping.md "Time
# budget"): the default chain chosen by the budget, the constructions and
# refinements it leaves out, and the consecutive placement as the answer
# when the budget gave nothing better.  Timing-free checks only (the
# machine may be loaded): what ran, and the figures.
set -eu
. "$(dirname "$0")/lib.sh"
spmv512_edges > spmv.edges
stencil_edges 6 > st6.edges

# budget 0: consecutive and the first construction (topdown), nothing
# refined (the chain has no time), the short chain named
expect_exit 0 "$TOPOMAP" map --topology torus:8x8x8 --comm spmv.edges --time-limit 0 --json \
    --out r0.txt
echo "$OUT" > r0.json
[ "$(json_get "['refine']" < r0.json)" = "ils:2" ]
[ "$(json_py "' '.join(r['name'] for r in d['strategies'])" < r0.json)" = "identity topdown" ]
json_py "all(r['max_congestion'] == r['construction']['max_congestion'] and
             r['avg_dilation'] == r['construction']['avg_dilation']
             for r in d['strategies'] if not r['screened'])" < r0.json | grep -qx True
[ "$(wc -l < r0.txt)" = 512 ]

# a budget of 2 ms per task and more: ils:2 then ta; at most as many rows
# refined as threads (the screen), the others kept as constructed
expect_exit 0 "$TOPOMAP" map --topology torus:8x8x8 --comm spmv.edges --time-limit 1 --threads 2 \
    --json --out r1.txt
echo "$OUT" > r1.json
[ "$(json_get "['refine']" < r1.json)" = "ils:2+ta" ]
json_py "sum(not r['screened'] for r in d['strategies']) <= 2" < r1.json | grep -qx True
# the answer is never dominated by consecutive (pareto objective)
json_py "not (d['consecutive']['max_congestion'] <= d['max_congestion'] and
              d['consecutive']['avg_dilation'] <= d['avg_dilation'] and
              (d['consecutive']['max_congestion'], d['consecutive']['avg_dilation']) !=
              (d['max_congestion'], d['avg_dilation']))" < r1.json | grep -qx True
# an explicit chain is kept under a budget
expect_exit 0 "$TOPOMAP" map --topology torus:8x8x8 --comm spmv.edges --time-limit 0.5 \
    --refine nc:1 --json --out /dev/null
[ "$(echo "$OUT" | json_get "['refine']")" = "nc:1" ]

# consecutive is the exact embedding of a natural stencil on its torus; rcm
# is worse (checked without a limit), so under a limit the answer is the
# consecutive placement, as a row of its own, with its figures
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
