#!/usr/bin/env python3
"""slurm_ctld.py - helper of t06-slurm-ctld.sh: hands topomap's topology.conf
to a real slurmctld (Debian's Slurm 22.05, topology/tree) and asks it, with
`sbatch --test-only -N2 -w A,B --wrap true`, whether a job could start on
host pairs and on all hosts.

usage: slurm_ctld.py WORKDIR NAME TOPOLOGY.CONF [--expect-refused A,B --expect-warning]

Writes slurm.conf (auth/none, nodes State=CLOUD, ports from the process id,
state and logs in WORKDIR/NAME), starts slurmctld in the foreground in the
background, waits for `scontrol ping`, runs the jobs, stops it and reads its
log.  Pairs: every pair up to 12 hosts; above, the first and last host of
every pair of leaf lines (at most 150 leaf pairs, a seeded sample beyond)
and 10 random pairs (seed 26).  Prints one summary line; exits 1 on the
first refused job or on a topology line in the log.
"""
import itertools
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time


def expand(expr):
    out = []
    for term in re.findall(r'[^,\[]+(?:\[[^\]]*\])?', expr):
        m = re.fullmatch(r'([^\[]*)\[([^\]]*)\]', term)
        if not m:
            out.append(term)
            continue
        for item in m.group(2).split(','):
            lo, _, hi = item.partition('-')
            for v in range(int(lo), int(hi or lo) + 1):
                out.append('%s%0*d' % (m.group(1), len(lo), v))
    return out


def leaves_of(conf):
    leaves = []
    for line in open(conf):
        line = line.split('#')[0].strip()
        m = re.search(r'\bNodes=(\S+)', line)
        if m:
            leaves.append(expand(m.group(1)))
    return leaves


# Unique per run: the controller that answers must be this run's, not one that another test
# on the same machine started on the same port.
CLUSTER = 'tm%d' % os.getpid()


def ours(env):
    r = subprocess.run([tool('scontrol'), 'show', 'config'], env=env, capture_output=True,
                       text=True)
    return re.search(r'^ClusterName\s*=\s*%s$' % CLUSTER, r.stdout, re.M) is not None


def tool(name):
    found = shutil.which(name) or shutil.which(name, path='/usr/sbin:/sbin:/usr/bin')
    if not found:
        sys.exit('%s not found' % name)
    return found


def write_conf(d, hosts, port):
    user = 'root' if os.geteuid() == 0 else os.environ.get('USER', 'nobody')
    with open(os.path.join(d, 'slurm.conf'), 'w') as f:
        f.write('\n'.join([
            'ClusterName=%s' % CLUSTER, 'SlurmctldHost=localhost',
            'SlurmctldPort=%d' % port, 'SlurmdPort=%d' % (port + 1),
            'AuthType=auth/none', 'CredType=cred/none', 'SlurmUser=%s' % user,
            'StateSaveLocation=%s/state' % d, 'SlurmdSpoolDir=%s/spool' % d,
            'SlurmctldPidFile=%s/slurmctld.pid' % d,
            'SlurmctldLogFile=%s/slurmctld.log' % d, 'SlurmctldDebug=info',
            'MailProg=/bin/true', 'TopologyPlugin=topology/tree',
            'SelectType=select/cons_tres', 'SchedulerType=sched/backfill',
            'NodeName=%s State=CLOUD CPUs=1' % ','.join(hosts),
            'PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP', '']))


