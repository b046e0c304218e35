#!/usr/bin/env bash
# topo export --format simgrid and map --format smpi against SimGrid itself
# (docs/time.md "Simulated proof"): the platform is well-formed and SimGrid
# runs an MPI program on it; a route equals topomap's routing (the links
# eval --export-loads loads for that one message); examples/halo3d on 16
# ranks of a torus whose hosts are allocated in shuffled order is faster in
# simulation with topomap's mapping than consecutive; TOPOMAP_RECORD linked
# into halo3d records under SMPI what halo3d counts itself; PSMN X5's
# scattered job runs on its platform; fabrics with parallel cables: the
# platform's per-cable loads equal eval's under every routing.  Skipped (77) only
# without SimGrid's smpicc/smpirun.
set -eu
. "$(dirname "$0")/lib.sh"
examples="$(cd "$(dirname "$0")/../../examples" && pwd)"
command -v smpicc >/dev/null && command -v smpirun >/dev/null || {
    echo "SimGrid (smpicc, smpirun) not installed: tools/install-deps.sh installs libsimgrid-dev"
    exit 77
}
SIM=(--cfg=smpi/simulate-computation:no --cfg=smpi/host-speed:1Gf --log=root.thres:error)

# 1. Usage: --latency-per-hop/--host-bandwidth/--routing/--alloc only with simgrid.
expect_exit 1 "$TOPOMAP" topo export --topology torus:4x2x2 --format graphml --routing dor
expect_in "need --format simgrid" "$ERR"
expect_exit 1 "$TOPOMAP" topo export --topology torus:4x2x2 --format simgrid --latency-per-hop -1
expect_exit 1 "$TOPOMAP" topo info --topology torus:4x2x2 --host-bandwidth 10
expect_exit 1 "$TOPOMAP" topo export --topology torus:4x2x2 --format simgrid --message-overhead 1e-6
expect_in "'--message-overhead' is not an option of 'topomap topo'" "$ERR"

# 2. The platform: well-formed, one SPLITDUPLEX link per cable (32), routes for every
# ordered pair and a loopback per host; small-cluster.xml's doubled leaf-to-top cables
# stay two links of their own bandwidth.
expect_exit 0 "$TOPOMAP" topo export --topology torus:4x2x2 --format simgrid --routing dor \
    --latency-per-hop 2e-7 --host-bandwidth 40 --out t.xml
[ -z "$OUT" ]
python3 - t.xml <<'P2'
import sys, xml.etree.ElementTree as ET
z = ET.parse(sys.argv[1]).getroot().find('zone')
assert z.get('routing') == 'Full'
links = [l for l in z.findall('link') if l.get('sharing_policy') == 'SPLITDUPLEX']
assert len(links) == 32 and all(l.get('bandwidth') == '1Gbps' for l in links)
assert all(l.get('latency') == '2e-07s' for l in links)
routes = z.findall('route')
assert len(routes) == 16 * 16, len(routes)
assert len(z.findall('host')) == 16
lo = [l for l in z.findall('link') if l.get('sharing_policy') == 'FATPIPE']
assert len(lo) == 16 and all(l.get('bandwidth') == '5e+09' for l in lo)   # 40 Gbit/s in B/s
P2
expect_exit 0 "$TOPOMAP" topo export --topology "$TOPO_DIR/examples/small-cluster.xml" \
    --format simgrid --out sc.xml
expect_in "note: routing 'ecmp' splits" "$ERR"    # drawn paths are said
python3 - sc.xml <<'P2'
import collections, sys, xml.etree.ElementTree as ET
z = ET.parse(sys.argv[1]).getroot().find('zone')
links = [l for l in z.findall('link') if l.get('sharing_policy') == 'SPLITDUPLEX']
ends = collections.Counter(tuple(sorted(l.find('prop').get('value').split())) for l in links)
assert max(ends.values()) == 2, ends                    # parallel cables: two links
par = [l for l in links if ends[tuple(sorted(l.find('prop').get('value').split()))] == 2]
assert len(par) == 4 and all(l.get('bandwidth') == '100Gbps' for l in par)   # not summed
P2

