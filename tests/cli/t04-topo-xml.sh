#!/usr/bin/env bash
# The shipped XML topology specs load; a malformed spec exits 2 with file:line.
set -eu
. "$(dirname "$0")/lib.sh"
expect_exit 0 "$TOPOMAP" topo info --topology "$TOPO_DIR/examples/small-cluster.xml" --json
[ "$(echo "$OUT" | json_get "['hosts']")" = 21 ]
[ "$(echo "$OUT" | json_get "['switches']")" = 9 ]
[ "$(echo "$OUT" | json_get "['cables']")" = 41 ]
expect_exit 0 "$TOPOMAP" topo info --topology "$TOPO_DIR/examples/two-islands.xml"
cat > bad.xml <<'X'
<topology>
  <host name="a"/>
  <host name="b"/>
  <link a="a" b="nosuch"/>
</topology>
X
expect_exit 2 "$TOPOMAP" topo info --topology bad.xml
expect_in "bad.xml:4:" "$ERR"
printf '<topology>\n<host name="a">\n' > trunc.xml
expect_exit 2 "$TOPOMAP" topo info --topology trunc.xml
expect_in "trunc.xml:" "$ERR"
# GraphML export with link loads from eval, read back
expect_exit 0 "$TOPOMAP" eval --topology "$TOPO_DIR/examples/small-cluster.xml" --comm "$TM_TEST_DATA/cli/three.edges" \
    --export-loads loads.graphml
grep -q 'congestion_ab' loads.graphml
expect_exit 0 "$TOPOMAP" topo info --topology loads.graphml --json
[ "$(echo "$OUT" | json_get "['hosts']")" = 21 ]
