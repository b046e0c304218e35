#!/usr/bin/env bash
# topo info on generated networks and on the shipped real dump.
set -eu
. "$(dirname "$0")/lib.sh"
expect_exit 0 "$TOPOMAP" topo info --topology torus:4x4x4 --json
[ "$(echo "$OUT" | json_get "['hosts']")" = 64 ]
[ "$(echo "$OUT" | json_get "['switches']")" = 0 ]
[ "$(echo "$OUT" | json_get "['cables']")" = 192 ]
[ "$(echo "$OUT" | json_get "['diameter']")" = 6 ]
expect_exit 0 "$TOPOMAP" topo info --topology "$TM_TEST_DATA/cli/star.graphml" --json
[ "$(echo "$OUT" | json_get "['hosts']")" = 3 ]
[ "$(echo "$OUT" | json_get "['slots']")" = 4 ]
[ "$(echo "$OUT" | json_get "['capacities']['5']")" = 2 ]
[ "$(echo "$OUT" | json_get "['diameter']")" = 2 ]
expect_exit 0 "$TOPOMAP" topo info --topology "$TOPO_DIR/psmn-x5/X5.topofile" \
    --node-name-map "$TOPO_DIR/psmn-x5/X5.map"
expect_in "switches   11" "$OUT"
expect_exit 0 "$TOPOMAP" topo info --topology torus:4x4x4 --slots 8 --json
[ "$(echo "$OUT" | json_get "['slots']")" = 512 ]
# detected hierarchy (docs/hierarchy.md): text line and JSON object
expect_exit 0 "$TOPOMAP" topo info --topology fattree:k=4,n=3 --no-diameter
expect_in "hierarchy  fat-tree, 2 levels: leaf 16 groups (4 hosts each), pod 4 groups (16 hosts each)" "$OUT"
expect_in "hops by lowest common level: leaf 2, pod 4, top 6" "$OUT"
expect_exit 0 "$TOPOMAP" topo info --topology fattree:k=4,n=3 --json
[ "$(echo "$OUT" | json_get "['hierarchy']['kind']")" = fat-tree ]
[ "$(echo "$OUT" | json_py "[(l['name'], l['groups'], l['min_hosts'], l['max_hosts'], l['hops']) for l in d['hierarchy']['levels']]")" = "[('leaf', 16, 4, 4, 2), ('pod', 4, 16, 16, 4)]" ]
[ "$(echo "$OUT" | json_get "['hierarchy']['top_hops']")" = 6 ]
expect_exit 0 "$TOPOMAP" topo info --topology "$TOPO_DIR/psmn-x5/X5.topofile" \
    --node-name-map "$TOPO_DIR/psmn-x5/X5.map"
expect_in "hierarchy  fat-tree, 1 level: leaf 6 groups (5-24 hosts)" "$OUT"
expect_exit 0 "$TOPOMAP" topo info --topology torus:4x4x4 --json
[ "$(echo "$OUT" | json_py "(d['hierarchy']['kind'], d['hierarchy']['levels'], d['hierarchy']['top_hops'])")" = "('grid', [], None)" ]
# connected parts (igraph) and degree statistics
expect_exit 0 "$TOPOMAP" topo info --topology fattree:k=4,n=3 --json
[ "$(echo "$OUT" | json_py "(len(d['parts']), d['parts'][0]['hosts'], d['degrees']['hosts']['max'], d['degrees']['switches']['min'], d['degrees']['switches']['max'], d['degrees']['switches']['count'])")" = "(1, 64, 1, 4, 8, 48)" ]
two="$TM_TEST_DATA/cli/two-parts.xml"
expect_exit 0 "$TOPOMAP" topo info --topology "$two"
expect_in "parts      2, not connected to each other" "$OUT"
expect_in "16 hosts, e.g. t-n0000" "$OUT"
expect_in "diameter   4 hops (between hosts of one part)" "$OUT"
expect_exit 0 "$TOPOMAP" topo info --topology "$two" --json
[ "$(echo "$OUT" | json_py "[(p['hosts'], p['first_host']) for p in d['parts']]")" = "[(16, 't-n0000'), (16, 'f-n0000')]" ]
# a job inside one part works; one that spans the parts is refused, naming the hosts
python3 -c "
n=16
print(n, n)
for i in range(n): print((i-1)%n+1, (i+1)%n+1)" > ring16.graph
expect_exit 0 "$TOPOMAP" map --topology "$two" --comm ring16.graph --alloc 'f-n[0000-0015]' --quiet --out r.txt
expect_exit 0 "$TOPOMAP" eval --topology "$two" --comm ring16.graph --alloc 'f-n[0000-0015]' --mapping r.txt
expect_exit 2 "$TOPOMAP" map --topology "$two" --comm ring16.graph --alloc 't-n0000,f-n[0000-0014]' --quiet
expect_in "disconnected allocation: 15 allocated hosts cannot be reached from host 't-n0000': 'f-n0000'" "$ERR"
expect_in "(the allocation spans connected parts of the network" "$ERR"
expect_exit 2 "$TOPOMAP" eval --topology "$two" --comm ring16.graph --alloc 't-n0000,f-n[0000-0014]'
expect_in "they are in different connected parts of the network" "$ERR"