def start(d, env):
    """slurmctld -D in the background; the process once `scontrol ping` says UP."""
    for attempt in range(3):
        env['SLURM_CONF'] = os.path.join(d, 'slurm.conf')
        log = open(os.path.join(d, 'slurmctld.out'), 'w')
        p = subprocess.Popen([tool('slurmctld'), '-D', '-i'], env=env, stdout=log,
                             stderr=subprocess.STDOUT)
        for _ in range(100):
            r = subprocess.run([tool('scontrol'), 'ping'], env=env, capture_output=True, text=True)
            if 'UP' in r.stdout and p.poll() is None and ours(env):
                return p
            if p.poll() is not None:
                break
            time.sleep(0.05)
        stop(p)
        port = 20000 + (os.getpid() * 7 + attempt * 1009) % 40000
        conf = open(env['SLURM_CONF']).read()
        conf = re.sub(r'SlurmctldPort=\d+', 'SlurmctldPort=%d' % port, conf)
        conf = re.sub(r'SlurmdPort=\d+', 'SlurmdPort=%d' % (port + 1), conf)
        open(env['SLURM_CONF'], 'w').write(conf)
    sys.exit('slurmctld did not come up: %s' % open(os.path.join(d, 'slurmctld.out')).read())


def stop(p):
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def test_only(env, nodes):
    r = subprocess.run([tool('sbatch'), '--test-only', '-N%d' % len(nodes), '-w',
                        ','.join(nodes), '--wrap', 'true'], env=env, capture_output=True,
                       text=True)
    return r.returncode == 0 and 'to start at' in r.stdout + r.stderr, (r.stdout + r.stderr).strip()


def pairs_of(leaves, hosts):
    """Which switches Slurm weighs for a job depends only on the leaf lines of its nodes, so
    one pair per pair of leaf lines covers every case of a fabric whose hosts hang from one
    leaf each; every pair on small fabrics, random pairs on top."""
    if len(hosts) <= 12:
        return list(itertools.combinations(hosts, 2))
    rng = random.Random(26)
    lp = list(itertools.combinations_with_replacement(range(len(leaves)), 2))
    if len(lp) > 150:
        lp = rng.sample(lp, 150)
    pairs = [(leaves[a][0], leaves[b][-1]) for a, b in lp if leaves[a][0] != leaves[b][-1]]
    return pairs + [tuple(rng.sample(hosts, 2)) for _ in range(10)]


def main():
    work, name, conf = sys.argv[1:4]
    refused = sys.argv[sys.argv.index('--expect-refused') + 1].split(',') \
        if '--expect-refused' in sys.argv else None
    d = os.path.join(os.path.abspath(work), name)
    os.makedirs(os.path.join(d, 'state'))
    leaves = leaves_of(conf)
    hosts = sorted(set(h for leaf in leaves for h in leaf))
    shutil.copy(conf, os.path.join(d, 'topology.conf'))
    write_conf(d, hosts, 20000 + (os.getpid() * 7) % 40000)
    env = dict(os.environ)
    p = start(d, env)
    t0, jobs, bad = time.time(), 0, None
    try:
        if refused:
            ok, msg = test_only(env, refused)
            jobs += 1
            bad = None if not ok else 'expected a refusal for %s, got: %s' % (refused, msg)
        else:
            for nodes in pairs_of(leaves, hosts) + [tuple(hosts)]:
                ok, msg = test_only(env, list(nodes))
                jobs += 1
                if not ok:
                    bad = 'refused on %s: %s' % (','.join(nodes)[:200], msg)
                    break
    finally:
        stop(p)
    log = open(os.path.join(d, 'slurmctld.log')).read().splitlines()
    topo = [l for l in log if re.search(r'switch|topolog', l.replace(d, ''), re.I)]
    if refused:
        if not any('no switch can reach all nodes' in l for l in topo):
            bad = bad or 'expected the topology warning in the log, got: %s' % topo
    elif topo:
        bad = bad or 'topology lines in the log: %s' % topo[:3]
    if bad:
        sys.exit('%s: %s' % (name, bad))
    print('%s: %d hosts, %d leaf lines, %d jobs %s in %.2f s' %
          (name, len(hosts), len(leaves), jobs, 'refused as expected' if refused else 'accepted',
           time.time() - t0))


if __name__ == "__main__":  # slurm_cluster.py and slurm_pick.py import its helpers
    main()
