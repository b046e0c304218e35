#!/bin/sh
# tools/bench/qap/run.sh - hierarchical QAP benchmark (docs/qap.md).
#
#   tools/bench/qap/run.sh [--large] [--xl] [BUILD]
#
# Default (a few minutes on 2 cores):
#   A  the shared peer instances (../shared/bench/qap) with every strategy,
#      topdown+nc:1/nc:10 and Scotch side by side, against peers.tsv
#   B  VieM-style generated instances rgg15/rgg16/grid64, n = 256..4096
#      (hierarchy 4:16:n/64, distances 1:10:100)
#   C  general process mapping: rgg16 (65,536 tasks) onto 4:16:16, 3%
#   D  local-search scaling, rgg17 quotient graphs n = 1K..8K
# --large adds n = 8192 and 32768 to B (rgg17) and 16K, 32K to D.
# --xl adds E: n = 2^19 PEs (4:16:128:64, 1:10:100:1000), communication
#   graph of a 2^22-vertex rgg cut into 2^19 Hilbert-curve blocks
#   (gen_rgg_quotient.c), topdown+nc:1 with peak memory (about a minute).
# Results: $BUILD/bench-qap/*.tsv and summary.md.  Needs scotch (gcv,
# scotch_gmap) and gpmetis (Debian packages scotch, metis).
set -eu
LARGE=0
XL=0
while :; do
    case "${1:-}" in
    --large) LARGE=1; shift ;;
    --xl) XL=1; shift ;;
    *) break ;;
    esac
