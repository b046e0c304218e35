#!/usr/bin/env bash
# map on a network: the one-engine pipeline.  The consecutive placement is
# printed beside the result (text and JSON), refinement chains and the
# pareto objective are accepted, QAP refinements run in network mode, and a
# relabelled periodic stencil on the torus of its shape is rebuilt exactly
# (congestion 1, dilation 1: every message on one link, the optimum).
set -eu
. "$(dirname "$0")/lib.sh"
# 4x4x4 periodic 7-point stencil, tasks relabelled by (7 * i + 3) mod 64
python3 - > st.edges <<'P'
lab = [(7 * i + 3) % 64 for i in range(64)]
for z in range(4):
    for y in range(4):
        for x in range(4):
            u = lab[x + 4 * (y + 4 * z)]
            for dx, dy, dz in ((1,0,0),(-1,0,0),(0,1,0),(0,-1,0),(0,0,1),(0,0,-1)):
                v = lab[(x + dx) % 4 + 4 * ((y + dy) % 4 + 4 * ((z + dz) % 4))]
                print(u, v, 1)
P
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --out m.txt
expect_in "consecutive" "$OUT"
expect_in "max congestion" "$OUT"
expect_in "effort             3 (default)" "$OUT"
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --json --out m.txt
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 1 ]
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 1 ]
[ "$(echo "$OUT" | json_get "['objective']")" = pareto ]
[ "$(echo "$OUT" | json_py "d['consecutive']['avg_dilation'] > 1.5")" = True ]
[ "$(echo "$OUT" | json_py "d['change_pct']['avg_dilation'] < -30")" = True ]
[ "$(echo "$OUT" | json_py "all('construction' in r for r in d['strategies'] if r['refine'] != 'none')")" = True ]
[ "$(echo "$OUT" | json_get "['refine']")" = auto ]
# at the optimum after the constructions: the lower bounds stop the levels (docs/bounds.md)
[ "$(echo "$OUT" | json_py "[d['effort']['levels'], d['effort']['stop']]")" = "[0, 'gap']" ]
# the written mapping evaluates to the reported figures
expect_exit 0 "$TOPOMAP" eval --topology torus:4x4x4 --comm st.edges --mapping m.txt --json
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 1 ]
# QAP refinements and chains in network mode; every objective
for r in nc:1 np:16 n2 ils:2 nc:1+ta ta:500,dil=0.1 ta:dil=none; do
    expect_exit 0 "$TOPOMAP" map --topology fattree:k=4,n=3 --comm st.edges --strategy topdown --refine $r --json
done
for o in congestion dilation qap pareto; do
    expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --strategy all --refine nc:1 --objective $o --json
done
# a result worse than consecutive says so
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --strategy identity --refine none
expect_exit 1 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --refine nc:1+
expect_in "ends with '+'" "$ERR"
expect_exit 1 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --objective best
expect_in "pareto" "$ERR"
# more tasks than slots: refused with the hint, then general mapping with
# --imbalance (64 tasks on the 8 hosts of a 4x2 torus, 8 per slot)
expect_exit 3 "$TOPOMAP" map --topology torus:4x2 --comm st.edges
expect_in "or --imbalance EPS (several tasks per slot: general process mapping)" "$ERR"
expect_exit 0 "$TOPOMAP" map --topology torus:4x2 --comm st.edges --imbalance 0 --json --out g.txt
[ "$(echo "$OUT" | json_get "['general']['blocks']")" = 8 ]
[ "$(echo "$OUT" | json_get "['general']['block_weight_max']")" = 8 ]
[ "$(echo "$OUT" | json_py "d['avg_dilation'] < d['consecutive']['avg_dilation']")" = True ]
[ "$(echo "$OUT" | json_py "d['max_congestion'] <= d['consecutive']['max_congestion']")" = True ]
[ "$(sed 's/.*=\([^ ]*\) .*/\1/' g.txt | sort | uniq -c | awk '{print $1}' | sort -u)" = 8 ]
[ "$(wc -l < g.txt)" = 64 ]
expect_exit 0 "$TOPOMAP" map --topology torus:4x2 --comm st.edges --imbalance 0.5 --strategy recursive --refine none
expect_in "general mapping    8 blocks" "$ERR"
# the written general mapping evaluates to the reported figures; eval
# without --mapping does not oversubscribe silently
expect_exit 0 "$TOPOMAP" map --topology torus:4x2 --comm st.edges --imbalance 0 --json --out g.txt
want=$(echo "$OUT" | json_py "(d['max_congestion'], d['avg_dilation'])")
expect_exit 0 "$TOPOMAP" eval --topology torus:4x2 --comm st.edges --mapping g.txt --json
[ "$(echo "$OUT" | json_py "(d['max_congestion'], d['avg_dilation']) == $want")" = True ]
expect_exit 3 "$TOPOMAP" eval --topology torus:4x2 --comm st.edges
expect_in "or --mapping M for an oversubscribed placement" "$ERR"
