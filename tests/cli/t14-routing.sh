#!/usr/bin/env bash
# --routing lft:DIR (docs/routing.md): the hand-made fabric of
# tests/data/route/lft2, whose leaf1 table sends LIDs 3 and 4 over one
# uplink: tasks 0->2 and 1->3 (1 unit each, consecutive on a, b, c, d)
# share leaf1 -> spine1: congestion 2 / 100 Gbit/s = 0.02, where ECMP
# spreads them (0.01).  Broken tables fail with file:line (exit 2).
set -eu
. "$(dirname "$0")/lib.sh"
d=$TM_TEST_DATA/route/lft2
b=$TM_TEST_DATA/bad/lft
expect_exit 0 "$TOPOMAP" eval --topology $d/fabric.txt --comm $d/pairs.edges --routing lft:$d/tables --json
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 0.02 ]
[ "$(echo "$OUT" | json_get "['routing']")" = lft ]
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 4 ]
expect_exit 0 "$TOPOMAP" eval --topology $d/fabric.txt --comm $d/pairs.edges --json
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 0.01 ]
# --compare-routing: both side by side, ratio 2
expect_exit 0 "$TOPOMAP" eval --topology $d/fabric.txt --comm $d/pairs.edges --routing lft:$d/tables \
    --compare-routing --json
[ "$(echo "$OUT" | json_get "['compare_routing']['ecmp']['max_congestion']")" = 0.01 ]
[ "$(echo "$OUT" | json_get "['compare_routing']['routed']['max_congestion']")" = 0.02 ]
[ "$(echo "$OUT" | json_get "['compare_routing']['congestion_ratio']")" = 2 ]
[ "$(echo "$OUT" | json_get "['compare_routing']['routing']")" = lft ]
expect_exit 0 "$TOPOMAP" eval --topology $d/fabric.txt --comm $d/pairs.edges --routing lft:$d/tables \
    --compare-routing
expect_in "routing comparison" "$OUT"
expect_in "  max congestion               0.01             0.02   x2.000" "$OUT"
expect_exit 1 "$TOPOMAP" eval --hierarchy 2:2 --distances 1:10 --comm $d/pairs.edges --compare-routing
# the mapper, under the real routes, puts each pair under one leaf: nothing crosses an uplink
expect_exit 0 "$TOPOMAP" map --topology $d/fabric.txt --comm $d/pairs.edges --routing lft:$d/tables --json
[ "$(echo "$OUT" | json_get "['max_dilation']")" = 2 ]
expect_exit 2 "$TOPOMAP" eval --topology $d/fabric.txt --comm $d/pairs.edges --routing lft:$b/loop
expect_in "ibroute-20.txt:6: forwarding loop" "$ERR"
expect_exit 2 "$TOPOMAP" eval --topology $d/fabric.txt --comm $d/pairs.edges --routing lft:$b/no-cable
expect_in "ibroute-10.txt:6: switch 'leaf1' forwards LID 3 (host 'c') out of port 7, which has no cable" "$ERR"
expect_exit 2 "$TOPOMAP" eval --topology $d/fabric.txt --comm $d/pairs.edges --routing lft:$b/header
expect_in "x.txt:1: malformed header" "$ERR"
expect_exit 2 "$TOPOMAP" eval --topology $d/fabric.txt --comm $d/pairs.edges --routing lft:$d/nodir
expect_in "cannot open the forwarding-table directory" "$ERR"
expect_exit 1 "$TOPOMAP" eval --topology $d/fabric.txt --comm $d/pairs.edges --routing lft:
expect_exit 1 "$TOPOMAP" eval --topology $d/fabric.txt --comm $d/pairs.edges --routing lft
# real tables: plafrim, all 125 hosts, an all-pairs-ish matrix of 64 tasks
r=$TM_TEST_DATA/real/data
expect_exit 0 "$TOPOMAP" eval --topology $r/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt \
    --comm $r/commmatrix/cnca_mpiP_cm/lulesh_64.graphStats.txt --routing lft:$r/ibroute_lft/plafrim
expect_in "routing            lft" "$OUT"
# emulated OpenSM engines on a generated 4-ary 3-tree, shift by 16 (docs/routing.md):
# ftree (D-mod-k) routes it without contention, min-hop puts 4 flows on some cable
python3 -c "
for i in range(64): print(i, (i + 16) % 64, 1)" > shift16.edges
expect_exit 0 "$TOPOMAP" eval --topology fattree:k=4,n=3 --comm shift16.edges --routing ftree --json
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 1 ]
[ "$(echo "$OUT" | json_get "['routing']")" = ftree ]
expect_exit 0 "$TOPOMAP" eval --topology fattree:k=4,n=3 --comm shift16.edges --routing minhop --json
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 4 ]
expect_exit 2 "$TOPOMAP" eval --topology $r/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt \
    --comm $r/commmatrix/cnca_mpiP_cm/lulesh_64.graphStats.txt --routing ftree
expect_in "not a fat-tree (use minhop)" "$ERR"
echo "t14 ok"
