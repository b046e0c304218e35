#!/usr/bin/env bash
# Slurm's topology/block and topology.yaml (docs/slurm.md): `topo export --format slurm-block`
# (blocks of leaf switches or of a level, BlockSizes) and `--format slurm-yaml
# --slurm-topologies` (tree, block and flat in one file) checked against the rules of
# topology.conf(5), topology.yaml(5) and Slurm's own parsers (tests/cli/slurm_formats.py: only
# Slurm 22.05, which has neither, runs here); each read back by --slurm-topology (the same picks
# as the files they were made from); `alloc --policy slurm-block` against hand-computed choices
# of Slurm 25.11's eval_nodes_block; malformed files exit 2 with file:line; usage errors exit 1;
# a level whose switches overlap exit 3.
set -eu
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
B=$TM_TEST_DATA/bad/slurm-block
F="--topology fattree:k=4,n=3"

step "export: blocks of the leaf switches, of level 1, and the YAML of three topologies"
expect_exit 0 "$TOPOMAP" topo export $F --format slurm-block --out leaf.conf
[ "$(grep -c '^BlockName=sw-l1-0[0-9][0-9] Nodes=n\[00[0-9][0-9]-00[0-9][0-9]\]$' leaf.conf)" = 16 ]
expect_in "BlockSizes=4,8,16,32,64" "$(cat leaf.conf)"
expect_exit 0 "$TOPOMAP" topo export $F --format slurm-block --block-level 1 --block-sizes 16,64 \
    --out pods.conf
