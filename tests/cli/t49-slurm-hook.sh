#!/usr/bin/env bash
# The submit hook (contrib/slurm/job_submit.lua) and the live Slurm state in the real
# controller: Debian's slurmctld 22.05 with JobSubmitPlugins=lua, nodes State=CLOUD, no slurmd
# (tests/cli/slurm_hook.py): `workload eval --slurm` / `alloc --slurm` and their snapshot see
# the jobs that hold nodes (tasks, comment tags) and neither the pending job nor drained or busy
# nodes; tagged jobs get exactly the nodes `topomap alloc` names (ReqNodeList); untagged jobs,
# a topomap that does not answer within the timeout, a missing snapshot, a tag with shell
# characters and a job without -N are untouched and logged; the controller keeps accepting jobs.
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
