#!/usr/bin/env bash
# tm-test: serial (it checks where MPI ranks land and binds them)
# Launcher placement on this machine (loopback only): every rank reports its
# host, MPI_COMM_TYPE_SHARED group and CPU affinity (tests/mpi/placement.c).
# - Open MPI: a rankfile written by topomap (--format openmpi) and the same
#   file with the slots swapped: rank r runs on logical core slot(r), both
#   ranks share one group, no core is used twice.
# - MPICH/Hydra: the grouped machinefile topomap writes (one line per host)
#   with -bind-to core gives one shared group and distinct cores; a host on
#   two non-adjacent lines gives one proxy per line (separate groups), the
#   behaviour `--format mpich` warns about (docs/mpi.md "Launchers").
# - libtopomap_mpi's core detection (sched_getaffinity -> logical core) under
#   both bindings: the report's slot of every vertex is the core its
#   process is bound to.
# Slurm (srun --distribution=arbitrary) is a manual check: docs/mpi.md.
# Skipped when make found no mpicc, or with fewer than 2 cores.
set -eu
. "$(dirname "$0")/lib.sh"
if [ -z "${TOPOMAP_MPI_DIRS:-}" ]; then
    echo "skip: no MPI build (no mpicc found by make)"
    exit 0
fi
[ "$(nproc)" -ge 2 ] || { echo "skip: fewer than 2 cores"; exit 0; }
host=$(hostname -s)
cat > one.graphml <<X
<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="name" for="node" attr.name="name" attr.type="string"/>
  <key id="kind" for="node" attr.name="kind" attr.type="string"><default>host</default></key>
  <key id="slots" for="node" attr.name="slots" attr.type="int"><default>1</default></key>
  <graph id="G" edgedefault="undirected">
    <node id="s"><data key="name">s</data><data key="kind">switch</data><data key="slots">0</data></node>
    <node id="h"><data key="name">$host</data><data key="slots">2</data></node>
    <edge source="h" target="s"/>
  </graph>
</graphml>
X
printf '0 1 1\n1 0 1\n' > two.edges

# cores_used DIR LAUNCHER...: tm_neighbors reorders with a node hierarchy on
# this host; prints the core of each old rank as the report saw it
cores_used() {
    local dir=$1; shift
    expect_exit 0 timeout 60 "$@" env TOPOMAP_TOPOLOGY=one.graphml TOPOMAP_NODE_HIERARCHY=2 \
        TOPOMAP_NODE_DISTANCES=1 TOPOMAP_REPORT=core.json "$dir/tm_neighbors" adjacent 2 1
    python3 -c 'import json; d = json.load(open("core.json")); assert d["core_level"], d
c = {o: s for o, s in zip(d["owner"], d["slots"])}; print(c[0], c[1])'
}

# field FIELD RANK: a field of rank RANK's line in $OUT
field() { echo "$OUT" | awk -v r="$2" -v f="$1" '$1 == "rank" && $2 == r { for (i = 3; i < NF; i++) if ($i == f) print $(i + 1) }'; }

for dir in $TOPOMAP_MPI_DIRS; do
    case $(basename "$dir") in
    mpi-openmpi)
        expect_exit 0 "$TOPOMAP" map --topology one.graphml --comm two.edges --strategy identity \
            --refine none --format openmpi --out rf
        [ "$(cat rf)" = "$(printf 'rank 0=%s slot=0\nrank 1=%s slot=1' "$host" "$host")" ]
        sed 's/slot=0/slot=X/; s/slot=1/slot=0/; s/slot=X/slot=1/' rf > rf.swapped
        for f in rf rf.swapped; do
            expect_exit 0 timeout 60 mpirun.openmpi --allow-run-as-root --rankfile $f -np 2 \
                "$dir/placement"
            for r in 0 1; do
                want=$(awk -v r="rank $r=" 'index($0, r) == 1 { sub(/.*slot=/, ""); print }' $f)
                [ "$(field cpus $r)" = "$want" ] || { echo "$f: rank $r on cpus $(field cpus $r), want $want"; exit 1; }
                [ "$(field host $r)" = "$host" ]
                [ "$(field shared_group $r)" = 0 ] && [ "$(field size $r)" = 2 ]
            done
            want=$(awk '{ sub(/.*slot=/, ""); printf "%s%s", (NR > 1 ? " " : ""), $0 }' $f)
            [ "$(cores_used "$dir" mpirun.openmpi --allow-run-as-root --rankfile $f -np 2)" = "$want" ]
        done
        ;;
    mpi-mpich)
        expect_exit 0 "$TOPOMAP" map --topology one.graphml --comm two.edges --strategy identity \
            --refine none --format mpich --out mf
        [ "$(cat mf)" = "$host:2" ]
        expect_exit 0 timeout 60 mpirun.mpich -f mf -n 2 -bind-to core "$dir/placement"
        [ "$(field shared_group 1)" = 0 ] && [ "$(field size 1)" = 2 ]
        [ "$(field cpus 0)" != "$(field cpus 1)" ]
        [ "$(cores_used "$dir" mpirun.mpich -f mf -n 2 -bind-to core | tr ' ' '\n' | sort | tr '\n' ' ')" = "0 1 " ]
        # the same host on two lines (two names for it): two proxies
        printf '%s:1\nlocalhost:1\n%s:1\n' "$host" "$host" > split.mf
        expect_exit 0 timeout 60 mpirun.mpich -f split.mf -n 3 "$dir/placement"
        [ "$(field size 0)" = 1 ] && [ "$(field size 2)" = 1 ] && [ "$(field shared_group 2)" = 2 ]
        ;;
    esac
done
