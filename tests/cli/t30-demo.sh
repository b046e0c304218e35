#!/usr/bin/env bash
# The README's demo job: consecutive placement of NPB CG (64 ranks) on the PSMN X5 fabric.
set -eu
. "$(dirname "$0")/lib.sh"
T=$TOPO_DIR/psmn-x5/X5.topofile; M=$TOPO_DIR/psmn-x5/X5.map; C=$TOPO_DIR/comm/cg-64.size.csv
expect_exit 0 "$TOPOMAP" map --topology $T --node-name-map $M --comm $C --strategy identity --out demo.rankfile
[ "$(grep -c '^rank ' demo.rankfile)" = 64 ]
expect_exit 0 "$TOPOMAP" eval --topology $T --node-name-map $M --comm $C --mapping demo.rankfile --json
[ "$(echo "$OUT" | json_get "['n_tasks']")" = 64 ]
python3 -c "import sys; v=float(sys.argv[1]); assert v > 0, v" "$(echo "$OUT" | json_get "['max_congestion']")"
