#!/bin/sh
# map-scotch.sh - the one-engine benchmark of docs/mapping.md ("Results:
# one engine"), Scotch from Debian side by side in the same run.
#
#   tools/bench/map-scotch.sh [BUILD]      (BUILD defaults to build)
#
# Instances (made here, cached in BUILD/bench-map/):
#   - SpMV-like: METIS parts of a 64^3 7-point grid, volume = shared
#     boundary entries (gen_comm grid7, METIS's own part numbering), 512
#     parts on torus:8x8x8 and 1,728 on torus:12x12x12;
#   - periodic 3D 7-point stencils with tasks relabelled at random
#     (gen_comm stencil with a seed), on the torus of their shape and on fat-trees;
#     the fat-tree rows also show consecutive on the unrelabelled input.
# Every mapping, Scotch's included, is judged by `topomap eval` (exact ECMP
# congestion, average dilation, J).  Scotch: `scotch_gmap` of the task graph
# (symmetrised, edge weights = volume u->v + v->u; -Cd -b0: one task per
# node, as docs/qap.md runs it) onto the `torus3D`
# target (tools/install-deps.sh --bench installs it).  The tori are cubes,
# so Scotch's domain numbering and ours differ at most by an axis
# permutation, an automorphism that changes no metric.
# Real fabrics (PSMN X5, PlaFRIM from tests/data/real, REAL to change):
# Scotch's target is the fabric itself (amk_grf -l of its hosts, host load
# = slots per host).  Helpers: tools/bench/scotch_util.py.
# Prints one markdown table (also BUILD/bench-map/summary.md).
set -eu
BUILD=${1:-build}
OUT=$BUILD/bench-map
TM=$BUILD/topomap
mkdir -p "$OUT"
. tools/bench/comm.sh # gen_comm, comm NAME SPEC P [SEED]
comm spmv512 grid7:64x64x64 512
comm spmv1728 grid7:64x64x64 1728
comm ps8r stencil:8x8x8 - 7
comm ps12r stencil:12x12x12 - 7
comm ps16 stencil:16x16x16 -
comm ps16r stencil:16x16x16 - 7
comm g27-712 grid27:40x40x40 712 7
comm rgg-500 rgg:50000,12 500 7
REAL=${REAL:-tests/data/real}  # copies of the real fabrics (tests/data/PROVENANCE.md)
X5=$REAL/data/ibnetdiscover/psmn_X5
PLAFRIM=$REAL/data/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt

U=tools/bench/scotch_util.py

scotch() { # label topology X Y Z comm
    g=$OUT/$(basename "$6" .edges).grf
    [ -s "$g" ] || "$U" grf "$6" "$g"
    echo "torus3D $3 $4 $5" > "$OUT/tor.tgt"
    t0=$(date +%s.%N)
    scotch_gmap -Cd -b0 "$g" "$OUT/tor.tgt" "$OUT/scotch.map" 2>/dev/null
    t1=$(date +%s.%N)
    # host names in vertex (= coordinate) order: the consecutive placement
    "$TM" map --topology "$2" --comm "$6" --strategy identity --refine none --format plain \
        --out "$OUT/names.plain" >/dev/null 2>&1
    cut -d' ' -f1 "$OUT/names.plain" > "$OUT/names.txt"
    "$U" plain "$OUT/scotch.map" "$OUT/names.txt" "$OUT/scotch.plain"
    set -- $("$TM" eval --topology "$2" --comm "$6" --mapping "$OUT/scotch.plain" --json |
        python3 -c "import json,sys; d=json.load(sys.stdin); print('%.1f %.3f %.0f' % (d['max_congestion'], d['avg_dilation'], d['qap_network_J']))")
    echo "| $LABEL | Scotch scotch_gmap (torus3D) | $1 / $2 | $3 | $(echo "$t1 - $t0" | bc) |"
}

