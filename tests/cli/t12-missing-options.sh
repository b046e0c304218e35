#!/usr/bin/env bash
# What a newcomer runs into (issue 36): an error that a missing option causes names that
# option (--slots, --imbalance, --alloc, --node-name-map, --root), the hosts of a topology
# are named when a host is not found, and `eval --mapping` without --alloc compares with
# the consecutive placement on the mapping's own hosts (and says so), so that re-evaluating
# make demo's rankfile gives make demo's figures.
set -eu
. "$(dirname "$0")/lib.sh"
T=$TOPO_DIR/psmn-x5/X5.topofile; M=$TOPO_DIR/psmn-x5/X5.map; L=$TOPO_DIR/comm/lulesh-64.graphStats.txt
J=$TOPO_DIR/psmn-x5/job-64-scattered.hostfile; CG=$TOPO_DIR/comm/cg-64.size.csv

# make demo's rankfile (the mapping itself is t30's business: identity is enough here)
step "the demo's rankfile"
expect_exit 0 "$TOPOMAP" map --topology $T --node-name-map $M --slots 12 --comm $L --alloc $J \
    --out demo.rankfile --json
DEMO=$OUT

# --- item 2: --slots, named by the errors a dump without core counts gives -----------------
step "item 2: a rankfile's slot 1 on a dump's 1-slot host names --slots"
expect_exit 2 "$TOPOMAP" eval --topology $T --node-name-map $M --comm $L --mapping demo.rankfile
expect_in "demo.rankfile:" "$ERR"
expect_in "does not exist on host" "$ERR"
expect_in "(1 slot); fix: --slots N gives every host N slots (a topology without core counts, such as an ibnetdiscover dump, gives each host 1)" "$ERR"
[ "$(wc -l < stderr.txt)" = 2 ]   # the map's warning, then the one error line
step "item 2: a hostfile's slots=4 on a 1-slot host names --slots"
expect_exit 2 "$TOPOMAP" eval --topology $T --node-name-map $M --comm $L --alloc $J --mapping demo.rankfile
expect_in "job-64-scattered.hostfile:3: host 'r422node1' has 1 slot in the topology, the hostfile asks for 4; fix: --slots N" "$ERR"

step "--slots: a plain mapping and a machinefile that put more ranks on a host than it has slots"
printf '0 1 1\n1 2 1\n' > e3.edges
printf 'n0001\nn0001\nn0001\n' > full.plain
expect_exit 2 "$TOPOMAP" eval --topology torus:2x2 --comm e3.edges --mapping full.plain
expect_in "full.plain:2: rank 1: no free slot left on host 'n0001' (1 slot); fix: --slots N" "$ERR"
expect_exit 0 "$TOPOMAP" eval --topology torus:2x2 --comm e3.edges --mapping full.plain --slots 3
printf 'n0001:5\n' > run.hosts
expect_exit 2 "$TOPOMAP" eval --topology torus:2x2 --comm e3.edges --mapping run.hosts
expect_in "run.hosts:1: 'n0001:5': more tasks than the 4 slots of the topology; fix: --slots N" "$ERR"

# --- item 3: the baseline of eval --mapping without --alloc ------------------------------
step "item 3: without --alloc the baseline is the rankfile's own hosts, make demo's figures"
expect_exit 0 "$TOPOMAP" eval --topology $T --node-name-map $M --slots 12 --comm $L \
    --mapping demo.rankfile --json
EV=$OUT
python3 - "$DEMO" "$EV" <<'PY'
import json, sys
demo, ev = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert ev['baseline'] == 'mapping_hosts', ev['baseline']
assert ev['baseline_hosts'] == 'r422node[1,35,57],r815lin[104,110-111],sl390lin[1,7,13,22,28,101,105,110],x5570comp[1-2]', ev['baseline_hosts']
for k in ('max_congestion', 'avg_dilation', 'est_time_s'):
    a, b = ev['consecutive'][k], demo['consecutive'][k]
    assert abs(a - b) <= 1e-9 * abs(b), (k, a, b)
    a, b = ev['change_pct'][k], demo['change_pct'][k]
    assert abs(a - b) <= 1e-6, (k, a, b)