# 3. One route equals the routing: the message n0000 -> n0013 of a two-task job,
# evaluated with --routing dor, loads exactly the links of the platform's route.
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1\n' > one.mtx
printf 'n0000 0\nn0013 0\n' > one.map
expect_exit 0 "$TOPOMAP" eval --topology torus:4x2x2 --comm one.mtx --mapping one.map \
    --routing dor --export-loads one.csv
python3 - t.xml one.csv <<'P'
import csv, sys, xml.etree.ElementTree as ET
z = ET.parse(sys.argv[1]).getroot().find('zone')
name = {i: h.get('id') for i, h in enumerate(z.findall('host'))}   # hosts are vertices 0..15
ends = {}
for l in z.findall('link'):
    p = l.find('prop')
    if p is not None:
        a, b = map(int, p.get('value').split())
        ends[l.get('id')] = (name[a], name[b])
route = [r for r in z.findall('route') if r.get('src') == 'n0000' and r.get('dst') == 'n0013']
assert len(route) == 1
hops = []
for c in route[0].findall('link_ctn'):
    a, b = ends[c.get('id')]
    hops.append((a, b) if c.get('direction') == 'UP' else (b, a))
loaded = {(r['from'], r['to']) for r in csv.DictReader(open(sys.argv[2]))}
assert set(hops) == loaded and len(hops) == len(loaded), (hops, loaded)
assert hops[0][0] == 'n0000' and hops[-1][1] == 'n0013'
assert all(hops[i][1] == hops[i + 1][0] for i in range(len(hops) - 1)), hops
P

# 3b. Fabrics with parallel cables: the per-cable loads of the platform's routes, for an
# all-to-all among the job's hosts with distinct volumes, equal the loads eval puts on each
# cable and direction (--export-loads F.graphml: edge k is cable k, load_ab from source to
# target), under single, minhop and updn on PSMN X5 (40 switch pairs with 2-6 cables), the
# fabric's own forwarding tables on PlaFRIM (9 switch pairs with 2-9 cables), ftree and
# updn on a Clos with two cables from every leaf to every spine.
r=$TM_TEST_DATA/real/data
pf=(--topology $r/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt)
clos=(--topology clos:leaves=4,hosts_per_leaf=4,spines=2,uplinks=4)
percable() {   # name routing hosts-file topology options...
    local name=$1 routing=$2 hosts=$3; shift 3
    python3 - "$hosts" > $name.mtx <<'P2'
import sys
n = len([l for l in open(sys.argv[1]) if l.strip() and not l.startswith('#')])
e = [(i, j, 1 + (3 * i + 7 * j) % 11) for i in range(n) for j in range(n) if i != j]
print('%%%%MatrixMarket matrix coordinate real general\n%d %d %d' % (n, n, len(e)))
for i, j, w in e: print(i + 1, j + 1, w)
P2
    sed -e '/^#/d' -e 's/ .*//' "$hosts" > $name.map
    expect_exit 0 "$TOPOMAP" topo export "$@" --format simgrid --routing "$routing" \
        --alloc "$hosts" --out $name.xml
    expect_exit 0 "$TOPOMAP" eval "$@" --comm $name.mtx --mapping $name.map \
        --routing "$routing" --export-loads $name.graphml
    python3 - $name.xml $name.graphml $name.mtx $name.map <<'P2'
import collections, sys, xml.etree.ElementTree as ET
plat, gml, mtx, mp = sys.argv[1:]
z = ET.parse(plat).getroot().find('zone')
route = {(r.get('src'), r.get('dst')): [(int(c.get('id')[1:]), c.get('direction'))
         for c in r.findall('link_ctn')] for r in z.findall('route') if r.get('src') != r.get('dst')}
host = [l.split()[0] for l in open(mp)]
sim = collections.Counter()
for line in open(mtx).read().splitlines()[2:]:
    i, j, w = line.split()
    for c, d in route[(host[int(i) - 1], host[int(j) - 1])]:
        sim[(c, d)] += float(w)
ns = '{http://graphml.graphdrawing.org/xmlns}'
g = ET.parse(gml).getroot().find(ns + 'graph')
keys = {k.get('id') for k in ET.parse(gml).getroot().findall(ns + 'key')}
ev = collections.Counter()
parallel = collections.Counter()
for k, e in enumerate(g.findall(ns + 'edge')):
    parallel[tuple(sorted((e.get('source'), e.get('target'))))] += 1
    d = {x.get('key'): float(x.text) for x in e.findall(ns + 'data') if x.get('key') in keys}
    for key, dr in (('load_ab', 'UP'), ('load_ba', 'DOWN')):
        if d.get(key):
            ev[(k, dr)] = d[key]
assert max(parallel.values()) >= 2, 'no parallel cables'
assert sim == ev, sorted(set(sim.items()) ^ set(ev.items()))[:8]
used = {c for c, _ in sim}
bundles = collections.defaultdict(set)
for k, e in enumerate(g.findall(ns + 'edge')):
    bundles[tuple(sorted((e.get('source'), e.get('target'))))].add(k)
print('%s: %d cable directions loaded, equal; %d bundles with 2+ cables used' % (
    plat, len(sim), sum(1 for b in bundles.values() if len(b & used) >= 2)))
P2
}
for rt in single minhop updn; do percable x5-$rt $rt "$TOPO_DIR/psmn-x5/job-64-scattered.hostfile" \
    --topology "$TOPO_DIR/psmn-x5/X5.topofile" --node-name-map "$TOPO_DIR/psmn-x5/X5.map" --slots 12; done
