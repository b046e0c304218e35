#!/usr/bin/env bash
# libtopomap_mpi and the PMPI shim under the real launchers (Open MPI and
# MPICH, loopback only): TOPOMAP_HOSTS puts the ranks on the hosts of a
# small torus and fat-tree.  After reordering every process checks its
# neighbour lists and the ids its neighbours send (tests/mpi/tm_neighbors.c,
# examples/halo3d.c); the report's mapped congestion is never above the
# consecutive one and equals an independent `topomap eval` of the reported
# mapping; identity is detected; broken inputs fall back with one warning
# and the job finishes.  Skipped only when `make` found no mpicc
# (TOPOMAP_MPI_DIRS empty).
set -eu
. "$(dirname "$0")/lib.sh"
if [ -z "${TOPOMAP_MPI_DIRS:-}" ]; then
    echo "skip: no MPI build (no mpicc found by make)"
    exit 0
fi

TORUS='torus:2x2,slots=2'          # 4 hosts n0000..n0003, 2 slots each
FTREE='fattree:k=2,n=2,slots=2'    # 4 hosts on 2 leaf switches


# check_report FILE TOPOLOGY [EVAL-OPTIONS]: mapped <= consecutive, and
# topomap eval of the reported mapping and graph (with the options, e.g.
# the node hierarchy) gives the reported mapped figures.
check_report() {
    local r=$1 topo=$2; shift 2
    python3 - "$r" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c, m = d["consecutive"], d["mapped"]
assert m["max_congestion"] <= c["max_congestion"] * (1 + 1e-9), (c, m)
with open("rep.edges", "w") as f:
    for u, v, w in d["edges"]:
        f.write("%d %d %r\n" % (u, v, w))
with open("rep.map", "w") as f:
    for h, s in zip(d["hosts"], d["slots"]):
        f.write("%s %d\n" % (h, s))
PY
    "$TOPOMAP" eval --topology "$topo" --comm rep.edges --comm-format edges --mapping rep.map \
        "$@" --json > eval.json
    python3 - "$r" eval.json <<'PY'
import json, sys
d, e = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for k, ek in (("max_congestion",) * 2, ("avg_dilation",) * 2, ("qap_J", "qap_network_J")):
    a, b = d["mapped"][k], e[ek]
    assert abs(a - b) <= 1e-9 * max(1.0, abs(b)), (k, a, b)
PY
}

hosts() { printf '%s\n' "$@" > hosts.txt; }