assert ev['change_pct']['avg_dilation'] < -10, ev['change_pct']
PY
expect_exit 0 "$TOPOMAP" eval --topology $T --node-name-map $M --slots 12 --comm $L --mapping demo.rankfile
expect_in "baseline           consecutive on the mapping's 16 hosts in name order, as many tasks on each as the mapping puts there:" "$OUT"
expect_in "(--alloc A: the job's own hosts and order)" "$OUT"
! grep -q "worse than the consecutive placement" stdout.txt
step "item 3: with --alloc the allocation is the baseline, and the output says so"
expect_exit 0 "$TOPOMAP" eval --topology $T --node-name-map $M --slots 12 --comm $L --alloc $J \
    --mapping demo.rankfile --json
[ "$(echo "$OUT" | json_get "['baseline']")" = alloc ]
[ "$(echo "$OUT" | json_py "'baseline_hosts' in d")" = False ]
expect_exit 0 "$TOPOMAP" eval --topology $T --node-name-map $M --slots 12 --comm $L --alloc $J \
    --mapping demo.rankfile
expect_in "baseline           consecutive on the allocation in its order (--alloc $J)" "$OUT"
# a rankfile listing its hosts out of name order, with 3, 1 and 2 tasks on them: the baseline
# is the same job on the same hosts in name order (n0000: 1 task, n0001: 2, n0003: 3)
printf 'rank 0=n0003 slot=0\nrank 1=n0003 slot=1\nrank 2=n0000 slot=0\nrank 3=n0003 slot=2\nrank 4=n0001 slot=0\nrank 5=n0001 slot=1\n' > mixed.rankfile
printf '0 1 1\n1 2 1\n2 3 1\n3 4 1\n4 5 1\n' > chain6.edges
expect_exit 0 "$TOPOMAP" eval --topology mesh:4 --slots 4 --comm chain6.edges --mapping mixed.rankfile --json
MIX=$OUT
printf 'n0000 slots=1\nn0001 slots=2\nn0003 slots=3\n' > mixed.hosts
expect_exit 0 "$TOPOMAP" eval --topology mesh:4 --slots 4 --comm chain6.edges --alloc mixed.hosts --json
python3 - "$MIX" "$OUT" <<'PY'
import json, sys
mix, cons = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert mix['baseline_hosts'] == 'n[0000-0001,0003]', mix['baseline_hosts']
for k in ('max_congestion', 'avg_dilation', 'qap_network_J'):
    assert mix['consecutive'][k] == cons[k], (k, mix['consecutive'], cons)
PY

# a baseline of 2048 hosts: the line shows the start of the hostlist, JSON all of it
python3 -c "
for i in range(2048): print('rank %d=n%04d slot=0' % (i, 2 * i))" > sparse.rankfile
python3 -c "
n = 2048
print(n, n)
for i in range(n): print((i - 1) % n + 1, (i + 1) % n + 1)" > ring2048.graph
expect_exit 0 "$TOPOMAP" eval --topology torus:64x64 --comm ring2048.graph --mapping sparse.rankfile
grep -q '^                   n\[0000,0002,0004,.*,...\] (--alloc A: the job.s own hosts and order)$' stdout.txt
[ "$(grep -A1 '^baseline' stdout.txt | tail -n 1 | wc -c)" -lt 240 ]
expect_exit 0 "$TOPOMAP" eval --topology torus:64x64 --comm ring2048.graph --mapping sparse.rankfile --json
[ "$(echo "$OUT" | json_py "len(d['baseline_hosts'].split(','))")" = 2048 ]

