#!/bin/sh
# map.sh - the mapping benchmark of docs/mapping.md (part of `make bench`).
#
#   tools/bench/map.sh [BUILD]        (BUILD defaults to build)
#
# Builds the instance generator and the benchmark driver against
# BUILD/libtopomap.a, generates the communication graphs (SpMV of a 3D grid
# or random geometric graph partitioned with METIS, cached in BUILD/bench),
# with randomly relabelled parts (see gen_comm.c), writes the ~3,300-host fat-tree as an ibnetdiscover dump with
# `topomap topo export`, and prints one markdown table (also written to
# BUILD/bench/results.md).  Environment: TA_LIMIT (seconds per TA run,
# default 3; PERCS P=1792 always uses 10 as in the speed target),
# ALL_LIMIT (default 6), REPS (default 5), THREADS (default 2),
# REAL (default tests/data/real).  Runs in a few minutes on 2 cores.
set -eu

BUILD=${1:-build}
REAL=${REAL:-tests/data/real}  # copies of the real fabrics (tests/data/PROVENANCE.md)
TA_LIMIT=${TA_LIMIT:-3}
ALL_LIMIT=${ALL_LIMIT:-6}
REPS=${REPS:-5}
THREADS=${THREADS:-2}
OUT=$BUILD/bench
mkdir -p "$OUT"

LIBS="$(pkg-config --libs igraph libxml-2.0) -lmetis -lpthread -lm"
. tools/bench/comm.sh # gen_comm, comm NAME SPEC P [SEED]
# `make bench` builds BUILD/bench_map; build it here when run alone
[ -x "$BUILD/bench_map" ] || cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -o "$BUILD/bench_map" \
    tools/bench/bench_map.c "$BUILD/libtopomap.a" $LIBS

# rank numbering shuffled (no locality, seed 7), as in the paper
comm g7-512 grid7:64x64x64 512 7
comm g7-1728 grid7:64x64x64 1728 7
comm g7-1792 grid7:64x64x64 1792 7
comm stencil-1728 stencil:12x12x12 - 7
comm rgg-2048 rgg:200000,12 2048 7
comm g27-712 grid27:40x40x40 712 7
comm rgg-500 rgg:50000,12 500 7

FT=$OUT/fattree-3328.topo
[ -s "$FT" ] || "$BUILD/topomap" topo export \
    --topology "clos3:pods=8,leaves=13,hosts_per_leaf=32,cap=100" \
    --format ibnetdiscover --out "$FT"

run() { # label args...
    label=$1
    shift
    "$BUILD/bench_map" --label "$label" --reps "$REPS" --threads "$THREADS" "$@"
}

{
    echo "| instance | strategy | max congestion | avg dilation | time s |"
    echo "|---|---|---|---|---|"
    run "torus 8^3, P=512" --topology torus:8x8x8 --comm "$OUT/g7-512.edges" \
        --ta-limit "$TA_LIMIT" --all-limit "$ALL_LIMIT"
    run "torus 12^3, P=1728" --topology torus:12x12x12 --comm "$OUT/g7-1728.edges" \
        --ta-limit "$TA_LIMIT" --all-limit "$ALL_LIMIT"
    run "torus 12^3, 3D stencil" --topology torus:12x12x12 --comm "$OUT/stencil-1728.edges" \
        --ta-limit "$TA_LIMIT" --all-limit 0 --only rcm
    run "PERCS 9248, P=512" --topology percs:supernodes=289 --first 512 \
        --comm "$OUT/g7-512.edges" --ta-limit "$TA_LIMIT" --all-limit "$ALL_LIMIT"
    run "PERCS 9248, P=1792" --topology percs:supernodes=289 --first 1792 \
        --comm "$OUT/g7-1792.edges" --ta-limit 10 --all-limit "$ALL_LIMIT"
    run "fat-tree 3328 (ibnetdiscover), 256 hosts x 8" --topology "$FT" --slots 8 \
        --stride 13:256 --comm "$OUT/rgg-2048.edges" --ta-limit "$TA_LIMIT" --all-limit "$ALL_LIMIT"
    if [ -f "$REAL/data/ibnetdiscover/psmn_X5/X5.topofile" ]; then
        # the X5 dump has no host names; the map gives them (see PROVENANCE.md)
        run "PSMN X5 (real), 89 x 8" \
            --topology "$REAL/data/ibnetdiscover/psmn_X5/X5.topofile" --slots 8 \
            --node-name-map "$REAL/data/ibnetdiscover/psmn_X5/X5.map" \
            --comm "$OUT/g27-712.edges" --ta-limit "$TA_LIMIT" --all-limit "$ALL_LIMIT"
    fi
    if [ -f "$REAL/data/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt" ]; then
        run "PlaFRIM (real), 125 x 4" --slots 4 \
            --topology "$REAL/data/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt" \
            --comm "$OUT/rgg-500.edges" --ta-limit "$TA_LIMIT" --all-limit "$ALL_LIMIT"
    fi
} | tee "$OUT/results.md"
