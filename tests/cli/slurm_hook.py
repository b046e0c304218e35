#!/usr/bin/env python3
"""slurm_hook.py - helper of t49-slurm-hook.sh: topomap's submit hook
(contrib/slurm/job_submit.lua) and its live state in the real controller
(Debian's slurmctld 22.05, JobSubmitPlugins=lua, nodes State=CLOUD, no
slurmd: slurm_ctld.py's set-up).

usage: slurm_hook.py WORKDIR TOPOMAP HOOK.lua TOPOLOGY

The fabric TOPOLOGY (a spec topomap reads) is exported as topology.conf for
the controller (topology/tree).  Some jobs are submitted without a tag and
hold nodes (CONFIGURING: their CLOUD nodes never boot), two nodes are
drained and one job stays pending; `topomap slurm snapshot` saves the
state.  Then, with the hook in place:

 1. the live state: `workload eval --slurm` lists the jobs that hold nodes
    (their tasks, their tag) and not the pending one; `alloc --slurm` does
    not choose drained or busy nodes; the snapshot gives the same;
 2. tagged jobs get exactly the nodes `topomap alloc --slurm-state` names
    (ReqNodeList), with the node count and tasks per node they ask, the
    second without the first's nodes (the hook's recent picks);
 3. untagged jobs are untouched (ReqNodeList=(null), nothing logged);
 4. a tag whose topomap does not answer within the hook's timeout, a
    missing snapshot, a tag with shell characters, a job without -N: each
    untouched and logged ("left to Slurm"), the submission accepted;
 5. the controller keeps accepting jobs (every sbatch exits 0, and a job
    submitted last is accepted and scheduled).
Prints one summary line; exits 1 naming the first check that failed.
"""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slurm_ctld  # noqa: E402  (the controller's start/stop and slurm.conf)


def fail(msg):
    sys.exit('slurm_hook: ' + msg)


def run(env, *args, ok=True):
    r = subprocess.run(list(args), env=env, capture_output=True, text=True)
    if ok and r.returncode:
        fail('%s failed (%d): %s' % (' '.join(args)[:300], r.returncode, r.stdout + r.stderr))
    return r


def sbatch(env, *args):
    r = run(env, slurm_ctld.tool('sbatch'), '--parsable', *args, '--wrap', 'true')
    return r.stdout.strip().split(';')[0]


def job_field(env, job, key):
    out = run(env, slurm_ctld.tool('scontrol'), 'show', 'job', job).stdout
    m = re.search(r'\b%s=(\S*)' % key, out)
    if not m:
        fail('job %s has no %s: %s' % (job, key, out))
    return m.group(1)


def expand(env, expr):
    if expr in ('(null)', ''):
        return []
    return sorted(slurm_ctld.expand(expr))


def write_hook_conf(d, **kw):
    with open(os.path.join(d, 'topomap-hook.conf'), 'w') as f:
        for k, v in kw.items():
            f.write('%s = %s\n' % (k, v))


def log_lines(d, since):
    text = open(os.path.join(d, 'slurmctld.log')).read().splitlines()
    return [l for l in text[since:] if 'topomap:' in l]


