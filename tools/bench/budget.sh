#!/bin/sh
# budget.sh - quality against time budget: `topomap map --time-limit T` on
# three cases of tools/bench/map-scotch.sh, T from 0.1 s to 60 s, with the
# consecutive placement and Scotch's point (scotch_gmap -Cd -b0 on the
# torus3D target, judged by `topomap eval` like every row) in the same run.
#
#   tools/bench/budget.sh [BUILD [THREADS]]   (build, 2 threads)
#   BUDGETS="0.1 0.3 1" tools/bench/budget.sh  (fewer points)
#
# Each row: the budget, max congestion / avg dilation and J of the answer,
# the construction that won, the wall time of the whole command (reading,
# network, constructions, refinement, evaluations, baseline, writing) and
# its user CPU time (on a shared machine wall time is what the others left;
# user time is the work done), and the answer against Scotch (congestion,
# dilation ratios: <= 1 on both is at least Scotch's quality).
# Prints markdown (also BUILD/bench-budget/summary.md).
set -eu
BUILD=${1:-build}
THREADS=${2:-2}
BUDGETS=${BUDGETS:-0.1 0.2 0.3 0.5 1 2 5 10 30 60}
OUT=$BUILD/bench-budget
TM=$BUILD/topomap
U=tools/bench/scotch_util.py
mkdir -p "$OUT"
command -v scotch_gmap >/dev/null || tools/install-deps.sh --bench
. tools/bench/comm.sh # gen_comm, comm NAME SPEC P [SEED]
comm spmv512 grid7:64x64x64 512
comm spmv1728 grid7:64x64x64 1728
comm ps12r stencil:12x12x12 - 7

# figures of a `topomap eval --json` or `map --json` on stdin: "C D J"
figs() {
    python3 -c "import json,sys; d=json.load(sys.stdin); print('%.1f %.3f %.0f' % (d['max_congestion'], d['avg_dilation'], d['qap_network_J']))"
}

case_table() { # label topology X Y Z comm
    label=$1 topo=$2 g=$6
    grf=$OUT/$(basename "$g" .edges).grf
    [ -s "$grf" ] || "$U" grf "$g" "$grf"
    echo "torus3D $3 $4 $5" > "$OUT/tor.tgt"
    /usr/bin/time -f "%e %U" -o "$OUT/time.txt" \
        scotch_gmap -Cd -b0 "$grf" "$OUT/tor.tgt" "$OUT/scotch.map" 2>/dev/null
    read -r sw su < "$OUT/time.txt"
    "$TM" map --topology "$topo" --comm "$g" --strategy identity --refine none --format plain \
        --out "$OUT/names.plain" >/dev/null 2>&1
    cut -d' ' -f1 "$OUT/names.plain" > "$OUT/names.txt"
    "$U" plain "$OUT/scotch.map" "$OUT/names.txt" "$OUT/scotch.plain"
    set -- $("$TM" eval --topology "$topo" --comm "$g" --mapping "$OUT/scotch.plain" --json | figs)
    sc=$1 sd=$2 sj=$3
    echo
    echo "$label ($(wc -l < "$g") messages), $THREADS threads"
    echo
    echo "| budget s | max congestion / avg dilation | J | won | wall s | user s | vs Scotch (C, D) |"
    echo "|---|---|---|---|---|---|---|"
    echo "| Scotch | $sc / $sd | $sj | scotch_gmap | $sw | $su | 1, 1 |"
    first=1
    for t in $BUDGETS; do
        /usr/bin/time -f "%e %U" -o "$OUT/time.txt" "$TM" map --topology "$topo" --comm "$g" \
            --time-limit "$t" --threads "$THREADS" --json --out "$OUT/m.txt" > "$OUT/m.json" \
            2> "$OUT/map.err"
        python3 - "$OUT/m.json" "$t" "$(cat "$OUT/time.txt")" "$sc" "$sd" "$first" <<'P'
import json, sys
d = json.load(open(sys.argv[1])); c = d["consecutive"]
t, (wall, user), sc, sd = sys.argv[2], sys.argv[3].split(), float(sys.argv[4]), float(sys.argv[5])
if sys.argv[6] == "1":  # the baseline once, before the first budget
    print("| consecutive | %.1f / %.3f | %.0f | | | | %.2f, %.2f |" % (c["max_congestion"], c["avg_dilation"],
          c["qap_network_J"], c["max_congestion"] / sc, c["avg_dilation"] / sd))
print("| %s | %.1f / %.3f | %.0f | %s | %s | %s | %.2f, %.2f |" % (t, d["max_congestion"], d["avg_dilation"],
      d["qap_network_J"], d["best"], wall, user, d["max_congestion"] / sc, d["avg_dilation"] / sd))
P
        first=0
    done
}

{
    echo "Machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%d); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    case_table "SpMV 512 parts, torus:8x8x8" torus:8x8x8 8 8 8 "$OUT/spmv512.edges"
    case_table "SpMV 1,728 parts, torus:12x12x12" torus:12x12x12 12 12 12 "$OUT/spmv1728.edges"
    case_table "stencil 12^3 relabelled, torus:12x12x12" torus:12x12x12 12 12 12 "$OUT/ps12r.edges"
    echo
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT/summary.md"
