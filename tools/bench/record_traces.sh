#!/usr/bin/env bash
# record_traces.sh - `make record-traces`: records the shipped traces of
# topologies/comm/recorded/ again, with topomap's own recorder
# (TOPOMAP_RECORD, docs/mpi.md) linked into real applications run under
# SimGrid's SMPI (docs/performance.md "Recorded traces").
#
#   LULESH_SRC=DIR COMD_SRC=DIR MINIFE_SRC=DIR [LULESH_REV= COMD_REV= MINIFE_REV=]
#   [TRACES="lulesh-64 ..."] [CHECK=1] tools/bench/record_traces.sh [BUILD] [DEST]
#
# The applications are not part of topomap: tools/bench/sim_apps.sh builds
# them with smpicc/smpicxx from the sources given (LULESH 2.0, the src-mpi
# folder of CoMD, the ref folder of miniFE); *_REV names the commit of a
# source that is not a git work tree (for PROVENANCE.md).  A trace whose
# source is not given is skipped (said so).  TRACES chooses traces by name
# (default: all nine).  Every run: the platform `torus:4x4x4,slots=16`
# (64 hosts, 1,024 slots; the matrix does not depend on where ranks run),
# rank i on the i-th slot, smpi/simulate-computation:no, coarse precision
# (FAST below); one run at a time.
# The recorder writes NAME.mtx (bytes per pair of ranks: `--comm`),
# NAME.mtx.phases (`--comm-phases`), NAME.mtx.json and NAME.mtx.messages.mtx
# in BUILD/record-traces/; the first three are copied to DEST (default
# topologies/comm/recorded) and the trace's row of DEST/PROVENANCE.md is
# written again (program, source, options, ranks, command, date, recorder,
# recording time) and tools/bench/trace_stats.py prints its structure (the
# pairs by their offset in the program's process grid).  With CHECK=1 nothing is copied: the new matrix and
# phases are compared with DEST's, byte for byte, and the script fails when
# they differ.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
DEST=${2:-$ROOT/topologies/comm/recorded}
mkdir -p "$DEST" "$BUILD/record-traces"
DEST=$(cd "$DEST" && pwd)
WORK=$BUILD/record-traces
SIMDIR=$BUILD/sim
TM=$BUILD/topomap
HERE=$ROOT/tools/bench
# shellcheck source=sim_apps.sh
. "$HERE/sim_apps.sh"
command -v smpirun > /dev/null || { echo "record-traces: smpirun not found (make deps FOR=sim)"; exit 1; }

# name | program | ranks | arguments (weak scaling: the same work per rank at
# every size) | trace_stats.py's classes (the program's process grid)
ALL=(
  "lulesh-64|lulesh|64|-s 16 -i 10|--grid 4x4x4"
  "lulesh-512|lulesh|512|-s 16 -i 10|--grid 8x8x8"
  "lulesh-1000|lulesh|1000|-s 16 -i 10|--grid 10x10x10"
  "comd-64|comd|64|-i 4 -j 4 -k 4 -x 32 -y 32 -z 32 -N 20 -n 10|--grid 4x4x4 --periodic"
  "comd-512|comd|512|-i 8 -j 8 -k 8 -x 64 -y 64 -z 64 -N 20 -n 10|--grid 8x8x8 --periodic"
  "comd-1024|comd|1024|-i 8 -j 8 -k 16 -x 64 -y 64 -z 128 -N 20 -n 10|--grid 8x8x16 --periodic"
  "minife-64|minife|64|nx=64 ny=64 nz=64|--bisect 64x64x64"
  "minife-512|minife|512|nx=128 ny=128 nz=128|--bisect 128x128x128"
  "minife-1024|minife|1024|nx=128 ny=128 nz=256|--bisect 128x128x256"
)
TRACES=${TRACES:-lulesh-64 lulesh-512 lulesh-1000 comd-64 comd-512 comd-1024 minife-64 minife-512 minife-1024}

# the program's binary (built once) and the commit of its source
declare -A BIN REV
declare -A REPO=([lulesh]="LULESH 2.0, LLNL/LULESH" [comd]="CoMD, ECP-copa/CoMD src-mpi"
                 [minife]="miniFE, Mantevo/miniFE ref")
for p in lulesh comd minife; do
    case " $TRACES " in *" $p-"*) ;; *) continue ;; esac
    rc=0
    b=$("sim_app_$p") || rc=$?
    [ $rc != 2 ] || { echo "record-traces: building $p failed"; exit 1; }
    case $p in
    lulesh) s=${LULESH_SRC:-} r=${LULESH_REV:-} ;;
    comd) s=${COMD_SRC:-} r=${COMD_REV:-} ;;
    minife) s=${MINIFE_SRC:-} r=${MINIFE_REV:-} ;;
    esac
    if [ $rc = 1 ]; then
        echo "$p: skipped (give LULESH_SRC=DIR, COMD_SRC=DIR/src-mpi, MINIFE_SRC=DIR/ref)"
        continue
    fi
    s=$(cd "$s" && pwd)
    [ -n "$r" ] || r=$(git -C "$s" rev-parse HEAD 2> /dev/null) || r="unknown (not a git work tree; give ${p^^}_REV)"
    BIN[$p]=$b REV[$p]=$r
