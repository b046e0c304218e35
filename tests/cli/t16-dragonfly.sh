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
# Then --routing ugal, by hand, below.
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
# --routing ugal by hand (docs/routing.md) on dragonfly:a=4,p=1,h=1 (host of group x router r
# is x*4+r): A = 3 units from host 0 (g0r0) to host 5 (g1r1).  Alone it goes Valiant
# (minimal cost 4 hops x 3 = 12 > Valiant (6x1 + 7x1 + 7x1)/3): congestion 1, avg dilation
# 20/3, max 7, J 20.  With C = 3 units from host 2 (g0r2) to host 12 (g3r0), which loads one
# of A's Valiant links (cost (6x1 + 7x4 + 7x1)/3 = 13.7 > 12), both stay minimal:
# congestion 3, dilation (3x4 + 3x3)/6 = 3.5, J 21.
U='dragonfly:a=4,p=1,h=1,hostcap=100'
printf '0 5 3\n' > a.edges
printf '0 5 3\n2 12 3\n' > ac.edges
expect_exit 0 "$TOPOMAP" eval --topology "$U" --comm a.edges --routing ugal --json
[ "$(echo "$OUT" | json_get "['routing']")" = ugal ]
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 1 ]
[ "$(echo "$OUT" | json_get "['max_dilation']")" = 7 ]
[ "$(echo "$OUT" | json_py "round(d['avg_dilation'] * 3, 9) == 20")" = True ]
[ "$(echo "$OUT" | json_py "round(d['qap_network_J'], 9) == 20")" = True ]
expect_exit 0 "$TOPOMAP" eval --topology "$U" --comm ac.edges --routing ugal --json
[ "$(echo "$OUT" | json_get "['max_congestion']")" = 3 ]
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = 3.5 ]
[ "$(echo "$OUT" | json_get "['qap_network_J']")" = 21 ]
expect_exit 0 "$TOPOMAP" map --topology dragonfly:h=2 --comm perm.edges --routing ugal \
    --strategy greedy --refine ta --json --out u.rank
python3 - "$OUT" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
c = d["consecutive"]
assert d["max_congestion"] <= c["max_congestion"] + 1e-9, (d["max_congestion"], c)
PY
expect_exit 0 "$TOPOMAP" study --topology "$U" --comm a.edges --routing ecmp,valiant,ugal \
    --strategy identity --refine none --out u.csv
python3 - <<'PY'
import csv
rows = {r["routing"]: r for r in csv.DictReader(open("u.csv")) if r["stat"] == "run"}
assert set(rows) == {"ecmp", "valiant", "ugal"}, rows.keys()
assert float(rows["ecmp"]["consecutive_max_congestion"]) == 3
assert float(rows["ugal"]["consecutive_max_congestion"]) == 1
assert abs(float(rows["ugal"]["consecutive_qap_J"]) - 20) < 1e-9
PY
expect_exit 1 "$TOPOMAP" eval --topology fattree:k=4,n=2 --comm one.edges --routing ugal
expect_in "ugal routing needs a dragonfly" "$ERR"
expect_exit 1 "$TOPOMAP" eval --topology "$U" --comm a.edges --routing ugal --approx
expect_in "evaluated exactly only" "$ERR"
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
