#!/usr/bin/env python3
"""slurm_hook.py - what topomap's submit hook (contrib/slurm/job_submit.lua) costs a submission
on a 1,000-node fabric 70 % busy (docs/slurm.md "The submit hook"), measured in the real
controller: Debian's slurmctld 22.05, nodes State=CLOUD (no slurmd), JobSubmitPlugins=lua.

usage: tools/bench/slurm_hook.py TOPOMAP [FABRIC] [ROUTING] [ROUNDS]
  (make bench-slurm-hook; default fattree:k=10,n=3, ecmp, 10 rounds; KEEP_SNAPSHOT=DIR keeps
  the snapshot there)

1. The fabric's topology.conf (topomap's export) for the controller, 1,000 nodes of 16 CPUs.
2. Background: jobs of 4 to 64 nodes x 16 tasks (stencils, rings, all-to-alls, as comment
   tags) until 70 % of the nodes are taken (seed 44), submitted while the hook is off (its
   topomap is /bin/false: each is left to Slurm at once).
3. `topomap slurm snapshot` (its wall time is printed: the cron job's cost).
4. ROUNDS rounds, each: a job that asks (-N 64 --ntasks-per-node=16
   --comment=topomap:stencil3d) and, as the baseline in the same round, a job that does not
   (-N 64 --ntasks-per-node=16); the wall time of each sbatch, and the time the hook's log
   line says topomap alloc took.  Medians and ratios are printed.
The machine's load is printed with the figures: on a shared machine they are noisy.
"""
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', '..', 'tests', 'cli'))
import slurm_ctld  # noqa: E402


def run(env, *args):
    r = subprocess.run(list(args), env=env, capture_output=True, text=True)
    if r.returncode:
        sys.exit('%s: %s' % (' '.join(args)[:200], r.stdout + r.stderr))
    return r.stdout


def sbatch(env, *args):
    t0 = time.time()
    out = run(env, slurm_ctld.tool('sbatch'), '--parsable', '--hold', *args, '--wrap', 'true')
    return out.strip().split(';')[0], time.time() - t0


def hook_conf(d, **kw):
    open(os.path.join(d, 'topomap-hook.conf'), 'w').write(
        ''.join('%s = %s\n' % kv for kv in kw.items()))


def main():
    topomap = os.path.abspath(sys.argv[1])
    fabric = sys.argv[2] if len(sys.argv) > 2 else 'fattree:k=10,n=3'
    routing = sys.argv[3] if len(sys.argv) > 3 else 'ecmp'
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    work = tempfile.mkdtemp(prefix='tm-hook-bench-')
    d = os.path.join(work, 'ctld')
    snap = os.path.join(d, 'snap')
    os.makedirs(os.path.join(d, 'state'))
    os.makedirs(snap)
    conf = os.path.join(d, 'topology.conf')
    run(None, topomap, 'topo', 'export', '--topology', fabric, '--format', 'slurm', '--out', conf)
    hosts = sorted(set(h for leaf in slurm_ctld.leaves_of(conf) for h in leaf))
    slurm_ctld.write_conf(d, hosts, 20000 + (os.getpid() * 17) % 40000)
    text = open(os.path.join(d, 'slurm.conf')).read().replace('CPUs=1', 'CPUs=16')
    text += ('JobSubmitPlugins=lua\nPrivateData=cloud\nResumeTimeout=3600\n'
             'SchedulerParameters=batch_sched_delay=0,sched_min_interval=0\n')
    open(os.path.join(d, 'slurm.conf'), 'w').write(text)
    shutil.copy(os.path.join(here, '..', '..', 'contrib', 'slurm', 'job_submit.lua'), d)
    base = dict(topomap=topomap, topology=fabric, routing=routing, state=snap, timeout=30,
                max_age=86400, recent=-1)
    hook_conf(d, **dict(base, topomap='/bin/false'))
    env = dict(os.environ)
    p = slurm_ctld.start(d, env)
    try:
        rng, busy, jobs = random.Random(44), 0, 0
        tags = ['stencil3d:1MiB', 'ring:4MiB', 'alltoall:64KiB']
        while busy < 700:
            n = min(rng.choice([4, 8, 16, 32, 64]), 700 - busy)
            job, _ = sbatch(env, '-N%d' % n, '--ntasks-per-node=16',
                            '--comment=topomap:%s' % tags[jobs % 3])
            run(env, slurm_ctld.tool('scontrol'), 'release', job)
            busy, jobs = busy + n, jobs + 1
        for _ in range(200):
            st = run(env, slurm_ctld.tool('squeue'), '-h', '-o', '%T').split()
            if st.count('CONFIGURING') + st.count('RUNNING') == jobs:
                break
            time.sleep(0.1)
        t0 = time.time()
        run(env, topomap, 'slurm', 'snapshot', snap)
        snap_s = time.time() - t0
        if os.environ.get('KEEP_SNAPSHOT'):  # for a profile of topomap alloc on it
            shutil.copytree(snap, os.environ['KEEP_SNAPSHOT'], dirs_exist_ok=True)
        hook_conf(d, **base)
        logged, with_hook, without = [], [], []
        log = os.path.join(d, 'slurmctld.log')
        for r in range(rounds):
            mark = len(open(log).read().splitlines())
            _, s1 = sbatch(env, '-N64', '--ntasks-per-node=16', '--comment=topomap:stencil3d')
            _, s0 = sbatch(env, '-N64', '--ntasks-per-node=16')
            lines = [l for l in open(log).read().splitlines()[mark:] if 'topomap:' in l]
            m = re.search(r'took (\d+) ms', ' '.join(lines))
            if not m:
                sys.exit('round %d: no pick logged: %s' % (r, lines))
            logged.append(int(m.group(1)) / 1000)
            with_hook.append(s1)
            without.append(s0)
    finally:
        slurm_ctld.stop(p)
        shutil.rmtree(work, ignore_errors=True)
    med = statistics.median
    print('fabric %s (%d nodes, %d busy in %d running jobs), routing %s, %d rounds, load %s' %
          (fabric, len(hosts), busy, jobs, routing, rounds,
           ' '.join('%.1f' % x for x in os.getloadavg())))
    print('snapshot (topomap slurm snapshot): %.2f s' % snap_s)
    print('topomap alloc inside the hook: median %.2f s (min %.2f, max %.2f)' %
          (med(logged), min(logged), max(logged)))
    print('sbatch with the tag: median %.2f s; without (same rounds): median %.3f s; '
          'ratio %.1fx' % (med(with_hook), med(without), med(with_hook) / med(without)))


main()
