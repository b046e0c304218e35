#!/usr/bin/env bash
# topo export --format slurm|slurm-yaml: PSMN X5 against the site's own topology.conf
# (tests/data/real/data/ibnetdiscover/psmn_X5/X5.topology.conf), checked the way Slurm's
# topology/tree reads it.
set -eu
. "$(dirname "$0")/lib.sh"
x5=("--topology" "$TOPO_DIR/psmn-x5/X5.topofile" "--node-name-map" "$TOPO_DIR/psmn-x5/X5.map")
site="$TM_TEST_DATA/real/data/ibnetdiscover/psmn_X5/X5.topology.conf"

expect_exit 0 "$TOPOMAP" topo export "${x5[@]}" --format slurm --out x5.conf
[ -z "$OUT" ]
expect_exit 0 "$TOPOMAP" topo export "${x5[@]}" --format slurm --link-speed --out x5-speed.conf
expect_exit 0 "$TOPOMAP" topo export "${x5[@]}" --format slurm-yaml --out x5.yaml

# Parses topology.conf / topology.yaml into {switch: (key, set of children)}, expanding
# hostlists with a small expander of its own (prefix[a-b,c] terms, padding of the lower
# bound), and compares with the site's file.
python3 - "$site" x5.conf x5-speed.conf x5.yaml <<'EOF'
import re, sys

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
    assert len(out) == len(set(out)), expr
    return set(out)

def read_conf(path):
    tree, speed = {}, {}
    for line in open(path):
        line = line.split('#')[0].strip()
        if not line:
            continue
        kv = dict(w.split('=', 1) for w in line.split())
        name = kv.pop('SwitchName')
        assert name not in tree, name
        if 'LinkSpeed' in kv:
            speed[name] = int(kv.pop('LinkSpeed'))
        assert len(kv) == 1, 'Slurm: a switch has child switches or nodes, not both: ' + line
        (key, val), = kv.items()
        tree[name] = (key, expand(val))
    return tree, speed

def read_yaml(path):
    tree, name = {}, None
    for line in open(path):
        line = line.split('#')[0].rstrip()
        m = re.fullmatch(r'\s+- switch: (\S+)', line)
        if m:
            name = m.group(1)
            continue
        m = re.fullmatch(r'\s+(nodes|children): (\S+)', line)
        if m:
            tree[name] = ({'nodes': 'Nodes', 'children': 'Switches'}[m.group(1)],
                          expand(m.group(2)))
    try:  # the same through a YAML parser when there is one
        import yaml
        doc = yaml.safe_load(open(path))
        assert doc[0]['topology'] == 'default' and doc[0]['cluster_default'] is True
        sw = doc[0]['tree']['switches']
        assert {s['switch']: expand(s.get('nodes') or s.get('children')) for s in sw} == \
            {k: v for k, (_, v) in tree.items()}
    except ImportError:
        pass
    return tree

def slurm_levels(tree):
    """Slurm's switch_record_validate: leaves are level 0, a switch is one above its
    highest child once all children are resolved; fatal after 20 rounds."""
    level = {s: (0 if k == 'Nodes' else -1) for s, (k, _) in tree.items()}
    for depth in range(1, 100):
        resolved = True
        for s, (k, kids) in tree.items():
            if level[s] != -1:
                continue
            if any(level[c] == -1 for c in kids):
                resolved = False
                continue
            level[s] = 1 + max(level[c] for c in kids)
        if resolved:
            return level
        if depth > 20:
            return None  # "Switch configuration is not a tree"

site, _ = read_conf(sys.argv[1])
ours, _ = read_conf(sys.argv[2])
speed_tree, speed = read_conf(sys.argv[3])
yaml_tree = read_yaml(sys.argv[4])
assert speed_tree == ours and yaml_tree == ours, 'conf, conf with LinkSpeed and yaml differ'

