#!/usr/bin/env bash
# The README's demo (make demo): LULESH, 64 ranks, on 16 nodes of the PSMN X5 fabric
# scattered over six leaf switches. topomap must beat the consecutive placement on
# congestion and dilation, write a valid rankfile, and eval must confirm its figures.
set -eu
. "$(dirname "$0")/lib.sh"
T=$TOPO_DIR/psmn-x5/X5.topofile; M=$TOPO_DIR/psmn-x5/X5.map; C=$TOPO_DIR/comm/lulesh-64.graphStats.txt
J=$TOPO_DIR/psmn-x5/job-64-scattered.hostfile
expect_exit 0 "$TOPOMAP" map --topology $T --node-name-map $M --slots 12 --comm $C --alloc $J \
    --out demo.rankfile --report demo-report.html --json
MAP=$OUT
# the report of make demo: every strategy row, the job's 16 hosts (docs/report.md)
echo "$MAP" | python3 -c "import json, sys; assert json.load(sys.stdin)['report'] == 'demo-report.html'"
[ "$(grep -c 'class="hj"' demo-report.html)" = 16 ]
# one load: the dump's three warnings (CAs without a hostname) are one summary line, which
# says that the node-name map was read and lists the three GUIDs it lacks (issue 36)
[ "$(grep -c 'has no hostname' stderr.txt)" = 1 ]
grep -q '^topomap: warning: 3 warnings like: .*X5.topofile:[0-9]*: CA "H-.*has no hostname.*, and the node-name map .*X5.map (read: 86 entries) has no line for its GUID 0x' stderr.txt
expect_in "; GUIDs missing from the map: 0x003048c749450000, 0x003048c74ae20000, 0x78e7d1030024535c; fix: add a line 'GUID \"hostname\"' per missing GUID to the node-name map" "$ERR"
! grep -q 'give a node-name map\|fix: --node-name-map' stderr.txt
[ "$(grep -c '^rank ' demo.rankfile)" = 64 ]
echo "$MAP" | python3 -c "
import json, sys
d = json.load(sys.stdin)
c = d['change_pct']
assert c['max_congestion'] < -20 and c['avg_dilation'] < -10, c
assert d['consecutive']['max_congestion'] > d['max_congestion'], d
assert d['hosts_used'] == 16 and d['n_tasks'] == 64
"
# every rank on a host of the allocation, at most 4 per host, distinct slots
python3 - "$J" demo.rankfile <<'PY'
import re, sys, collections
hosts = {l.split()[0] for l in open(sys.argv[1]) if l.strip() and not l.startswith('#')}
per = collections.Counter(); seen = set()
for l in open(sys.argv[2]):
    m = re.match(r'rank (\d+)=(\S+) slot=(\d+)$', l.strip())
    assert m, l
    assert m.group(2) in hosts, l
    per[m.group(2)] += 1
    assert (m.group(2), m.group(3)) not in seen, l
    seen.add((m.group(2), m.group(3)))
assert max(per.values()) <= 4 and len(seen) == 64, per
PY
expect_exit 0 "$TOPOMAP" eval --topology $T --node-name-map $M --slots 12 --comm $C --alloc $J \
    --mapping demo.rankfile --json
for k in max_congestion avg_dilation qap_network_J; do
    python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); assert abs(a - b) <= 1e-9 * max(1, abs(a)), (a, b)" \
        "$(echo "$OUT" | json_get "['$k']")" "$(echo "$MAP" | json_get "['$k']")"
done
