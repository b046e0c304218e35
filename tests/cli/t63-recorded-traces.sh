#!/usr/bin/env bash
# The traces shipped in topologies/comm/recorded (LULESH, CoMD, miniFE recorded by
# TOPOMAP_RECORD under SMPI: PROVENANCE.md there, make record-traces).  Every trace has its
# matrix, phases and summary, and a row in PROVENANCE.md; its phases add up to its matrix
# (tests/mpi/record_phases.py, a parser independent of topomap's); the summary's ranks, pairs
# and bytes are the matrix's.  The 64-rank ones have their application's structure
# (tools/bench/trace_stats.py): LULESH the 26 neighbours of its 4x4x4 process grid (288
# face, 432 edge, 216 corner pairs), CoMD only the 6 face neighbours of its periodic 4x4x4
# grid (it forwards edges and corners through the faces: 384 pairs), miniFE the 26 of its
# recursively bisected boxes; the other pairs are the allreduces' partners, a few bytes each.
# eval reads every 64-rank matrix with its phases, and map --objective time maps one.
set -eu
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
R=$TOPO_DIR/comm/recorded
STATS=$HERE/../../tools/bench/trace_stats.py
PHASES=$HERE/../mpi/record_phases.py
n=0
for f in "$R"/*.mtx; do
    case $f in *.messages.mtx) continue ;; esac
    b=$(basename "$f")
    n=$((n + 1))
    [ -s "$f.phases" ] && [ -s "$f.json" ] || { echo "$b: no phases or summary"; exit 1; }
    grep -q "^| \`$b\` |" "$R/PROVENANCE.md" || { echo "$b: not in PROVENANCE.md"; exit 1; }
    python3 "$PHASES" sum "$f"
    python3 - "$f" <<'P'
import json, sys
f = sys.argv[1]
d = json.load(open(f + '.json'))
rows = [l.split() for l in open(f) if not l.startswith('%')]
n, _, nnz = (int(x) for x in rows[0])
assert d['complete'] and d['ranks'] == n and d['pairs'] == nnz == len(rows) - 1, (f, d['pairs'])
assert d['bytes'] == sum(float(r[2]) for r in rows[1:]), f
assert d['phases_distinct'] == sum(1 for l in open(f + '.phases') if l.startswith('phase ')), f
P
done
# the files and PROVENANCE.md's rows agree both ways (each file has its row above, as many
# rows as files), and every program is there at two sizes at least
rows=$(grep -c '^| `[a-z]*-[0-9]*\.mtx` |' "$R/PROVENANCE.md")
[ "$n" = "$rows" ] || { echo "$n traces, $rows rows in PROVENANCE.md"; exit 1; }
for p in lulesh comd minife; do
    k=$(ls "$R"/$p-*.mtx | grep -vc messages)
    [ "$k" -ge 2 ] || { echo "$p: $k traces"; exit 1; }
done
classes() { python3 "$STATS" "$@" | sed -n 's/^  \([a-z]*\) *\([0-9]*\) pairs.*/\1 \2/p' | tr '\n' ' '; }
c=$(classes "$R/lulesh-64.mtx" --grid 4x4x4)
[ "$c" = "face 288 edge 432 corner 216 other 192 " ] || { echo "lulesh-64: $c"; exit 1; }
c=$(classes "$R/comd-64.mtx" --grid 4x4x4 --periodic)
[ "$c" = "face 384 other 192 " ] || { echo "comd-64: $c"; exit 1; }
c=$(classes "$R/minife-64.mtx" --bisect 64x64x64)
[ "$c" = "face 288 edge 432 corner 216 other 196 " ] || { echo "minife-64: $c"; exit 1; }
c=$(classes "$R/minife-1024.mtx" --bisect 128x128x256)
[ "$c" = "face 5504 edge 9856 corner 5880 other 7232 " ] || { echo "minife-1024: $c"; exit 1; }
# the collectives' partners carry little: every "other" pair of LULESH below 100 bytes
python3 "$STATS" "$R/lulesh-64.mtx" --grid 4x4x4 | grep -q "other *192 pairs, bytes min 72, median 72, max 80"
for app in lulesh comd minife; do
    f=$R/$app-64.mtx
    expect_exit 0 "$TOPOMAP" eval --topology torus:4x4x4 --comm "$f" --comm-phases "$f.phases" --json
    echo "$OUT" | json_py "d['est_time_s'] > 0 and d['max_congestion'] > 0" | grep -qx True
done
# (effort 1 under the sanitizers: the phases' time model makes the default 20 s there)
expect_exit 0 "$TOPOMAP" map --topology torus:4x4x4 --routing dor --comm "$R/lulesh-64.mtx" \
    --comm-phases "$R/lulesh-64.mtx.phases" --objective time --json --out m.rankfile \
    $(sanitized && echo --effort 1)
echo "$OUT" | json_py "d['est_time_s'] <= d['consecutive']['est_time_s']" | grep -qx True
[ "$(wc -l < m.rankfile)" = 64 ]
