#!/bin/sh
# scale.sh - time and peak RSS against size (docs/performance.md).
#
#   tools/bench/scale.sh [BUILD] [SIZES]
#
# For each task count (default "4096 16384 65536 131072 262144"): a periodic 3D
# 7-point stencil in natural rank order, on a fat-tree and a 3D torus with
# at least as many hosts (one slot each), and on an a:b:c hierarchy with as
# many PEs.  Measures, one thread, each with /usr/bin/time (wall s, peak
# RSS MB): `eval` of the consecutive placement (natural ranks, and ranks
# relabelled at random: traffic spread over the whole network); `map --refine none` with
# every network strategy (construction, the consecutive baseline and the
# exact evaluation of the result); the default `map` (construction and
# refinement); hierarchy mode `topdown --refine nc:1`; and `map --strategy
# all` at 131,072 tasks when that size is asked for.
# A run longer than LIMIT seconds (default 300) is stopped and shown as
# ">LIMIT".  CPU=1 shows user CPU seconds instead of wall seconds (on a
# shared machine, where wall times say little).  Prints a markdown table;
# the machine and load are named first.
set -eu
B=${1:-build}
SIZES=${2:-"4096 16384 65536 131072 262144"}
LIMIT=${LIMIT:-300}
OUT=$B/bench-scale
TM=$B/topomap
mkdir -p "$OUT"

dims() { # n -> X Y Z
    case $1 in
    4096) echo 16 16 16 ;; 16384) echo 32 32 16 ;; 32768) echo 32 32 32 ;;
    65536) echo 64 32 32 ;; 131072) echo 64 64 32 ;; 262144) echo 64 64 64 ;;
    1048576) echo 128 128 64 ;; *) echo "scale.sh: no grid for $1" >&2; exit 1 ;;
    esac
}
fattree() { # n -> a k-ary n-tree with >= n hosts
    if [ "$1" -le 4096 ]; then echo fattree:k=16,n=3
    elif [ "$1" -le 65536 ]; then echo fattree:k=16,n=4
    else echo fattree:k=8,n=6; fi
}
hier() { # n -> a:b:c with n PEs
    case $1 in
    4096) echo 16:16:16 ;; 16384) echo 16:16:64 ;; 32768) echo 16:32:64 ;;
    65536) echo 16:64:64 ;; 131072) echo 32:64:64 ;; 262144) echo 64:64:64 ;;
    1048576) echo 64:128:128 ;;
    esac
}
stencil() { # X Y Z file [shuffle]: periodic 7-point stencil, rank = x + X (y + Y z),
    # or ranks relabelled by a fixed random permutation (no locality)
    [ -s "$4" ] || python3 - "$1" "$2" "$3" "$4" "${5:-0}" <<'P'
import random, sys
X, Y, Z = map(int, sys.argv[1:4])
perm = list(range(X * Y * Z))
if sys.argv[5] != "0":
    random.Random(7).shuffle(perm)
with open(sys.argv[4], "w") as f:
    for z in range(Z):
        for y in range(Y):
            for x in range(X):
                r = x + X * (y + Y * z)
                for nx, ny, nz in ((x+1) % X, y, z), (x, (y+1) % Y, z), (x, y, (z+1) % Z):
                    s = nx + X * (ny + Y * nz)
                    f.write("%d %d 1\n%d %d 1\n" % (perm[r], perm[s], perm[s], perm[r]))
P
}
# run LABEL cmd...: prints "wall/RSS" (or >LIMIT)
run() {
    if /usr/bin/time -f "%e %U %M" -o "$OUT/time" timeout -k 5 "$LIMIT" "$@" >/dev/null 2>"$OUT/err"; then
        awk -v cpu="${CPU:-0}" '{printf "%.2f s / %d MB", cpu == 1 ? $2 : $1, $3 / 1024}' "$OUT/time"
    elif [ "$(head -c 7 "$OUT/time" 2>/dev/null)" = "Command" ] && grep -qE "status (124|137)" "$OUT/time"; then
        printf '>%s s' "$LIMIT"
    else
        printf 'error (%s)' "$(tail -1 "$OUT/err")"
    fi
}

echo "machine: $(uname -m), $(nproc) cores ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)), $(free -g | awk '/Mem/{print $2}') GiB; load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F)"
echo
echo "times: $([ "${CPU:-0}" = 1 ] && echo "user CPU seconds" || echo "wall seconds")"
echo
echo "| tasks | network | eval | eval, random ranks | identity | greedy | recursive | rcm | grow | topdown | map (default) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for n in $SIZES; do
    set -- $(dims "$n")
    C=$OUT/stencil-$n.edges
    stencil "$1" "$2" "$3" "$C"
    stencil "$1" "$2" "$3" "$OUT/random-$n.edges" 1
    for T in "$(fattree "$n")" "torus:${1}x${2}x${3}"; do
        line="| $n | \`$T\` | $(run "$TM" eval --topology "$T" --comm "$C" --threads 1)"
        line="$line | $(run "$TM" eval --topology "$T" --comm "$OUT/random-$n.edges" --threads 1)"
        for s in identity greedy recursive rcm grow topdown; do
            line="$line | $(run "$TM" map --topology "$T" --comm "$C" --strategy $s --refine none \
                --threads 1 --quiet --out "$OUT/map")"
        done
        line="$line | $(run "$TM" map --topology "$T" --comm "$C" --threads 1 --quiet --out "$OUT/map")"
        echo "$line |"
    done
done
echo
echo "| PEs | hierarchy | topdown + nc:1 |"
echo "|---|---|---|"
for n in $SIZES; do
    set -- $(dims "$n")
    C=$OUT/stencil-$n.edges
    echo "| $n | \`$(hier "$n")\` | $(run "$TM" map --hierarchy "$(hier "$n")" --distances 1:10:100 \
        --comm "$C" --strategy topdown --refine nc:1 --threads 1 --out "$OUT/map") |"
done
case " $SIZES " in *" 131072 "*)
    set -- $(dims 131072)
    C=$OUT/stencil-131072.edges
    echo
    echo "| 131072 tasks | network | map --strategy all |"
    echo "|---|---|---|"
    for T in "$(fattree 131072)" "torus:${1}x${2}x${3}"; do
        echo "| | \`$T\` | $(run "$TM" map --topology "$T" --comm "$C" --strategy all --threads 1 \
            --quiet --out "$OUT/map") |"
    done ;;
esac
