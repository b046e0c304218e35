#!/usr/bin/env bash
# The cluster's state from saved copies (--slurm-state DIR; docs/workload.md "Live state"):
# real Slurm 22.05 output (tests/data/slurm-state/22.05, steps hand-made) and the form of later
# releases (numbers as {"set", "number"}, states as lists: 23.11-form, hand-made from
# data_parser v0.0.40): which jobs run, on which nodes, with how many tasks (the largest numbered
# step first) and what they send (the comment's tag); which nodes are free (drained, planned,
# reserved, busy: not; --slurm-partition); malformed copies are exit 2 with file:line (or the
# member) and nothing written; usage errors exit 1.  The same against the real controller:
# t49-slurm-hook.sh.
set -eu
. "$(dirname "$0")/lib.sh"
S=$TM_TEST_DATA/slurm-state
cat > fab.xml <<'EOF'
<topology version="1" capacity="100">
  <switch name="s1"/><switch name="s2"/><switch name="top"/>
  <host names="n[01-08]" slots="4"/>
  <link a="n[01-04]" b="s1"/>
  <link a="n[05-08]" b="s2"/>
  <link a="s1,s2" b="top"/>
</topology>
EOF
T="--topology fab.xml"

step "22.05: the jobs that hold nodes, their tasks and tags"
expect_exit 0 "$TOPOMAP" workload eval $T --slurm-state "$S/22.05" --json
echo "$OUT" | json_py "([(j['job'], j['nodes'], j['n_tasks'], j['comm']) for j in d['jobs']] == [
    ('1', 'n[05-06]', 4, 'ring:4MiB'), ('2', 'n07', 2, 'stencil3d:1MiB'),
    ('3_0', 'n01', 1, 'stencil3d:1MiB'), ('3_1', 'n02', 1, 'stencil3d:1MiB')]
    and d['skipped_not_started'] == 1 and d['jobs_file'] == '$S/22.05')" | grep -qx True ||
    { echo "22.05 jobs: $OUT"; exit 1; }
expect_exit 0 "$TOPOMAP" alloc $T --slurm-state "$S/22.05" --nodes 2 --json
echo "$OUT" | json_py "d['free_nodes'] == 2 and d['running_jobs'] == 4 and d['nodes'] == 'n[03-04]'" |
    grep -qx True || { echo "22.05 alloc: $OUT"; exit 1; }
# three nodes are not free
expect_exit 3 "$TOPOMAP" alloc $T --slurm-state "$S/22.05" --nodes 3

step "23.11 form: lists, {set, number}, array and heterogeneous ids, nodes off the fabric"
expect_exit 0 "$TOPOMAP" workload eval $T --slurm-state "$S/23.11-form" --json --verbose
echo "$OUT" | json_py "([(j['job'], j['nodes'], j['n_tasks'], j['comm']) for j in d['jobs']] == [
    ('10', 'n[03-04]', 8, 'alltoall:64KiB'), ('12+1', 'n05', 2, 'stencil3d:1MiB')]
    and d['skipped_not_started'] == 2)" | grep -qx True || { echo "23.11 jobs: $OUT"; exit 1; }
expect_in "job 12+1: comment 'topomap:ring:bad'" "$ERR"
expect_in "the default Comm is used" "$ERR"
expect_in "job 14: node 'login1' is not in the fabric" "$ERR"
expect_exit 0 "$TOPOMAP" alloc $T --slurm-state "$S/23.11-form" --nodes 2
[ "$OUT" = "n[01,06]" ] || { echo "23.11 free nodes: $OUT"; exit 1; }
expect_exit 0 "$TOPOMAP" alloc $T --slurm-state "$S/23.11-form" --nodes 1 --slurm-partition short \
    --exclude n01
[ "$OUT" = "n06" ] || { echo "--slurm-partition short --exclude n01: $OUT"; exit 1; }
expect_exit 3 "$TOPOMAP" alloc $T --slurm-state "$S/23.11-form" --nodes 1 --slurm-partition gpu

step "a tag naming a matrix: relative to the job's folder, its task count checked"
mkdir -p tagdir/home
cp -r "$S/22.05" tagdir/state
python3 - tagdir <<'P'
import json, os, sys
d = sys.argv[1]
p = os.path.join(d, 'state', 'jobs.json')
j = json.load(open(p))
for job in j['jobs']:
    job['current_working_directory'] = os.path.abspath(os.path.join(d, 'home'))
    if job['job_id'] == 1:
        job['comment'] = 'topomap:app.edges'
    if job['job_id'] == 2:
        job['comment'] = 'topomap:app.edges'   # 2 tasks: not the matrix's 4
json.dump(j, open(p, 'w'))
open(os.path.join(d, 'home', 'app.edges'), 'w').write('0 1 100\n1 2 100\n2 3 100\n')
P
expect_exit 0 "$TOPOMAP" workload eval $T --slurm-state tagdir/state --json --verbose
echo "$OUT" | json_py "[j['comm'] for j in d['jobs']][:2] == ['$PWD/tagdir/home/app.edges', 'stencil3d:1MiB']" |
    grep -qx True || { echo "matrix tags: $OUT"; exit 1; }
expect_in "job 2: comment 'topomap:app.edges': the matrix has 4 tasks, the job 2" "$ERR"

step "--slurm-state-max-age"
cp -r "$S/22.05" old
touch -d '2 hours ago' old/jobs.json
expect_exit 2 "$TOPOMAP" alloc $T --slurm-state old --slurm-state-max-age 300 --nodes 1
expect_in "old/jobs.json: the snapshot is" "$ERR"
expect_exit 0 "$TOPOMAP" alloc $T --slurm-state old --slurm-state-max-age 86400 --nodes 1