for dir in $TOPOMAP_MPI_DIRS; do
    flavor=$(basename "$dir")
    nb=$dir/tm_neighbors
    # the separate library exports the tm_mpi_* functions only, the shim
    # MPI names only: the four topology calls, MPI_Init/_thread/Finalize, the
    # calls TOPOMAP_RECORD counts and MPI_Waitall, which cuts its phases (69 in
    # all, t62-record.sh)
    [ "$(nm -D --defined-only "$dir/libtopomap_mpi.so" | awk '{print $NF}' | sort | tr '\n' ' ')" = \
      "tm_mpi_cart_create tm_mpi_dist_graph_create tm_mpi_dist_graph_create_adjacent tm_mpi_graph_create " ]
    nm -D --defined-only "$dir/libtopomap_pmpi.so" | awk '{print $NF}' | sort > shim.syms
    [ "$(grep -vc '^MPI_' shim.syms)" = 0 ] && [ "$(wc -l < shim.syms)" = 69 ]
    for f in MPI_Cart_create MPI_Dist_graph_create MPI_Dist_graph_create_adjacent MPI_Graph_create \
             MPI_Init MPI_Init_thread MPI_Finalize MPI_Send MPI_Start MPI_Neighbor_alltoallw MPI_Waitall; do
        grep -qx "$f" shim.syms
    done

    # np 2 on neighbouring hosts: nothing to gain, identity detected
    hosts n0000 n0001
    mpi_run "$dir" 2 TOPOMAP_TOPOLOGY=$TORUS TOPOMAP_HOSTS=hosts.txt TOPOMAP_REPORT=r2.json -- \
        "$nb" adjacent 2 1
    expect_in "2 ranks, 0 moved, 0 errors" "$OUT"
    [ "$(json_get '["identity"]' < r2.json)" = True ]
    check_report r2.json "$TORUS"

    # np 4 on the fat-tree, heavy pairs (0,2) and (1,3) split over the leaves
    hosts n0000 n0001 n0002 n0003
    mpi_run "$dir" 4 TOPOMAP_TOPOLOGY=$FTREE TOPOMAP_HOSTS=hosts.txt TOPOMAP_REPORT=r4.json -- \
        "$nb" adjacent 2 2
    echo "$OUT" | grep -Eq "4 ranks, [1-4] moved, 0 errors"
    [ "$(json_py 'd["mapped"]["avg_dilation"] < d["consecutive"]["avg_dilation"]' < r4.json)" = True ]
    check_report r4.json "$FTREE"

    # np 8, two ranks per host: adjacent (weighted and not), general,
    # Cartesian, MPI_Graph_create
    hosts n0000 n0000 n0001 n0001 n0002 n0002 n0003 n0003
    for mode in adjacent adjacent-unw general cart graph; do
        mpi_run "$dir" 8 TOPOMAP_TOPOLOGY=$TORUS TOPOMAP_HOSTS=hosts.txt TOPOMAP_REPORT=r8.json -- \
            "$nb" $mode 2 2 2
        expect_in "tm_neighbors $mode: 8 ranks," "$OUT"
        expect_in ", 0 errors" "$OUT"
        check_report r8.json "$TORUS"
    done
    mpi_run "$dir" 8 TOPOMAP_TOPOLOGY=$FTREE TOPOMAP_HOSTS=hosts.txt TOPOMAP_REPORT=r8c.json -- \
        "$nb" cart 2 4 --periodic
    expect_in ", 0 errors" "$OUT"
    check_report r8c.json "$FTREE"

    # MPI_Graph_create through the shim: opposite corners of the 2x2x2 grid
    # share a host, so ranks move; a 3x2 graph on 8 processes leaves two
    # without a node (MPI_COMM_NULL)
    hosts n0000 n0001 n0002 n0003 n0003 n0002 n0001 n0000
    mpi_run "$dir" 8 LD_PRELOAD="$dir/libtopomap_pmpi.so" TOPOMAP_TOPOLOGY=$FTREE \
        TOPOMAP_HOSTS=hosts.txt TOPOMAP_REPORT=rg.json -- "$nb" graph-mpi 2 2 2
    echo "$OUT" | grep -Eq "tm_neighbors graph-mpi: 8 ranks, [1-8] moved, 0 errors"
    [ "$(json_get '["call"]' < rg.json)" = MPI_Graph_create ]
    check_report rg.json "$FTREE"
    mpi_run "$dir" 8 TOPOMAP_TOPOLOGY=$FTREE TOPOMAP_HOSTS=hosts.txt TOPOMAP_REPORT=rg6.json -- \
        "$nb" graph 3 2 --periodic
    expect_in ", 0 errors" "$OUT"
    [ "$(json_get '["vertices"]' < rg6.json)" = 6 ]
    check_report rg6.json "$FTREE"

    # search across ranks: 6 ranks map with seeds 1..6 (greedy, no refinement:
    # the seeds give different results), the lexicographically best wins
    # (lowest rank on ties), and the result is the same under both MPIs
    for i in $(seq 0 15); do printf 'n%04d\n' $(( (i * 5) % 16 )); done > hosts.txt
    mpi_run "$dir" 16 TOPOMAP_TOPOLOGY=torus:4x4 TOPOMAP_HOSTS=hosts.txt TOPOMAP_REPORT=rs.json \
        TOPOMAP_STRATEGY=greedy TOPOMAP_REFINE=none TOPOMAP_SEARCH=6 -- "$nb" adjacent 4 2 2
    expect_in "16 ranks," "$OUT"
    expect_in ", 0 errors" "$OUT"
    check_report rs.json torus:4x4
    python3 - rs.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["search"]; r = s["results"]
assert s["ranks"] == 6 and len(r) == 6 and [x["seed"] for x in r] == list(range(1, 7))
key = [(x["max_congestion"], x["avg_dilation"], x["qap_J"]) for x in r]
assert s["winner"] == key.index(min(key)), (s["winner"], key)
assert len(set(key)) > 1, key                       # the seeds did differ
assert (d["mapped"]["max_congestion"], d["mapped"]["avg_dilation"], d["mapped"]["qap_J"]) == min(key)
PY
    owner=$(json_get '["owner"]' < rs.json)
    [ -z "${owner_first:-}" ] || [ "$owner" = "$owner_first" ] || { echo "search: $owner vs $owner_first"; exit 1; }
    owner_first=$owner

    # the searchers follow rank 0's schedule: strategies cycle, then seeds;
    # the lexicographic best wins; the same permutation on a repeated run
    # under the other MPI, where rank 1 also sees a different environment
    # (wrap.sh: the searchers use rank 0's settings)
    printf '%s\n' '#!/bin/sh' \
        '[ "${OMPI_COMM_WORLD_RANK:-$PMI_RANK}" = 1 ] && export TOPOMAP_STRATEGY=identity TOPOMAP_SEED=77' \
        'exec "$@"' > wrap.sh
    chmod +x wrap.sh
    w=; [ -z "${owner_list:-}" ] || w=./wrap.sh   # the second MPI
    mpi_run "$dir" 16 TOPOMAP_TOPOLOGY=torus:4x4 TOPOMAP_HOSTS=hosts.txt TOPOMAP_REPORT=rl.json \
        TOPOMAP_STRATEGY=greedy,topdown,rcm TOPOMAP_REFINE=none TOPOMAP_SEARCH=6 -- \
        $w "$nb" adjacent 4 2 2
    expect_in ", 0 errors" "$OUT"
    check_report rl.json torus:4x4
    python3 - rl.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["search"]; r = s["results"]
