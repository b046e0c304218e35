# lib.sh - helpers for CLI tests (sourced).
# expect_exit CODE cmd...  : runs cmd, fails unless it exits with CODE; output in $OUT / $ERR
expect_exit() {
    local want=$1; shift
    set +e
    "$@" >stdout.txt 2>stderr.txt
    local rc=$?
    set -e
    OUT=$(cat stdout.txt); ERR=$(cat stderr.txt)
    if [ "$rc" -ne "$want" ]; then
        echo "expected exit $want, got $rc: $*"; echo "stdout: $OUT"; echo "stderr: $ERR"; exit 1
    fi
}
# expect_in TEXT HAYSTACK
expect_in() {
    case "$2" in *"$1"*) ;; *) echo "expected '$1' in: $2"; exit 1;; esac
}
# json_get KEY (from stdin): prints the value with python3
json_get() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval('d'+sys.argv[1]))" "$1"; }
# json_py EXPR (from stdin): evaluates a Python expression over the object d
json_py() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
# sanitized: true when the topomap under test is a sanitizer build (make test-asan), whose
# runs cost several times more: long sweeps are cut there, or the test is left to the plain build
sanitized() {
    nm -D --undefined-only "$(dirname "${TOPOMAP_REAL:-$TOPOMAP}")/libtopomap.so" 2>/dev/null |
        grep -q -E '__(asan|tsan|ubsan)_'
}
# spmv512_edges: an SpMV-like random graph of 512 tasks (12 partners each, volumes 1-100,
# seed 3) as an edge list (t82, t83)
spmv512_edges() {
    python3 - <<'P'
import random
r = random.Random(3)
n = 512
for u in range(n):
    for k in range(12):
        v = r.randrange(n)
        if v != u:
            print(u, v, r.randint(1, 100))
P
}
# stencil_edges N: the 3D 7-point stencil on an N^3 grid of tasks as an edge
# list (each neighbour pair both ways, volume 1); task x + N*(y + N*z)
stencil_edges() {
    python3 - "$1" <<'P'
import sys
n = int(sys.argv[1])
def idx(x, y, z): return x + n * (y + n * z)
for z in range(n):
    for y in range(n):
        for x in range(n):
            for dx, dy, dz in ((1,0,0),(-1,0,0),(0,1,0),(0,-1,0),(0,0,1),(0,0,-1)):
                a, b, c = x + dx, y + dy, z + dz
                if 0 <= a < n and 0 <= b < n and 0 <= c < n:
                    print(idx(x, y, z), idx(a, b, c), 1)
P
}

# mpi_run DIR NP [VAR=VALUE ...] -- PROG ARGS: PROG on NP ranks with the launcher of the MPI
# that DIR was built for (BUILD/mpi-<mpi>/); the variables reach the ranks through env(1),
# whatever the launcher forwards by itself (t60-mpi.sh, t62-record.sh).
mpi_run() {
    local dir=$1 np=$2; shift 2
    local vars=()
    while [ "$1" != "--" ]; do vars+=("$1"); shift; done
    shift
    case $(basename "$dir") in
    mpi-openmpi) set -- mpirun.openmpi --allow-run-as-root --oversubscribe \
                     --mca mpi_yield_when_idle 1 -np "$np" env "${vars[@]}" "$@" ;;
    mpi-mpich)   set -- mpirun.mpich -np "$np" env "${vars[@]}" "$@" ;;
    *)           set -- mpirun -np "$np" env "${vars[@]}" "$@" ;;
    esac
    expect_exit 0 timeout 120 "$@"
}
