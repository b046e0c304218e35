#!/usr/bin/env bash
# --strategy all runs every network-mode strategy, lists them, keeps the best,
# and the written rankfile evaluates to the reported figures.
set -eu
. "$(dirname "$0")/lib.sh"
# 3D 7-point stencil on a 4x4x4 grid of tasks: i -> neighbours, volume 1
stencil_edges 4 > st.edges
# a shuffled allocation order makes the consecutive placement poor
alloc=$(python3 -c "import random; r=random.Random(7); h=['n%04d'%i for i in range(64)]; r.shuffle(h); print(','.join(h))")
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --alloc "$alloc" --strategy all \
    --refine ta --threads 2 --seed 3 --json --out best.rf
rows=$(echo "$OUT" | json_py "[r['name'] for r in d['strategies']]")
for s in identity greedy recursive rcm; do expect_in "'$s" "$rows"; done
best=$(echo "$OUT" | json_get "['max_congestion']")
ident=$(echo "$OUT" | json_py "[r for r in d['strategies'] if r['name']=='identity'][0]['max_congestion']")
python3 -c "import sys; b,i=map(float,sys.argv[1:]); assert b <= i, (b,i)" "$best" "$ident"
# the file evaluates to exactly the reported figures
expect_exit 0 "$TOPOMAP" eval --topology torus:4x4x4 --comm st.edges --mapping best.rf --json
[ "$(echo "$OUT" | json_get "['max_congestion']")" = "$best" ]
# same seed, other thread count: same result (no time limit)
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --comm st.edges --alloc "$alloc" --strategy all \
    --refine ta --threads 1 --seed 3 --out best1.rf
cmp best.rf best1.rf
# more tasks than slots: exit 3
expect_exit 3 "$TOPOMAP" map --topology torus:2x2 --comm st.edges
expect_in "64 tasks but only 4 slots" "$ERR"