assert [x["strategy"] for x in r] == ["greedy", "topdown", "rcm"] * 2, r
assert [x["seed"] for x in r] == [1, 1, 1, 2, 2, 2], r
key = [(x["max_congestion"], x["avg_dilation"], x["qap_J"]) for x in r]
assert s["winner"] == key.index(min(key)), (s["winner"], key)
assert (d["mapped"]["max_congestion"], d["mapped"]["avg_dilation"], d["mapped"]["qap_J"]) == min(key)
PY
    owner=$(json_get '["owner"]' < rl.json)
    [ -z "${owner_list:-}" ] || [ "$owner" = "$owner_list" ] || { echo "schedule: $owner vs $owner_list"; exit 1; }
    owner_list=$owner

    # core-level placement: 8 ranks on 2 hosts x 2 sockets x 2 cores
    # (TOPOMAP_CORES), graph 2x4: heavy pairs (v, v+4) (weight 10) must
    # share a host and a socket; the consecutive placement splits them
    hosts n0000 n0000 n0000 n0000 n0001 n0001 n0001 n0001
    printf '%s\n' 0 2 1 3 3 1 2 0 > cores.txt
    TORUS4='torus:2x2,slots=4'         # the job ignores slots; eval needs 4 per host
    NODE=(TOPOMAP_NODE_HIERARCHY=2:2 TOPOMAP_NODE_DISTANCES=1:10)
    mpi_run "$dir" 8 TOPOMAP_TOPOLOGY=$TORUS4 TOPOMAP_HOSTS=hosts.txt TOPOMAP_CORES=cores.txt \
        "${NODE[@]}" TOPOMAP_REPORT=rc.json -- "$nb" adjacent 2 4
    expect_in ", 0 errors" "$OUT"
    [ -z "$ERR" ]
    check_report rc.json $TORUS4 --node-hierarchy 2:2 --node-distances 1:10
    python3 - rc.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); h, s = d["hosts"], d["slots"]
assert d["core_level"] is True and d["node_hierarchy"] == "2:2", d
for v in range(4):
    assert h[v] == h[v + 4] and s[v] // 2 == s[v + 4] // 2, (v, h, s)
PY
    # the same from an hwloc export (2 packages x 4 cores) on one host: the
    # consecutive placement puts ranks 0-3 on package 0 and 4-7 on package 1
    X=$TM_TEST_DATA/real/docs/samples/hwloc-v1-2pkg-4core-2pu.xml
    hosts n0000 n0000 n0000 n0000 n0000 n0000 n0000 n0000
    seq 0 7 > cores.txt
    mpi_run "$dir" 8 TOPOMAP_TOPOLOGY='torus:2x2,slots=8' TOPOMAP_HOSTS=hosts.txt \
        TOPOMAP_CORES=cores.txt TOPOMAP_HWLOC="$X" TOPOMAP_REPORT=rx.json -- "$nb" adjacent 2 4
    expect_in ", 0 errors" "$OUT"
    check_report rx.json 'torus:2x2,slots=8' --hwloc "$X"
    python3 - rx.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["slots"]
assert d["core_level"] is True and d["mapped"]["qap_J"] < d["consecutive"]["qap_J"], d
for v in range(4):
    assert s[v] // 4 == s[v + 4] // 4, (v, s)
