#!/usr/bin/env bash
# Warning floods (src/cli/warn_summary.c): a dump with dozens of unnamed CAs prints one line per
# kind of warning (count, the first one with its file:line, the fix); --verbose, anywhere on the
# command line, prints each; the summary comes before an error; forwarding tables that end with
# the tool's iberror line give one line for the four files and route as without it.
set -eu
. "$(dirname "$0")/lib.sh"
X=$TOPO_DIR/psmn-x5/X5.topofile

# PSMN X5 without its node-name map: 89 CAs without a hostname
expect_exit 0 "$TOPOMAP" topo info --topology "$X"
[ "$(grep -c 'has no hostname' stderr.txt)" = 1 ]
[ "$(wc -l < stderr.txt)" = 1 ]
expect_in "topomap: warning: 89 warnings like: $X:305: CA \"H-003048c707b60000\" has no hostname" "$ERR"
expect_in "; fix: --node-name-map FILE (lines 'GUID \"hostname\"'" "$ERR"
expect_in "(--verbose lists each)" "$ERR"
expect_in "hosts      89" "$OUT"
for v in "topo info --verbose" "--verbose topo info"; do
    # shellcheck disable=SC2086
    expect_exit 0 "$TOPOMAP" $v --topology "$X"
    [ "$(grep -c '^topomap: warning: .*X5.topofile:[0-9]*: CA "H-.*" has no hostname' stderr.txt)" = 89 ]
    [ "$(grep -c 'warnings like' stderr.txt)" = 0 ]
done
# with the map, the three CAs it does not name: one line again
expect_exit 0 "$TOPOMAP" topo info --topology "$X" --node-name-map "$TOPO_DIR/psmn-x5/X5.map"
expect_in "warning: 3 warnings like: " "$ERR"
[ "$(wc -l < stderr.txt)" = 1 ]

# the summary, then the error
printf '0 1 1\n0 x 1\n' > bad.edges
expect_exit 2 "$TOPOMAP" eval --topology "$X" --comm bad.edges
[ "$(wc -l < stderr.txt)" = 2 ]
expect_in "89 warnings like" "$(head -n 1 stderr.txt)"
expect_in "bad.edges:2" "$(tail -n 1 stderr.txt)"

# forwarding tables ending with ibroute's iberror line (docs/routing.md): one line for the
# four files, one for the ibwarn line; the figures of the clean tables
d=$TM_TEST_DATA/route/lft2
expect_exit 0 "$TOPOMAP" eval --topology "$d/fabric.txt" --comm "$d/pairs.edges" --routing "lft:$d/tables" --json
clean=$OUT
expect_exit 0 "$TOPOMAP" eval --topology "$d/fabric.txt" --comm "$d/pairs.edges" --routing "lft:$d/iberror" --json
[ "$(wc -l < stderr.txt)" = 2 ]
expect_in "warning: 4 warnings like: $d/iberror/ibroute-10.txt:12: tool diagnostic ignored: '/usr/sbin/ibroute: iberror: failed: dump tables: linear forwarding table get failed' (the table of switch 'leaf1' covers its range [0x0-0x15])" "$ERR"
expect_in "ibroute-21.txt:1: tool diagnostic ignored: 'ibwarn: [31337]" "$ERR"
[ "$(echo "$OUT" | json_get "['max_congestion']")" = "$(echo "$clean" | json_get "['max_congestion']")" ]
[ "$(echo "$OUT" | json_get "['avg_dilation']")" = "$(echo "$clean" | json_get "['avg_dilation']")" ]
