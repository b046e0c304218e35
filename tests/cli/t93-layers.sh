#!/usr/bin/env bash
# The layer rule of src/README.md: tools/check-layers.py passes on the tree,
# and fails, naming file:line, on a copy with planted offences in src/: an
# upward include (qap -> pipeline), a private header of a lower folder
# (metrics -> route/lft_int.h), an include within one layer (construct ->
# qap), a folder placed in no layer, a private header included from a
# subfolder (src/mpi/lib -> pipeline/general.h); and in include/topomap/: a
# public header that includes a file of src/, one that includes a higher
# public header (net.h -> map.h), and a header missing from the list.
set -eu
. "$(dirname "$0")/lib.sh"   # the failing step in make test's summary
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
check=$root/tools/check-layers.py

"$check" "$root" || { echo "check-layers fails on the tree"; exit 1; }

mkdir -p copy/src copy/include
cp -r "$root/src/." copy/src/
cp -r "$root/include/topomap" copy/include/
"$check" copy > out.txt || { echo "the copy fails before any change"; cat out.txt; exit 1; }

printf '#include "../pipeline/general.h"\n' >> copy/src/qap/qap_ls.c
printf '#include "../route/lft_int.h"\n' >> copy/src/metrics/metrics.c
printf '#include "../qap/qap_int.h"\n' >> copy/src/construct/rcm.c
mkdir copy/src/newfolder && printf '#include "../util/util.h"\n' > copy/src/newfolder/x.c
printf '#include "../../pipeline/general.h"\n' >> copy/src/mpi/lib/mpi_core.c
printf '#include "../../src/util/util.h"\n' >> copy/include/topomap/hier.h
printf '#include "topomap/map.h"\n' >> copy/include/topomap/net.h
printf '#include "topomap/error.h"\n' > copy/include/topomap/extra.h
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
n=$(wc -l < copy/src/mpi/lib/mpi_core.c)
grep -q "^src/mpi/lib/mpi_core.c:$n: includes pipeline/general.h, private to src/pipeline" out.txt \
    || { echo "private header from a subfolder not named:"; cat out.txt; exit 1; }
n=$(wc -l < copy/include/topomap/hier.h)
grep -q "^include/topomap/hier.h:$n: includes \"../../src/util/util.h\": a public header includes only public headers" out.txt \
    || { echo "src/ file in a public header not named:"; cat out.txt; exit 1; }
n=$(wc -l < copy/include/topomap/net.h)
grep -q "^include/topomap/net.h:$n: includes topomap/map.h: net.h (layer [0-9]*) may not include map.h (layer [0-9]*)" out.txt \
    || { echo "upward public include not named:"; cat out.txt; exit 1; }
grep -q "^include/topomap/extra.h:1: public header extra.h is not in the public-headers block" out.txt \
    || { echo "unlisted public header not named:"; cat out.txt; exit 1; }
[ "$(wc -l < out.txt)" -eq 8 ] || { echo "expected exactly the 8 planted offences:"; cat out.txt; exit 1; }
# The page itself: a listed folder that does not exist is exit 2.
sed -i 's/^5  hier /5  nosuch /' copy/src/README.md
set +e; "$check" copy > out.txt; rc=$?; set -e
[ $rc -eq 2 ] && grep -q "lists src/nosuch, which does not exist" out.txt \
    || { echo "a missing folder is not exit 2 (exit $rc):"; cat out.txt; exit 1; }
