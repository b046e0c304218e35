#!/usr/bin/env bash
# Directories and empty files as inputs, NUL bytes and CRLF line ends:
# exit 2 with "file: ..." or "file:line: ..." and nothing on stdout.
set -eu
. "$(dirname "$0")/lib.sh"
d=$TM_TEST_DATA/cli
T="--topology $d/star.graphml"
mkdir adir
: > empty
: > empty.graphml
: > empty.xml
printf '0 1 20\n0 \0002 10\n' > nul.edges
printf '0 1 20\r\n0 2 10\r\n2 0 10\r\n' > crlf.edges

# --topology
expect_exit 2 "$TOPOMAP" topo info --topology adir
[ "$ERR" = "topomap topo: adir: is a directory" ]
[ -z "$OUT" ]
expect_exit 2 "$TOPOMAP" topo info --topology empty
[ "$ERR" = "topomap topo: empty:1: no InfiniBand nodes found" ]
expect_exit 2 "$TOPOMAP" topo info --topology empty.graphml
expect_in "empty.graphml:1:" "$ERR"
expect_exit 2 "$TOPOMAP" topo info --topology empty.xml
expect_in "empty.xml:1:" "$ERR"
# --node-name-map
expect_exit 2 "$TOPOMAP" topo info --topology "$TM_TEST_DATA/real/data/ibnetdiscover/psmn_X5/X5.topofile" --node-name-map adir
[ "$ERR" = "topomap topo: adir: is a directory" ]
# --comm
expect_exit 2 "$TOPOMAP" eval $T --comm adir
[ "$ERR" = "topomap eval: adir: is a directory" ]
[ -z "$OUT" ]
expect_exit 2 "$TOPOMAP" eval $T --comm empty
expect_in "empty:1: cannot tell the communication-graph format from the content" "$ERR"
expect_exit 2 "$TOPOMAP" eval $T --comm empty --comm-format metis
[ "$ERR" = "topomap eval: empty:1: empty file: no METIS header 'n m [fmt [ncon]]'" ]
expect_exit 2 "$TOPOMAP" eval $T --comm nul.edges
[ "$ERR" = "topomap eval: nul.edges:2: NUL byte in text input" ]
# CRLF reads exactly like LF
expect_exit 0 "$TOPOMAP" eval $T --comm crlf.edges --json
crlf=$OUT
expect_exit 0 "$TOPOMAP" eval $T --comm $d/three.edges --json
for k in max_congestion avg_dilation total_volume n_tasks; do
    [ "$(echo "$crlf" | json_get "['$k']")" = "$(echo "$OUT" | json_get "['$k']")" ]
done
# --mapping and --alloc
expect_exit 2 "$TOPOMAP" eval $T --comm $d/three.edges --mapping adir
[ "$ERR" = "topomap eval: adir: is a directory" ]
expect_exit 2 "$TOPOMAP" eval $T --comm $d/three.edges --mapping empty
[ "$ERR" = "topomap eval: empty:1: no ranks in the mapping file" ]
expect_exit 2 "$TOPOMAP" eval $T --comm $d/three.edges --alloc empty
[ "$ERR" = "topomap eval: empty:1: no hosts in the hostfile" ]
