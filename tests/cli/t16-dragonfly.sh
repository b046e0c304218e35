#!/usr/bin/env bash
# --routing valiant on dragonflies (docs/routing.md), by hand on
# dragonfly:a=3,p=1,h=1 (4 groups of 3 routers, one host per router, one
# global cable per pair of groups; host cables 100 so they never hold the
# maximum).  One message of 8 from task 0 (host on sw-g000-r00) to task 3
# (host on sw-g001-r00):
#   ecmp:    all 8 on the global cable g0r0 -> g1r0: congestion 8, 3 hops, J 24
#   valiant: 4 through group 2 and 4 through group 3; g0r0 -> g0r1, g0r0 -> g0r2
#            and g0r0 -> g1r0 (a quarter of each half comes back that way) carry 4:
#            congestion 4, every path 7 hops: dilation 7, J 56
# eval, map and study agree; other nets and --approx are usage errors (exit 1).
set -eu
. "$(dirname "$0")/lib.sh"
T='dragonfly:a=3,p=1,h=1,hostcap=100'
printf '0 3 8\n' > one.edges
expect_exit 0 "$TOPOMAP" eval --topology "$T" --comm one.edges --json
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 8 ]
[ "$(echo "$OUT" | json_get "['max_dilation']")" = 3 ]
expect_exit 0 "$TOPOMAP" eval --topology "$T" --comm one.edges --routing valiant --json
[ "$(echo "$OUT" | json_get "['routing']")" = valiant ]
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 4 ]
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 7 ]
[ "$(echo "$OUT" | json_get "['max_dilation']")" = 7 ]
[ "$(echo "$OUT" | json_get "['qap_network_J']")" = 56 ]
expect_exit 0 "$TOPOMAP" eval --topology "$T" --comm one.edges --routing valiant
expect_in "routing            valiant" "$OUT"
# the mapper under valiant: never worse than the consecutive placement
expect_exit 0 "$TOPOMAP" map --topology "$T" --comm one.edges --routing valiant --json --out m.rank
python3 - "$OUT" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
c = d["consecutive"]
assert c["max_congestion"] == 4 and c["max_dilation"] == 7, c
assert d["max_congestion"] <= 4 or d["avg_dilation"] < 7, d
PY
# map on dragonfly:h=2 with a random permutation: refinement (ta) under valiant
python3 -c "
import random
random.seed(5); p = list(range(72)); random.shuffle(p)
for i in range(72):
    if p[i] != i: print(i, p[i], 1)" > perm.edges
expect_exit 0 "$TOPOMAP" map --topology dragonfly:h=2 --comm perm.edges --routing valiant \
    --strategy greedy --refine ta --json --out p.rank
python3 - "$OUT" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
c = d["consecutive"]
assert d["max_congestion"] <= c["max_congestion"] + 1e-9, (d["max_congestion"], c)
assert d["max_dilation"] <= 7
PY
# the mapped placement evaluated again gives the same figures
expect_exit 0 "$TOPOMAP" eval --topology dragonfly:h=2 --comm perm.edges --routing valiant \
    --mapping p.rank --json
# study: ecmp and valiant side by side, the same hand figures
expect_exit 0 "$TOPOMAP" study --topology "$T" --comm one.edges --routing ecmp,valiant \
    --strategy identity --refine none --out s.csv
python3 - <<'PY'
import csv
rows = {r["routing"]: r for r in csv.DictReader(open("s.csv")) if r["stat"] == "run"}
assert set(rows) == {"ecmp", "valiant"}, rows.keys()
assert float(rows["ecmp"]["consecutive_max_congestion"]) == 8
assert float(rows["ecmp"]["consecutive_qap_J"]) == 24
assert float(rows["valiant"]["consecutive_max_congestion"]) == 4
assert float(rows["valiant"]["consecutive_avg_dilation"]) == 7
assert float(rows["valiant"]["consecutive_qap_J"]) == 56
PY
# refusals: not a dragonfly, too few groups, the approximate congestion
expect_exit 1 "$TOPOMAP" eval --topology fattree:k=4,n=2 --comm one.edges --routing valiant
expect_in "valiant routing needs a dragonfly" "$ERR"
expect_exit 1 "$TOPOMAP" eval --topology dragonfly:a=3,p=1,h=1,g=2 --comm one.edges --routing valiant
expect_in "at least 3 dragonfly groups" "$ERR"
expect_exit 1 "$TOPOMAP" eval --topology "$T" --comm one.edges --routing valiant --approx
expect_in "evaluated exactly only" "$ERR"
expect_exit 1 "$TOPOMAP" study --topology torus:4x4 --comm one.edges --routing valiant
expect_in "valiant routing needs a dragonfly" "$ERR"
expect_exit 1 "$TOPOMAP" eval --topology "$T" --comm one.edges --routing valliant
expect_in "unknown --routing 'valliant'" "$ERR"
