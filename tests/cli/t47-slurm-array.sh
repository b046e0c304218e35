#!/usr/bin/env bash
# Shards as a Slurm job array, really run (docs/slurm.md "Shards as a job array"): a one-node
# cluster of Debian's slurmctld and slurmd on this host (slurm_cluster.py: private directory,
# free ports, no cgroups) runs examples/slurm/study-array.sh (topomap-array.sh under its
# study name): `sbatch --array=0-2` runs the three shards of a study, and the job that
# depends on them (afterok) merges them into files equal, byte for byte, to the unsharded
# study's.  A shard that fails leaves the merge job cancelled (DependencyNeverSatisfied) and
# no result; a directory that holds shards already is refused.  Then topomap-array.sh runs a
# workload eval in three shards and an as-recorded replay of the X5 day in two, each merged
# into the unsharded command's files (and the replay's page).  Skipped (77) when the daemons
# are not installed (tools/install-deps.sh installs them), the tests do not run as root
# (slurmd starts jobs as their users) or no cgroup filesystem is mounted (slurmd 22.05 stops
# without one: a chroot such as fresh-debian.sh's).
set -eu
. "$(dirname "$0")/lib.sh"
# Not under the sanitizers: the jobs run the plain build's topomap; the merge is t43's.
if sanitized; then
    echo "sanitizer build: tested on the plain build"
    exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
script=$(cd "$here/../../examples/slurm" && pwd)/study-array.sh
generic=$(dirname "$script")/topomap-array.sh
printf '0 2 8\n1 3 4\n' > two.edges
STUDY=(--topology fattree:k=2,n=2,hostcap=100 --comm two.edges --fail-switch sw-l2-001
       --fail-links 50% --seeds 3 --strategy identity,greedy)
expect_exit 0 "$TOPOMAP" study "${STUDY[@]}" --out full.json --out full.csv --report full.html
# the X5 day (its matrix beside it), evaluated at once and replayed as recorded
X=$TOPO_DIR/psmn-x5
sed 's|\.\./comm/||' "$X/jobs-day.txt" > day.txt
cp "$TOPO_DIR/comm/lulesh-64.graphStats.txt" .
WL=(--topology "$X/X5.topofile" --node-name-map "$X/X5.map" --routing minhop)
expect_exit 0 "$TOPOMAP" workload eval "${WL[@]}" --jobs day.txt --out efull.json --out efull.csv
expect_exit 0 "$TOPOMAP" workload replay "${WL[@]}" --trace day.txt --policy as-recorded \
    --out rfull.json --out rfull.csv --report rfull.html
# a topomap that fails in array task 1 (the second submission)
cat > failing-topomap.sh <<F
#!/bin/sh
[ "\${SLURM_ARRAY_TASK_ID:-}" = 1 ] && { echo "task 1 fails on purpose" >&2; exit 3; }
exec "$TOPOMAP" "\$@"
F
chmod +x failing-topomap.sh
# wait_jobs ID...: until squeue lists none of them (120 s at most)
cat > inside.sh <<F
set -eu
wait_jobs() {
    for i in \$(seq 1 600); do
        [ -z "\$(squeue -h -j "\$(echo "\$@" | tr ' ' ,)" 2>/dev/null)" ] && return 0
        sleep 0.2
    done
    echo "jobs \$* still queued after 120 s:"; squeue; exit 1
}
state() { scontrol show job "\$1" | grep -o 'JobState=[A-Z_]*' | head -1; }
# 1. three shards and the merge
set -- \$(TOPOMAP="$TOPOMAP" "$script" 3 run ${STUDY[*]})
echo "array \$1, merge \$2"
# the merge job waits for the array
scontrol show job "\$2" | grep -q "Dependency=afterok:\$1" || { scontrol show job "\$2"; exit 1; }
wait_jobs "\$1" "\$2"
[ "\$(state "\$2")" = JobState=COMPLETED ] || { scontrol show job "\$2"; cat run/merge.log; exit 1; }
for k in 0 1 2; do [ -s run/shard-\$k.json ] && [ -s run/shard-\$k.csv ]; done
cat run/merge.log
# 2. the same directory again: refused before anything is submitted
if TOPOMAP="$TOPOMAP" "$script" 3 run ${STUDY[*]} 2>err.txt; then echo "a used directory was accepted"; exit 1; fi
grep -q "already holds shard files" err.txt
# 3. task 1 fails: the merge never runs
set -- \$(TOPOMAP="\$PWD/failing-topomap.sh" "$script" 3 fail ${STUDY[*]})
wait_jobs "\$1" "\$2"
scontrol show job "\$2" | grep -q 'JobState=CANCELLED.*Reason=DependencyNeverSatisfied' ||
    { scontrol show job "\$2"; exit 1; }
grep -q "task 1 fails on purpose" fail/shard-1.log
[ ! -e fail/study.json ] && [ -s fail/shard-0.json ] && [ -s fail/shard-2.json ]
# 4. a workload eval in three shards, an as-recorded replay in two
set -- \$(TOPOMAP="$TOPOMAP" "$generic" 3 ev workload eval ${WL[*]} --jobs day.txt)
e1=\$1 e2=\$2
set -- \$(TOPOMAP="$TOPOMAP" "$generic" 2 rp workload replay ${WL[*]} --trace day.txt --policy as-recorded)
wait_jobs "\$e1" "\$e2" "\$1" "\$2"
for j in "\$e2" "\$2"; do
    [ "\$(state "\$j")" = JobState=COMPLETED ] || { scontrol show job "\$j"; cat ev/merge.log rp/merge.log; exit 1; }
done
cat ev/merge.log rp/merge.log | grep merged
F
# 77 from slurm_cluster.py: no cluster can be had here (its reason on stdout)
set +e
python3 "$here/slurm_cluster.py" . -- bash inside.sh > stdout.txt 2> stderr.txt
rc=$?
set -e
OUT=$(cat stdout.txt); ERR=$(cat stderr.txt)
[ $rc -ne 77 ] || { echo "$OUT"; exit 77; }
[ $rc -eq 0 ] || { echo "slurm_cluster.py: exit $rc"; echo "stdout: $OUT"; echo "stderr: $ERR"; exit 1; }
echo "$OUT" | tail -3
cmp run/study.json full.json
cmp run/study.csv full.csv
cmp run/study.html full.html
expect_in "runs, merged from 3 shards" "$(cat run/merge.log)"
cmp ev/eval.json efull.json
cmp ev/eval.csv efull.csv
[ ! -e ev/eval.html ]
cmp rp/replay.json rfull.json
cmp rp/replay.csv rfull.csv
cmp rp/replay.html rfull.html
expect_in "35 rows of a workload eval from 3 shards" "$(cat ev/merge.log)"
expect_in "35 rows of a workload replay from 2 shards" "$(cat rp/merge.log)"
