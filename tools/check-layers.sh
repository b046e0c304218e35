#!/usr/bin/env bash
# check-layers.sh [ROOT] - the layer rule of docs/design.md ("Layers"):
# a folder of src/ includes only from folders of lower layers, and from
# those only the headers listed as their interface.  The layer order and
# the interface headers are read from ROOT/docs/design.md (the fenced
# blocks after the markers `<!-- layers -->` and `<!-- interfaces -->`),
# so the page and the check cannot drift apart.
#
# Checked: every `#include "..."` line of ROOT/src/*/*.[ch] that names
# another folder, as "../X/h.h" or by its path under src/ ("X/h.h");
# public headers (topomap/*.h) may be included from anywhere.  Prints
# `file:line: what is wrong` for each offence and exits 1; exits 2 when
# design.md lacks a block or names a folder that does not exist.
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
design=$root/docs/design.md
[ -f "$design" ] || { echo "check-layers: no $design" >&2; exit 2; }

# The fenced block after a marker line, without the fences.
block() {
    awk -v m="<!-- $1 -->" '
        $0 == m { found = 1; next }
        found == 1 && /^```/ { found = 2; next }
        found == 2 && /^```/ { exit }
        found == 2 { print }' "$design"
}
layers=$(block layers)
interfaces=$(block interfaces)
[ -n "$layers" ] || { echo "check-layers: $design has no <!-- layers --> block" >&2; exit 2; }
[ -n "$interfaces" ] || { echo "check-layers: $design has no <!-- interfaces --> block" >&2; exit 2; }

cd "$root"
# Layers: one line per layer, lowest first, folders separated by blanks
# (a '#' starts a comment).  Interfaces: "folder: h1.h h2.h ...".
awk -v layers="$layers" -v interfaces="$interfaces" '
BEGIN {
    n = split(layers, L, "\n")
    for (i = 1; i <= n; i++) {
        sub(/#.*/, "", L[i])
        k = split(L[i], F, /[ \t]+/)
        for (j = 1; j <= k; j++)
            if (F[j] != "") {
                if (F[j] in rank) { printf "check-layers: design.md lists %s twice\n", F[j]; bad = 2 }
                rank[F[j]] = i
            }
    }
    n = split(interfaces, I, "\n")
    for (i = 1; i <= n; i++) {
        sub(/#.*/, "", I[i])
        if (I[i] !~ /:/) continue
        f = I[i]; sub(/:.*/, "", f); gsub(/[ \t]/, "", f)
        h = I[i]; sub(/^[^:]*:/, "", h)
        k = split(h, H, /[ \t]+/)
        for (j = 1; j <= k; j++)
            if (H[j] != "") iface[f "/" H[j]] = 1
        if (!(f in rank)) { printf "check-layers: interface of %s, which is in no layer\n", f; bad = 2 }
    }
}
FNR == 1 {
    me = FILENAME; sub(/^src\//, "", me); sub(/\/.*/, "", me)
    if (!(me in rank) && !(me in unplaced)) {
        printf "%s:1: folder src/%s is in no layer of docs/design.md\n", FILENAME, me
        unplaced[me] = 1; bad = bad ? bad : 1
    }
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
    inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
    if (inc ~ /^topomap\//) next
    if (inc ~ /^\.\.\//) sub(/^\.\.\//, "", inc)
    else if (inc !~ /\//) next          # the folder'"'"'s own header
    if (inc ~ /^src\//) sub(/^src\//, "", inc)
    to = inc; sub(/\/.*/, "", to)
    if (to == me || !(me in rank)) next
    if (!(to in rank)) {
        printf "%s:%d: includes %s from src/%s, which is in no layer of docs/design.md\n", FILENAME, FNR, inc, to
        bad = bad ? bad : 1
    } else if (rank[to] >= rank[me]) {
        printf "%s:%d: includes %s: src/%s (layer %d) may not include from src/%s (layer %d)\n",
               FILENAME, FNR, inc, me, rank[me], to, rank[to]
        bad = bad ? bad : 1
    } else if (!(inc in iface)) {
        printf "%s:%d: includes %s, private to src/%s (not in its interface in docs/design.md)\n",
               FILENAME, FNR, inc, to
        bad = bad ? bad : 1
    }
}
END {
    for (f in rank)
        if (system("test -d src/" f) != 0) {
            printf "check-layers: design.md lists src/%s, which does not exist\n", f; bad = 2
        }
    exit bad
}' src/*/*.[ch]
