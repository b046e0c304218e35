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