done
BUILD=${1:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
OUT=$BUILD/bench-qap
mkdir -p "$OUT"
DRV=$OUT/qap_bench
PKG=$(pkg-config --libs igraph libxml-2.0)
cc -std=c11 -D_GNU_SOURCE -O2 -I"$ROOT/include" -I"$ROOT/src" "$HERE/qap_bench.c" \
   "$BUILD/libtopomap.a" $PKG -lmetis -lpthread -lm -o "$DRV"

# tleaf target equivalent to a1:...:ak with d1:...:dk (increments per level)
tleaf() { # hier dists
    python3 - "$1" "$2" <<'PY'
import sys
a = [int(x) for x in sys.argv[1].split(":")]
d = [float(x) for x in sys.argv[2].split(":")]
k = len(a)
out = ["tleaf", str(k)]
for i in range(k - 1, -1, -1):
    inc = d[i] - (d[i - 1] if i > 0 else 0)
    out += [str(a[i]), "%g" % inc]
print(" ".join(out))
PY
}

# scotch GRAPH HIER DISTS BAL -> "J time maxload" (J = 2 x CommExpan: Scotch
# counts every edge once)
scotch() {
    grf=$OUT/$(basename "$1" .graph).grf
    [ -f "$grf" ] || gcv -ic "$1" "$grf"
    tleaf "$2" "$3" > "$OUT/target.tgt"
    scotch_gmap -Cd -b"$4" -vmt "$grf" "$OUT/target.tgt" "$OUT/scotch.map" 2>&1 |
        awk '/CommExpan/ { split($0, a, "[()]"); j = 2 * a[2] }
             /^T\tMapping/ { t = $3 }
             /Target min=/ { for (i = 1; i <= NF; i++) if ($i ~ /^max=/) { sub("max=", "", $i); m = $i } }
             END { printf "%d\t%.3f\t%s\n", j, t, m }'
}

run() { # file instance hier dists algo [imbalance]
    f=$1; shift
    inst=$1; shift
    printf '%s\t' "$inst" >> "$f"
    "$DRV" "$1" "$2" "$3" "$4" "${5:-}" 1 1 | cut -f2- >> "$f"
}

ALGOS="identity mm allc topdown bottomup random topdown+nc:1 topdown+nc:10 topdown+ils:10 topdown-ms"
hier_of() { echo "4:16:$(( $1 / 64 ))"; }

# ---- A: peer instances ------------------------------------------------------
A=$OUT/A_peers.tsv
printf 'instance\talgo\tJ\ttime_s\tmax_load\tstages\n' > "$A"
for g in rgg16_k256 rgg16_k256_shuf grid64_k256 grid64_k256_shuf rgg16_k1024 rgg16_k1024_shuf; do
    path=$SHARED/bench/qap/$g.graph
    n=$(head -1 "$path" | awk '{print $1}')
    h=$(hier_of "$n")
    for a in $ALGOS; do run "$A" "$g" "$path" "$h" 1:10:100 "$a"; done
    printf '%s\tscotch_b0\t%s\t\n' "$g" "$(scotch "$path" "$h" 1:10:100 0)" >> "$A"
done

# ---- B: generated VieM-style instances --------------------------------------
B=$OUT/B_generated.tsv
printf 'instance\talgo\tJ\ttime_s\tmax_load\tstages\n' > "$B"
SPECS="rgg15:256 rgg15:1024 rgg15:4096 rgg16:256 rgg16:1024 rgg16:4096 grid64:256 grid64:1024 grid64:4096"
[ $LARGE = 1 ] && SPECS="$SPECS rgg17:8192 rgg17:32768"
for path in $(python3 "$HERE/gen_instances.py" "$SHARED" "$OUT/gen" $SPECS); do
    g=$(basename "$path" .graph)
    n=$(head -1 "$path" | awk '{print $1}')
    h=$(hier_of "$n")
    for a in $ALGOS; do
        run "$B" "$g" "$path" "$h" 1:10:100 "$a"
    done
    printf '%s\tscotch_b0\t%s\t\n' "$g" "$(scotch "$path" "$h" 1:10:100 0)" >> "$B"
done

# ---- C: general process mapping ------------------------------------------------
C=$OUT/C_general.tsv
printf 'instance\talgo\tJ\ttime_s\tmax_load\tstages\n' > "$C"
WORK=$OUT/gen/base python3 "$SHARED/bench/qap/make_instances.py" --base-only 2>/dev/null
R16=$OUT/gen/base/rgg16.graph
for a in topdown topdown+nc:1 topdown-c topdown-c+nc:1 random; do
    run "$C" rgg16 "$R16" 4:16:16 1:10:100 "$a" 0.03
done
printf 'rgg16\tscotch_b0.03\t%s\t\n' "$(scotch "$R16" 4:16:16 1:10:100 0.03)" >> "$C"

# ---- D: local search scaling (VieM Table 2) -----------------------------------
D=$OUT/D_scaling.tsv
printf 'instance\talgo\tJ\ttime_s\tmax_load\tstages\n' > "$D"
SPECS="rgg17:1024 rgg17:2048 rgg17:4096 rgg17:8192"
[ $LARGE = 1 ] && SPECS="$SPECS rgg17:16384 rgg17:32768"
for path in $(python3 "$HERE/gen_instances.py" "$SHARED" "$OUT/gen" $SPECS); do
    g=$(basename "$path" .graph)
    n=$(head -1 "$path" | awk '{print $1}')
    h=$(hier_of "$n")
    for a in topdown+nc:1+nc:10 mm+np; do run "$D" "$g" "$path" "$h" 1:10:100 "$a"; done
done

 # ---- E: 2^19 PEs ----------------------------------------------------------------
E=$OUT/E_xl.tsv
if [ $XL = 1 ]; then
    cc -std=c11 -D_GNU_SOURCE -O2 "$HERE/gen_rgg_quotient.c" -lm -o "$OUT/gen_rgg_quotient"
    X=$OUT/gen/rgg22_k524288.graph
    [ -f "$X" ] || "$OUT/gen_rgg_quotient" 22 19 20240601 > "$X"
    printf 'instance\talgo\tJ\ttime_s\tmax_load\tstages\tpeak_kib\n' > "$E"
    for a in identity mm topdown+nc:1; do
        /usr/bin/time -f %M -o "$OUT/time.txt" "$DRV" "$X" 4:16:128:64 1:10:100:1000 "$a" "" 1 1 |
            cut -f2- | sed "s/^/rgg22_k524288\t/" | tr -d '\n' >> "$E"
        printf '\t%s\n' "$(cat "$OUT/time.txt")" >> "$E"
    done
fi

python3 "$HERE/summarize.py" "$OUT" "$SHARED/bench/qap/peers.tsv" > "$OUT/summary.md"
cat "$OUT/summary.md"
