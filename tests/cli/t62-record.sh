#!/usr/bin/env bash
# TOPOMAP_RECORD in the PMPI shim under the real launchers (Open MPI and
# MPICH): tests/mpi/record_pattern.c sends a known pattern (every kind of
# point-to-point send, sub- and intercommunicators, persistent requests,
# neighbourhood collectives, every collective) and
# tests/mpi/record_expect.py, which computes the pattern independently,
# compares the recorded matrices and JSON exactly, for every collective
# algorithm (2, 5 and 8 ranks), and that the phases (FILE.phases) add
# up to the matrix; tests/mpi/record_phases.c's phases are exactly the
# expected ones (tests/mpi/record_phases.py) and `eval --comm-phases` reads
# them, and tests/mpi/record_waits.c's MPI_Waitall / MPI_Sendrecv cuts are kept when
# every process makes them, dropped when not.  Then: `topomap eval/map --comm` read the
# file, recording and reordering in one run (halo3d: task and world
# numbering), bad settings and an
# unwritable file is one warning and the job succeeds.  Skipped only when
# `make` found no mpicc (TOPOMAP_MPI_DIRS empty).
set -eu
. "$(dirname "$0")/lib.sh"
if [ -z "${TOPOMAP_MPI_DIRS:-}" ]; then
    echo "no MPI build (no mpicc found by make)"
    exit 77
fi
HERE=$(cd "$(dirname "$0")" && pwd)
EXPECT=$HERE/../mpi/record_expect.py
PHASES=$HERE/../mpi/record_phases.py


