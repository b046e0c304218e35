# lib.sh - helpers for CLI tests (sourced).

# Which step of the test failed: tests/cli/run.sh puts the line "step failed: ..." into the
# summary of `make test`.  The step is the line of the test script that was running (a DEBUG
# trap follows the script's own lines; functions, subshells and trap code do not move it),
# labelled with the last `step LABEL` the script gave before it, else with the nearest comment
# above the line.  Exit 77 (skipped) and 0 print nothing.
TM_STEP_LINE=0 TM_STEP_LABEL= TM_STEP_LABEL_LINE=0
# step LABEL: names the steps that follow (until the next step)
step() { TM_STEP_LABEL=$*; TM_STEP_LABEL_LINE=${BASH_LINENO[0]}; }
tm__step_exit() {
    local rc=$? script=$0 label=$TM_STEP_LABEL text
    [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || [ "$TM_STEP_LINE" -eq 0 ] || [ ! -r "$script" ] && return
    text=$(sed -n "${TM_STEP_LINE}p" "$script" | sed 's/^[[:space:]]*//' | cut -c1-110)
    # no step given yet: the nearest comment above the line
    if [ "$TM_STEP_LABEL_LINE" -eq 0 ] || [ "$TM_STEP_LABEL_LINE" -gt "$TM_STEP_LINE" ]; then
        label=$(head -n "$TM_STEP_LINE" "$script" | grep -n '^[[:space:]]*#[^!]' | tail -n 1 |
            sed 's/^[0-9]*:[[:space:]]*#*[[:space:]]*//; s/[[:space:]-]*$//' | cut -c1-90)
    fi
    echo "step failed: $(basename "$script"):$TM_STEP_LINE [${label:-no label}]: $text (exit $rc)" >&2
}
trap '[ "$LINENO" -le 1 ] || [ "${BASH_SOURCE[0]:-}" != "$0" ] || TM_STEP_LINE=$LINENO' DEBUG
trap tm__step_exit EXIT
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
