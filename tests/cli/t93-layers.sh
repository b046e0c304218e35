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
# named WHAT PATTERN: the report has a line matching PATTERN (the offence WHAT);
# last FILE: the line number of FILE's last line (the include planted there)
named() { grep -q "$2" out.txt || { echo "$1 not named:"; cat out.txt; exit 1; }; }
last() { wc -l < "copy/$1"; }
named "upward include" \
    "^src/qap/qap_ls.c:$(last src/qap/qap_ls.c): includes pipeline/general.h: src/qap (layer [0-9]*) may not include from src/pipeline"
named "private header" \
    "^src/metrics/metrics.c:$(last src/metrics/metrics.c): includes route/lft_int.h, private to src/route"
named "include within a layer" \
    "^src/construct/rcm.c:$(last src/construct/rcm.c): includes qap/qap_int.h: src/construct (layer \([0-9]*\)) may not include from src/qap (layer \1)"
named "unplaced folder" "^src/newfolder/x.c:1: folder src/newfolder is in no layer"
named "private header from a subfolder" \
    "^src/mpi/lib/mpi_core.c:$(last src/mpi/lib/mpi_core.c): includes pipeline/general.h, private to src/pipeline"
named "src/ file in a public header" \
    "^include/topomap/hier.h:$(last include/topomap/hier.h): includes \"../../src/util/util.h\": a public header includes only public headers"
named "upward public include" \
    "^include/topomap/net.h:$(last include/topomap/net.h): includes topomap/map.h: net.h (layer [0-9]*) may not include map.h (layer [0-9]*)"
named "unlisted public header" \
    "^include/topomap/extra.h:1: public header extra.h is not in the public-headers block"
[ "$(wc -l < out.txt)" -eq 8 ] || { echo "expected exactly the 8 planted offences:"; cat out.txt; exit 1; }
# The page itself: a listed folder that does not exist is exit 2.
sed -i 's/^5  hier /5  nosuch /' copy/src/README.md
set +e; "$check" copy > out.txt; rc=$?; set -e
[ $rc -eq 2 ] && grep -q "lists src/nosuch, which does not exist" out.txt \
    || { echo "a missing folder is not exit 2 (exit $rc):"; cat out.txt; exit 1; }
