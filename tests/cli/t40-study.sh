#!/usr/bin/env bash
# topomap study: the grid, failures and capacity changes checked against
# figures computed by hand, disconnected / unroutable / infeasible rows,
# CSV and JSON contents, warnings of a topology printed once.
set -eu
. "$(dirname "$0")/lib.sh"

# --- hand-computed case ----------------------------------------------------
# fattree:k=2,n=2: hosts n0000,n0001 on leaf sw-l1-000, n0002,n0003 on
# sw-l1-001; each leaf has one cable to each root sw-l2-000, sw-l2-001
# (capacity 1); host cables have capacity 100, so they never hold the
# maximum.  One message of 8 from task 0 (n0000) to task 2 (n0002), 4 hops.
# ECMP splits it over the two roots: 4 on each uplink and downlink -> 4.
#   fail the cable sw-l1-000:sw-l2-000      -> all 8 over sw-l2-001 -> 8
#   fail switch sw-l2-001 (2 cables)        -> all 8 over sw-l2-000 -> 8
#   uplinks (level 2) at half capacity      -> 4 / 0.5              -> 8
#   half capacity and the failed cable      -> 8 / 0.5              -> 16
# Dilation stays 4 (J = 8 * 4 = 32): a failed root leaves a 4-hop path.
# With --refine none, strategy identity IS the consecutive placement.
printf '0 2 8\n' > one.edges
T='fattree:k=2,n=2,hostcap=100'
expect_exit 0 "$TOPOMAP" study --topology "$T" --comm one.edges --strategy identity --refine none \
    --fail-link sw-l1-000:sw-l2-000 --fail-switch sw-l2-001 --scale-capacity 2=0.5 \
    --out hand.csv --out hand.json
expect_in "failure link sw-l1-000:sw-l2-000 (1 cable failed)" "$OUT"
expect_in "failure switch sw-l2-001 (2 cables failed)" "$OUT"
expect_in "capacity 2=0.5 (4 cables)" "$OUT"
expect_in "6 runs in" "$OUT"
# stderr is not a terminal: no progress bar, a line per finished run (issue 36)
[ "$(grep -c '^study: [1-6]/6 runs done, [0-9.]* s' stderr.txt)" = 6 ]
[ "$(grep -vc '^study: [1-6]/6 runs done' stderr.txt)" = 0 ]
expect_exit 0 "$TOPOMAP" study --topology "$T" --comm one.edges --strategy identity --refine none \
    --fail-link sw-l1-000:sw-l2-000 --quiet
[ ! -s stderr.txt ]   # --quiet: none
python3 - <<'PY'
import csv, json
rows = list(csv.DictReader(open('hand.csv')))
want = {('none', 'none'): 4, ('none', 'link sw-l1-000:sw-l2-000'): 8,
        ('none', 'switch sw-l2-001'): 8, ('2=0.5', 'none'): 8,
        ('2=0.5', 'link sw-l1-000:sw-l2-000'): 16, ('2=0.5', 'switch sw-l2-001'): 16}
assert len(rows) == 6, rows
for r in rows:
    k = (r['capacity'], r['failure'])
    assert r['status'] == 'ok' and r['stat'] == 'run', r
    assert float(r['consecutive_max_congestion']) == want[k], (k, r)
    assert float(r['max_congestion']) == want[k], (k, r)
    assert float(r['avg_dilation']) == 4 and float(r['qap_J']) == 32, r
    assert float(r['change_max_congestion_pct']) == 0, r
    assert r['topology'] == 'fattree:k=2,n=2,hostcap=100' and r['strategy'] == 'identity'
    assert r['failed_cables'] == {'none': '0', 'link sw-l1-000:sw-l2-000': '1',
                                  'switch sw-l2-001': '2'}[r['failure']], r
    assert r['scaled_cables'] == ('4' if r['capacity'] == '2=0.5' else '0'), r
d = json.load(open('hand.json'))
assert d['runs'] == 6 and len(d['rows']) == 6
assert d['grid']['capacities'] == ['none', '2=0.5'], d['grid']
assert d['grid']['failures'] == ['none', 'link sw-l1-000:sw-l2-000', 'switch sw-l2-001']
for r, c in zip(d['rows'], rows):
    assert r['mapped']['max_congestion'] == float(c['max_congestion'])
    assert r['consecutive']['qap_J'] == 32 and r['change_pct']['qap_J'] == 0
PY