python3 - "${pf[1]}" > pf.hosts <<'P2'
import re, sys
h = sorted(set(re.findall(r"'(\S+) HCA-1'", open(sys.argv[1]).read())))
print('\n'.join(h[::3][:24]))
P2
percable pf-lft lft:$r/ibroute_lft/plafrim pf.hosts "${pf[@]}"
python3 -c "print('\n'.join('n%04d' % i for i in range(16)))" > clos.hosts
for rt in ftree updn; do percable clos-$rt $rt clos.hosts "${clos[@]}"; done

# 4. halo3d under SMPI: hosts allocated in a shuffled order; consecutive (rank i on the
# i-th allocated host) against topomap's mapping made under the platform's routing.
smpicc -std=c11 -O1 -DHALO3D_NO_DIST_GRAPH -I"$examples" -o halo3d "$examples/halo3d.c" \
    2>smpicc.err || { cat smpicc.err; exit 1; }
python3 -c "
import random
h = ['n%04d' % i for i in range(16)]
random.Random(7).shuffle(h)
print('\n'.join(h))" > alloc.txt
# consecutive: smpirun gives rank i the i-th line, so the allocation itself
TM_COMM_MATRIX=halo.mtx smpirun -platform t.xml -hostfile alloc.txt -np 16 "${SIM[@]}" \
    ./halo3d 32 2 > cons.out 2>&1 || { cat cons.out; exit 1; }
expect_in "0 wrong" "$(cat cons.out)"
head -3 halo.mtx | tail -1 | grep -qx '16 16 56'   # 4x2x2 blocks: 56 neighbour pairs
expect_exit 0 "$TOPOMAP" map --topology torus:4x2x2 --alloc alloc.txt --comm halo.mtx \
    --strategy identity --refine none --format smpi --out consecutive.hf
cmp consecutive.hf alloc.txt   # identity = allocation order, one full name per rank
expect_exit 0 "$TOPOMAP" map --topology torus:4x2x2 --alloc alloc.txt --comm halo.mtx \
    --routing dor --format smpi --out mapped.hf
[ "$(sort mapped.hf)" = "$(sort alloc.txt)" ]
smpirun -platform t.xml -hostfile mapped.hf -np 16 "${SIM[@]}" ./halo3d 32 2 > map.out 2>&1 \
    || { cat map.out; exit 1; }
