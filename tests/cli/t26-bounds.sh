#!/usr/bin/env bash
# The lower bounds beside every answer (docs/bounds.md): eval and map print them and the
# gap, in text and JSON; a stencil on its torus is provably optimal (gap 1); under
# --time-limit the default pipeline stops once within 1 % and says so; an oversubscribed
# mapping is bounded over as many tasks per slot as it has; hierarchy mode bounds J; the
# report and study show them.
set -eu
. "$(dirname "$0")/lib.sh"
# the periodic 7-point stencil of 4x4x4 (volume 2 each way) with its ranks shuffled: on
# torus:4x4x4 the optimum puts every message on one link
python3 - <<'P'
import random
r = random.Random(5)
p = list(range(64)); r.shuffle(p)
with open("st.edges", "w") as f:
    for v in range(64):
        x, y, z = v % 4, v // 4 % 4, v // 16
        for d in ((1,0,0),(-1,0,0),(0,1,0),(0,-1,0),(0,0,1),(0,0,-1)):
            u = (x + d[0]) % 4 + 4 * ((y + d[1]) % 4) + 16 * ((z + d[2]) % 4)
            f.write("%d %d 2\n" % (p[v], p[u]))
P

step "eval: the consecutive placement, bounds and gap in JSON and text"
expect_exit 0 "$TOPOMAP" eval --topology torus:4x4x4 --comm st.edges --json
b="d['bounds']"
# the optimum: 2 on every link, 1 hop a message, J = 384 messages x 2 x 1; the gap of the
# shuffled consecutive placement is its value over the bound
[ "$(echo "$OUT" | json_py "[round($b['max_congestion'], 6), round($b['avg_dilation'], 6),
    round($b['qap_network_J'], 3), $b['by']['max_congestion'], 'avg_dilation' in
    $b['methods']['profile'], abs(d['gap']['avg_dilation'] * $b['avg_dilation'] -
    d['avg_dilation']) < 1e-9, d['gap']['max_congestion'] > 1]")" = \
  "[2.0, 1.0, 768.0, 'injection', True, True, True]" ]
expect_exit 0 "$TOPOMAP" eval --topology torus:4x4x4 --comm st.edges
expect_in "lower bounds (every mapping of the job on the allocation; docs/bounds.md):" "$OUT"
expect_in "bound by" "$OUT"

step "map: the default finds the optimum, gap 1 on every figure, and stops there"
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --json --out m.txt
[ "$(echo "$OUT" | json_py "[max(d['gap'].values()) < 1 + 1e-6, d['effort']['stop'], d['effort']['levels']]")" = \
  "[True, 'gap', 0]" ]
# the same answer as the levels the default's effort names would give
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --effort 3 --json --out m3.txt
[ "$(echo "$OUT" | json_py "[max(d['gap'].values()) < 1 + 1e-6, d['effort']['stop'], d['effort']['levels']]")" = \
  "[True, 'effort', 3]" ]

step "map --time-limit: stops once within 1 % of the bounds, and says so"
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --time-limit 60 --json --out m2.txt
[ "$(echo "$OUT" | json_py "[d['effort']['stop'], d['effort']['levels']]")" = "['gap', 0]" ]
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --time-limit 60 --out m2.txt
expect_in "ended: gap" "$OUT"
expect_in "note: stopped early: the answer is within 1% of the lower bounds" "$OUT"
# --effort asks for its levels: no early stop
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --time-limit 60 --effort 1 --json --out m3.txt
[ "$(echo "$OUT" | json_py "d['effort']['stop']")" = effort ]

step "eval --mapping: an oversubscribed mapping is bounded with its tasks per slot"
for t in $(seq 0 63); do echo "n$(printf '%04d' $((t / 2))) 0"; done > packed.txt
expect_exit 0 "$TOPOMAP" eval --topology torus:4x4x2 --comm st.edges --mapping packed.txt --json
[ "$(echo "$OUT" | json_py "[d['bounds']['tasks_per_slot'],
    min(v for v in d['gap'].values() if v is not None) >= 1 - 1e-12]")" = "[2, True]" ]

step "map --imbalance: two tasks per slot under the balance's cap"
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x2 --comm st.edges --imbalance 0 --json --out b.txt
[ "$(echo "$OUT" | json_py "[d['bounds']['tasks_per_slot'],
    min(v for v in d['gap'].values() if v is not None) >= 1 - 1e-12]")" = "[2, True]" ]

step "hierarchy mode: J and its gap"
expect_exit 0 "$TOPOMAP" map --hierarchy 4:4:4 --distances 1:10:100 --comm st.edges --json --out pe.txt
[ "$(echo "$OUT" | json_py "[sorted(d['bounds']), d['gap']['J'] >= 1 - 1e-12]")" = \
  "[['J', 'by', 'flow_sources', 'methods', 'tasks_per_slot', 'time_s'], True]" ]
expect_exit 0 "$TOPOMAP" eval --hierarchy 4:4:4 --distances 1:10:100 --comm st.edges --mapping pe.txt
expect_in "J (hierarchy)" "$OUT"

step "the report and study show the bound and the gap"
expect_exit 0 "$TOPOMAP" eval --topology torus:4x4x4 --comm st.edges --mapping m.txt --report r.html
grep -q "<th>lower bound: congestion</th>" r.html
expect_exit 0 "$TOPOMAP" study --topology torus:4x4x4 --comm st.edges --strategy grow --out s.csv \
    --out s.json
head -1 s.csv | grep -q "bound_max_congestion,bound_avg_dilation,bound_qap_J,gap_max_congestion"
[ "$(json_py "[d['rows'][0]['gap']['avg_dilation'] < 1 + 1e-6,
    round(d['rows'][0]['bounds']['max_congestion'], 6)]" < s.json)" = "[True, 2.0]" ]
expect_in "cong bound" "$OUT"
