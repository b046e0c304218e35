#!/usr/bin/env bash
# The layer rule of docs/design.md ("Layers"): tools/check-layers.sh passes
# on the tree, and fails, naming file:line, on a copy with a planted
# upward include (qap -> pipeline), a private header of a lower folder
# (metrics -> route/lft_int.h), an include within one layer (construct -> qap)
# and a folder placed in no layer.
set -eu
. "$(dirname "$0")/lib.sh"   # the failing step in make test's summary
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
check=$root/tools/check-layers.sh

"$check" "$root" || { echo "check-layers fails on the tree"; exit 1; }

mkdir -p copy/docs copy/src
cp "$root/docs/design.md" copy/docs/
cp -r "$root/src/." copy/src/
"$check" copy > out.txt || { echo "the copy fails before any change"; cat out.txt; exit 1; }

printf '#include "../pipeline/general.h"\n' >> copy/src/qap/qap_ls.c
printf '#include "../route/lft_int.h"\n' >> copy/src/metrics/metrics.c
printf '#include "../qap/qap_int.h"\n' >> copy/src/construct/rcm.c
mkdir copy/src/newfolder && printf '#include "../util/util.h"\n' > copy/src/newfolder/x.c
if "$check" copy > out.txt; then echo "check-layers passed a planted violation"; exit 1; fi
n=$(wc -l < copy/src/qap/qap_ls.c)
grep -q "^src/qap/qap_ls.c:$n: includes pipeline/general.h: src/qap (layer [0-9]*) may not include from src/pipeline" out.txt \
    || { echo "upward include not named:"; cat out.txt; exit 1; }
n=$(wc -l < copy/src/metrics/metrics.c)
grep -q "^src/metrics/metrics.c:$n: includes route/lft_int.h, private to src/route" out.txt \
    || { echo "private header not named:"; cat out.txt; exit 1; }
n=$(wc -l < copy/src/construct/rcm.c)
grep -q "^src/construct/rcm.c:$n: includes qap/qap_int.h: src/construct (layer \([0-9]*\)) may not include from src/qap (layer \1)" out.txt \
    || { echo "include within a layer not named:"; cat out.txt; exit 1; }
grep -q "^src/newfolder/x.c:1: folder src/newfolder is in no layer" out.txt \
    || { echo "unplaced folder not named:"; cat out.txt; exit 1; }
[ "$(wc -l < out.txt)" -eq 4 ] || { echo "expected exactly the 4 planted offences:"; cat out.txt; exit 1; }
