#!/usr/bin/env bash
# topomap study gives the same CSV and JSON, byte for byte, with 1, 2 and 3
# threads: torus vs dragonfly of about the same size, random failures with
# several samples, two routing models, every strategy ("all").
set -eu
. "$(dirname "$0")/lib.sh"
# under the sanitizers 1 and 3 threads only (every run costs several times more there)
threads="1 2 3"
if sanitized; then threads="1 3"; fi
stencil_edges 4 > stencil.edges
# hosts in a scrambled order: consecutive is a poor placement
alloc=$(python3 -c "import random; r=random.Random(4); h=['n%04d'%i for i in range(64)]; r.shuffle(h); print(','.join(h))")
for t in $threads; do
    expect_exit 0 "$TOPOMAP" study --topology torus:4x4x4 --topology dragonfly:h=2 --comm stencil.edges \
        --alloc "$alloc" --strategy identity,all --routing ecmp,single --fail-links 10% --seeds 2 \
        --threads $t --out s$t.csv --out s$t.json
    mv stdout.txt table$t.txt
done
for t in ${threads#1 }; do
    cmp s1.csv s$t.csv
    cmp s1.json s$t.json
done
# the table too, but for its last line (wall-clock time)
diff <(sed '$d' table1.txt) <(sed '$d' table3.txt)
python3 - <<'P'
import csv
rows = list(csv.DictReader(open('s1.csv')))
# 2 topologies x (1 + 2 samples) x 2 routings x 2 strategies runs, + mean/worst
assert sum(r['stat'] == 'run' for r in rows) == 24, len(rows)
assert sum(r['stat'] != 'run' for r in rows) == 2 * 2 * 2 * 2, len(rows)
ok = [r for r in rows if r['status'] == 'ok' and r['strategy'] == 'all']
assert ok and any(float(r['change_max_congestion_pct']) < 0 for r in ok), ok
assert all(r['failed_cables'] != '0' for r in rows if r['failure'] != 'none')
P
