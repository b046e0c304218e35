#!/usr/bin/env bash
# InfiniBand routing beyond one ibroute file per switch (docs/routing.md):
# the other forwarding-table dumps (dump_lfts.sh, opensm-lfts.dump,
# opensm.fdbs / ibdiagnet2.fdbs) of tests/data/route/lft2, which route as its
# ibroute files do (congestion 0.02, make-lft-fixtures.py); --lmc-spread on the hand-made LMC 1 fabric of tests/data/route/lmc1 (a -> c
# and b -> d, 1 unit each: base LIDs only, both climb leaf1 -> spine1, 2 /
# 100 Gbit/s = 0.02; spread over both LIDs, 0.01 everywhere) and
# --routing updn (OpenSM's Up/Down engine, emulated) with its --root option.
set -eu
. "$(dirname "$0")/lib.sh"
d=$TM_TEST_DATA/route/lmc1
b=$TM_TEST_DATA/bad/lft
ev() { "$TOPOMAP" eval --topology $d/fabric.txt --comm $d/pairs.edges "$@"; }
l2=$TM_TEST_DATA/route/lft2
for fmt in tables dump osm fdbs; do
    expect_exit 0 "$TOPOMAP" eval --topology $l2/fabric.txt --comm $l2/pairs.edges --routing lft:$l2/$fmt --json
    [ "$(echo "$OUT" | json_get "['max_congestion']")" = 0.02 ]
done
expect_exit 2 "$TOPOMAP" eval --topology $l2/fabric.txt --comm $l2/pairs.edges --routing lft:$b/fdbs-row
expect_in "x.fdbs:5: malformed entry" "$ERR"
expect_exit 2 "$TOPOMAP" eval --topology $l2/fabric.txt --comm $l2/pairs.edges --routing lft:$b/multicast
expect_in "x.txt:2: multicast forwarding tables" "$ERR"
expect_exit 0 ev --routing lft:$d/tables --json
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 0.02 ]
[ "$(echo "$OUT" | json_get "['lmc_spread']")" = False ]
expect_exit 0 ev --routing lft:$d/tables --lmc-spread --json
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 0.01 ]
[ "$(echo "$OUT" | json_get "['lmc_spread']")" = True ]
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 4 ]
expect_exit 0 ev --routing lft:$d/tables --lmc-spread
expect_in "routing            lft (--lmc-spread" "$OUT"
# the mapper takes the option too
expect_exit 0 "$TOPOMAP" map --topology $d/fabric.txt --comm $d/pairs.edges --routing lft:$d/tables \
    --lmc-spread --json
# a missing entry for an extra LID fails only with the option, naming file and line
expect_exit 0 ev --routing lft:$b/lmc-missing
expect_exit 2 ev --routing lft:$b/lmc-missing --lmc-spread
expect_in "ibroute-10.txt:1: switch 'leaf1' has no entry for LID 7 (host 'c')" "$ERR"
# without forwarding tables the option means nothing: a usage error
expect_exit 1 ev --lmc-spread
expect_in "--lmc-spread needs forwarding tables" "$ERR"
expect_exit 1 ev --routing minhop --lmc-spread
expect_exit 1 "$TOPOMAP" study --topology $d/fabric.txt --comm $d/pairs.edges --lmc-spread
# updn: automatic roots on a generated fat-tree route shift 16 of a 4-ary 3-tree
# on minimal paths (avg dilation 6: every flow crosses the top)
python3 -c "
for i in range(64): print(i, (i + 16) % 64, 1)" > shift16.edges
expect_exit 0 "$TOPOMAP" eval --topology fattree:k=4,n=3 --comm shift16.edges --routing updn --json
[ "$(echo "$OUT" | json_get "['routing']")" = updn ]
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 6 ]
# plafrim: no switch passes OpenSM's root rule; its two spines as --root route everything
r=$TM_TEST_DATA/real/data
pf=$r/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt
lu=$r/commmatrix/cnca_mpiP_cm/lulesh_64.graphStats.txt
expect_exit 2 "$TOPOMAP" eval --topology $pf --comm $lu --routing updn
expect_in "no switch passes OpenSM's root test" "$ERR"
expect_exit 0 "$TOPOMAP" eval --topology $pf --comm $lu --routing updn \
    --root S-0008f10500108500,S-0008f10500108548 --compare-routing --json
[ "$(echo "$OUT" | json_get "['compare_routing']['routing']")" = updn ]
expect_exit 1 "$TOPOMAP" eval --topology $pf --comm $lu --routing updn --root nosuch
expect_in "--root: 'nosuch' is not a switch" "$ERR"
expect_exit 1 "$TOPOMAP" eval --topology $pf --comm $lu --routing minhop --root S-0008f10500108500
expect_in "--root needs --routing updn" "$ERR"
echo "t15 ok"