step "usage errors"
expect_exit 1 "$TOPOMAP" workload eval $T --slurm-state old --jobs "$TM_TEST_DATA/workload/x5-jobs.txt"
expect_in "give one" "$ERR"
expect_exit 1 "$TOPOMAP" workload eval $T
expect_exit 1 "$TOPOMAP" alloc $T --nodes 1 --slurm-partition all
expect_exit 1 "$TOPOMAP" alloc $T --nodes 1 --slurm-state-max-age 10 --slurm
expect_exit 1 "$TOPOMAP" workload eval $T --slurm-state old --shard 0/2 --out s.json
expect_exit 1 "$TOPOMAP" slurm snapshot
expect_exit 1 "$TOPOMAP" slurm snapshot a b
expect_exit 1 "$TOPOMAP" slurm nosuch
expect_exit 1 "$TOPOMAP" slurm snapshot d --timeout 0

step "snapshot: a controller that cannot be reached writes nothing"
mkdir snapdir
SLURM_CONF=$PWD/no-such-slurm.conf expect_exit 2 "$TOPOMAP" slurm snapshot snapdir --timeout 2
[ -z "$(ls snapdir)" ] || { echo "snapshot wrote: $(ls snapdir)"; exit 1; }
[ "$(echo "$ERR" | wc -l)" = 1 ] || { echo "not one line: $ERR"; exit 1; }

step "malformed copies: exit 2, one line naming the file and where, nothing written"
n=0
bad() { # NAME FILE 'python edit of s (the file's text)' EXPECTED-MESSAGE
    local name=$1 file=$2 edit=$3 want=$4
    rm -rf "bad-$name"; cp -r "$S/22.05" "bad-$name"
    python3 -c "
import sys; p = sys.argv[1]; s = open(p).read()
$edit
open(p, 'w').write(s)" "bad-$name/$file"
    expect_exit 2 "$TOPOMAP" workload eval $T --slurm-state "bad-$name" --out "bad-$name.json"
    expect_in "$want" "$ERR"
    [ -z "$OUT" ] && [ "$(echo "$ERR" | wc -l)" = 1 ] && [ ! -e "bad-$name.json" ] ||
        { echo "$name: stdout '$OUT', stderr '$ERR'"; ls; exit 1; }
    n=$((n + 1))
}
bad syntax nodes.json "s = s.replace('\"nodes\": [', '\"nodes\": [,', 1)" "bad-syntax/nodes.json:18: unexpected token"
bad no-list nodes.json "s = s.replace('\"nodes\": [', '\"nodez\": [', 1)" "bad-no-list/nodes.json: not Slurm's JSON: no 'nodes' list"
bad no-name nodes.json "s = s.replace('\"name\": \"n03\"', '\"name\": 3', 1)" "bad-no-name/nodes.json: nodes[2]: 'name' is missing or not a name"
bad state-type nodes.json "s = s.replace('\"state\": \"idle\"', '\"state\": 7', 1)" "nodes[2]: 'state' is not a string or a list of strings"
bad flags nodes.json "s = s.replace('\"CLOUD\",', '3,', 1)" "nodes[0]: 'state_flags' is not a string or a list"
bad empty-jobs jobs.json "s = ''" "bad-empty-jobs/jobs.json:1: "
bad job-id jobs.json "s = s.replace('\"job_id\": 1,', '\"job_id\": \"1\",', 1)" "bad-job-id/jobs.json: jobs[0]: 'job_id' is not a number"
bad no-job-id jobs.json "s = s.replace('\"job_id\": 1,', '', 1)" "jobs[0]: 'job_id' is missing"
bad job-state jobs.json "s = s.replace('\"job_state\": \"CONFIGURING\"', '\"job_state\": {}', 1)" "jobs[0]: 'job_state' is not a string or a list"
bad tasks jobs.json "s = s.replace('\"tasks\": 6', '\"tasks\": -5', 1)" "jobs[0]: 'tasks' is out of range"
bad nodes-type jobs.json "s = s.replace('\\n      \"nodes\": \"n[05-06]\"', '\\n      \"nodes\": [\"n05\"]', 1)" "jobs[0]: 'nodes' is not a string"
bad hostlist jobs.json "s = s.replace('\\n      \"nodes\": \"n[05-06]\"', '\\n      \"nodes\": \"n[05-\"', 1)" "bad-hostlist/jobs.json: jobs[0] (job 1): nodes"
bad start jobs.json "s = s.replace('\"start_time\": ', '\"start_time\": \"x\", \"s\": ', 1)" "jobs[0]: 'start_time' is not a number"
bad dup-key jobs.json "s = s.replace('\"job_id\": 1,', '\"job_id\": 1, \"job_id\": 2,', 1)" "bad-dup-key/jobs.json:"
bad steps-header steps.txt "s = s.replace('STEPID', 'STEP')" "bad-steps-header/steps.txt:1: not the header STEPID|TASKS|NODELIST"
bad steps-count steps.txt "s = s.replace('1.0|4|', '1.0|four|')" "bad-steps-count/steps.txt:4: step 1.0: TASKS 'four' is not a count"
bad steps-fields steps.txt "s = s.replace('2.0|2|n07', '2.0|2')" "bad-steps-fields/steps.txt:6: 2 fields"
bad steps-id steps.txt "s = s.replace('2.0|', '2|')" "bad-steps-id/steps.txt:6: step id '2' is not JOB.STEP"
bad steps-empty steps.txt "s = ''" "bad-steps-empty/steps.txt:1: empty"
rm -rf bad-nodes; cp -r "$S/22.05" bad-nodes; rm bad-nodes/nodes.json
expect_exit 2 "$TOPOMAP" alloc $T --slurm-state bad-nodes --nodes 1
expect_in "bad-nodes/nodes.json: cannot open" "$ERR"
echo "$n malformed copies refused"