# the generator's own tapering (upcap) gives the figure of --scale-capacity 2=0.5
expect_exit 0 "$TOPOMAP" study --topology "$T,upcap=0.5" --comm one.edges --strategy identity \
    --refine none --out upcap.csv
python3 -c "
import csv; r = list(csv.DictReader(open('upcap.csv')))
assert len(r) == 1 and float(r[0]['max_congestion']) == 8, r"

# --- a mapping that beats consecutive (default refinement) -----------------
# the refinement moves task 2 next to task 0 (same leaf): 2 hops, and the
# busiest link is a host cable, 8 / 100
expect_exit 0 "$TOPOMAP" study --topology "$T" --comm one.edges --strategy identity,all --out m.json
python3 - <<'PY'
import json
d = json.load(open('m.json'))
for r in d['rows']:
    assert r['consecutive']['max_congestion'] == 4 and r['mapped']['max_congestion'] == 0.08, r
    assert r['mapped']['avg_dilation'] == 2 and r['change_pct']['avg_dilation'] == -50, r
assert [r['strategy'] for r in d['rows']] == ['identity', 'all']
PY

# --- --report: the rows on one page, labelled by the axes that vary --------
expect_exit 0 "$TOPOMAP" study --topology "$T" --comm one.edges --strategy identity,all \
    --scale-capacity 2=0.5 --report s.html --out s.csv
[ -s s.html ] && [ -s s.csv ]
grep -q '<svg' s.html
grep -q 'capacity 2=0.5 | all' s.html
grep -q 'capacity none | identity' s.html
! grep -qi '<script\|https\?://' s.html
expect_exit 1 "$TOPOMAP" study --topology "$T" --comm one.edges --report s.txt
expect_in "must end in .html" "$ERR"
# a page that cannot be written leaves no CSV either
expect_exit 2 "$TOPOMAP" study --topology "$T" --comm one.edges --report nodir/s.html --out t.csv
[ ! -e t.csv ]

# --- disconnection is a row, not a failure -------------------------------
expect_exit 0 "$TOPOMAP" study --topology "$T" --comm one.edges --strategy identity --refine none \
    --fail-switch sw-l2-000,sw-l2-001 --out disc.csv
expect_in "disconnected allocation: hosts n0000 and n0002 are in different connected parts" "$OUT"
python3 - <<'PY'
import csv
rows = list(csv.DictReader(open('disc.csv')))
assert [r['status'] for r in rows] == ['ok', 'disconnected'], rows
r = rows[1]
assert r['failure'] == 'switch sw-l2-000,sw-l2-001' and r['failed_cables'] == '4', r
assert r['max_congestion'] == '' and 'n0000 and n0002' in r['cause'], r
PY

# --- random failures: samples, mean and worst -------------------------------
# 50% of the 4 switch-switch cables = 2 per sample.  The allocation stays
# connected only when both failed cables are those of one root (then 8,
# as above); otherwise the two leaves are cut apart.
expect_exit 0 "$TOPOMAP" study --topology "$T" --comm one.edges --strategy identity --refine none \
    --fail-links 50% --seeds 6 --out rand.csv
python3 - <<'PY'
import csv
rows = [r for r in csv.DictReader(open('rand.csv')) if r['failure'] == 'links 50%']
runs = [r for r in rows if r['stat'] == 'run']
assert [r['sample'] for r in runs] == ['1', '2', '3', '4', '5', '6'], runs
assert all(r['failed_cables'] == '2' for r in runs)
ok = [r for r in runs if r['status'] == 'ok']
bad = [r for r in runs if r['status'] == 'disconnected']
assert len(ok) + len(bad) == 6 and ok and bad, runs   # seed 1 gives both kinds
assert all(float(r['max_congestion']) == 8 for r in ok)
mean = [r for r in rows if r['stat'] == 'mean'][0]
worst = [r for r in rows if r['stat'] == 'worst'][0]
for s in (mean, worst):
    assert s['runs'] == '6' and s['not_ok'] == str(len(bad)), s
    assert float(s['max_congestion']) == 8 and float(s['consecutive_avg_dilation']) == 4, s
assert worst['sample'] == '0' and worst['best'] == '' and mean['best'] == '', worst
PY
# another seed, another sample; the same seed, the same table
expect_exit 0 "$TOPOMAP" study --topology "$T" --comm one.edges --strategy identity --refine none \
    --fail-links 50% --seeds 6 --out rand2.csv
cmp rand.csv rand2.csv
expect_exit 0 "$TOPOMAP" study --topology "$T" --comm one.edges --strategy identity --refine none \
    --fail-links 50% --seeds 6 --seed 7 --out rand3.csv
