#!/usr/bin/env python3
"""slurm_pick.py - helper of t45-alloc.sh: which nodes does the real slurmctld (Debian's Slurm
22.05, topology/tree, select/cons_tres) give a job of N nodes when some nodes are busy, and
does `topomap alloc --policy slurm-tree` say the same?

usage: slurm_pick.py WORKDIR NAME TOPOLOGY.CONF CASES TOPOMAP TOPOLOGY-ARGS...
       slurm_pick.py WORKDIR NAME none:HOSTS CASES TOPOMAP TOPOLOGY-ARGS...

TOPOLOGY.CONF is handed to the controller (slurm_ctld.py: nodes State=CLOUD, auth/none, no
slurmd), its nodes listed in slurm.conf in the natural order of their names (node2 before
node10), which is how topomap numbers them.  CASES cases are drawn with seed 45: a random set of
busy nodes (drained: `scontrol update State=DRAIN`) and a node count that fits the free ones;
`sbatch --test-only -N n` says which nodes the controller picks, and `topomap alloc --policy
slurm-tree --free <the others> --nodes n --slurm-topology TOPOLOGY.CONF` must name the same.
With none:HOSTS (a file of host names, a network without switches) the controller runs
without a topology plugin (TopologyPlugin=topology/none) and topomap emulates that.
Prints one summary line; exits 1 on the first difference.
"""
import os
import random
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slurm_ctld  # noqa: E402  (the controller's start/stop and slurm.conf)


def natural_key(name):
    return [(0, int(p), '') if p.isdigit() else (1, 0, p) for p in re.split(r'(\d+)', name) if p]


def scontrol(env, *args):
    r = subprocess.run([slurm_ctld.tool('scontrol')] + list(args), env=env, capture_output=True,
                       text=True)
    if r.returncode:
        sys.exit('scontrol %s: %s' % (' '.join(args), r.stdout + r.stderr))


def slurm_choice(env, n):
    r = subprocess.run([slurm_ctld.tool('sbatch'), '--test-only', '-N%d' % n, '--wrap', 'true'],
                       env=env, capture_output=True, text=True)
    m = re.search(r'on nodes (\S+) in partition', r.stdout + r.stderr)
    return sorted(slurm_ctld.expand(m.group(1)), key=natural_key) if m else None


def topomap_choice(topomap, args, conf, free, n):
    tree = [] if conf.startswith('none:') else ['--slurm-topology', conf]
    r = subprocess.run([topomap, 'alloc'] + args + ['--policy', 'slurm-tree', '--ppn', '1',
                       '--nodes', str(n), '--free', ','.join(free)] + tree,
                       capture_output=True, text=True)
    if r.returncode == 3:
        return None
    if r.returncode:
        sys.exit('topomap alloc failed: %s' % r.stderr)
    return sorted(slurm_ctld.expand(r.stdout.strip()), key=natural_key)


def main():
    work, name, conf, cases, topomap = sys.argv[1:6]
    args = sys.argv[6:]
    d = os.path.join(os.path.abspath(work), name)
    os.makedirs(os.path.join(d, 'state'))
    if conf.startswith('none:'):
        hosts = sorted(open(conf[5:]).read().split(), key=natural_key)
    else:
        hosts = sorted(set(h for leaf in slurm_ctld.leaves_of(conf) for h in leaf),
                       key=natural_key)
        with open(os.path.join(d, 'topology.conf'), 'w') as f:
            f.write(open(conf).read())
    slurm_ctld.write_conf(d, hosts, 20000 + (os.getpid() * 13) % 40000)
    if conf.startswith('none:'):
        path = os.path.join(d, 'slurm.conf')
        text = open(path).read().replace('TopologyPlugin=topology/tree', 'TopologyPlugin=topology/none')
        open(path, 'w').write(text)
    env = dict(os.environ)
    p = slurm_ctld.start(d, env)
    rng, t0, same, pending = random.Random(45), time.time(), 0, 0
    drained = []
    try:
        for case in range(int(cases)):
            busy = rng.sample(hosts, rng.randrange(0, len(hosts) * 3 // 4))
            free = [h for h in hosts if h not in set(busy)]
            # mostly jobs of up to a third of the nodes; one case in five up to every free
            # one (where no switch may hold them: Slurm keeps the job pending)
            n = rng.randint(1, max(1, len(free) if case % 5 == 4 else
                                   min(len(free), len(hosts) // 3)))
            if drained:
                scontrol(env, 'update', 'NodeName=' + ','.join(drained), 'State=RESUME')
            if busy:
                scontrol(env, 'update', 'NodeName=' + ','.join(busy), 'State=DRAIN',
                         'Reason=busy')
            drained = busy
            want = slurm_choice(env, n)
            got = topomap_choice(topomap, args, conf, free, n)
            if want != got:
                sys.exit('%s case %d: %d nodes, %d free (busy %s): slurmctld picks %s, topomap %s'
                         % (name, case, n, len(free), ','.join(busy), want, got))
            same += 1
            pending += want is None
    finally:
        slurm_ctld.stop(p)
    print('%s: %d hosts, %d cases (%d where Slurm would not start the job): topomap picks as '
          'slurmctld in %.1f s' % (name, len(hosts), same, pending, time.time() - t0))


main()
