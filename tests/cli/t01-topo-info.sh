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