# Real fabric: Scotch's target is the network itself (amk_grf of hosts and
# switches, restricted to the hosts with -l, host load = slots per host).
scotch_fabric() { # label slots comm topology-args...
    label=$1 slots=$2 comm=$3
    shift 3
    "$TM" topo export "$@" --format graphml --out "$OUT/net.graphml" 2>/dev/null
    "$U" target "$OUT/net.graphml" "$slots" "$OUT/net.src.grf" "$OUT/net.list" "$OUT/net.names"
    amk_grf -l"$OUT/net.list" "$OUT/net.src.grf" "$OUT/net.tgt"
    g=$OUT/$(basename "$comm" .edges).grf
    [ -s "$g" ] || "$U" grf "$comm" "$g"
    t0=$(date +%s.%N)
    scotch_gmap -Cd -b0 "$g" "$OUT/net.tgt" "$OUT/scotch.map" 2>/dev/null
    t1=$(date +%s.%N)
    "$U" plain "$OUT/scotch.map" "$OUT/net.names" "$OUT/scotch.plain"
    set -- $("$TM" eval "$@" --slots "$slots" --comm "$comm" --mapping "$OUT/scotch.plain" \
        --json 2>/dev/null |
        python3 -c "import json,sys; d=json.load(sys.stdin); print('%.1f %.3f %.0f' % (d['max_congestion'], d['avg_dilation'], d['qap_network_J']))")
    echo "| $label | Scotch scotch_gmap (amk_grf of the fabric) | $1 / $2 | $3 | $(echo "$t1 - $t0" | bc) |"
}

row() { # label topology comm strategy [more map args]
    label=$1 topo=$2 g=$3 st=$4
    shift 4
    /usr/bin/time -f "%e" -o "$OUT/time.txt" "$TM" map --topology "$topo" --comm "$g" \
        --strategy "$st" "$@" --json --out "$OUT/m.txt" > "$OUT/m.json" 2> "$OUT/map.err"
    python3 - "$OUT/m.json" "$label" "$st $*" "$(cat "$OUT/time.txt")" <<'P'
import json, sys
d = json.load(open(sys.argv[1])); c = d["consecutive"]
print("| %s | consecutive | %.1f / %.3f | %.0f | |" % (sys.argv[2], c["max_congestion"], c["avg_dilation"], c["qap_network_J"]))
print("| %s | topomap %s (best: %s) | %.1f / %.3f | %.0f | %s |" % (sys.argv[2], sys.argv[3].strip(), d["best"],
      d["max_congestion"], d["avg_dilation"], d["qap_network_J"], sys.argv[4]))
P
}

{
    echo "Machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%d)"
    echo
    echo "| instance | mapper | max congestion / avg dilation | J | time s |"
    echo "|---|---|---|---|---|"
    LABEL="SpMV 512, torus 8^3"
    row "$LABEL" torus:8x8x8 "$OUT/spmv512.edges" all
    scotch "$LABEL" torus:8x8x8 8 8 8 "$OUT/spmv512.edges"
    LABEL="SpMV 1728, torus 12^3"
    row "$LABEL" torus:12x12x12 "$OUT/spmv1728.edges" topdown
    scotch "$LABEL" torus:12x12x12 12 12 12 "$OUT/spmv1728.edges"
    LABEL="relabelled stencil 8^3, torus 8^3"
    row "$LABEL" torus:8x8x8 "$OUT/ps8r.edges" all
    scotch "$LABEL" torus:8x8x8 8 8 8 "$OUT/ps8r.edges"
    LABEL="relabelled stencil 12^3, torus 12^3"
    row "$LABEL" torus:12x12x12 "$OUT/ps12r.edges" all
    scotch "$LABEL" torus:12x12x12 12 12 12 "$OUT/ps12r.edges"
    LABEL="stencil 16^3 unrelabelled, fattree k=8,n=4"
    row "$LABEL" fattree:k=8,n=4 "$OUT/ps16.edges" identity --refine none
    LABEL="relabelled stencil 16^3, fattree k=8,n=4"
    row "$LABEL" fattree:k=8,n=4 "$OUT/ps16r.edges" topdown
    if [ -f "$X5/X5.topofile" ]; then
        LABEL="PSMN X5 (real), 89 hosts x 8, grid27 712"
        row "$LABEL" "$X5/X5.topofile" "$OUT/g27-712.edges" all --node-name-map "$X5/X5.map" --slots 8
        scotch_fabric "$LABEL" 8 "$OUT/g27-712.edges" --topology "$X5/X5.topofile" \
            --node-name-map "$X5/X5.map"
    fi
    if [ -f "$PLAFRIM" ]; then
        LABEL="PlaFRIM (real), 125 hosts x 4, rgg 500"
        row "$LABEL" "$PLAFRIM" "$OUT/rgg-500.edges" all --slots 4
        scotch_fabric "$LABEL" 4 "$OUT/rgg-500.edges" --topology "$PLAFRIM"
    fi
} | tee "$OUT/summary.md"
