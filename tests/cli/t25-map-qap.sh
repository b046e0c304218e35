#!/usr/bin/env bash
# Hierarchy-mode QAP mapping end to end (docs/qap.md): the VieM strategies
# and refiners on a QAP benchmark instance (rgg16_k256_shuf,
# tests/data/PROVENANCE.md), J read back by eval, general process mapping
# within the balance bound, and the error exits.
set -eu
. "$(dirname "$0")/lib.sh"
G=$TM_TEST_DATA/real/bench/qap/rgg16_k256_shuf.graph
H="--hierarchy 4:16:4 --distances 1:10:100"
# topdown + nc:10 beats Scotch's 335,432 on this instance; the mapping is a permutation
expect_exit 0 "$TOPOMAP" map $H --comm "$G" --strategy topdown --refine nc:10 --out pe.txt --json
j=$(echo "$OUT" | json_get "['J']")
python3 -c "import sys; sys.exit(0 if float('$j') < 320000 else 1)"
[ "$(sort -n pe.txt | uniq | wc -l)" = 256 ]
[ "$(sort -n pe.txt | head -1)" = 0 ] && [ "$(sort -n pe.txt | tail -1)" = 255 ]
expect_exit 0 "$TOPOMAP" eval $H --comm "$G" --mapping pe.txt --json
[ "$(echo "$OUT" | json_get "['J']")" = "$j" ]
# every hierarchy strategy and refiner runs
for s in mm allc bottomup topdown-ms random; do
    expect_exit 0 "$TOPOMAP" map $H --comm "$G" --strategy $s --out s.txt
    [ "$(sort -n s.txt | uniq | wc -l)" = 256 ]
done
for r in np n2 ils:2; do
    expect_exit 0 "$TOPOMAP" map $H --comm "$G" --strategy mm --refine $r --out s.txt
done
# general process mapping: 256 tasks on 16 PEs, at most ceil(1.03 * 16) = 17 per PE
expect_exit 0 "$TOPOMAP" map --hierarchy 4:4 --distances 1:10 --comm "$G" --strategy topdown \
    --refine nc:1 --imbalance 0.03 --out g.txt
[ "$(sort -n g.txt | uniq -c | sort -n | tail -1 | awk '{print $1}')" -le 17 ]
[ "$(wc -l < g.txt)" = 256 ]
# errors: more tasks than PEs one-to-one, greedy strategies are one-to-one, bad levels
expect_exit 3 "$TOPOMAP" map --hierarchy 4:4 --distances 1:10 --comm "$G" --strategy topdown
expect_exit 3 "$TOPOMAP" map --hierarchy 4:4 --distances 1:10 --comm "$G" --strategy mm --imbalance 0.03
expect_in "256 tasks but only 16 PEs" "$ERR"
expect_exit 2 "$TOPOMAP" map --hierarchy 4:0:16 --distances 1:10:100 --comm "$G" --strategy topdown
expect_in "level 2 is 0" "$ERR"
expect_exit 2 "$TOPOMAP" map --hierarchy 4:16 --distances 1:10:100 --comm "$G" --strategy topdown
expect_in "has 2 levels but distances" "$ERR"
# one-to-one with fewer tasks than PEs: the hierarchy does not match the job
expect_exit 2 "$TOPOMAP" map --hierarchy 4:16:8 --distances 1:10:100 --comm "$G" --strategy topdown
