#!/usr/bin/env python3
"""slurm_cluster.py - a one-node Slurm cluster that really runs jobs, for the tests
(t47-slurm-array.sh): Debian's slurmctld and slurmd (Slurm 22.05) on this host, in a private
directory, on ports found free, with auth/none, cred/none and no cgroups (proctrack/linuxproc,
task/none, jobacct_gather/none); the node is this host by its short name at 127.0.0.1, with
its CPUs.  Runs a command with SLURM_CONF pointing at the cluster, then stops both daemons.

usage: slurm_cluster.py WORKDIR -- COMMAND [ARGS...]

Exit: the command's; 77 (with the reason on stdout) when no cluster can be had here: not
root (slurmd starts jobs as their users), slurmd/slurmctld/sbatch not installed, or no cgroup
filesystem mounted (slurmd 22.05 needs one even without cgroup plugins).  The
daemons' logs are in WORKDIR/cluster/ and printed when the node does not come up.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slurm_ctld  # noqa: E402  (tool(), stop(), CLUSTER: one way to start a daemon)


def free_port():
    """A TCP port nothing listens on now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('', 0))
        return s.getsockname()[1]


def write_conf(d, node, cpus, ctld_port, slurmd_port):
    with open(os.path.join(d, 'slurm.conf'), 'w') as f:
        f.write('\n'.join([
            'ClusterName=%s' % slurm_ctld.CLUSTER, 'SlurmctldHost=localhost',
            'SlurmctldPort=%d' % ctld_port, 'SlurmdPort=%d' % slurmd_port,
            'AuthType=auth/none', 'CredType=cred/none', 'SlurmUser=root', 'SlurmdUser=root',
            'StateSaveLocation=%s/state' % d, 'SlurmdSpoolDir=%s/spool' % d,
            'SlurmctldPidFile=%s/slurmctld.pid' % d, 'SlurmdPidFile=%s/slurmd.pid' % d,
            'SlurmctldLogFile=%s/slurmctld.log' % d, 'SlurmdLogFile=%s/slurmd.log' % d,
            'SlurmctldDebug=info', 'SlurmdDebug=info', 'MailProg=/bin/true',
            # no cgroups: processes tracked by their parent ids, no task binding
            'ProctrackType=proctrack/linuxproc', 'TaskPlugin=task/none',
            'JobAcctGatherType=jobacct_gather/none',
            'SelectType=select/cons_tres', 'SelectTypeParameters=CR_CPU',
            'SchedulerType=sched/backfill', 'ReturnToService=2',
            # start a job as soon as it can run (the default waits up to 3 s between batches)
            'SchedulerParameters=batch_sched_delay=0,sched_min_interval=0',
            'NodeName=%s NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN' % (node, cpus),
            'PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP', '']))


def node_state(env, node):
    r = subprocess.run([slurm_ctld.tool('sinfo'), '-h', '-n', node, '-o', '%t'], env=env,
                       capture_output=True, text=True)
    return r.stdout.strip()


def cgroup_mounted():
    """A cgroup (v1 or v2) filesystem mounted at or under /sys/fs/cgroup, as a booted
    system has; fresh-debian.sh's chroot mounts /sys but not its cgroups."""
    try:
        mounts = open('/proc/self/mounts').read().splitlines()
    except OSError:
        return False
    for line in mounts:
        f = line.split()
        if len(f) >= 3 and f[2] in ('cgroup', 'cgroup2') and f[1].startswith('/sys/fs/cgroup'):
            return True
    return False


def main():
    if '--' not in sys.argv or sys.argv.index('--') != 2:
        sys.exit(__doc__)
    work, cmd = sys.argv[1], sys.argv[3:]
    for t in ('slurmctld', 'slurmd', 'sbatch', 'squeue', 'scontrol', 'sinfo'):
        if not (shutil.which(t) or shutil.which(t, path='/usr/sbin:/sbin:/usr/bin')):
            print('%s not installed (tools/install-deps.sh installs slurmctld, slurmd and '
                  'slurm-client)' % t)
            sys.exit(77)
    if os.geteuid() != 0:
        print('not root: slurmd starts jobs as their users (run the tests as root, as CI does)')
        sys.exit(77)
    if not cgroup_mounted():
        print('no cgroup filesystem mounted at /sys/fs/cgroup (a chroot or container without '
              'it?): slurmd 22.05 initializes its cgroup plugin even with proctrack/linuxproc '
              'and task/none, and stops without one')
        sys.exit(77)
    d = os.path.join(os.path.abspath(work), 'cluster')
    os.makedirs(os.path.join(d, 'state'))
    os.makedirs(os.path.join(d, 'spool'))
    node = socket.gethostname().split('.')[0]
    write_conf(d, node, os.cpu_count() or 1, free_port(), free_port())
    env = dict(os.environ, SLURM_CONF=os.path.join(d, 'slurm.conf'))
    logs = [open(os.path.join(d, n + '.out'), 'w') for n in ('slurmctld', 'slurmd')]
    ctld = subprocess.Popen([slurm_ctld.tool('slurmctld'), '-D', '-i'], env=env,
                            stdout=logs[0], stderr=subprocess.STDOUT)
    slurmd = None
    rc = 1
    try:
        for _ in range(200):
            r = subprocess.run([slurm_ctld.tool('scontrol'), 'ping'], env=env,
                               capture_output=True, text=True)
            if 'UP' in r.stdout and slurm_ctld.ours(env):
                break
            if ctld.poll() is not None:
                break
            time.sleep(0.05)
        slurmd = subprocess.Popen([slurm_ctld.tool('slurmd'), '-D', '-N', node], env=env,
                                  stdout=logs[1], stderr=subprocess.STDOUT)
        state = ''
        for _ in range(300):
            state = node_state(env, node)
            if state == 'idle' or slurmd.poll() is not None or ctld.poll() is not None:
                break
            time.sleep(0.1)
        if state != 'idle':
            for n in ('slurmctld.out', 'slurmctld.log', 'slurmd.out', 'slurmd.log'):
                p = os.path.join(d, n)
                if os.path.exists(p):
                    print('--- %s\n%s' % (n, open(p).read()[-3000:]))
            sys.exit('node %s did not come up (state %r)' % (node, state))
        t0 = time.time()
        rc = subprocess.run(cmd, env=env).returncode
        print('slurm_cluster: node %s, command exit %d in %.1f s' % (node, rc, time.time() - t0))
    finally:
        if slurmd:
            slurm_ctld.stop(slurmd)
        slurm_ctld.stop(ctld)
        for f in logs:
            f.close()
    sys.exit(rc)


if __name__ == '__main__':
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
    main()
