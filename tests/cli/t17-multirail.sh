#!/usr/bin/env bash
# Multi-rail hosts (docs/routing.md "Multi-rail hosts"): fattree rails=R builds R planes with one
# cable per host into each; topo info counts the rails per host (text and JSON); under ecmp and
# single a message is striped evenly over the rails (8 units between two hosts of one leaf: 4 on
# each plane's two links, congestion 4 / 1 Gbit/s); a node-name map that gives two HCAs on
# different switches one hostname makes a dual-rail host of a real dump; map works there; the
# SimGrid export draws one rail per striped pair (one path per pair) and takes a forwarding-table model.
set -eu
. "$(dirname "$0")/lib.sh"
F=fattree:k=4,n=2,rails=4
expect_exit 0 "$TOPOMAP" topo info --topology "$F"
expect_in "rails      4 per host (all 16 hosts) (multi-rail" "$OUT"
expect_in "switches   32" "$OUT"
expect_exit 0 "$TOPOMAP" topo info --topology "$F" --json
[ "$(echo "$OUT" | json_get "['rails']")" = "{'4': 16}" ]
expect_exit 0 "$TOPOMAP" topo info --topology fattree:k=4,n=2
expect_in "rails      1 per host (all 16 hosts)" "$OUT"
expect_exit 0 "$TOPOMAP" topo info --topology torus:4x4
case "$OUT" in *rails*) echo "a torus has no rails: $OUT"; exit 1;; esac
expect_exit 1 "$TOPOMAP" topo info --topology fattree:k=4,n=2,rails=0
expect_in "option rails=0 is out of range 1..64" "$ERR"

# one message of 8 between two hosts of one leaf, on two planes
printf '0 1 8\n' > one.edges
for r in ecmp single; do
    expect_exit 0 "$TOPOMAP" eval --topology fattree:k=2,n=2,rails=2 --comm one.edges \
        --alloc 'n[0000-0001]' --routing $r --json --export-loads loads.csv
    [ "$(echo "$OUT" | json_get "['max_congestion']")" = 4 ]
    [ "$(echo "$OUT" | json_get "['avg_dilation']")" = 2 ]
    [ "$(grep -c ',4,4$' loads.csv)" = 4 ]
    [ "$(awk -F, 'NR > 1 && $4 != 0' loads.csv | wc -l)" = 4 ]
    expect_in "rail1-sw-l1-000,n0001,1,4,4" "$(cat loads.csv)"
done

# the real 3.topo: gpu1 and gpu2 are two HCAs each, on the two switches
T=$TM_TEST_DATA/real/data/ibnetdiscover/jabl_ibtopotool/3.topo
M=$TM_TEST_DATA/ib/multirail/3-rails.map
expect_exit 0 "$TOPOMAP" topo info --topology "$T" --node-name-map "$M"
expect_in "hosts      3" "$OUT"
expect_in "rails      1: 1 host, 2: 2 hosts" "$OUT"
expect_exit 0 "$TOPOMAP" eval --topology "$T" --node-name-map "$M" --comm one.edges \
    --alloc gpu1,gpu2 --json --export-loads loads.csv
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 2 ]
expect_in "gpu1,S-e41d2d030003e470,100,4," "$(cat loads.csv)"
expect_in "gpu1,switch-de779e,8,4,0.5" "$(cat loads.csv)"
expect_in "switch-de779e,gpu2,54.56" "$(cat loads.csv)"
[ "$(awk -F, 'NR > 1 && $4 != 0' loads.csv | wc -l)" = 4 ]
# without the map: five single-rail hosts
expect_exit 0 "$TOPOMAP" topo info --topology "$T"
expect_in "rails      1 per host (all 5 hosts)" "$OUT"

# mapping on planes
stencil_edges 2 > st.edges
expect_exit 0 "$TOPOMAP" map --topology "$F" --comm st.edges --strategy all --out m.txt --json
[ "$(echo "$OUT" | json_py "d['max_congestion'] <= d['consecutive']['max_congestion']")" = True ]

# SimGrid: one path per pair; the striped pairs get one rail each, drawn (and said so)
expect_exit 0 "$TOPOMAP" topo export --format simgrid --topology fattree:k=2,n=2,rails=2 \
    --routing single --out p.xml
expect_in "note: routing 'single' splits 12 host pair(s) over several paths" "$ERR"
expect_in "<!-- 12 of 12 routes: one path drawn" "$(cat p.xml)"
rm p.xml
expect_exit 0 "$TOPOMAP" topo export --format simgrid --topology fattree:k=2,n=2,rails=2 \
    --routing ftree --out p.xml
[ "$(grep -c '<route ' p.xml)" = 16 ]

# forwarding tables (tests/data/route/lft-rails: hosts x and y with HCA-1 on leaf1 and HCA-2 on
# leaf2, one spine, single subnet): each rail goes to the peer's LID its tables reach in the
# fewest hops, 4 on each rail, 2 hops; with leaf2's entry for y's HCA-2 (LID 4) gone, rail 2
# reaches y's HCA-1 through the spine: 4 hops, and leaf1 -> y carries all 8
L=$TM_TEST_DATA/route/lft-rails
expect_exit 0 "$TOPOMAP" eval --topology "$L/fabric.txt" --comm "$L/pair.edges" --routing "lft:$L/tables" \
    --json --export-loads loads.csv
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 0.04 ]
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 2 ]
[ "$(awk -F, 'NR > 1 && $4 == 4' loads.csv | wc -l)" = 4 ]
expect_exit 0 "$TOPOMAP" eval --topology "$L/fabric.txt" --comm "$L/pair.edges" \
    --routing "lft:$L/tables-norail2" --json --export-loads loads.csv
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 3 ]
[ "$(echo "$OUT" | json_get "['max_dilation']")" = 4 ]
[ "$(echo "$OUT" | json_get "['qap_network_J']")" = 24 ]
expect_in "leaf1,y,100,8," "$(cat loads.csv)"
expect_in "leaf2,spine1,100,4," "$(cat loads.csv)"