def main():
    work, topomap, hook, topology = sys.argv[1:5]
    topomap = os.path.abspath(topomap)
    d = os.path.join(os.path.abspath(work), 'hook')
    snap = os.path.join(d, 'snap')
    os.makedirs(os.path.join(d, 'state'))
    os.makedirs(snap)
    conf = os.path.join(d, 'topology.conf')
    run(None, topomap, 'topo', 'export', '--topology', topology, '--format', 'slurm', '--out',
        conf)
    hosts = sorted(set(h for leaf in slurm_ctld.leaves_of(conf) for h in leaf))
    slurm_ctld.write_conf(d, hosts, 20000 + (os.getpid() * 11) % 40000)
    text = open(os.path.join(d, 'slurm.conf')).read().replace('CPUs=1', 'CPUs=4')
    # the hook; CLOUD nodes visible to sinfo (PrivateData=cloud) and never given up on
    text += ('JobSubmitPlugins=lua\nPrivateData=cloud\nResumeTimeout=3600\n'
             'SchedulerParameters=batch_sched_delay=0,sched_min_interval=0\n')
    open(os.path.join(d, 'slurm.conf'), 'w').write(text)
    shutil.copy(hook, os.path.join(d, 'job_submit.lua'))
    spec = os.path.abspath(topology) if os.path.exists(topology) else topology
    base = dict(topomap=topomap, topology=spec, state=snap, timeout=60,
                max_age=3600)
    write_hook_conf(d, **base)
    env = dict(os.environ)
    p = slurm_ctld.start(d, env)
    t0 = time.time()
    checks = 0
    try:
        # ---- the background: jobs holding nodes, drained nodes, a pending job
        busy = [sbatch(env, '-N3'), sbatch(env, '-N2', '--ntasks-per-node=4',
                                           '--comment=topomap:alltoall:64KiB'),
                sbatch(env, '-N1', '-n3')]
        run(env, slurm_ctld.tool('scontrol'), 'update', 'NodeName=%s,%s' % (hosts[-1], hosts[-2]),
            'State=DRAIN', 'Reason=test')
        pending = sbatch(env, '-N%d' % len(hosts))
        for _ in range(100):  # until the controller has placed them
            held = {j: expand(env, job_field(env, j, 'NodeList')) for j in busy}
            if all(held.values()):
                break
            time.sleep(0.1)
        if any(not v for v in held.values()):
            fail('background jobs hold no nodes: %s' % held)
        if job_field(env, pending, 'JobState') != 'PENDING':
            fail('job %s should be pending' % pending)
        taken = set(h for v in held.values() for h in v) | {hosts[-1], hosts[-2]}

        # ---- 1. the live state, from the controller and from its snapshot
        run(env, topomap, 'slurm', 'snapshot', snap)
        for src in (['--slurm'], ['--slurm-state', snap]):
            ev = run(env, topomap, 'workload', 'eval', '--topology', topology, '--json', *src).stdout
            import json
            ev = json.loads(ev)
            got = {j['job']: (j['n_tasks'], j['comm'], sorted(slurm_ctld.expand(j['nodes'])))
                   for j in ev['jobs']}
            want = {busy[0]: (3, 'stencil3d:1MiB', held[busy[0]]),
                    busy[1]: (8, 'alltoall:64KiB', held[busy[1]]),
                    busy[2]: (3, 'stencil3d:1MiB', held[busy[2]])}
            if got != want:
                fail('workload eval %s: jobs %s, want %s' % (src[0], got, want))
            al = json.loads(run(env, topomap, 'alloc', '--topology', topology, '--nodes', '2',
                                '--json', *src).stdout)
            if al['free_nodes'] != len(hosts) - len(taken) or al['running_jobs'] != 3:
                fail('alloc %s: %d free nodes, %d running jobs; want %d and 3' %
                     (src[0], al['free_nodes'], al['running_jobs'], len(hosts) - len(taken)))
            for k in ('topomap', 'slurm_tree', 'random'):
                if set(slurm_ctld.expand(al[k]['nodes'])) & taken:
                    fail('alloc %s: %s chose a busy or drained node: %s' % (src[0], k, al[k]))
            checks += 1

        # ---- 2. tagged jobs get exactly what topomap alloc names
        given = []  # the hook's picks: excluded from the next (the snapshot does not show them)
        for n, ppn, tag in ((4, 2, 'ring'), (3, 4, 'stencil3d:4MiB')):
            ex = ['--exclude', ','.join(given)] if given else []
            want = run(env, topomap, 'alloc', '--topology', topology, '--slurm-state', snap,
                       '--nodes', str(n), '--ppn', str(ppn), '--comm', tag, *ex).stdout.strip()
            given.append(want)
            job = sbatch(env, '-N%d' % n, '--ntasks-per-node=%d' % ppn,
                         '--comment=topomap:%s' % tag)
            got = job_field(env, job, 'ReqNodeList')
            if expand(env, got) != expand(env, want):
                fail('job %s (topomap:%s): ReqNodeList=%s, topomap alloc names %s' %
                     (job, tag, got, want))
            checks += 1

        # ---- 3. untouched: no tag
        logged = len(open(os.path.join(d, 'slurmctld.log')).read().splitlines())
        job = sbatch(env, '-N2', '--comment=just a comment')
        if job_field(env, job, 'ReqNodeList') != '(null)' or log_lines(d, logged):
            fail('an untagged job was touched: %s %s' % (job_field(env, job, 'ReqNodeList'),
                                                         log_lines(d, logged)))
        checks += 1

        # ---- 4. asks that cannot be served: untouched and logged
        slow = os.path.join(d, 'slow-topomap')
        open(slow, 'w').write('#!/bin/sh\nsleep 20\nexec %s "$@"\n' % topomap)
        os.chmod(slow, 0o755)
        # (the hook's earlier picks no longer excluded: each case on the snapshot's free nodes)
        fresh = dict(base, recent=-1)
        cases = [
            (dict(fresh, topomap=slow, timeout=1), ['-N2'], 'ring',
             'gave no answer within 1 s'),
            (dict(fresh, state=os.path.join(d, 'no-such-snapshot')), ['-N2'], 'ring',
             'failed (exit 2)'),
            (fresh, ['-N2'], 'ring;touch${IFS}/tmp/x', 'characters other than'),
            (fresh, ['-n2'], 'ring', 'no node count'),
            (fresh, ['-N2'], 'no-such-matrix.mtx', 'failed (exit 2)'),
            (fresh, ['-N%d' % len(hosts)], 'ring', 'failed (exit 3)'),
        ]
        for hook_conf, args, tag, why in cases:
            write_hook_conf(d, **hook_conf)
            logged = len(open(os.path.join(d, 'slurmctld.log')).read().splitlines())
            s0 = time.time()
            job = sbatch(env, *args, '--comment=topomap:%s' % tag)
            took = time.time() - s0
            lines = log_lines(d, logged)
            if job_field(env, job, 'ReqNodeList') != '(null)':
                fail('job %s (topomap:%s) was given nodes' % (job, tag))
            if len(lines) != 1 or 'left to Slurm' not in lines[0] or why not in lines[0]:
                fail('job %s (topomap:%s): want one "left to Slurm ... %s" line, got %s' %
                     (job, tag, why, lines))
            if 'no answer' in why and took > 10:
                fail('the submission waited %.1f s for a hook with timeout 1 s' % took)
            checks += 1

        # ---- 5. the controller still accepts and schedules jobs
        write_hook_conf(d, **base)
        job = sbatch(env, '-N1')
        time.sleep(1)
        if job_field(env, job, 'JobState') not in ('CONFIGURING', 'RUNNING', 'PENDING'):
            fail('job %s: %s' % (job, job_field(env, job, 'JobState')))
        if 'UP' not in run(env, slurm_ctld.tool('scontrol'), 'ping').stdout:
            fail('the controller is not up')
        checks += 1
    finally:
        slurm_ctld.stop(p)
    errors = [l for l in open(os.path.join(d, 'slurmctld.log')).read().splitlines()
              if 'job_submit/lua' in l and 'error' in l.lower()]
    if errors:
        fail('job_submit/lua errors in the log: %s' % errors[:3])
    print('hook: %d hosts, %d checks passed in %.1f s' % (len(hosts), checks, time.time() - t0))


main()
