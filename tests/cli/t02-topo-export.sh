#!/usr/bin/env bash
# Exported networks read back to the same network.
set -eu
. "$(dirname "$0")/lib.sh"
spec=fattree:k=4,n=3
expect_exit 0 "$TOPOMAP" topo info --topology $spec --json
ref=$OUT
for fmt in graphml ibnetdiscover; do
    ext=$fmt; [ $fmt = ibnetdiscover ] && ext=topo
    expect_exit 0 "$TOPOMAP" topo export --topology $spec --format $fmt --out ft.$ext
    [ -s ft.$ext ]
    expect_exit 0 "$TOPOMAP" topo info --topology ft.$ext --json
    for k in hosts switches cables diameter; do
        [ "$(echo "$OUT" | json_get "['$k']")" = "$(echo "$ref" | json_get "['$k']")" ] ||
            { echo "$fmt: $k differs"; exit 1; }
    done
done
expect_exit 0 "$TOPOMAP" topo export --topology mesh:3x3 --format dot
expect_in "graph" "$OUT"
expect_exit 1 "$TOPOMAP" topo export --topology mesh:3x3 --format svg
