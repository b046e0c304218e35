#!/usr/bin/env python3
"""slurm_formats.py - helper of t51-slurm-block.sh: checks a topology.conf of blocks or a
topology.yaml against the rules Slurm reads them by, since only Slurm 22.05 (without
topology/block and topology.yaml) runs here.  The rules, release by release:

topology.conf, topology/block (Slurm 23.11 and later; topology.conf(5) and
src/plugins/topology/block/block_record.c of 25.11):
  - lines of key=value tokens, keys case-insensitive, '#' starts a comment;
  - BlockName=NAME [Nodes=HOSTLIST] (an s_p array; a name given twice is fatal "Block (X) has
    already been defined"); BlockSizes=N[,N..] once (24.05 and later; 23.11 had BlockLevels):
    the first is the base block size, each one a multiple of it by a power of two, at most
    2^15 (else fatal "Invalid BlockSizes value"); no other key (s_p: "Parse error");
  - every block has at least the base block size count of nodes (topology.conf(5));
  - no block: fatal "No blocks configured".

topology.yaml (Slurm 25.05 and later; topology.yaml(5) and the TOPOLOGY_CONF parsers of
src/plugins/data_parser/v0.0.43/parsers.c):
  - a list of topologies, each a mapping: topology (name, unique), cluster_default (bool),
    exactly one of tree, block, flat (ring, torus3d: 26.05);
  - tree: {switches: [{switch: NAME (<= 64 characters), children: HOSTLIST | nodes:
    HOSTLIST}]}; block: {block_sizes: [int, ...], blocks: [{block: NAME, nodes: HOSTLIST}]};
    flat: true.

usage: slurm_formats.py block-conf FILE
       slurm_formats.py yaml FILE
Prints a summary line; exits 1 naming the first rule broken.
"""
import re
import sys

import slurm_ctld  # noqa: E402  (expand: Slurm's hostlists)


def fail(msg):
    sys.exit('slurm_formats: %s' % msg)


def check_sizes(sizes, where):
    base = sizes[0]
    for v in sizes:
        if not isinstance(v, int) or v <= 0 or v % base:
            fail('%s: invalid BlockSizes value %r (a multiple of the base %d)' % (where, v, base))
        r = v // base
        if r & (r - 1) or r > 1 << 15:
            fail('%s: invalid BlockSizes value %d: %d base blocks' % (where, v, r))
    if sizes != sorted(set(sizes)):
        fail('%s: BlockSizes not increasing: %s' % (where, sizes))


def check_blocks(blocks, sizes, where):
    names, seen = set(), set()
    if not blocks:
        fail('%s: No blocks configured' % where)
    for name, nodes in blocks:
        if name in names:
            fail('%s: Block (%s) has already been defined' % (where, name))
        names.add(name)
        hosts = slurm_ctld.expand(nodes) if nodes else []
        if sizes and len(hosts) < sizes[0]:
            fail('%s: block %s has %d nodes, fewer than the base block size %d' %
                 (where, name, len(hosts), sizes[0]))
        if seen & set(hosts):
            fail('%s: block %s shares nodes with another block' % (where, name))
        seen |= set(hosts)
    return len(seen)


def block_conf(path):
    blocks, sizes = [], None
    for no, line in enumerate(open(path), 1):
        line = line.split('#')[0].strip()
        if not line:
            continue
        toks = [t.split('=', 1) for t in line.split()]
        if any(len(t) != 2 or not t[1] for t in toks):
            fail('%s:%d: not key=value tokens' % (path, no))
        keys = [k.lower() for k, _ in toks]
        if keys == ['blocksizes']:
            if sizes is not None:
                fail('%s:%d: BlockSizes twice' % (path, no))
            try:
                sizes = [int(x) for x in toks[0][1].split(',')]
            except ValueError:
                fail('%s:%d: BlockSizes is not a list of integers' % (path, no))
            check_sizes(sizes, '%s:%d' % (path, no))
        elif keys in (['blockname'], ['blockname', 'nodes']):
            blocks.append((toks[0][1], toks[1][1] if len(toks) > 1 else None))
        else:
            fail('%s:%d: keys %s: topology/block reads BlockName, Nodes, BlockSizes' %
                 (path, no, keys))
    n = check_blocks(blocks, sizes, path)
    print('%s: %d blocks, %d nodes, BlockSizes=%s' % (path, len(blocks), n, sizes))


def yaml_file(path):
    import yaml  # python3-yaml (Debian); t51 skips this check without it
    doc = yaml.safe_load(open(path))
    topos = doc if isinstance(doc, list) else [doc]
    names = set()
    for i, t in enumerate(topos):
        where = '%s: topology %d' % (path, i)
        if not isinstance(t, dict) or list(t)[0] != 'topology':
            fail('%s: not a mapping whose first key is topology' % where)
        if set(t) - {'topology', 'cluster_default', 'tree', 'block', 'flat'}:
            fail('%s: unknown keys %s' % (where, set(t) - {'topology', 'cluster_default', 'tree',
                                                              'block', 'flat'}))
        if t['topology'] in names:
            fail('%s: topology %s named twice' % (where, t['topology']))
        names.add(t['topology'])
        if not isinstance(t.get('cluster_default', False), bool):
            fail('%s: cluster_default is not a bool' % where)
        kinds = [k for k in ('tree', 'block', 'flat') if k in t]
        if len(kinds) != 1:
            fail('%s: %s: exactly one of tree, block, flat' % (where, kinds))
        if 'flat' in t and t['flat'] is not True:
            fail('%s: flat is not true' % where)
        if 'tree' in t:
            sw = t['tree']['switches']
            seen = set()
            for s in sw:
                if set(s) - {'switch', 'children', 'nodes'} or len(s['switch']) > 64:
                    fail('%s: switch %s' % (where, s))
                if ('children' in s) == ('nodes' in s):
                    fail('%s: switch %s: children or nodes' % (where, s['switch']))
                if s['switch'] in seen:
                    fail('%s: switch %s twice' % (where, s['switch']))
                seen.add(s['switch'])
        if 'block' in t:
            b = t['block']
            if set(b) - {'block_sizes', 'blocks'}:
                fail('%s: block keys %s' % (where, set(b)))
            sizes = b.get('block_sizes')
            if sizes:
                check_sizes(sizes, where)
            for x in b['blocks']:
                if set(x) - {'block', 'nodes'} or 'block' not in x:
                    fail('%s: block %s' % (where, x))
            check_blocks([(x['block'], x.get('nodes')) for x in b['blocks']], sizes, where)
    if sum(1 for t in topos if t.get('cluster_default')) > 1:
        print('%s: several cluster_default topologies: Slurm takes the first' % path)
    print('%s: %d topologies (%s)' % (path, len(topos), ', '.join(
        '%s=%s' % (t['topology'], [k for k in ('tree', 'block', 'flat') if k in t][0])
        for t in topos)))


if __name__ == '__main__':
    {'block-conf': block_conf, 'yaml': yaml_file}[sys.argv[1]](sys.argv[2])
