#!/usr/bin/env bash
# Usage errors exit 1, --help exits 0 on stdout.
set -eu
. "$(dirname "$0")/lib.sh"
expect_exit 1 "$TOPOMAP"
expect_exit 0 "$TOPOMAP" --help
expect_in "usage: topomap" "$OUT"
expect_exit 1 "$TOPOMAP" frobnicate
expect_in "unknown command 'frobnicate'" "$ERR"
for c in "topo --help" "eval --help" "map --help" "study --help"; do
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
for c in "map --bogus" "eval --comm" "topo info --frob" "study --bogus"; do
    expect_exit 1 "$TOPOMAP" $c
    case "$ERR" in
    *unrecognized* | *"requires an argument"* | *"invalid option"*)
        echo "getopt's own message leaked: $ERR" >&2
        exit 1 ;;
    esac
done
# Every failure is exactly one line on stderr and nothing on stdout (docs/errors.md);
# usage errors end with the --help hint on that same line.
for c in "map --bogus" "eval --comm" "topo info --frob" "map --topology torus:4x4 --comm x --format pdf" \
         "map --topology torus:4x4 --comm x --routing warp" "eval --topology torus:4x4" \
         "eval --topology torus:4x4 --comm x --threads abc" "frobnicate" "topo bogus --topology torus:4x4"; do
    expect_exit 1 "$TOPOMAP" $c
    [ "$(wc -l < stderr.txt)" -eq 1 ] || { echo "'$c': stderr is not one line: $ERR" >&2; exit 1; }
    [ -z "$OUT" ] || { echo "'$c': wrote to stdout: $OUT" >&2; exit 1; }
    expect_in "--help')" "$ERR"
done
for c in "eval --topology nosuch.topo --comm x" "map --topology torus:4x0 --comm x"; do
    set +e; "$TOPOMAP" $c >stdout.txt 2>stderr.txt; set -e
    [ "$(wc -l < stderr.txt)" -eq 1 ] || { echo "'$c': stderr is not one line: $(cat stderr.txt)" >&2; exit 1; }
done