for dir in $TOPOMAP_MPI_DIRS; do
    shim=$dir/libtopomap_pmpi.so
    # the exact pattern: every algorithm on 5 ranks (sub-communicators of 3
    # and 2), the two that differ on powers of two on 8 (sub-communicators
    # of 4), skip on 2 (sub-communicators of one rank).  Few ranks: the jobs
    # share 2 cores, and MPICH's ranks poll without yielding (16 ranks took
    # 6 s a run)
    for case in 5:auto 5:skip 5:ring 5:recursive-doubling 5:binomial \
                8:auto 8:recursive-doubling 2:skip; do
        np=${case%%:*} algo=${case#*:}
        rm -f rec.mtx rec.mtx.json rec.mtx.messages.mtx rec.mtx.phases
        mpi_run "$dir" "$np" LD_PRELOAD="$shim" TOPOMAP_RECORD=rec.mtx \
            TOPOMAP_RECORD_COLLECTIVES="$algo" -- "$dir/record_pattern"
        expect_in "record_pattern: $np ranks done" "$OUT"
        [ -z "$ERR" ] || { echo "stderr: $ERR"; exit 1; }
        python3 "$EXPECT" "$np" "$algo" rec.mtx
        python3 "$PHASES" sum rec.mtx
        [ "$(ls -a | grep -c 'tmp')" = 0 ]    # no temporary file left
        [ "$case" != 8:auto ] || cp rec.mtx rec8.mtx
    done

    # topomap reads the recorded file: 8 ranks on a 2x4 torus
    "$TOPOMAP" eval --topology torus:2x4 --comm rec8.mtx --json > ev.json
    [ "$(json_py 'd["max_congestion"] > 0' < ev.json)" = True ]
    "$TOPOMAP" map --topology torus:2x4 --comm rec8.mtx --format openmpi --out rank.txt > /dev/null
    [ "$(grep -c '^rank ' rank.txt)" = 8 ]

    # phases of a known program: a ring 3 times, each followed by an
    # allreduce, then an all-to-all, then sends to the left neighbour
    for case in 5:auto 5:skip 8:auto; do
        np=${case%%:*} algo=${case#*:}
        rm -f ph.mtx*
        mpi_run "$dir" "$np" LD_PRELOAD="$shim" TOPOMAP_RECORD=ph.mtx \
            TOPOMAP_RECORD_COLLECTIVES="$algo" -- "$dir/record_phases"
        expect_in "record_phases: $np ranks done" "$OUT"
        python3 "$PHASES" expect "$np" "$algo" ph.mtx
        [ "$(json_py 'd["phases"].endswith("ph.mtx.phases") and d["phase_runs"] == 8 - 4 * ("'"$algo"'" == "skip")' < ph.mtx.json)" = True ]
    done
    # 1000 iterations: still four phases, the loop's two with repeat 1000
    # (2 ranks: with 3 on the 2 cores MPICH's polling made this run 8 s)
    mpi_run "$dir" 2 LD_PRELOAD="$shim" TOPOMAP_RECORD=loop.mtx -- "$dir/record_phases" 1000
    python3 "$PHASES" expect 2 auto loop.mtx 1000
    [ "$(grep -c '^phase ' loop.mtx.phases)" = 4 ]
    # est_time_s from the phases: the sum of each phase's time, more than the
    # one exchange of the whole matrix here (the ring's three runs do not
    # overlap)
    "$TOPOMAP" eval --topology torus:4x4 --comm ph.mtx --json > whole.json
    "$TOPOMAP" eval --topology torus:4x4 --comm ph.mtx --comm-phases ph.mtx.phases --json > ph.json
    python3 - whole.json ph.json <<'PY'
import json, sys
w, p = (json.load(open(f)) for f in sys.argv[1:])
assert p["est_time_s"] > w["est_time_s"] > 0, (p["est_time_s"], w["est_time_s"])
assert p["max_congestion"] == w["max_congestion"]   # the other figures: the whole matrix
assert p["time_lower_bound_s"] <= p["est_time_s"]
PY

    # MPI_Waitall and MPI_Sendrecv cut the phases too (record_waits: exchanges A, B, C
    # then an allreduce, 3 times): four phases of repeat 3; when rank 0 makes one more
    # MPI_Waitall the cuts do not line up and only the collectives cut (two phases)
    for skew in "" skew; do
        rm -f w.mtx*
        mpi_run "$dir" 5 LD_PRELOAD="$shim" TOPOMAP_RECORD=w.mtx -- "$dir/record_waits" 3 $skew
        expect_in "record_waits: 5 ranks done" "$OUT"
        python3 "$PHASES" sum w.mtx
        python3 - w.mtx "$skew" <<'PY'
import json, sys
path, skew = sys.argv[1], sys.argv[2]
lines = [l.split() for l in open(path + ".phases") if l.strip() and not l.startswith("%")]
phases, at = [], 1
for _ in range(int(lines[0][1])):
    rep, m = int(lines[at][1]), int(lines[at][2])
    phases.append((rep, {(int(a) - 1, int(b) - 1): float(w) for a, b, w in lines[at + 1:at + 1 + m]}))
    at += 1 + m
P = 5
A = {(r, d): 100.0 for r in range(P) for d in ((r + 1) % P, (r - 1) % P)}
B = {(r, (r + 1) % P): 300.0 for r in range(P)}
C = {(r, (r + 2) % P): 50.0 for r in range(P)}
d = json.load(open(path + ".json"))
p2p = [e for rep, e in phases if all(w >= 50 for w in e.values())]
if skew:
    ABC = {k: A.get(k, 0) + B.get(k, 0) + C.get(k, 0) for k in set(A) | set(B) | set(C)}
    assert p2p == [ABC], phases
    assert d["phase_cuts"] == "collectives", d["phase_cuts"]
else:
    assert p2p == [A, B, C], phases
    assert d["phase_cuts"] == "collectives, MPI_Waitall, MPI_Sendrecv", d["phase_cuts"]
assert all(rep == 3 for rep, e in phases), [rep for rep, e in phases]
assert len(phases) == len(p2p) + 1   # + the allreduce's pattern
PY
    done

    # a bad algorithm name: one warning, auto used
    mpi_run "$dir" 2 LD_PRELOAD="$shim" TOPOMAP_RECORD=rec.mtx TOPOMAP_RECORD_COLLECTIVES=fast -- \
        "$dir/record_pattern"
    expect_in "TOPOMAP_RECORD_COLLECTIVES=fast is not" "$ERR"
    python3 "$EXPECT" 2 auto rec.mtx

    # cannot write: one warning, exit 0, no file
    mpi_run "$dir" 2 LD_PRELOAD="$shim" TOPOMAP_RECORD=no/such/dir/rec.mtx -- "$dir/record_pattern"
    [ "$(echo "$ERR" | grep -c 'topomap: warning: TOPOMAP_RECORD')" = 1 ]
    [ ! -e no ]

    # MPI_THREAD_MULTIPLE: 4 threads per process send at once, no update lost
    mpi_run "$dir" 3 LD_PRELOAD="$shim" TOPOMAP_RECORD=thr.mtx -- "$dir/record_threads" 4 100
    expect_in "record_threads: 3 ranks x 4 threads x 100 messages done" "$OUT"
    python3 - thr.mtx <<'PY'
import json, sys
def mtx(p):
    rows = [l.split() for l in open(p) if not l.startswith("%")][1:]
    return {(int(a), int(b)): float(c) for a, b, c in rows}
ring = {(w + 1, (w + 1) % 3 + 1) for w in range(3)}
assert mtx(sys.argv[1]) == {k: 100 * 4 * 10.0 for k in ring}, mtx(sys.argv[1])
assert mtx(sys.argv[1] + ".messages.mtx") == {k: 400.0 for k in ring}
assert json.load(open(sys.argv[1] + ".json"))["thread_level"] == "MPI_THREAD_MULTIPLE"
PY

    # recording and reordering in one run: halo3d on 8 scattered hosts of a
    # torus.  topomap's own collectives are not recorded; each block sends
    # 8^2 doubles per face and iteration to each neighbour block.  Default
    # numbering: tasks (the ranks of the reordered communicator, the blocks:
    # what a rankfile for the next run places); TOPOMAP_RECORD_RANKS=world:
    # the world ranks that ran them (report: owner[v] ran block v).
    for i in $(seq 0 7); do printf 'n%04d\n' $(( (i * 3) % 8 )); done > h8
    for ranks in task world; do
        mpi_run "$dir" 8 LD_PRELOAD="$shim" TOPOMAP_TOPOLOGY=torus:2x4 TOPOMAP_HOSTS=h8 \
            TOPOMAP_REPORT=rep.json TOPOMAP_RECORD=halo.mtx TOPOMAP_RECORD_COLLECTIVES=skip \
            TOPOMAP_RECORD_RANKS=$ranks -- "$dir/halo3d" 8 2
        expect_in "0 wrong" "$OUT"
        python3 - halo.mtx rep.json $ranks <<'PY'
import json, sys
rows = [l.split() for l in open(sys.argv[1]) if not l.startswith("%")][1:]
m = {(int(i) - 1, int(j) - 1): float(v) for i, j, v in rows}
rep, d = json.load(open(sys.argv[2])), json.load(open(sys.argv[1] + ".json"))
owner = rep["owner"]             # owner[v]: world rank that ran block v
assert owner != list(range(8)) and d["reorderings"] == 1, (owner, d["reorderings"])
lab = (lambda v: v) if sys.argv[3] == "task" else (lambda v: owner[v])
want = {(lab(u), lab(v)): 2 * 64 * 8.0 for u, v, w in rep["edges"]}
assert m == want, (sorted(m.items())[:8], sorted(want.items())[:8])
if sys.argv[3] == "task":
    assert d["numbering"] == "task" and d["task_call"] == "MPI_Dist_graph_create_adjacent"
    assert [d["task_of_world_rank"][owner[v]] for v in range(8)] == list(range(8))
else:
    assert d["numbering"] == "MPI_COMM_WORLD" and "task_of_world_rank" not in d
assert set(d["calls"]) == {"MPI_Neighbor_alltoall", "MPI_Allreduce", "MPI_Barrier"}, d["calls"]  # halo3d times its exchange between barriers
assert d["calls"]["MPI_Allreduce"]["messages"] == 0   # skip: calls only
# one phase: the neighbourhood all-to-all of one iteration, twice
ph = [l.split() for l in open(sys.argv[1] + ".phases") if not l.startswith("%")]
assert ph[0] == ["8", "1"] and ph[1][:2] == ["phase", "2"], ph[:2]
got = {(int(i) - 1, int(j) - 1): 2 * float(v) for i, j, v in ph[2:]}
assert got == want, (sorted(got.items())[:8], sorted(want.items())[:8])
PY
    done
done
