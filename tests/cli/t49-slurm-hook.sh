#!/usr/bin/env bash
# The submit hook (contrib/slurm/job_submit.lua) and the live Slurm state in the real
# controller: Debian's slurmctld 22.05 with JobSubmitPlugins=lua, nodes State=CLOUD, no slurmd
# (tests/cli/slurm_hook.py): `workload eval --slurm` / `alloc --slurm` and their snapshot see
# the jobs that hold nodes (tasks, comment tags) and neither the pending job nor drained or busy
# nodes; tagged jobs get exactly the nodes `topomap alloc` names (ReqNodeList); untagged jobs,
# a topomap that does not answer within the timeout, a missing snapshot, a tag with shell
# characters and a job without -N are untouched and logged; the controller keeps accepting jobs;
# a job's tasks from its step, in a one-node cluster with slurmd (slurm_cluster.py).
# Skipped (77) only when slurmctld, sbatch or the job_submit/lua plugin is not installed.
set -eu
. "$(dirname "$0")/lib.sh"
if sanitized; then
    echo "sanitizer build: tested on the plain build"
    exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
for t in slurmctld sbatch scontrol squeue sinfo; do
    command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] ||
        { echo "$t not installed (tools/install-deps.sh installs slurmctld and slurm-client)"; exit 77; }
done
ls /usr/lib/*/slurm-wlm/job_submit_lua.so >/dev/null 2>&1 ||
    { echo "job_submit_lua.so not installed (Debian: slurm-wlm-basic-plugins)"; exit 77; }
python3 "$here/slurm_hook.py" . "$TOPOMAP" "$here/../../contrib/slurm/job_submit.lua" \
    clos:leaves=4,hosts_per_leaf=4,spines=2

# Job steps from the real controller: a one-node cluster whose slurmd runs the job
# (slurm_cluster.py, as t47; skipped when it cannot start one: not root, no cgroups).  The job
# asks for 1 task of 2 CPUs and runs `srun -n2`: workload eval --slurm must take the step's 2
# tasks, not the job's 1.
node=$(hostname -s)
cat > one.xml <<X
<topology version="1" capacity="100">
  <switch name="s1"/>
  <host name="$node" slots="2"/>
  <host name="other1" slots="2"/>
  <link a="$node,other1" b="s1"/>
</topology>
X
cat > inside.sh <<F
set -eu
job=\$(sbatch --parsable -N1 -n1 -c2 --comment=topomap:alltoall:1MiB --wrap "srun -n2 -c1 sleep 60")
for i in \$(seq 1 300); do squeue -h -s -o %i | grep -qx "\$job.0" && break; sleep 0.2; done
squeue -s -o "%i|%A|%N"
"$TOPOMAP" workload eval --topology one.xml --slurm --json > steps.json
scancel "\$job"
F
set +e
python3 "$here/slurm_cluster.py" steps-cluster -- bash inside.sh > steps.out 2>&1
rc=$?
set -e
if [ "$rc" = 77 ]; then
    echo "job steps from a real node: skipped ($(head -1 steps.out))"
elif [ "$rc" != 0 ]; then
    cat steps.out; exit 1
else
    json_py "[(j['nodes'], j['n_tasks'], j['comm']) for j in d['jobs']] == [('$node', 2, 'alltoall:1MiB')]" < steps.json |
        grep -qx True || { echo "steps: $(cat steps.json) $(cat steps.out)"; exit 1; }
    echo "job steps from a real node: the job of 1 task runs srun -n2: 2 tasks"
fi
