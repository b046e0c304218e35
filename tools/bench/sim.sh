#!/usr/bin/env bash
# sim.sh - `make bench-sim`: topomap's mappings run as real MPI programs in
# SimGrid's SMPI (docs/time.md "Simulated proof").
#
#   SIM_SETS="512 64" SIM_JOBS=2 LULESH_SRC=DIR COMD_SRC=DIR tools/bench/sim.sh [BUILD]
#
# BUILD defaults to build; the programs are in BUILD/sim/ (make bench-sim
# builds them).  For each fabric x program: the platform is `topomap topo
# export --format simgrid --routing R --alloc A` (one link per cable, the
# routes of the routing topomap maps under), the program runs consecutive
# (rank i on the i-th slot of the allocation: `map --strategy identity
# --refine none --format smpi`), `topomap map --routing R --objective time
# --comm-phases P --format smpi` maps its recorded matrix and the program
# runs again on the mapped hostfile.  smpi/simulate-computation:no: the
# simulated time is communication only.  Printed per case: simulated times
# and their ratio, topomap's est_time_s for both placements (the recorded
# phases, docs/time.md "Phases") and its error and ratio, congestion of
# both; then Spearman's rank correlation of the predicted against the
# simulated speed-ups (tools/bench/sim_report.py).  CSV in
# BUILD/bench-sim/results.csv, the table in BUILD/bench-sim/summary.md.
#
# SIM_SETS (default "512"):
#  512  64 hosts x 8 ranks, each allocation 64 hosts drawn at random (seeded)
#       and listed in name order, as a busy cluster scatters a job: PlaFRIM
#       with its own forwarding tables (lft:, the dumped tables of
#       tests/data/real), PSMN X5 under single and under minhop, a 2:1
#       tapered Clos with two cables from every leaf to every spine under
#       OpenSM's fat-tree routing (ftree).  Programs: examples/halo3d.c (48^3
#       blocks, 3 iterations), LULESH 2.0 (-s 16 -i 1, built with smpicxx
#       from LULESH_SRC) and CoMD (Lennard-Jones, its default, 32^3 cells, 4
#       steps, built with smpicc from COMD_SRC, its src-mpi folder); each of
#       the last two is skipped (said so) without its source.  Each program is recorded once
#       with topomap's own recorder (TOPOMAP_RECORD, the PMPI shim linked
#       into the program: BUILD/sim/libtopomap_smpi.a), which writes the
#       matrix and the phases of the whole run; the decompositions depend on
#       the rank only, so one recording serves every fabric.  The simulated
#       time is the whole run's (SMPI's "Simulated time", programs without
#       the recorder, whose own gather at MPI_Finalize would count).  Both
#       placements also run under SimGrid's IB and CM02 network models.
#  64   the 64-rank cases of round 3: torus:4x4x4 with its hosts in a shuffled
#       order (dor), fattree:k=4,n=3 in allocation order and shuffled
#       (ftree), X5 with its 64-rank job on 16 nodes (minhop); halo3d, spmv
#       and fft3d, each describing its own phases (TM_COMM_PHASES) and timing
#       its communication loop; one iteration's matrix is mapped.  With
#       LULESH_SRC also LULESH 2.0 (-s 16 -i 10) mapped from its mpiP trace
#       and from topomap's recording of the same run (issue 42).
set -eu
BUILD=${1:-build}
OUT=${SIM_OUT:-$BUILD/bench-sim}
mkdir -p "$OUT"
BUILD=$(cd "$BUILD" && pwd) OUT=$(cd "$OUT" && pwd) # absolute: simrun runs in OUT
TM=$BUILD/topomap
SIMDIR=$BUILD/sim
SETS=${SIM_SETS:-512}
JOBS=${SIM_JOBS:-2}   # simulations at a time (512 set): one core each
HERE=$(cd "$(dirname "$0")" && pwd)
REPORT=$HERE/sim_report.py
# lanes_run: items a few at a time, as `make test` runs its tests
# shellcheck source=../../tests/lanes.sh
. "$HERE/../../tests/lanes.sh"
# sim_app_lulesh, sim_app_comd: LULESH and CoMD built with SMPI's compilers; sim_ring
# shellcheck source=sim_apps.sh
. "$HERE/sim_apps.sh"
rm -f "$OUT/topomap.log" # topomap's warnings (X5's unnamed CAs) go there
SIM=(--cfg=smpi/simulate-computation:no --cfg=smpi/host-speed:1Gf --log=root.thres:error
     --log=smpi_utils.thres:info --cfg=smpi/display-timing:yes)
TOPO=topologies
REAL=tests/data/real/data
t_start=$(date +%s)

python3 "$REPORT" header > "$OUT/results.csv"