! cmp -s rand.csv rand3.csv

# --- routing models, slots: unroutable and infeasible rows ---------------
# dimension order has no detour around a failed torus cable; ECMP has:
# 0->1 then takes 3 hops, so avg dilation = (1 + 1 + 1 + 3) / 4 = 1.5
printf '0 1 5\n1 2 5\n2 3 5\n3 0 5\n' > ring4.edges
expect_exit 0 "$TOPOMAP" study --topology torus:4x4 --comm ring4.edges --routing dor,ecmp \
    --fail-link n0000:n0001 --strategy identity --refine none --out route.json
python3 - <<'PY'
import json
rows = json.load(open('route.json'))['rows']
got = [(r['routing'], r['failure'], r['status']) for r in rows]
assert got == [('dor', 'none', 'ok'), ('ecmp', 'none', 'ok'),
               ('dor', 'link n0000:n0001', 'unroutable'),
               ('ecmp', 'link n0000:n0001', 'ok')], got
assert "cannot reach host 'n0001'" in rows[2]['cause'], rows[2]
assert rows[3]['mapped']['avg_dilation'] == 1.5 and rows[0]['mapped']['avg_dilation'] == 1
PY
python3 -c "
for i in range(8): print(i, (i + 1) % 8, 1)" > ring8.edges
expect_exit 0 "$TOPOMAP" study --topology fattree:k=2,n=2 --comm ring8.edges --slots 1,2 \
    --strategy identity --out slots.csv
expect_in "infeasible   8 tasks but only 4 slots on 4 hosts" "$OUT"
python3 - <<'PY'
import csv
rows = list(csv.DictReader(open('slots.csv')))
assert [(r['slots'], r['status']) for r in rows] == [('1', 'infeasible'), ('2', 'ok')], rows
PY

# --- several topologies and applications: the grid order -----------------
printf '0 1 3\n' > pair.edges
expect_exit 0 "$TOPOMAP" study --topology torus:4x4x4 --topology dragonfly:h=2 \
    --comm ring4.edges --comm pair.edges --strategy identity,greedy --out grid.json
python3 - <<'PY'
import json
d = json.load(open('grid.json'))
got = [(r['topology'], r['comm'], r['strategy']) for r in d['rows']]
want = [(t, c, s) for t in ('torus:4x4x4', 'dragonfly:h=2') for c in ('ring4.edges', 'pair.edges')
        for s in ('identity', 'greedy')]
assert got == want, got
for r in d['rows']:
    assert r['status'] == 'ok' and r['consecutive']['max_congestion'] > 0, r
    # identity without refinement... is refined by default: never worse than consecutive
    if r['strategy'] == 'identity':
        assert r['mapped']['avg_dilation'] <= r['consecutive']['avg_dilation'], r
PY

# --- a real fabric: its load warnings are printed once -------------------
X=$TOPO_DIR/psmn-x5/X5.topofile
printf '0 1 1\n' > tiny.edges
expect_exit 0 "$TOPOMAP" study --topology $X --node-name-map $TOPO_DIR/psmn-x5/X5.map --comm tiny.edges --strategy identity --refine none \
    --fail-links 5% --seeds 3 --scale-capacity all=2
[ "$(grep -c 'has no hostname' stderr.txt)" = 1 ]  # one line: "3 warnings like: ..."
expect_in "warning: 3 warnings like: " "$ERR"
expect_in "8 runs in" "$OUT"
expect_exit 0 "$TOPOMAP" study --verbose --topology $X --node-name-map $TOPO_DIR/psmn-x5/X5.map \
    --comm tiny.edges --strategy identity --refine none --fail-links 5% --seeds 3
[ "$(grep -c 'has no hostname' stderr.txt)" = 3 ]

# --- the progress bar: on a terminal only, and not with --quiet --------------
# (script(1) of util-linux runs the command on a pseudo-terminal)
if command -v script >/dev/null; then
    script -qec "$TOPOMAP study --topology fattree:k=2,n=2 --comm one.edges --strategy identity" \
        /dev/null > tty.txt
    grep -q 'study \[#*' tty.txt && grep -q '1/1 runs' tty.txt
    script -qec "$TOPOMAP study --topology fattree:k=2,n=2 --comm one.edges --strategy identity --quiet" \
        /dev/null > tty-quiet.txt
    ! grep -q 'study \[' tty-quiet.txt
    grep -q '1 runs in' tty-quiet.txt
fi