# --- item 4: more tasks than slots, and hosts named otherwise than the user thinks --------
step "item 4: 64 tasks on a 16-host torus: map names --slots and --imbalance"
expect_exit 3 "$TOPOMAP" map --topology torus:4x4 --comm $CG
expect_in "64 tasks but only 16 slots on 16 hosts; give --slots N (every host N slots) or --imbalance EPS" "$ERR"
[ "$(wc -l < stderr.txt)" = 1 ]
expect_exit 3 "$TOPOMAP" map --topology torus:4x4 --comm $CG --alloc 'n[0000-0007]'
expect_in "64 tasks but only 8 slots on 8 hosts of the allocation; give --slots N (every host N slots), a larger --alloc or --imbalance EPS" "$ERR"
# each cure works
expect_exit 0 "$TOPOMAP" map --topology torus:4x4 --comm $CG --slots 4 --strategy identity --quiet
expect_exit 0 "$TOPOMAP" map --topology torus:4x4 --comm $CG --imbalance 0.03 --strategy identity --quiet
step "item 4: eval names --slots (and --mapping for an oversubscribed placement)"
expect_exit 3 "$TOPOMAP" eval --topology torus:4x4 --comm $CG
expect_in "64 tasks but only 16 slots on 16 hosts; give --slots N (every host N slots), or --mapping M" "$ERR"
step "item 4: an unknown host names the hosts the topology has"
expect_exit 2 "$TOPOMAP" map --topology torus:4x4 --comm $CG --alloc 'node[001-064]'
expect_in "unknown host 'node001' (not in the topology, whose 16 hosts are named n[0000-0015])" "$ERR"
expect_exit 2 "$TOPOMAP" eval --topology fattree:k=4,n=3 --comm $CG --alloc 'node[001-064]'
expect_in "whose 64 hosts are named n[0000-0063]" "$ERR"
# a dump read without its node-name map: hosts are H-<GUID>, and the error names --node-name-map
step "a dump without --node-name-map: the user's host names are unknown, --node-name-map is named"
expect_exit 2 "$TOPOMAP" eval --topology $T --comm $L --alloc 'sl390lin[1,7]' --slots 32
expect_in "unknown host 'sl390lin1' (not in the topology, whose 89 hosts are named H-<GUID> (no hostname in the dump, e.g. H-" "$ERR"
expect_in "; fix: --node-name-map FILE names the dump's hosts" "$ERR"
expect_exit 2 "$TOPOMAP" eval --topology $T --node-name-map $M --comm $L --alloc 'sl390lin[1,999]' --slots 32
expect_in "unknown host 'sl390lin999'" "$ERR"
case "$ERR" in *"fix: --node-name-map"*) echo "names --node-name-map although it was given: $ERR"; exit 1;; esac
expect_exit 2 "$TOPOMAP" eval --topology $T --node-name-map $M --comm $L --mapping $TM_TEST_DATA/cli/unknown-host.rankfile
expect_in "whose 89 hosts are named" "$ERR"

# --- the other options a missing value makes fail ------------------------------------------
step "--alloc: a network in two parts without --alloc"
printf '16 16\n' > ring16.graph
for i in $(seq 1 16); do echo "$(( (i + 14) % 16 + 1 )) $(( i % 16 + 1 ))"; done >> ring16.graph
expect_exit 2 "$TOPOMAP" map --topology $TM_TEST_DATA/cli/two-parts.xml --comm ring16.graph --quiet
expect_in "disconnected allocation: 16 allocated hosts cannot be reached" "$ERR"
expect_in "; fix: --alloc A names hosts of one connected part" "$ERR"
expect_exit 0 "$TOPOMAP" map --topology $TM_TEST_DATA/cli/two-parts.xml --comm ring16.graph --quiet \
    --alloc 'f-n[0000-0015]'
expect_exit 2 "$TOPOMAP" map --topology $TM_TEST_DATA/cli/two-parts.xml --comm ring16.graph --quiet \
    --alloc 't-n0000,f-n[0000-0014]'
case "$ERR" in *"fix: --alloc"*) echo "names --alloc although it was given: $ERR"; exit 1;; esac
step "--root: Up/Down routing on a network where no switch passes OpenSM's root test"
printf '0 1 1\n' > one.edges
expect_exit 2 "$TOPOMAP" eval --topology dragonfly:h=2 --comm one.edges --routing updn
expect_in "no switch passes OpenSM's root test" "$ERR"
expect_in "; fix: --root S[,S2..] names the root switches" "$ERR"