# a ring over N tasks: only for the identity mapping (sim_apps.sh)
ring() { sim_ring "$1" "$OUT/ring$1.mtx"; }
# the program's own communication time, and SMPI's simulated time of the run
prog_time() { sed -n "s/^$1: communication time \([^ ]*\) s.*/\1/p" "$2"; }
run_time() { sed -n 's/.*Simulated time: \([^ ]*\) seconds.*/\1/p' "$1"; }
# smpirun PLATFORM HOSTFILE NP LOG [config...] -- PROGRAM ARGS: fails loudly
simrun() {
    local plat=$1 hf=$2 np=$3 log=$4; shift 4
    local cfg=()
    while [ "$1" != -- ]; do cfg+=("$1"); shift; done
    shift
    # in OUT: CoMD writes a YAML report into its working directory
    (cd "$OUT" && smpirun -platform "$plat" -hostfile "$hf" -np "$np" "${SIM[@]}" "${cfg[@]}" \
        "$@") > "$log" 2>&1 || { cat "$log"; exit 1; }
}

# lane_one MODEL:PLACEMENT (for lanes_run): one simulation of the row being
# run, under network model MODEL, of the consecutive or the mapped hostfile
# (name, tag, NP, bin and args are the caller's).
lane_one() {
    local model=${1%%:*} pl=${1#*:} hf=$OUT/$name.consecutive
    [ "$pl" = consecutive ] || hf=$OUT/$tag.mapped
    # shellcheck disable=SC2086
    simrun "$OUT/$name.xml" "$hf" $NP "$OUT/$tag.$pl.$model.out" \
        --cfg=network/model:$model -- "$bin" $args
}

# platform NAME TOPO ALLOC ROUTING NP: the case's platform (NAME.xml) and its
# consecutive hostfile (NAME.consecutive, rank i on the i-th slot)
platform() {
    # shellcheck disable=SC2086
    "$TM" topo export $2 --format simgrid --routing "$4" --alloc "$3" --out "$OUT/$1.xml" \
        2>> "$OUT/topomap.log"
    # shellcheck disable=SC2086
    "$TM" map $2 --alloc "$3" --comm "$OUT/ring$5.mtx" --strategy identity --refine none \
        --format smpi --out "$OUT/$1.consecutive" > /dev/null 2>> "$OUT/topomap.log"
}

# ---- 512 ranks ---------------------------------------------------------------
set512() {
    local NP=512
    ring $NP
    # scattered allocations: 64 hosts drawn at random, listed in name order
    alloc() { # name seed topology options...
        local name=$1 seed=$2; shift 2
        "$TM" topo export "$@" --format graphml --out "$OUT/$name.graphml" 2>> "$OUT/topomap.log"
        python3 - "$OUT/$name.graphml" "$seed" > "$OUT/$name.hosts" <<'P'
import random, re, sys
text = open(sys.argv[1]).read()
hosts = re.findall(r'<data key="name">([^<]+)</data><data key="kind">host', text)
hosts = [h for h in hosts if not h.startswith('H-')]   # X5's three CAs without a name
pick = random.Random(int(sys.argv[2])).sample(hosts, 64)
key = lambda h: [int(t) if t.isdigit() else t for t in re.split(r'(\d+)', h)]
for h in sorted(pick, key=key):
    print(h, 'slots=8')
P
    }
    local pf=(--topology $REAL/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt --slots 8)
    local x5=(--topology $TOPO/psmn-x5/X5.topofile --node-name-map $TOPO/psmn-x5/X5.map --slots 12)
    local clos=(--topology clos:leaves=8,hosts_per_leaf=16,spines=4,uplinks=8 --slots 8)
    alloc plafrim 512 "${pf[@]}"
    alloc x5 512 "${x5[@]}"
    alloc clos 512 "${clos[@]}"
    # name | topology options | allocation | routing
    local cases=(
      "plafrim-lft|${pf[*]}|$OUT/plafrim.hosts|lft:$REAL/ibroute_lft/plafrim"
      "x5-single|${x5[*]}|$OUT/x5.hosts|single"
      "x5-minhop|${x5[*]}|$OUT/x5.hosts|minhop"
      "clos-ftree|${clos[*]}|$OUT/clos.hosts|ftree"
    )
    # LULESH 2.0 and CoMD, when their sources are given (not part of topomap:
    # tools/bench/sim_apps.sh builds them)
    local lulesh comd
    lulesh=$(sim_app_lulesh) || { [ $? = 1 ] || exit 1
        echo "LULESH: skipped (LULESH_SRC=DIR names a LULESH 2.0 source tree, LLNL/LULESH)" \
            | tee "$OUT/lulesh-skipped.txt"; }
    comd=$(sim_app_comd) || { [ $? = 1 ] || exit 1
        echo "CoMD: skipped (COMD_SRC=DIR names the src-mpi folder of a CoMD source tree," \
            "ECP-copa/CoMD)" | tee "$OUT/comd-skipped.txt"; }
    # program | its binary (the recorder's is BIN-rec) | arguments
    local progs=("halo3d|$SIMDIR/halo3d|48 3")
    [ -z "$lulesh" ] || progs+=("lulesh|$lulesh|-s 16 -i 1")
    [ -z "$comd" ] || progs+=("comd|$comd|-i 8 -j 8 -k 8 -x 32 -y 32 -z 32 -N 4 -n 2")
    local first=${cases[0]}
    IFS='|' read -r name topo alloc routing <<< "$first"
    platform "$name" "$topo" "$alloc" "$routing" $NP
    for p in "${progs[@]}"; do   # one recording per program
        IFS='|' read -r prog bin args <<< "$p"
        # shellcheck disable=SC2086
        TOPOMAP_RECORD=$OUT/$prog-$NP.mtx simrun "$OUT/$name.xml" "$OUT/$name.consecutive" $NP \
            "$OUT/$prog-$NP.record.out" -- "$bin-rec" $args
    done
    for c in "${cases[@]}"; do
        IFS='|' read -r name topo alloc routing <<< "$c"
        platform "$name" "$topo" "$alloc" "$routing" $NP
        for p in "${progs[@]}"; do
            IFS='|' read -r prog bin args <<< "$p"
            tag=$name-$prog
            mtx=$OUT/$prog-$NP.mtx
            # shellcheck disable=SC2086
            "$TM" map $topo --alloc "$alloc" --comm "$mtx" --comm-phases "$mtx.phases" \
                --routing "$routing" --objective time --format smpi --out "$OUT/$tag.mapped" \
                --json --quiet > "$OUT/$tag.map.json" 2>> "$OUT/topomap.log"
            local t=() other=() lanes=$OUT/lanes
            # the six simulations of the row, SIM_JOBS at a time (each is one process on one
            # core; the simulated times do not depend on what else runs)
            rm -rf "$lanes" && mkdir -p "$lanes"
            lanes_run "$JOBS" "$lanes" SMPI:consecutive SMPI:mapped IB:consecutive IB:mapped \
                CM02:consecutive CM02:mapped
            for rc in "$lanes"/*.rc; do
                [ "$(cat "$rc")" = 0 ] || { cat "${rc%.rc}.out"; exit 1; }
            done
            for model in SMPI IB CM02; do
                for pl in consecutive mapped; do
                    t+=("$(run_time "$OUT/$tag.$pl.$model.out")")
                done
            done
            other=("IB=${t[2]},${t[3]}" "CM02=${t[4]},${t[5]}")
            python3 "$REPORT" row "$name" "$prog" $NP "${routing%%:*}" "$OUT/$tag.map.json" \
                "${t[0]}" "${t[1]}" "${other[@]}" >> "$OUT/results.csv"
            echo "$(tail -1 "$OUT/results.csv")   ($(( $(date +%s) - t_start )) s)"
        done
    done
}

# ---- 64 ranks (round 3) -------------------------------------------------------
set64() {
    local NP=64
    ring $NP
    python3 -c "
import random
h = ['n%04d' % i for i in range(64)]
random.Random(2025).shuffle(h)
print('\n'.join(h))" > "$OUT/torus-shuffled.txt"
    python3 -c "print('\n'.join('n%04d' % i for i in range(64)))" > "$OUT/ft-hosts.txt"
    # name | topology options | allocation | routing
    local cases=(
      "torus4x4x4-shuffled|--topology torus:4x4x4|$OUT/torus-shuffled.txt|dor"
      "fattree-k4n3|--topology fattree:k=4,n=3|$OUT/ft-hosts.txt|ftree"
      "fattree-k4n3-shuffled|--topology fattree:k=4,n=3|$OUT/torus-shuffled.txt|ftree"
      "psmn-x5-scattered|--topology $TOPO/psmn-x5/X5.topofile --node-name-map $TOPO/psmn-x5/X5.map --slots 12|$TOPO/psmn-x5/job-64-scattered.hostfile|minhop"
    )
    # program, its arguments; the last one is the number of iterations
    local progs=("halo3d 48 3" "spmv 20000 3" "fft3d 64 1")
    # LULESH 2.0 when its source is given (lulesh64 below)
    local lulesh
    lulesh=$(sim_app_lulesh) || { [ $? = 1 ] || exit 1
        echo "LULESH: skipped (LULESH_SRC=DIR names a LULESH 2.0 source tree, LLNL/LULESH)" \
            | tee "$OUT/lulesh-skipped.txt"; }
    for c in "${cases[@]}"; do
        IFS='|' read -r name topo alloc routing <<< "$c"
        platform "$name" "$topo" "$alloc" "$routing" $NP
        for p in "${progs[@]}"; do
            set -- $p
            prog=$1; shift
            tag=$name-$prog
            TM_COMM_MATRIX="$OUT/$tag.mtx" TM_COMM_PHASES="$OUT/$tag.phases" \
                simrun "$OUT/$name.xml" "$OUT/$name.consecutive" $NP "$OUT/$tag.consecutive.out" \
                -- "$SIMDIR/$prog" "$@"
            # map one iteration's bytes (the recorded matrix sums them all);
            # est_time_s is the whole run's, from its phases (--comm-phases)
            iters=${*: -1}
            python3 - "$OUT/$tag.mtx" "$iters" > "$OUT/$tag.iter.mtx" <<'P'
import sys
lines = open(sys.argv[1]).read().splitlines()
k = float(sys.argv[2])
for i, line in enumerate(lines):
    f = line.split()
    if line.startswith('%') or len(f) != 3 or i < 3:
        print(line)
    else:
        print(f[0], f[1], repr(float(f[2]) / k))
P
            # shellcheck disable=SC2086
            "$TM" map $topo --alloc "$alloc" --comm "$OUT/$tag.iter.mtx" --routing "$routing" \
                --objective time --comm-phases "$OUT/$tag.phases" --format smpi \
                --out "$OUT/$tag.mapped" --json --quiet > "$OUT/$tag.map.json" 2>> "$OUT/topomap.log"
            simrun "$OUT/$name.xml" "$OUT/$tag.mapped" $NP "$OUT/$tag.mapped.out" \
                -- "$SIMDIR/$prog" "$@"
            python3 "$REPORT" row "$name" "$prog" $NP "$routing" "$OUT/$tag.map.json" \
                "$(prog_time "$prog" "$OUT/$tag.consecutive.out")" \
                "$(prog_time "$prog" "$OUT/$tag.mapped.out")" >> "$OUT/results.csv"
            echo "$(tail -1 "$OUT/results.csv")   ($(( $(date +%s) - t_start )) s)"
        done
        [ -z "$lulesh" ] || lulesh64 "$name" "$topo" "$alloc" "$routing"
    done
}

# lulesh64 NAME TOPOLOGY ALLOCATION ROUTING: LULESH 2.0 (-s 16 -i 10) on a
# 64-rank case, consecutive and mapped with --objective time from a trace
# (issue 42): `lulesh-mpip` from its mpiP trace (a real run with -s 35, no
# phases: topologies/comm/lulesh-64.graphStats.txt), whose est_time_s is
# that run's, so only the predicted speed-up is compared (TRACE=other);
# `lulesh` from topomap's own recording of the very run simulated here, with
# its phases (topologies/comm/recorded/lulesh-64.mtx, make record-traces).
# The simulated time is the whole run's (SMPI's "Simulated time").
lulesh64() {
    local name=$1 topo=$2 alloc=$3 routing=$4 tr prog mtx ph flag tag
    local args=(-s 16 -i 10) rec=$TOPO/comm/recorded/lulesh-64.mtx
    simrun "$OUT/$name.xml" "$OUT/$name.consecutive" $NP "$OUT/$name-lulesh.consecutive.out" \
        -- "$lulesh" "${args[@]}"
    for tr in "lulesh-mpip|$TOPO/comm/lulesh-64.graphStats.txt||TRACE=other" \
              "lulesh|$rec|--comm-phases $rec.phases|"; do
        IFS='|' read -r prog mtx ph flag <<< "$tr"
        tag=$name-$prog
        # shellcheck disable=SC2086
        "$TM" map $topo --alloc "$alloc" --comm "$mtx" $ph --routing "$routing" --objective time \
            --format smpi --out "$OUT/$tag.mapped" --json --quiet > "$OUT/$tag.map.json" \
            2>> "$OUT/topomap.log"
        simrun "$OUT/$name.xml" "$OUT/$tag.mapped" $NP "$OUT/$tag.mapped.out" \
            -- "$lulesh" "${args[@]}"
        # shellcheck disable=SC2086
        python3 "$REPORT" row "$name" "$prog" $NP "$routing" "$OUT/$tag.map.json" \
            "$(run_time "$OUT/$name-lulesh.consecutive.out")" \
            "$(run_time "$OUT/$tag.mapped.out")" $flag >> "$OUT/results.csv"
        echo "$(tail -1 "$OUT/results.csv")   ($(( $(date +%s) - t_start )) s)"
    done
}

for s in $SETS; do
    case $s in
    512) set512 ;;
    64) set64 ;;
    *) echo "SIM_SETS: unknown set '$s' (512, 64)"; exit 1 ;;
    esac
done
python3 "$REPORT" summary "$OUT/results.csv" "$(uname -n)" > "$OUT/summary.md"
echo "bench-sim: $(( $(date +%s) - t_start )) s wall (sets: $SETS)" >> "$OUT/summary.md"
cat "$OUT/summary.md"
echo "CSV: $OUT/results.csv"
