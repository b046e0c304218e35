#!/usr/bin/env bash
# Usage errors exit 1, --help exits 0 on stdout.
set -eu
. "$(dirname "$0")/lib.sh"
expect_exit 1 "$TOPOMAP"
expect_exit 0 "$TOPOMAP" --help
expect_in "usage: topomap" "$OUT"
expect_exit 1 "$TOPOMAP" frobnicate
expect_in "unknown command 'frobnicate'" "$ERR"
for c in "topo --help" "eval --help" "map --help"; do
    expect_exit 0 "$TOPOMAP" $c
    expect_in "usage:" "$OUT"
done
expect_exit 1 "$TOPOMAP" topo bogus --topology torus:4x4
expect_exit 1 "$TOPOMAP" topo info
expect_exit 1 "$TOPOMAP" eval --topology torus:4x4
expect_in "--comm is required" "$ERR"
expect_exit 1 "$TOPOMAP" eval --topology torus:4x4 --comm x --threads abc
expect_exit 1 "$TOPOMAP" map --topology torus:4x4 --comm x --format pdf
expect_in "unknown --format 'pdf'" "$ERR"
expect_exit 1 "$TOPOMAP" map --topology torus:4x4 --comm x --routing warp
expect_exit 1 "$TOPOMAP" map --hierarchy 4:4 --comm x
expect_in "needs --distances" "$ERR"
expect_exit 0 "$TOPOMAP" version
# getopt's errors in our format: "topomap <cmd>: ..." and nothing from getopt itself
expect_exit 1 "$TOPOMAP" map --bogus
expect_in "topomap map: unknown or ambiguous option '--bogus'" "$ERR"
expect_exit 1 "$TOPOMAP" map --t x --comm y
expect_in "topomap map: unknown or ambiguous option '--t'" "$ERR"
expect_exit 1 "$TOPOMAP" eval --comm
expect_in "topomap eval: option '--comm' needs a value" "$ERR"
expect_exit 1 "$TOPOMAP" topo info --frob --topology torus:4x4
expect_in "topomap topo: unknown or ambiguous option '--frob'" "$ERR"
for c in "map --bogus" "eval --comm" "topo info --frob"; do
    expect_exit 1 "$TOPOMAP" $c
    case "$ERR" in
    *unrecognized* | *"requires an argument"* | *"invalid option"*)
        echo "getopt's own message leaked: $ERR" >&2
        exit 1 ;;
    esac
done
