#!/usr/bin/env bash
# map --strategy identity writes every format atomically.
set -eu
. "$(dirname "$0")/lib.sh"
d=$TM_TEST_DATA/cli
expect_exit 0 "$TOPOMAP" map --topology $d/star.graphml --comm $d/three.edges --strategy identity --out r.txt
expect_in "max congestion" "$OUT"
diff r.txt - <<'X'
rank 0=a slot=0
rank 1=a slot=1
rank 2=b slot=0
X
expect_exit 0 "$TOPOMAP" map --topology $d/star.graphml --comm $d/three.edges --strategy identity --hostnames full
expect_in "rank 0=a.cluster.example slot=0" "$OUT"
expect_exit 0 "$TOPOMAP" map --topology $d/star.graphml --comm $d/three.edges --strategy identity --format mpich
[ "$OUT" = "$(printf 'a:2\nb:1')" ]
expect_exit 0 "$TOPOMAP" map --topology $d/star.graphml --comm $d/three.edges --strategy identity --format slurm
[ "$OUT" = "$(printf 'a\na\nb')" ]
expect_exit 0 "$TOPOMAP" map --topology $d/star.graphml --comm $d/three.edges --strategy identity --json --out r2.txt
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 1 ]
cmp r.txt r2.txt
# a failing run leaves an existing output untouched and no temporary file
echo precious > keep.txt
expect_exit 3 "$TOPOMAP" map --topology $d/star.graphml --comm $d/three.edges --alloc b,c --out keep.txt
[ "$(cat keep.txt)" = precious ]
[ -z "$(ls -A | grep '\.tmp\.')" ]
# the mapping read back evaluates to the same figures
expect_exit 0 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges --mapping r.txt --json
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 1 ]
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 1 ]
# hierarchy mode
expect_exit 0 "$TOPOMAP" map --hierarchy 2:2 --distances 1:10 --comm $d/hier.edges --strategy identity --out pe.txt --json
[ "$(echo "$OUT" | json_get "['J']")" = 40 ]
[ "$(cat pe.txt)" = "$(printf '0\n1\n2')" ]
expect_exit 3 "$TOPOMAP" map --hierarchy 2 --distances 1 --comm $d/hier.edges
# --format mpich warns when a host appears on several machinefile lines
# (Hydra: one proxy per line, docs/mpi.md "Launchers"); grouped: silent
expect_exit 0 "$TOPOMAP" map --topology 'torus:2x2,slots=2' --comm $d/pairs.edges --format mpich \
    --out mf.txt
expect_in "warning: 4 hosts (e.g. n000" "$ERR"
expect_in ") appear on several lines of the machinefile" "$ERR"
[ "$(wc -l < mf.txt)" -eq 8 ]
expect_exit 0 "$TOPOMAP" map --topology 'torus:2x2,slots=2' --comm $d/pairs.edges --format mpich \
    --strategy identity --refine none --out mf.txt
[ "$ERR" = "" ] || { echo "unexpected stderr: $ERR"; exit 1; }
[ "$(cat mf.txt)" = "$(printf 'n0000:2\nn0001:2\nn0002:2\nn0003:2')" ]
# a grid host holding more than half of the slots (hostfile slots=5 next to
# slots=1): topdown's coordinate bisection still gives both halves a host
# (it recursed without end before: a crash)
printf 'n0000 slots=1\nn0001 slots=5\n' > uneven.hosts
printf '0 1 10\n1 2 10\n2 3 10\n3 4 10\n4 5 10\n' > chain6.edges
for s in topdown all; do
    expect_exit 0 "$TOPOMAP" map --topology 'torus:2,slots=5' --alloc uneven.hosts \
        --comm chain6.edges --strategy $s --refine none --format plain --out u.txt
    [ "$(grep -c n0000 u.txt)" = 1 ] && [ "$(grep -c n0001 u.txt)" = 5 ]
done