PY
    hosts n0000 n0000 n0000 n0000 n0001 n0001 n0001 n0001
    # two ranks on one core: per-host placement, one note on rank 0
    printf '%s\n' 0 0 1 2 3 1 2 0 > cores.txt
    mpi_run "$dir" 8 TOPOMAP_TOPOLOGY=$TORUS4 TOPOMAP_HOSTS=hosts.txt TOPOMAP_CORES=cores.txt \
        "${NODE[@]}" TOPOMAP_REPORT=rc.json -- "$nb" adjacent 2 4
    expect_in ", 0 errors" "$OUT"
    [ "$(grep -c 'topomap: note: core-level placement not used (ranks 0 and 1 share core 0 of host n0000): ranks placed per host' stderr.txt)" -eq 1 ]
    [ "$(json_get '["core_level"]' < rc.json)" = False ]
    check_report rc.json $TORUS4

    # the shim on the unmodified halo example (opposite corners of the
    # 2x2x2 block grid share a host), and the example without the shim
    hosts n0000 n0001 n0002 n0003 n0003 n0002 n0001 n0000
    mpi_run "$dir" 8 LD_PRELOAD="$dir/libtopomap_pmpi.so" TOPOMAP_TOPOLOGY=$FTREE \
        TOPOMAP_HOSTS=hosts.txt TOPOMAP_REPORT=rh.json -- "$dir/halo3d" 4 2
    echo "$OUT" | grep -Eq "8 ranks, 2x2x2 blocks of 4\^3, [1-8] ranks moved, 768 halo values checked, 0 wrong"
    [ "$(json_py 'd["mapped"]["max_congestion"] < d["consecutive"]["max_congestion"]' < rh.json)" = True ]
    [ "$(json_get '["call"]' < rh.json)" = MPI_Dist_graph_create_adjacent ]
    check_report rh.json "$FTREE"
    mpi_run "$dir" 8 TOPOMAP_TOPOLOGY=$FTREE TOPOMAP_HOSTS=hosts.txt -- "$dir/halo3d" 4 1
    expect_in "0 ranks moved," "$OUT"

    # broken inputs: one warning on rank 0, old ranks, the job finishes
    mpi_run "$dir" 4 TOPOMAP_TOPOLOGY=no-such-file.topo TOPOMAP_HOSTS=hosts.txt -- "$nb" adjacent 2 2
    expect_in "0 moved, 0 errors" "$OUT"
    expect_in "topomap: warning: no-such-file.topo" "$ERR"
    [ "$(grep -c 'topomap: warning' stderr.txt)" -eq 1 ]
    hosts n0000 n0001 nosuchhost n0003
    mpi_run "$dir" 4 TOPOMAP_TOPOLOGY=$FTREE TOPOMAP_HOSTS=hosts.txt -- "$nb" general 2 2
    expect_in "0 moved, 0 errors" "$OUT"
    expect_in "rank 2 runs on host 'nosuchhost'" "$ERR"
    hosts n0000 n0001
    mpi_run "$dir" 4 TOPOMAP_TOPOLOGY=$FTREE TOPOMAP_HOSTS=hosts.txt -- "$nb" cart 2 2
    expect_in "0 moved, 0 errors" "$OUT"
    expect_in "no host for world rank 2" "$ERR"
    hosts n0000 "$(printf 'x%.0s' $(seq 300))" n0001 n0002
    mpi_run "$dir" 4 TOPOMAP_TOPOLOGY=$FTREE TOPOMAP_HOSTS=hosts.txt -- "$nb" adjacent 2 2
    expect_in "0 moved, 0 errors" "$OUT"
    expect_in "rank 1: hosts.txt:2: no host name (or longer than 255)" "$ERR"
    hosts n0000 "" n0001 n0002
    mpi_run "$dir" 4 TOPOMAP_TOPOLOGY=$FTREE TOPOMAP_HOSTS=hosts.txt -- "$nb" adjacent 2 2
    expect_in "rank 1: hosts.txt:2: no host name" "$ERR"

    hosts n0000 n0001 n0002 n0003
    printf '0\nx\n0\n0\n' > cores.txt
    mpi_run "$dir" 4 TOPOMAP_TOPOLOGY=$FTREE TOPOMAP_HOSTS=hosts.txt TOPOMAP_CORES=cores.txt \
        "${NODE[@]}" -- "$nb" adjacent 2 2
    expect_in "0 moved, 0 errors" "$OUT"
    expect_in "topomap: warning: rank 1: cores.txt:2: 'x' is not a core index" "$ERR"
    mpi_run "$dir" 4 TOPOMAP_TOPOLOGY=$FTREE TOPOMAP_HOSTS=hosts.txt TOPOMAP_NODE_HIERARCHY=2 -- \
        "$nb" adjacent 2 2
    expect_in "0 moved, 0 errors" "$OUT"
    expect_in "TOPOMAP_NODE_HIERARCHY=2 needs TOPOMAP_NODE_DISTANCES; ranks not reordered" "$ERR"

    # without TOPOMAP_TOPOLOGY: one note, no reordering; TOPOMAP_DISABLE: silent
    mpi_run "$dir" 4 LD_PRELOAD="$dir/libtopomap_pmpi.so" -- "$dir/halo3d" 2 1
    expect_in "0 ranks moved" "$OUT"
    [ "$(grep -c 'TOPOMAP_TOPOLOGY is not set' stderr.txt)" -eq 1 ]
    mpi_run "$dir" 4 TOPOMAP_DISABLE=1 TOPOMAP_TOPOLOGY=$FTREE -- "$nb" adjacent 2 2
    expect_in "0 moved, 0 errors" "$OUT"
    [ -z "$(grep topomap stderr.txt || true)" ]
    echo "$flavor: ok"
done
