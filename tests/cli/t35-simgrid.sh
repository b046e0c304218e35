#!/usr/bin/env bash
# topo export --format simgrid and map --format smpi against SimGrid itself
# (docs/time.md "Simulated proof"): the platform is well-formed and SimGrid
# runs an MPI program on it; a route equals topomap's routing (the links
# eval --export-loads loads for that one message); examples/halo3d on 16
# ranks of a torus whose hosts are allocated in shuffled order is faster in
# simulation with topomap's mapping than consecutive; PSMN X5's scattered job
# runs on its platform.  Skipped (77) only
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
# become one link of twice the bandwidth.
expect_exit 0 "$TOPOMAP" topo export --topology torus:4x2x2 --format simgrid --routing dor \
    --latency-per-hop 2e-7 --host-bandwidth 40 --out t.xml
[ -z "$OUT" ]
python3 - t.xml <<'P'
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
P
expect_exit 0 "$TOPOMAP" topo export --topology "$TOPO_DIR/examples/small-cluster.xml" \
    --format simgrid --out sc.xml
expect_exit 0 "$TOPOMAP" topo info --topology "$TOPO_DIR/examples/small-cluster.xml" --json
python3 - sc.xml <<'P'
import sys, xml.etree.ElementTree as ET
z = ET.parse(sys.argv[1]).getroot().find('zone')
bw = [l.get('bandwidth') for l in z.findall('link') if l.get('sharing_policy') == 'SPLITDUPLEX']
assert len(bw) == len(set((l.find('prop').get('value')) for l in z.findall('link')
                          if l.find('prop') is not None))   # one link per pair
assert '200Gbps' in bw, bw   # two 100 Gbit/s cables summed
P

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
