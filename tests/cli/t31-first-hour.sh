#!/usr/bin/env bash
# The README's "The first hour" section (issue 36), run as it is written: every `build/topomap`
# command of its sh blocks (continuation lines joined), in order, from a directory that looks
# like the repository (topologies/, build/); step 3's inputs are stand-ins for a user's files
# (fabric.topo: the X5 dump, node-names.map: X5's map in ibnetdiscover's format, app.mtx:
# LULESH's matrix in Matrix Market, SLURM_JOB_NODELIST: the demo job's 16 nodes).  Every line
# of an output block must be a line the sh block before it printed; every row of the options
# table whose option the step-2 command has is checked by running that command without it.
# Commands that are not topomap's (ibnetdiscover, mpirun, ...) cannot run here: they must be
# in the list below, so that a topomap command is never skipped.
set -eu
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
if sanitized; then
    echo "sanitizer build: the README's commands run on the plain build (t30 and t12 run the same code under ASan)"
    exit 77
fi

step "stand-ins for the user's files"
ln -s "$TOPO_DIR" topologies
mkdir build
cp "$TOPO_DIR/psmn-x5/X5.topofile" fabric.topo
python3 - "$TOPO_DIR" <<'PY'
import re, sys
top = sys.argv[1]
# X5.map ("H-<guid> name") in ibnetdiscover's --node-name-map format: 0x<guid> "name"
with open('node-names.map', 'w') as out:
    out.write('# GUID -> hostname, as ibnetdiscover --node-name-map reads it\n')
    for line in open(top + '/psmn-x5/X5.map'):
        line = line.split('#')[0].split()
        if line:
            out.write('0x%s "%s"\n' % (line[0][2:], line[1]))
# LULESH's mpiP matrix ("i , j = bytes") as a general Matrix Market file
edges = []
for line in open(top + '/comm/lulesh-64.graphStats.txt'):
    m = re.match(r'\s*(\d+)\s*,\s*(\d+)\s*=\s*([0-9.eE+]+)', line)
    if m:
        edges.append((int(m.group(1)) + 1, int(m.group(2)) + 1, float(m.group(3))))
with open('app.mtx', 'w') as out:
    out.write('%%%%MatrixMarket matrix coordinate real general\n64 64 %d\n' % len(edges))
    for i, j, w in edges:
        out.write('%d %d %.17g\n' % (i, j, w))
PY

step "the README's commands and outputs"
SLURM_JOB_NODELIST='r422node[1,35,57],r815lin[104,110-111],sl390lin[1,7,13,22,28,101,105,110],x5570comp[1-2]' \
python3 - "$src/README.md" "$TOPOMAP" <<'PY'
import os, re, shlex, subprocess, sys
readme, topomap = sys.argv[1], sys.argv[2]
text = open(readme).read()
start = text.index('\n## The first hour\n')
sec = text[start:text.index('\n## ', start + 1)]
external = {'mpirun', 'ibnetdiscover', 'ibstat', 'srun', 'sbatch'}
blocks = re.findall(r'\n```(\w*)\n(.*?)\n```', sec, re.S)
assert len(blocks) >= 5, blocks
ran, skipped, last_out, first_eval = [], [], None, None
for lang, body in blocks:
    if lang == 'sh':
        last_out = ''
        for cmd in body.replace('\\\n', ' ').split('\n'):
            cmd = cmd.strip()
            if not cmd:
                continue
            word = shlex.split(cmd, comments=True)[0]
            if word != 'build/topomap':
                assert word in external, 'not a topomap command and not a known external one: ' + cmd
                skipped.append(word)
                continue
            r = subprocess.run(topomap + cmd[len('build/topomap'):], shell=True, capture_output=True,
                               text=True)
            if r.returncode != 0:
                sys.exit('README command failed (exit %d): %s\n%s%s' % (r.returncode, cmd, r.stdout, r.stderr))
            ran.append(cmd)
            last_out += r.stdout
            if first_eval is None and ' eval ' in cmd:
                first_eval = cmd
    else:
        assert last_out is not None, 'an output block before any command'
        lines = set(l.rstrip() for l in last_out.split('\n'))
        for l in body.split('\n'):
            if l.strip() and l.rstrip() not in lines:
                sys.exit('README output line not printed by the commands before it:\n%s\n--- they printed:\n%s' % (l, last_out))
# every step ran: the demo's map, two evals, topo info and the user's map
assert len(ran) == 5, ran
assert sorted(set(skipped)) == ['mpirun'], skipped
assert os.path.getsize('build/demo.rankfile') > 0 and os.path.getsize('job.html') > 0
ranks = [l for l in open('job.rankfile') if l.startswith('rank ')]
assert len(ranks) == 64, len(ranks)
# the options table: a row whose option the step-2 command has is that command without it
rows = re.findall(r'^\| `(--[a-z-]+)[^`]*` \| (.*) \| (.*) \|$', sec, re.M)
assert [r[0] for r in rows] == ['--node-name-map', '--slots', '--alloc', '--routing'], rows
checked = 0
for opt, why, without in rows:
    words = shlex.split(first_eval)
    if opt not in words:
        continue
    i = words.index(opt)
    cmd = ' '.join(shlex.quote(w) for w in [topomap] + words[1:i] + words[i + 2:])
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    assert r.returncode != 0, cmd
    err = r.stderr.strip().split('\n')[-1]
    for span in re.findall(r'`([^`]*)`', without):
        pos = 0
        for piece in span.split('...'):
            k = err.find(piece, pos)
            assert k >= 0, 'without %s: %r not in: %s' % (opt, piece, err)
            pos = k + len(piece)
    checked += 1
assert checked == 2, checked
PY