done

PLATFORM=(--topology "torus:4x4x4,slots=16")
# Simulated time does not matter here, what the ranks send does: events
# closer than 1 ms merge and rates are solved to 1e-3, which makes SMPI's
# max-min solver (most of a run's cost with thousands of messages in
# flight) 4x cheaper at 1,000 ranks (LULESH -s 16 -i 2: 213 s -> 53 s of
# CPU); SMPI runs its collectives with MPICH's algorithms instead of its
# own default ones (an MPI_Allgather to all p ranks at once, whose
# completion costs SMPI O(p^2) per rank: miniFE's setup at 512 ranks ran
# for 18 min of CPU).  Neither changes the recording (byte-identical,
# CHECK=1): the recorder writes its own pattern of each collective
# (docs/mpi.md), not SMPI's messages.
FAST=(--cfg=surf/precision:1e-3 --cfg=maxmin/precision:1e-3 --cfg=smpi/coll-selector:mpich)
"$TM" topo export "${PLATFORM[@]}" --format simgrid --routing dor --out "$WORK/platform.xml"
# hostfile N: rank i on the i-th slot
hostfile() {
    sim_ring "$1" "$WORK/ring$1.mtx"
    "$TM" map "${PLATFORM[@]}" --comm "$WORK/ring$1.mtx" --strategy identity --refine none \
        --format smpi --out "$WORK/hosts$1" > /dev/null
}

RECORDER="topomap $("$TM" --version | awk '{print $2}') ($(git -C "$ROOT" rev-parse --short HEAD 2> /dev/null || echo 'no git'))"
failed=0
for t in "${ALL[@]}"; do
    IFS='|' read -r name prog np args stats <<< "$t"
    case " $TRACES " in *" $name "*) ;; *) continue ;; esac
    [ -n "${BIN[$prog]:-}" ] || continue
    hostfile "$np"
    cmd=(smpirun -platform platform.xml -hostfile "hosts$np" -np "$np"
         --cfg=smpi/simulate-computation:no "${FAST[@]}" --log=root.thres:error)
    rm -f "$WORK/$name".mtx*
    t0=$(date +%s)
    # shellcheck disable=SC2086
    (cd "$WORK" && TOPOMAP_RECORD=$name.mtx nice "${cmd[@]}" "${BIN[$prog]}-rec" $args) \
        > "$WORK/$name.out" 2>&1 || { tail -20 "$WORK/$name.out"; echo "$name: the run failed"; exit 1; }
    secs=$(( $(date +%s) - t0 ))
    [ -f "$WORK/$name.mtx.phases" ] || { echo "$name: no recording"; exit 1; }
    echo "$name: $np ranks, recorded in $secs s"
    # shellcheck disable=SC2086
    python3 "$HERE/trace_stats.py" "$WORK/$name.mtx" $stats --phases "$WORK/$name.mtx.phases" \
        | sed 's/^/  /'
    if [ "${CHECK:-0}" = 1 ]; then
        for f in "$name.mtx" "$name.mtx.phases"; do
            if cmp -s "$WORK/$f" "$DEST/$f"; then echo "  $f: identical"
            else echo "  $f: DIFFERS from $DEST/$f"; failed=1; fi
        done
        continue
    fi
    cp "$WORK/$name.mtx" "$WORK/$name.mtx.phases" "$WORK/$name.mtx.json" "$DEST/"
    row="| \`$name.mtx\` | ${REPO[$prog]} @ ${REV[$prog]} | \`$args\` | $np |"
    row="$row \`TOPOMAP_RECORD=$name.mtx ${cmd[*]} ${BIN[$prog]##*/}-rec $args\` |"
    row="$row $(date -u +%F) | $RECORDER, SimGrid $(smpirun -version 2>&1 | awk '/version/ {print $3; exit}') | $secs s |"
    # the trace's row of the table, replaced or added
    python3 - "$DEST/PROVENANCE.md" "$name.mtx" "$row" <<'P'
import sys
path, key, row = sys.argv[1:]
lines = open(path).read().split('\n')
mark = '| `%s` |' % key
at = [i for i, l in enumerate(lines) if l.startswith(mark)]
if at:
    lines[at[0]] = row
else:  # after the table's last row (or its header)
    end = max(i for i, l in enumerate(lines) if l.startswith('| `') or l.startswith('|---'))
    lines.insert(end + 1, row)
open(path, 'w').write('\n'.join(lines))
P
done
[ "$failed" = 0 ] || { echo "record-traces: some traces differ from the shipped ones"; exit 1; }