[ "$(grep '^Block' pods.conf)" = "BlockName=sw-l2-000 Nodes=n[0000-0015]
BlockName=sw-l2-004 Nodes=n[0016-0031]
BlockName=sw-l2-008 Nodes=n[0032-0047]
BlockName=sw-l2-012 Nodes=n[0048-0063]
BlockSizes=16,64" ] || { echo "pods: $(cat pods.conf)"; exit 1; }
expect_exit 0 "$TOPOMAP" topo export $F --format slurm-yaml \
    --slurm-topologies fabric=tree,pods=block:1,leaves=block,plain=flat --out all.yaml
python3 "$here/slurm_formats.py" block-conf leaf.conf
python3 "$here/slurm_formats.py" block-conf pods.conf
if python3 -c 'import yaml' 2>/dev/null; then
    python3 "$here/slurm_formats.py" yaml all.yaml
    expect_exit 0 "$TOPOMAP" topo export $F --format slurm-yaml --out tree.yaml
    python3 "$here/slurm_formats.py" yaml tree.yaml
    # the checker is not blind: a base block larger than a block, and two kinds in one topology
    sed 's/BlockSizes=16,64/BlockSizes=32,64/' pods.conf > wrong.conf
    expect_exit 1 python3 "$here/slurm_formats.py" block-conf wrong.conf
    sed 's/^  flat: true/  flat: true\n  tree: {}/' all.yaml > wrong.yaml
    expect_exit 1 python3 "$here/slurm_formats.py" yaml wrong.yaml
fi

step "read back: the same picks from the files as from the fabric"
for n in 1 3 6 17 40; do
    expect_exit 0 "$TOPOMAP" alloc $F --nodes $n --ppn 1 --policy slurm-block
    want=$OUT
    expect_exit 0 "$TOPOMAP" alloc $F --nodes $n --ppn 1 --policy slurm-block --slurm-topology leaf.conf
    [ "$OUT" = "$want" ] || { echo "n=$n: leaf.conf $OUT, the fabric's $want"; exit 1; }
    expect_exit 0 "$TOPOMAP" alloc $F --nodes $n --ppn 1 --policy slurm-block \
        --slurm-topology all.yaml --slurm-topology-name leaves
    [ "$OUT" = "$want" ] || { echo "n=$n: all.yaml leaves $OUT, the fabric's $want"; exit 1; }
    expect_exit 0 "$TOPOMAP" alloc $F --nodes $n --ppn 1 --policy slurm-tree
    want=$OUT
    expect_exit 0 "$TOPOMAP" alloc $F --nodes $n --ppn 1 --policy slurm-tree --slurm-topology all.yaml
    [ "$OUT" = "$want" ] || { echo "n=$n: all.yaml tree $OUT, topology.conf's $want"; exit 1; }
done
# flat: Slurm without a topology plugin (the smallest run of free nodes that fits)
expect_exit 0 "$TOPOMAP" alloc $F --nodes 3 --ppn 1 --policy slurm-tree --slurm-topology all.yaml \
    --slurm-topology-name plain --free 'n[0000-0004],n[0010-0012]'
[ "$OUT" = "n[0010-0012]" ] || { echo "flat: $OUT"; exit 1; }

step "slurm-block: hand-computed choices of Slurm 25.11's eval_nodes_block"
G="--topology clos:leaves=8,hosts_per_leaf=2,spines=1"
pick() { # WANT NODES FREE [FILE]
    local free=()
    [ -n "$3" ] && free=(--free "$3")
    expect_exit 0 "$TOPOMAP" alloc $G --nodes "$2" --ppn 1 --policy slurm-block \
        --slurm-topology "${4:-$TM_TEST_DATA/slurm/block/gap.conf}" "${free[@]}"
    [ "$OUT" = "$1" ] || { echo "slurm-block, $2 nodes of ${3:-all}: $OUT, not $1"; exit 1; }
}
# All free, BlockSizes=2,8: 4 nodes are one job of level 2 (4 base blocks), at most 2 base
# blocks (llblocks of level 0); of the two blocks of level 2 with enough, the last; in it base
# blocks one at a time, the fullest (the last of equals) first.
pick "n[0012-0015]" 4 ""
# 7 free: the first block of level 2 has 3 free nodes, but in no 2 of its base blocks (1+1+1):
# it does not count; the second has 2+1+1: base block b4 (2), then of b5 and b6 (1 each, both
# fit the last node) the last.
pick "n[0008-0009,0012]" 3 "n0000,n0002,n0004,n0008,n0009,n0010,n0012"
# one node: the block with the fewest free nodes that holds it (the last of equals)
pick "n0004" 1 "n0000,n0001,n0004,n0008,n0009,n0012,n0013"
# 5 nodes: 3 base blocks at most, no block of level 2 has 5 free in 3: Slurm keeps it pending
expect_exit 3 "$TOPOMAP" alloc $G --nodes 5 --ppn 1 --policy slurm-block \
    --slurm-topology "$TM_TEST_DATA/slurm/block/gap.conf" --free n0000,n0002,n0004,n0008,n0009,n0010,n0012
expect_in "Slurm would keep the job pending" "$ERR"
# --json: the four policies, slurm_block among them
expect_exit 0 "$TOPOMAP" alloc $G --nodes 4 --ppn 1 --json --slurm-topology "$TM_TEST_DATA/slurm/block/gap.conf"
echo "$OUT" | json_py "d['slurm_block']['nodes'] == 'n[0012-0015]' and d['slurm_block']['feasible'] and d['slurm_tree']['feasible']" | grep -qx True

step "malformed block files and topology.yaml: exit 2, file:line"
bad() { # FILE EXPECTED
    expect_exit 2 "$TOPOMAP" alloc $F --nodes 2 --ppn 1 --policy slurm-block --slurm-topology "$B/$1"
    expect_in "$1:$2" "$ERR"
    [ -z "$OUT" ]
}
bad twice.conf "2: block (b0) has already been defined (line 1)"
bad sizes-pow2.conf "2: invalid BlockSizes value 12: 3 base blocks is not a power of two"
bad sizes-multiple.conf "2: invalid BlockSizes value 6: not a multiple of the base block size 4"
bad sizes-word.conf "2: invalid BlockSizes value 'x'"
bad mixed.conf "2: a switch in a file of blocks"
bad mixed2.conf "2: a block in a file of switches"
bad no-blocks.conf "1: no BlockName= line"
bad unknown-key.conf "1: unknown key 'Color' (BlockName, Nodes, BlockSizes)"
bad syntax.yaml "6: did not find expected"
bad two-kinds.yaml "7: topology a: tree and block"
bad default.yaml "2: cluster_default: not true or false"
bad both.yaml "4: switch s has both child switches and nodes"
bad unknown-key.yaml "5: switch: unknown key 'node'"
bad sizes.yaml "3: invalid BlockSizes value 12"
bad ring.yaml "3: topology a uses topology/ring, which topomap does not emulate"
bad twice.yaml "3: a: a topology named twice"
bad no-name.yaml "4: a block without its name"
expect_exit 2 "$TOPOMAP" alloc $F --nodes 2 --ppn 1 --policy slurm-block --slurm-topology "$B/no-nodes.conf"
expect_in "no-nodes.conf: blocks do not contain any nodes and the BlockSizes are not set" "$ERR"
expect_exit 2 "$TOPOMAP" alloc $F --nodes 2 --ppn 1 --slurm-topology all.yaml --slurm-topology-name nosuch
expect_in "all.yaml: no topology named 'nosuch'" "$ERR"

step "usage errors and levels that are no blocks"
expect_exit 1 "$TOPOMAP" topo export $F --format slurm --block-level 1
expect_exit 1 "$TOPOMAP" topo export $F --format slurm-block --slurm-topologies a=tree
expect_exit 1 "$TOPOMAP" topo export $F --format slurm-yaml --slurm-topologies a=star
expect_in "'star' is not tree, block[:LEVEL] or flat" "$ERR"
expect_exit 1 "$TOPOMAP" topo export $F --format slurm-yaml --slurm-topologies a=tree,a=flat
expect_exit 1 "$TOPOMAP" topo export $F --format slurm-block --block-sizes 4,12
expect_exit 1 "$TOPOMAP" topo export $F --format slurm-block --block-level 7
expect_in "block level 7: the tree has levels 0 to 2" "$ERR"
expect_exit 1 "$TOPOMAP" topo export $F --format slurm-block --link-speed
expect_exit 1 "$TOPOMAP" alloc $F --nodes 2 --slurm-topology-name x
expect_exit 1 "$TOPOMAP" alloc $F --nodes 2 --policy slurm-blocks
# PSMN X5: its level-1 spines reach 68 and 89 hosts: no blocks there
X="--topology $TOPO_DIR/psmn-x5/X5.topofile --node-name-map $TOPO_DIR/psmn-x5/X5.map"
expect_exit 3 "$TOPOMAP" topo export $X --format slurm-block --block-level 1 --out x5.conf
expect_in "hold overlapping but different sets of hosts" "$ERR"
[ ! -e x5.conf ]
expect_exit 0 "$TOPOMAP" topo export $X --format slurm-block --out x5.conf
# its leaves differ in size: the base block is the smallest
python3 "$here/slurm_formats.py" block-conf x5.conf
echo "slurm-block and topology.yaml: ok"
