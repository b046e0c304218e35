#!/usr/bin/env bash
# Missing files, directories and malformed specs.
set -eu
. "$(dirname "$0")/lib.sh"
expect_exit 2 "$TOPOMAP" topo info --topology does-not-exist.topo
expect_in "does-not-exist.topo" "$ERR"
mkdir adir
expect_exit 2 "$TOPOMAP" topo info --topology adir
expect_in "is a directory" "$ERR"
: > empty.topo
expect_exit 2 "$TOPOMAP" topo info --topology empty.topo
expect_exit 1 "$TOPOMAP" topo info --topology torus:0x4
expect_exit 1 "$TOPOMAP" topo info --topology torus:4x4,frob=1
