#!/bin/sh
# same-results.sh - do two builds map every instance to the same result?
#
#   tools/bench/same-results.sh record DIR [BUILD]   write the reference outputs to DIR
#   tools/bench/same-results.sh check  DIR [BUILD]   run again, compare with DIR
#
# For refactorings that must not change results: record with the old
# binary (e.g. main's), check with the new one.  Every case runs
# `BUILD/topomap map --json --out F` and keeps the mapping file F and the
# JSON report without its timing fields (keys ending in "time_s") and the
# --out path; `check` compares them byte for byte and prints one line per
# case (same / DIFFERENT) and a summary, exit 1 if any differs.
#
# Cases: every strategy alone and `--strategy all`, with the default
# refinement and with `--refine none`, on a torus 8x8x8 (relabelled 3D
# 7-point stencil), a fat-tree k=8 n=3 (27-point stencil), PERCS with 16
# supernodes (7-point stencil) and the PSMN X5 fabric with its shipped
# 64-rank job (as `make demo`); hierarchy mode 4:8:8 / 1:10:100 with
# topdown, topdown-c, bottomup, mm, allc and --refine none / nc:1 / ils:10;
# and general mapping (2048 tasks on 256 PEs, --imbalance 0.03: topdown,
# topdown-c, random).  The task
# graphs are METIS files written by the deterministic generator below.
# Threads are fixed (THREADS, default 2) and so is the seed.  A few minutes
# on 2 cores.
#
# Besides the mappings, the files other commands write from the same
# library calls are compared byte for byte (cases "out-*": every file the
# command writes, and its stdout without the time it took): a study
# (two topologies, capacity change, random failures with two samples, two
# routing models, three strategies; CSV and JSON), the same study as two
# shards and their `study merge`, `eval --json` with the link loads as CSV,
# GraphML and DOT, and `topo export` of the PSMN X5 fabric in every format.  They run in the
# output folder with relative paths (a shard's identity hashes the paths
# as given).
set -eu

MODE=${1:?usage: same-results.sh record|check DIR [BUILD]}
DIR=${2:?usage: same-results.sh record|check DIR [BUILD]}
BUILD=${3:-build}
THREADS=${THREADS:-2}
TOPOMAP=$(cd "$BUILD" && pwd)/topomap
case $MODE in
record) OUT=$DIR ;;
check) [ -d "$DIR" ] || { echo "same-results: no reference in $DIR" >&2; exit 2; }
       OUT=$(mktemp -d) ;;
*) echo "usage: same-results.sh record|check DIR [BUILD]" >&2; exit 2 ;;
esac
mkdir -p "$OUT/inst"

# Task graphs: 3D stencils with position-dependent integer weights, ranks
# optionally relabelled by a fixed LCG permutation (no locality left).
python3 - "$OUT/inst" <<'PY'
import sys
out = sys.argv[1]

def perm(n, seed):
    p = list(range(n))
    x = seed
    for i in range(n - 1, 0, -1):
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        j = (x >> 33) % (i + 1)
        p[i], p[j] = p[j], p[i]
    return p

def stencil(name, dims, pts, relabel):
    X, Y, Z = dims
    n = X * Y * Z
    idx = lambda x, y, z: (z * Y + y) * X + x
    p = perm(n, 12345) if relabel else list(range(n))
    adj = [dict() for _ in range(n)]
    offs = [(dx, dy, dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)
            if (dx, dy, dz) != (0, 0, 0) and (pts == 27 or abs(dx) + abs(dy) + abs(dz) == 1)]
    for z in range(Z):
        for y in range(Y):
            for x in range(X):
                u = idx(x, y, z)
                for dx, dy, dz in offs:
                    a, b, c = x + dx, y + dy, z + dz
                    if 0 <= a < X and 0 <= b < Y and 0 <= c < Z:
                        v = idx(a, b, c)
                        lo, hi = min(u, v), max(u, v)
                        w = 1 + (lo * 7 + hi * 13) % 9
                        if abs(dx) + abs(dy) + abs(dz) > 1:
                            w = 1 + w // 4
                        adj[p[u]][p[v]] = w
    m = sum(len(a) for a in adj) // 2
    with open(f"{out}/{name}.graph", "w") as f:
        f.write(f"{n} {m} 001\n")
        for u in range(n):
            f.write(" ".join(f"{v + 1} {w}" for v, w in sorted(adj[u].items())) + "\n")

stencil("st7r-512", (8, 8, 8), 7, True)
stencil("st27-512", (8, 8, 8), 27, False)
stencil("st7-512", (8, 8, 8), 7, False)
stencil("st27r-256", (8, 8, 4), 27, True)
stencil("st7r-2048", (16, 16, 8), 7, True)
stencil("st7r-64", (4, 4, 4), 7, True)
PY

N=0
BAD=0
run() { # case-name args...
    name=$1
    shift
    N=$((N + 1))
    rc=0
    "$TOPOMAP" map --threads "$THREADS" --seed 1 --json --out "$OUT/$name.map" "$@" \
        >"$OUT/$name.raw" 2>"$OUT/$name.err" || rc=$?
    python3 - "$OUT/$name.raw" "$OUT/$name.json" "$rc" <<'PY'
import json, sys
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if not k.endswith("time_s") and k != "out"}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
try:
    with open(sys.argv[1]) as f:
        doc = strip(json.load(f))
except ValueError:
    doc = {"unparsable": open(sys.argv[1]).read()}
