#!/usr/bin/env bash
# eval on a hand-computed case (tests/data/cli/star.graphml, three.edges):
# --slots 1, consecutive (t0@a, t1@b, t2@c): a->s carries 20+10 over capacity 10 -> 3;
# the 10 units to c split over c's two parallel cables (5/5 -> 1); every message 2 hops.
# packed rankfile (tasks 0,1 share host a): max congestion 1, dilation (0*20+2*10+2*10)/40 = 1.
set -eu
. "$(dirname "$0")/lib.sh"
d=$TM_TEST_DATA/cli
expect_exit 0 "$TOPOMAP" eval --topology $d/star.graphml --slots 1 --comm $d/three.edges --json
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 3 ]
[ "$(echo "$OUT" | json_get "['max_congestion_links']")" = "[['a.cluster.example', 's']]" ]
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 2 ]
[ "$(echo "$OUT" | json_get "['qap_network_J']")" = 80 ]
[ "$(echo "$OUT" | json_get "['total_volume']")" = 40 ]
[ "$(echo "$OUT" | json_get "['n_tasks']")" = 3 ]
[ "$(echo "$OUT" | json_get "['hosts_used']")" = 3 ]
[ "$(echo "$OUT" | json_get "['max_dilation']")" = 2 ]
expect_exit 0 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges \
    --mapping $d/three-packed.rankfile --json --export-loads loads.csv
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 1 ]
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 1 ]
[ "$(echo "$OUT" | json_get "['qap_network_J']")" = 40 ]
grep -q '^from,to,capacity,load,congestion$' loads.csv
grep -q '^a.cluster.example,s,10,10,1$' loads.csv
expect_exit 0 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges --alloc 'b,c,a'
expect_in "max congestion" "$OUT"
# hierarchy mode: J = 5*1 + 5*1 + 3*10
expect_exit 0 "$TOPOMAP" eval --hierarchy 2:2 --distances 1:10 --comm $d/hier.edges --json
[ "$(echo "$OUT" | json_get "['J']")" = 40 ]
# node-internal levels (docs/qap.md): consecutive = t0@a/0, t1@a/1, t2@b/0, node hierarchy "2", d = 5:
# 0->1 on one host: 20*5; 0->2 and 2->0 leave the host: 10*(5 + 50*2) each  ->  100 + 2*1050
expect_exit 0 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges \
    --node-hierarchy 2 --node-distances 5 --json
[ "$(echo "$OUT" | json_get "['qap_network_J']")" = 2200 ]
expect_exit 0 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges \
    --node-hierarchy 2 --node-distances 5 --hop-distance 1 --json
[ "$(echo "$OUT" | json_get "['qap_network_J']")" = 240 ]
# an hwloc export gives the node levels; a host slot beyond them is bad input
expect_exit 0 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges \
    --hwloc "$TM_TEST_DATA/real/docs/samples/hwloc-v2-2pkg-4core-2pu.xml" --json
expect_exit 2 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges \
    --node-hierarchy 1 --node-distances 5
expect_in "node hierarchy has 1 PEs" "$ERR"
expect_exit 1 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges --node-hierarchy 2
