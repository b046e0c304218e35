#!/usr/bin/env bash
# Bad mappings and infeasible requests.
set -eu
. "$(dirname "$0")/lib.sh"
d=$TM_TEST_DATA/cli
expect_exit 2 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges --mapping $d/unknown-host.rankfile
expect_in "unknown-host.rankfile:2:" "$ERR"
expect_in "zzz" "$ERR"
expect_exit 2 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges --mapping $d/oversub.rankfile
expect_in "oversub.rankfile:3:" "$ERR"
expect_exit 3 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges --alloc 'b,c'
expect_in "3 tasks but only 2 slots" "$ERR"
expect_exit 2 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges --alloc 'nosuchhost'
expect_exit 2 "$TOPOMAP" eval --topology $d/star.graphml --comm nosuch.edges
expect_exit 1 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges --routing dor
mkdir -p adir
expect_exit 2 "$TOPOMAP" eval --topology $d/star.graphml --comm $d/three.edges --alloc adir
expect_in "adir: is a directory" "$ERR"