doc["exit"] = int(sys.argv[3])
with open(sys.argv[2], "w") as f:
    json.dump(doc, f, indent=1, sort_keys=True)
    f.write("\n")
PY
    rm -f "$OUT/$name.raw"
    [ -f "$OUT/$name.map" ] || : >"$OUT/$name.map"
    if [ "$MODE" = check ]; then
        if cmp -s "$OUT/$name.map" "$DIR/$name.map" && cmp -s "$OUT/$name.json" "$DIR/$name.json"; then
            echo "same       $name"
        else
            echo "DIFFERENT  $name"
            BAD=$((BAD + 1))
        fi
    else
        echo "recorded   $name (exit $rc)"
    fi
}

I=$OUT/inst
X5="--topology topologies/psmn-x5/X5.topofile --node-name-map topologies/psmn-x5/X5.map --slots 12
    --comm topologies/comm/cg-64.size.csv --alloc topologies/psmn-x5/job-64.hostfile"
NET_STRATS="all identity topdown topdown-ms grow greedy recursive rcm"
for s in $NET_STRATS; do
    for r in default none; do
        ref=""
        [ $r = none ] && ref="--refine none"
        run "torus-$s-$r" --topology torus:8x8x8 --comm "$I/st7r-512.graph" --strategy "$s" $ref
        run "fattree-$s-$r" --topology fattree:k=8,n=3 --comm "$I/st27-512.graph" --strategy "$s" $ref
        run "percs-$s-$r" --topology percs:supernodes=16 --comm "$I/st7-512.graph" --strategy "$s" $ref
        # shellcheck disable=SC2086
        run "x5-$s-$r" $X5 --strategy "$s" $ref
    done
done
H="--hierarchy 4:8:8 --distances 1:10:100"
for s in all topdown topdown-c bottomup mm allc; do
    for r in none nc:1 ils:10; do
        # shellcheck disable=SC2086
        run "hier-$s-$r" $H --comm "$I/st27r-256.graph" --strategy "$s" --refine "$r"
    done
done
for s in topdown topdown-c random; do
    for r in none nc:1; do
        # shellcheck disable=SC2086
        run "general-$s-$r" $H --imbalance 0.03 --comm "$I/st7r-2048.graph" --strategy "$s" --refine "$r"
    done
done

# out NAME FILES -- ARGS: `topomap ARGS` run in $OUT (relative paths), then its
# stdout (without the "... in N s" timing line) and each of FILES compared.
out() {
    name=$1
    shift
    files=
    while [ "$1" != -- ]; do files="$files $1"; shift; done
    shift
    N=$((N + 1))
    rc=0
    (cd "$OUT" && rm -f $files && "$TOPOMAP" "$@") >"$OUT/$name.stdout" 2>"$OUT/$name.err" || rc=$?
    sed -i -e 's/ in [0-9.]* s$/ in (time) s/' -e 's/"time_s": [0-9.e+-]*/"time_s": (time)/' "$OUT/$name.stdout"
    echo "exit $rc" >>"$OUT/$name.stdout"
    for f in $files; do
        if [ -f "$OUT/$f" ]; then mv "$OUT/$f" "$OUT/$name.$f"; else : >"$OUT/$name.$f"; fi
    done
    if [ "$MODE" = check ]; then
        same=yes
        for f in stdout $files; do
            cmp -s "$OUT/$name.$f" "$DIR/$name.$f" || same=no
        done
        if [ $same = yes ]; then
            echo "same       $name"
        else
            echo "DIFFERENT  $name"
            BAD=$((BAD + 1))
        fi
    else
        echo "recorded   $name (exit $rc)"
    fi
}
S="study --threads $THREADS --quiet --topology fattree:k=4,n=3 --topology torus:4x4x4
   --comm inst/st7r-64.graph --fail-links 10% --seeds 2 --scale-capacity all=0.5
   --strategy identity,greedy,all --routing ecmp,single"
# shellcheck disable=SC2086
out out-study s.csv s.json -- $S --out s.csv --out s.json
# shellcheck disable=SC2086
out out-study-shard0 s0.csv s0.json -- $S --shard 0/2 --out s0.csv --out s0.json
# shellcheck disable=SC2086
out out-study-shard1 s1.csv s1.json -- $S --shard 1/2 --out s1.csv --out s1.json
out out-study-merge m.csv m.json -- study merge out-study-shard0.s0.json out-study-shard1.s1.json \
    --out m.csv --out m.json
out out-study-merge-csv m.csv -- study merge out-study-shard1.s1.csv out-study-shard0.s0.csv --out m.csv
E="eval --threads $THREADS --topology torus:4x4x4 --comm inst/st7r-64.graph --json"
for f in csv graphml dot; do
    # shellcheck disable=SC2086
    out "out-eval-loads-$f" "loads.$f" -- $E --export-loads "loads.$f"
done
R=$(pwd)
for f in graphml dot ibnetdiscover slurm slurm-yaml simgrid; do
    out "out-topo-$f" "x5.$f" -- topo export --topology "$R/topologies/psmn-x5/X5.topofile" \
        --node-name-map "$R/topologies/psmn-x5/X5.map" --format "$f" --out "x5.$f"
done

if [ "$MODE" = check ]; then
    echo "same-results: $((N - BAD)) of $N cases identical, $BAD different"
    if [ "$BAD" -eq 0 ]; then rm -rf "$OUT"; else echo "same-results: outputs kept in $OUT"; fi
    [ "$BAD" -eq 0 ]
else
    echo "same-results: $N cases recorded in $DIR"
fi