expect_in "0 wrong" "$(cat map.out)"
tc=$(sed -n 's/^halo3d: communication time \([^ ]*\) s.*/\1/p' cons.out)
tm=$(sed -n 's/^halo3d: communication time \([^ ]*\) s.*/\1/p' map.out)
python3 -c "
import sys
c, m = float('$tc'), float('$tm')
print('consecutive %.6g s, mapped %.6g s, %.2fx' % (c, m, c / m))
assert m < c * 0.9, 'mapped is not faster in simulation'"

# 4b. TOPOMAP_RECORD under SMPI: the shim's files (src/mpi/lib/, record/, shim/) built with
# smpicc and linked into halo3d (docs/mpi.md "Recording under SimGrid's SMPI") record what halo3d itself counts
# (collectives skipped): the same matrix, and its phases are halo3d's own (one exchange
# per iteration, cut by MPI_Waitall, repeat 2).
# Not under the sanitizers: their libtopomap.a needs their runtime, which SMPI's programs
# do not load.
src="$examples/../src"
if [ -f "$(dirname "$TOPOMAP")/libtopomap.a" ] && ! sanitized; then
    mkdir -p recobj
    for f in "$src"/mpi/lib/*.c "$src"/mpi/record/*.c "$src"/mpi/shim/*.c; do
        smpicc -std=c11 -D_GNU_SOURCE -O1 -w -I"$src/../include" $(pkg-config --cflags igraph libxml-2.0) \
            -c "$f" -o recobj/$(basename "${f%.c}").o 2>>smpicc.err || { cat smpicc.err; exit 1; }
    done
    smpicc -std=c11 -O1 -DHALO3D_NO_DIST_GRAPH -I"$examples" -o halo3d-rec "$examples/halo3d.c" \
        -Wl,--whole-archive recobj/*.o -Wl,--no-whole-archive "$(dirname "$TOPOMAP")/libtopomap.a" \
        $(pkg-config --libs igraph libxml-2.0) -lmetis -lpthread -lm 2>>smpicc.err ||
        { cat smpicc.err; exit 1; }
    TOPOMAP_RECORD=rec.mtx TOPOMAP_RECORD_COLLECTIVES=skip TM_COMM_MATRIX=own.mtx \
        TM_COMM_PHASES=own.phases smpirun -platform t.xml -hostfile alloc.txt -np 16 "${SIM[@]}" \
        ./halo3d-rec 32 2 > rec.out 2>&1 || { cat rec.out; exit 1; }
    expect_in "0 wrong" "$(cat rec.out)"
    python3 - <<'P2'
import json
def mtx(path):
    rows = [l.split() for l in open(path) if not l.startswith('%')][1:]
    return {(a, b): float(w) for a, b, w in rows if a != b and float(w) > 0}
def phases(path):
    lines = [l.split() for l in open(path) if l.strip() and not l.startswith('%')]
    out, at = [], 1
    for _ in range(int(lines[0][1])):
        rep, m = int(lines[at][1]), int(lines[at][2])
        out.append((rep, {(a, b): float(w) for a, b, w in lines[at + 1:at + 1 + m]}))
        at += 1 + m
    return out
assert mtx('rec.mtx') == mtx('own.mtx'), 'recorded matrix differs from halo3d\'s own'
assert phases('rec.mtx.phases') == phases('own.phases'), (phases('rec.mtx.phases')[:1],)
d = json.load(open('rec.mtx.json'))
assert d['mpi'].startswith('SMPI') and d['ranks'] == 16, d['mpi']
assert d['phase_cuts'] == 'collectives, MPI_Waitall, MPI_Sendrecv', d['phase_cuts']
print('recorded under SMPI: %d pairs, phases equal halo3d\'s own' % len(mtx('rec.mtx')))
P2
fi

# 5. A real fabric: PSMN X5 with its scattered 64-rank job (16 nodes x 4), min-hop routes
# between the job's hosts only; SimGrid loads it and halo3d runs on the consecutive placement.
x5=(--topology "$TOPO_DIR/psmn-x5/X5.topofile" --node-name-map "$TOPO_DIR/psmn-x5/X5.map" --slots 12)
job="$TOPO_DIR/psmn-x5/job-64-scattered.hostfile"
expect_exit 0 "$TOPOMAP" topo export "${x5[@]}" --format simgrid --routing minhop --alloc "$job" \
    --out x5.xml
python3 - x5.xml <<'P'
import sys, xml.etree.ElementTree as ET
z = ET.parse(sys.argv[1]).getroot().find('zone')
routes = z.findall('route')
assert len(routes) == 16 * 16, len(routes)      # 16 job hosts: 240 routes + 16 loopbacks
assert {r.get('src') for r in routes} == {r.get('dst') for r in routes}
P
python3 -c "
print('%%MatrixMarket matrix coordinate real general\n64 64 64')
for i in range(64): print(i + 1, (i + 1) % 64 + 1, 1)" > ring64.mtx
expect_exit 0 "$TOPOMAP" map "${x5[@]}" --alloc "$job" --comm ring64.mtx --strategy identity \
    --refine none --format smpi --out x5.hf
[ "$(wc -l < x5.hf)" -eq 64 ] && [ "$(sort -u x5.hf | wc -l)" -eq 16 ]
smpirun -platform x5.xml -hostfile x5.hf -np 64 "${SIM[@]}" ./halo3d 4 1 > x5.out 2>&1 \
    || { cat x5.out; exit 1; }
expect_in "64 ranks, 4x4x4 blocks of 4^3, 0 ranks moved, 4608 halo values checked, 0 wrong" \
    "$(cat x5.out)"

# 6. Atomic output: an export that fails after the file was opened (hosts in two parts
# have no route between them; a full device) leaves the previous file and no temporary.
cat > parts.graphml <<'G'
<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="name" for="node" attr.name="name" attr.type="string"/>
  <key id="kind" for="node" attr.name="kind" attr.type="string"/>
  <key id="slots" for="node" attr.name="slots" attr.type="int"/>
  <key id="capacity" for="edge" attr.name="capacity" attr.type="double"/>
  <graph id="G" edgedefault="undirected">
    <node id="s0"><data key="name">s0</data><data key="kind">switch</data><data key="slots">0</data></node>
    <node id="a0"><data key="name">a0</data><data key="kind">host</data><data key="slots">1</data></node>
    <node id="b0"><data key="name">b0</data><data key="kind">host</data><data key="slots">1</data></node>
    <node id="s1"><data key="name">s1</data><data key="kind">switch</data><data key="slots">0</data></node>
    <node id="a1"><data key="name">a1</data><data key="kind">host</data><data key="slots">1</data></node>
    <node id="b1"><data key="name">b1</data><data key="kind">host</data><data key="slots">1</data></node>
    <edge source="s0" target="a0"><data key="capacity">1</data></edge>
    <edge source="s0" target="b0"><data key="capacity">1</data></edge>
    <edge source="s1" target="a1"><data key="capacity">1</data></edge>
    <edge source="s1" target="b1"><data key="capacity">1</data></edge>
  </graph>
</graphml>
G
no_tmp() { [ -z "$(find . -name '.*.tmp.*')" ] || { echo "temporary left: $(find . -name '.*.tmp.*')"; exit 1; }; }
cp t.xml keep.xml
expect_exit 2 "$TOPOMAP" topo export --topology parts.graphml --format simgrid --routing single \
    --out t.xml
expect_in "a0" "$ERR"
cmp t.xml keep.xml
no_tmp
expect_exit 0 "$TOPOMAP" topo export --topology parts.graphml --format simgrid --alloc a0,b0 \
    --out p.xml   # one part only: fine
ln -s /dev/full devfull
expect_exit 2 "$TOPOMAP" topo export --topology torus:4x2x2 --format simgrid --out devfull
expect_in "write error" "$ERR"
no_tmp
