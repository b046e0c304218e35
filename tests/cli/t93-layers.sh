#!/usr/bin/env bash
# The layer rule of src/README.md: tools/check-layers.py passes on the tree
# (its includes, and the uses read from the object files of the build under
# test), and fails, naming file:line, on a copy with planted offences in
# src/: an upward include (qap -> pipeline), a private header of a lower
# folder (metrics -> route/lft_int.h), an include within one layer
# (construct -> qap), a folder placed in no layer, a private header included
# from a subfolder (src/mpi/lib -> pipeline/general.h), an interface header
# included by a folder that uses only the public API (cli -> graph/bfs.h);
# in include/topomap/: a public header that includes a file of src/, one
# that includes a higher public header (net.h -> map.h), and a header
# missing from the list; and in the objects (planted sources compiled into
# a copy of the build's objects): two files of one folder that call each
# other (util), a call to a higher folder (graph -> net), and a call from
# the CLI to a function libtopomap does not export (cli -> tm__bfs_init).
set -eu
. "$(dirname "$0")/lib.sh"   # the failing step in make test's summary
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
check=$root/tools/check-layers.py
# The objects of the build under test (make test-cli: build/ or build-asan/),
# and those of the first MPI build (none under the sanitizers).
build=$(cd "$(dirname "${TOPOMAP_REAL:-$TOPOMAP}")" && pwd)
[ -d "$build/obj/src" ] || { echo "no objects in $build/obj (build first: make)"; exit 1; }
objs=(--objects "$build/obj")
for d in ${TOPOMAP_MPI_DIRS:-}; do
    [ -d "$d/obj" ] && { objs+=(--mpi-objects "$d/obj"); break; }
done

"$check" "$root" "${objs[@]}" || { echo "check-layers fails on the tree"; exit 1; }

mkdir -p copy/src copy/include
cp -r "$root/src/." copy/src/
cp -r "$root/include/topomap" copy/include/
# the objects: links to the build's, beside which the planted ones go
cp -rs "$build/obj" copyobj
objs[1]=$PWD/copyobj
"$check" copy "${objs[@]}" > out.txt || { echo "the copy fails before any change"; cat out.txt; exit 1; }

printf '#include "../pipeline/general.h"\n' >> copy/src/qap/qap_ls.c
printf '#include "../route/lft_int.h"\n' >> copy/src/metrics/metrics.c
printf '#include "../qap/qap_int.h"\n' >> copy/src/construct/rcm.c
mkdir copy/src/newfolder && printf '#include "../util/util.h"\n' > copy/src/newfolder/x.c
printf '#include "../../pipeline/general.h"\n' >> copy/src/mpi/lib/mpi_core.c
printf '#include "../../src/util/util.h"\n' >> copy/include/topomap/hier.h
printf '#include "topomap/map.h"\n' >> copy/include/topomap/net.h
printf '#include "topomap/error.h"\n' > copy/include/topomap/extra.h
printf '#include "../graph/bfs.h"\n' >> copy/src/cli/cmd_topo.c
# planted sources, compiled into the copy's objects
plant() {  # plant FILE TEXT: writes copy/src/FILE and compiles it to copyobj/src/FILE.o
    printf '%s\n' "$2" > "copy/src/$1"
    ${CC:-cc} -c -o "copyobj/src/${1%.c}.o" "copy/src/$1"
}
plant util/planted_a.c 'int tm__planted_b(int x);
int tm__planted_a(int x);
int tm__planted_a(int x) { return x > 0 ? tm__planted_b(x - 1) : 0; }'
plant util/planted_b.c 'int tm__planted_a(int x);
int tm__planted_b(int x);
int tm__planted_b(int x) { return x > 0 ? tm__planted_a(x - 1) : 1; }'
plant graph/planted_up.c 'struct tm_net;
int tm_net_n_vertices(const struct tm_net *net);
int tm__planted_up(const struct tm_net *net);
int tm__planted_up(const struct tm_net *net) { return tm_net_n_vertices(net); }'
plant cli/planted_cli.c 'void tm__bfs_init(void *b, const void *g, int *dist, int *queue);
void planted_cli(void *b);
void planted_cli(void *b) { tm__bfs_init(b, 0, 0, 0); }'
if "$check" copy "${objs[@]}" > out.txt; then echo "check-layers passed a planted violation"; exit 1; fi
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
named "an interface header in a folder on the public API" \
    "^src/cli/cmd_topo.c:$(last src/cli/cmd_topo.c): includes graph/bfs.h: src/cli uses only the public API (topomap/\*.h) and src/util"
named "files that use each other" \
    "^src/util/planted_a.c:3: files of src/util use each other: planted_a.c uses planted_b.c (tm__planted_b), planted_b.c uses planted_a.c (tm__planted_a)$"
named "a call to a higher folder" \
    "^src/graph/planted_up.c:4: uses tm_net_n_vertices of src/net/net.c: src/graph (layer [0-9]*) may not use src/net (layer [0-9]*)"
named "a call from the CLI to an internal function" \
    "^src/cli/planted_cli.c:3: uses tm__bfs_init of src/graph/bfs.c, which libtopomap does not export: src/cli calls only the public API"
[ "$(wc -l < out.txt)" -eq 12 ] || { echo "expected exactly the 12 planted offences:"; cat out.txt; exit 1; }
# The page itself: a listed folder that does not exist is exit 2.
sed -i 's/^5  hier /5  nosuch /' copy/src/README.md
set +e; "$check" copy "${objs[@]}" > out.txt; rc=$?; set -e
[ $rc -eq 2 ] && grep -q "lists src/nosuch, which does not exist" out.txt \
    || { echo "a missing folder is not exit 2 (exit $rc):"; cat out.txt; exit 1; }
