#!/usr/bin/env bash
# record.sh - the overhead of TOPOMAP_RECORD (docs/mpi.md): examples/halo3d
# under each MPI built by `make`, three ways, runs interleaved:
#   plain    no shim
#   shim     LD_PRELOAD=libtopomap_pmpi.so without TOPOMAP_RECORD
#   record   the shim with TOPOMAP_RECORD (collectives: auto)
# Time: rank 0, MPI_Init to MPI_Finalize (the run) and MPI_Finalize itself
# (the recorder gathers and writes there: a fixed cost per job), from
# tools/bench/mpi_wtime.c preloaded first.  Prints the median and the
# minimum of REPS runs and the ratios against plain.  Then the
# cost per call on one process (tools/bench/record_calls.c: MPI_Isend +
# MPI_Recv to itself, MPI_Allreduce of one int), plain against recording.
# Usage: tools/bench/record.sh [BUILD_DIR]; NP (default 8), N (cells per
# block edge, default 16), ITERS (default 2000), REPS (default 7), MPIS
# (default: every MPI built, e.g. "openmpi").
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
np=${NP:-8} n=${N:-16} iters=${ITERS:-2000} reps=${REPS:-7}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
echo "machine: $(uname -n), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "halo3d $n $iters on $np ranks, median (minimum) of $reps runs (on a shared machine timings are noisy)"
echo "| MPI | run: plain (s) | shim, not recording (s) | recording (s) | shim / plain | recording / plain | MPI_Finalize: plain (s) | recording (s) |"
echo "|---|---|---|---|---|---|---|---|"
for dir in "$build"/mpi-*; do
    flavor=${dir##*/mpi-}
    [ -x "$dir/halo3d" ] && [ -f "$dir/libtopomap_pmpi.so" ] || continue
    case " ${MPIS:-$flavor} " in *" $flavor "*) ;; *) continue ;; esac
    case $flavor in
    openmpi) cc=mpicc.openmpi; launch=(mpirun.openmpi --allow-run-as-root --oversubscribe
                                        --mca mpi_yield_when_idle 1 -np "$np") ;;
    mpich)   cc=mpicc.mpich; launch=(mpirun.mpich -np "$np") ;;
    *)       cc=mpicc; launch=(mpirun -np "$np") ;;
    esac
    "$cc" -O2 -shared -fPIC -o "$work/wtime-$flavor.so" "$root/tools/bench/mpi_wtime.c" -ldl
    "$cc" -O2 -o "$work/calls-$flavor" "$root/tools/bench/record_calls.c"
    for i in $(seq "$reps"); do
        for mode in plain shim record; do
            pre=$work/wtime-$flavor.so vars=()
            [ $mode = plain ] || pre="$pre:$dir/libtopomap_pmpi.so"
            [ $mode = record ] && vars=(TOPOMAP_RECORD="$work/rec.mtx")
            "${launch[@]}" env LD_PRELOAD="$pre" "${vars[@]}" "$dir/halo3d" "$n" "$iters" \
                >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
            grep '^bench_wtime:' "$work/err" | awk '{print $2, $3}' >> "$work/$flavor-$mode"
        done
    done
    [ -s "$work/rec.mtx" ] || { echo "record: no matrix written"; exit 1; }
    python3 - "$flavor" "$work/$flavor-plain" "$work/$flavor-shim" "$work/$flavor-record" <<'PY'
import statistics, sys
flavor, *paths = sys.argv[1:]
runs = [[float(x.split()[0]) for x in open(p)] for p in paths]
fin = [statistics.median(float(x.split()[1]) for x in open(p)) for p in paths]
med, low = [statistics.median(r) for r in runs], [min(r) for r in runs]
print("| %s | %.3f (%.3f) | %.3f (%.3f) | %.3f (%.3f) | %.3f (%.3f) | %.3f (%.3f) | %.3f | %.3f |"
      % (flavor, med[0], low[0], med[1], low[1], med[2], low[2], med[1] / med[0], low[1] / low[0],
         med[2] / med[0], low[2] / low[0], fin[0], fin[2]))
PY
done
echo
echo "cost per call, one process, median of $reps runs (each the median of 5 loops)"
echo "| MPI | isend+recv plain (ns) | recording (ns) | allreduce plain (ns) | recording (ns) |"
echo "|---|---|---|---|---|"
for dir in "$build"/mpi-*; do
    flavor=${dir##*/mpi-}
    [ -x "$work/calls-$flavor" ] || continue
    case $flavor in
    openmpi) launch=(mpirun.openmpi --allow-run-as-root --oversubscribe -np 1) ;;
    mpich)   launch=(mpirun.mpich -np 1) ;;
    *)       launch=(mpirun -np 1) ;;
    esac
    : > "$work/c-plain"; : > "$work/c-record"
    for i in $(seq "$reps"); do
        "${launch[@]}" "$work/calls-$flavor" >> "$work/c-plain"
        "${launch[@]}" env LD_PRELOAD="$dir/libtopomap_pmpi.so" TOPOMAP_RECORD="$work/c.mtx" \
            "$work/calls-$flavor" >> "$work/c-record"
    done
    python3 - "$flavor" "$work/c-plain" "$work/c-record" <<'PY'
import re, statistics, sys
flavor, plain, rec = sys.argv[1:]
def med(path, k):
    return statistics.median(float(re.findall(r"([0-9.]+) ns", l)[k]) for l in open(path))
print("| %s | %.0f | %.0f | %.0f | %.0f |" % (flavor, med(plain, 0), med(rec, 0), med(plain, 1), med(rec, 1)))
PY
done