# Slurm runs a job under the first switch of the highest level that holds one of its nodes
# (docs/slurm.md): the only level-2 switch, 86a2, reaches 68 of the 89 hosts, so topomap adds a
# virtual root, last, above the switches no line lists; the rest is compared with the site's.
lv = slurm_levels(ours)
assert lv is not None and lv['topomap-root'] == 3 and max(lv.values()) == 3, lv
root = ours.pop('topomap-root')
assert root == ('Switches', {'S-0008f10500108c5c', 'S-0008f10500108098',
                             'S-0008f105001086a2'}), root

# same switches, same key per switch, same host sets per leaf switch
assert set(ours) == set(site), set(ours) ^ set(site)
for s in site:
    assert ours[s][0] == site[s][0], (s, ours[s][0], site[s][0])
    if site[s][0] == 'Nodes':
        assert ours[s][1] == site[s][1], (s, ours[s][1] ^ site[s][1])
# child switches: the site's pairs, except that of two switches listing each other
# (a cycle) exactly one direction is kept
P = {(s, c) for s, (k, kids) in site.items() if k == 'Switches' for c in kids}
O = {(s, c) for s, (k, kids) in ours.items() if k == 'Switches' for c in kids}
mutual = {(s, c) for (s, c) in P if (c, s) in P}
assert O <= P, O - P
assert P - mutual <= O, (P - mutual) - O
for (s, c) in mutual:
    assert ((s, c) in O) != ((c, s) in O), (s, c)
dropped = sorted(P - O)
assert dropped == [('S-0008f1050010851e', 'S-0008f105001086a2'),
                   ('S-0008f10500108530', 'S-0008f105001086a2')], dropped

# Slurm accepts ours as a tree (86a2 on top of the two spines it joins), not the site's
lv = slurm_levels(ours)
assert lv is not None and lv['S-0008f105001086a2'] == 2 and lv['S-0008f10500108c5c'] == 1, lv
assert slurm_levels(site) is None

# LinkSpeed: the DDR (16 Gbit/s) leaves, QDR (32) everywhere else
slow = {s for s, v in speed.items() if v == 16}
assert slow == {'S-0008f10500108bba', 'S-0008f10500200b50'}, speed
assert set(speed) == set(ours) and all(v in (16, 32) for v in speed.values()), speed
print('x5: %d switches, %d host names as in the site file; dropped %s' %
      (len(ours), sum(len(v) for k, v in ours.values() if k == 'Nodes'), dropped))
EOF

# stdout output is the same text
expect_exit 0 "$TOPOMAP" topo export "${x5[@]}" --format slurm
[ "$OUT" = "$(cat x5.conf)" ]

# a generated 3-level fat-tree: 16 leaf switches of 4 hosts; every upper switch lists 4 below
expect_exit 0 "$TOPOMAP" topo export --topology fattree:k=4,n=3 --format slurm
[ "$(echo "$OUT" | grep -c ' Nodes=n\[[0-9]*-[0-9]*\]$')" = 16 ]
[ "$(echo "$OUT" | grep -c ' Switches=sw-l[12]-')" = 32 ]
expect_in "SwitchName=sw-l1-000 Nodes=n[0000-0003]" "$OUT"

# a torus has no switches: exit 3, one line, no file left behind
expect_exit 3 "$TOPOMAP" topo export --topology torus:4x4 --format slurm --out torus.conf
expect_in "no switches: Slurm's topology/tree" "$ERR"
[ "$(echo "$ERR" | wc -l)" = 1 ] && [ -z "$OUT" ] && [ ! -e torus.conf ]

# usage errors
expect_exit 1 "$TOPOMAP" topo export "${x5[@]}" --format slurm-yaml --link-speed
expect_in "--link-speed needs --format slurm" "$ERR"
expect_exit 1 "$TOPOMAP" topo info --topology torus:4x4 --link-speed
expect_exit 1 "$TOPOMAP" topo export --topology torus:4x4 --format slurm-conf
expect_in "slurm, slurm-block, slurm-yaml" "$ERR"
