#!/usr/bin/env bash
# The README's demo job: consecutive placement of NPB CG (64 ranks) on the PSMN X5 fabric.
set -eu
. "$(dirname "$0")/lib.sh"
T=$TOPO_DIR/psmn-x5/X5.topofile; M=$TOPO_DIR/psmn-x5/X5.map; C=$TOPO_DIR/comm/cg-64.size.csv
J=$TOPO_DIR/psmn-x5/job-64.hostfile
expect_exit 0 "$TOPOMAP" map --topology $T --node-name-map $M --slots 12 --comm $C --alloc $J \
    --strategy identity --out demo.rankfile
[ "$(grep -c '^rank ' demo.rankfile)" = 64 ]
[ "$(head -1 demo.rankfile)" = "rank 0=sl390lin1 slot=0" ]
[ "$(sed -n 5p demo.rankfile)" = "rank 4=sl390lin2 slot=0" ]
expect_exit 0 "$TOPOMAP" eval --topology $T --node-name-map $M --slots 12 --comm $C --alloc $J \
    --mapping demo.rankfile --json
[ "$(echo "$OUT" | json_get "['hosts_used']")" = 16 ]
[ "$(echo "$OUT" | json_get "['n_tasks']")" = 64 ]
python3 -c "import sys; v=float(sys.argv[1]); assert v > 0, v" "$(echo "$OUT" | json_get "['max_congestion']")"
