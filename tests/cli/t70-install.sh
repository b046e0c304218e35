#!/usr/bin/env bash
# tm-test: serial (it starts MPI jobs)
# make install as users, packagers and Spack run it (docs/install.md):
# 1. the make lines the Spack recipe issues (tests/install/spack_check.py
#    records them from packaging/spack/package.py) are run as they are,
#    for +mpi+shim, +mpi~shim and ~mpi; a recipe missing a dependency fails
#    the checker;
# 2. `make install PREFIX=`: a consumer program (tests/install/consumer.c)
#    built with pkg-config (shared, and static from libtopomap.a with
#    --static) and with CMake (find_package(topomap)) prints the figures
#    `topomap eval --json` gives for the same input; the MPI consumer
#    built with plain cc and topomap-mpi-<mpi>.pc, and with CMake's
#    topomap::mpi (component mpi + TOPOMAP_MPI_FLAVOR, or openmpi), runs
#    under that MPI's mpirun; every man page renders without a groff warning,
#    is what tools/gen-man.py makes from the installed topomap's --help, and
#    names every option of that --help; the bash completion, sourced in
#    bash, completes commands, options (each accepted by topomap), values
#    and file names;
# 3. `make install DESTDIR= PREFIX=/usr LIBDIR=<multiarch>` stages under
#    DESTDIR only, with the final paths in the .pc files, and `make
#    uninstall` with the same variables removes every file;
# 4. relocated (issue 37): a tree installed with DESTDIR under a prefix that
#    does not exist, then moved elsewhere, serves CMake consumers (plain
#    and MPI, which run and load the moved libraries) and pkg-config ones
#    (${pcfiledir}); a PREFIX=/usr multiarch tree unpacked elsewhere serves
#    CMake consumers.
# The build under test is the one of $TOPOMAP (its directory is BUILD); a
# sanitizer build is skipped (its libraries need the sanitizer runtime: the
# plain run covers installing).
set -eu
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
bin=${TOPOMAP_REAL:-$TOPOMAP}
build=$(cd "$(dirname "$bin")" && pwd)
rel=$(realpath --relative-to="$src" "$build")
if nm -D --undefined-only "$build/libtopomap.so" | grep -q -E '__(asan|tsan|ubsan)_'; then
    echo "sanitizer build: installing is tested on the plain build"
    exit 77
fi
for t in cmake pkg-config man; do
    command -v "$t" >/dev/null || { echo "$t missing (tools/install-deps.sh installs it)"; exit 1; }
done
ver=$(sed -n 's/^#define TOPOMAP_VERSION "\(.*\)"/\1/p' "$src/include/topomap/topomap.h")
[ -n "$ver" ] || { echo "no TOPOMAP_VERSION in include/topomap/topomap.h"; exit 1; }
flavors=$(cd "$build" && ls -d mpi-* 2>/dev/null | sed 's/^mpi-//' | grep -v '^default$' || true)
tmp=$PWD

# mk ARGS: make in the source tree on the build under test (the outer make's
# jobserver is not ours).
mk() {
    (cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory "$@" BUILD="$rel") \
        > "$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; echo "make $* BUILD=$rel failed"; exit 1; }
}

# ---- 1. the Spack recipe's make lines ------------------------------------
recipe="$src/packaging/spack/package.py"
spack_lines() { python3 "$src/tests/install/spack_check.py" "$recipe" "$@"; }
# run_spack PREFIX ARGS: the recipe's lines for these arguments, run as they are
run_spack() {
    local p=$1; shift
    spack_lines --prefix "$p" "$@" > spack.txt
    [ "$(wc -l < spack.txt)" -eq 2 ] && [ "$(cut -d' ' -f1-2 spack.txt | tr '\n' ' ')" = "make all make install " ] ||
        { echo "recipe issues other steps than 'make all', 'make install':"; cat spack.txt; exit 1; }
    grep -q -- "PREFIX=$p " spack.txt || { echo "recipe does not pass PREFIX=$p"; cat spack.txt; exit 1; }
    while read -r line; do
        eval "set -- $line"
        shift
        mk "$@"
    done < spack.txt
    [ "$("$p/bin/topomap" --version)" = "topomap $ver" ] || { echo "spack prefix: wrong --version"; exit 1; }
}
if [ -n "$flavors" ]; then
    f=$(echo "$flavors" | head -1)
    run_spack "$tmp/spack" --variants +mpi+shim --mpi "$f" --mpicc "mpicc.$f"
    [ -f "$tmp/spack/lib/topomap-mpi-$f/libtopomap_mpi.so" ] && [ -f "$tmp/spack/lib/topomap-mpi-$f/libtopomap_pmpi.so" ] ||
        { echo "+mpi+shim: libtopomap_mpi/pmpi not installed for $f"; exit 1; }
    [ "$(ls -d "$tmp"/spack/lib/topomap-mpi-* | wc -l)" -eq 1 ] || { echo "+mpi ^$f installed other MPI builds"; exit 1; }
    run_spack "$tmp/spack-noshim" --variants +mpi~shim --mpi "$f" --mpicc "mpicc.$f"
    [ -f "$tmp/spack-noshim/lib/topomap-mpi-$f/libtopomap_mpi.so" ] && [ ! -e "$tmp/spack-noshim/lib/topomap-mpi-$f/libtopomap_pmpi.so" ] ||
        { echo "+mpi~shim: wrong files in lib/topomap-mpi-$f"; exit 1; }
fi
run_spack "$tmp/spack-nompi" --variants '~mpi~shim'
! ls "$tmp"/spack-nompi/lib/topomap-mpi-* "$tmp"/spack-nompi/lib/pkgconfig/topomap-mpi-* >/dev/null 2>&1 ||
    { echo "~mpi installed MPI files"; exit 1; }
sed '/"cmocka"/d' "$recipe" > bad-recipe.py
expect_exit 1 python3 "$src/tests/install/spack_check.py" bad-recipe.py --prefix /x
expect_in 'depends_on(' "$ERR"
expect_in "cmocka" "$ERR"
expect_exit 1 python3 "$src/tests/install/spack_check.py" "$recipe" --prefix /x --variants '~mpi+shim'
echo "spack: recipe lines run for +mpi+shim, +mpi~shim, ~mpi (MPI: ${f:-none})"

# ---- 2. make install PREFIX= ------------------------------------------------
P=$tmp/prefix
mk install PREFIX="$P"
for f0 in bin/topomap lib/libtopomap.a lib/libtopomap.so.$ver include/topomap/topomap.h \
          include/topomap/mpi.h lib/pkgconfig/topomap.pc lib/cmake/topomap/topomapConfig.cmake \
          lib/cmake/topomap/topomapConfigVersion.cmake share/man/man1/topomap.1 \
          share/bash-completion/completions/topomap share/topomap/slurm/job_submit.lua \
          share/topomap/slurm/topomap-hook.conf share/topomap/slurm/topomap-snapshot.cron; do
    [ -f "$P/$f0" ] || { echo "not installed: $f0"; exit 1; }
done
[ "$(readlink "$P/lib/libtopomap.so")" = libtopomap.so.0 ] && [ "$(readlink "$P/lib/libtopomap.so.0")" = "libtopomap.so.$ver" ] ||
    { echo "wrong libtopomap.so symlinks"; ls -l "$P/lib"; exit 1; }
readelf -d "$P/lib/libtopomap.so.$ver" | grep -q 'SONAME.*\[libtopomap\.so\.0\]' || { echo "SONAME is not libtopomap.so.0"; exit 1; }
[ "$("$P/bin/topomap" --version)" = "topomap $ver" ] || { echo "installed topomap --version: $("$P/bin/topomap" --version)"; exit 1; }

# The CLI's figures for the consumer's input.
cc -std=c11 -I"$src/include" -o gen-edges "$src/tests/install/consumer.c" "$build/libtopomap.a" \
    $(pkg-config --libs igraph libxml-2.0) -lmetis -lpthread -lm
./gen-edges --edges > consumer.edges
"$P/bin/topomap" eval --topology torus:4x4x2 --comm consumer.edges --json |
    json_py '"%s %.17g %.17g %.17g" % ("'"$ver"'", d["max_congestion"], d["avg_dilation"], d["qap_network_J"])' > want.txt
# same_figures PROGRAM LABEL: its output is the CLI's (relative 1e-12)
same_figures() {
    "$1" > got.txt || { echo "$2: consumer failed"; exit 1; }
    python3 - got.txt want.txt "$2" <<'PY'
import sys
got, want = open(sys.argv[1]).read().split(), open(sys.argv[2]).read().split()
ok = got[0] == want[0] and all(abs(float(a) - float(b)) <= 1e-12 * max(1.0, abs(float(b)))
                               for a, b in zip(got[1:], want[1:])) and len(got) == len(want) == 4
if not ok:
    sys.exit("%s: consumer printed %s, topomap eval says %s" % (sys.argv[3], got, want))
PY
}
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
[ "$(pkg-config --modversion topomap)" = "$ver" ] || { echo "pkg-config --modversion topomap"; exit 1; }
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror -o consumer-pc "$src/tests/install/consumer.c" $(pkg-config --cflags --libs topomap) \
    -Wl,-rpath,"$P/lib"
ldd consumer-pc | grep -q "libtopomap.so.0 => $P/lib/libtopomap.so.0" || { echo "consumer-pc: libtopomap not from $P"; ldd consumer-pc; exit 1; }
same_figures ./consumer-pc "pkg-config"
static=$(pkg-config --static --libs topomap | sed 's/-ltopomap\b/-Wl,-Bstatic -ltopomap -Wl,-Bdynamic/')
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror -o consumer-static "$src/tests/install/consumer.c" $(pkg-config --cflags topomap) $static
! ldd consumer-static | grep -q libtopomap || { echo "consumer-static links libtopomap.so"; exit 1; }
same_figures ./consumer-static "pkg-config --static"

# cmake_consumer ARGS: (re)configures tests/install against $P in cm/ and
# builds it (one build tree: CMake detects the compiler once).
# CM (default cm) names another build tree (a new one finds the package afresh).
cmake_consumer() {
    cmake -S "$src/tests/install" -B "${CM:-cm}" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_BUILD_TYPE=Release "$@" \
        > cm.log 2>&1 && cmake --build "${CM:-cm}" >> cm.log 2>&1
}
cmake_consumer || { cat cm.log; echo "CMake consumer failed"; exit 1; }
same_figures cm/consumer "CMake topomap::topomap"
# MPI: pkg-config (plain cc) and CMake consumers under the matching mpirun.
mpirun_of() {
    case $1 in
    openmpi) echo "mpirun.openmpi --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1" ;;
    *) echo "mpirun.$1" ;;
    esac
}
# loaded BIN LIB: the file LIB resolves to for BIN, without ".." (the relocatable .pc's run
# paths are ${pcfiledir}/../../lib/...)
loaded() { realpath -s "$(ldd "$1" | awk -v l="$2" '$1 == l {print $3}')"; }
mpilib_of() { case $1 in openmpi) echo libmpi.so.40 ;; mpich) echo libmpich.so ;; esac; }
last=
for f in $flavors; do
    last=$f
    pkg-config --libs --static "topomap-mpi-$f" > /dev/null || { echo "pkg-config --static topomap-mpi-$f failed"; exit 1; }
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Werror -o "mpi-pc-$f" "$src/tests/install/mpi_consumer.c" \
        $(pkg-config --cflags --libs "topomap-mpi-$f")
    [ "$(loaded "mpi-pc-$f" libtopomap_mpi.so)" = "$P/lib/topomap-mpi-$f/libtopomap_mpi.so" ] ||
        { echo "mpi-pc-$f: libtopomap_mpi not from $P/lib/topomap-mpi-$f"; ldd "mpi-pc-$f"; exit 1; }
    ldd "mpi-pc-$f" | grep -q "$(mpilib_of "$f")" || { echo "mpi-pc-$f: not linked with $f"; ldd "mpi-pc-$f"; exit 1; }
    # shellcheck disable=SC2046
    expect_exit 0 timeout 60 $(mpirun_of "$f") -np 2 "./mpi-pc-$f"
    expect_in "ring of 2: ok" "$OUT"
done
if [ -n "$last" ]; then
    # component mpi: the flavour named by TOPOMAP_MPI_FLAVOR (the last one here)
    cmake_consumer -DTOPOMAP_TEST_MPI=mpi -DTOPOMAP_MPI_FLAVOR="$last" ||
        { cat cm.log; echo "CMake MPI consumer failed"; exit 1; }
    [ "$(cat cm/flavor.txt)" = "$last" ] || { echo "topomap::mpi is $(cat cm/flavor.txt), not $last"; exit 1; }
    ldd cm/mpi_consumer | grep -q "$P/lib/topomap-mpi-$last/libtopomap_mpi.so" ||
        { echo "CMake mpi_consumer: libtopomap_mpi not from $P/lib/topomap-mpi-$last"; exit 1; }
    # shellcheck disable=SC2046
    expect_exit 0 timeout 60 $(mpirun_of "$last") -np 2 cm/mpi_consumer
    expect_in "ring of 2: ok" "$OUT"
    first=$(echo "$flavors" | head -1)
    cmake_consumer "-DTOPOMAP_TEST_MPI=$first" || { cat cm.log; exit 1; }
    [ "$(cat cm/flavor.txt)" = "$first" ] || { echo "component $first gave $(cat cm/flavor.txt)"; exit 1; }
    if cmake_consumer -DTOPOMAP_TEST_MPI=nosuchmpi; then echo "component nosuchmpi was found"; exit 1; fi
    grep -q "component nosuchmpi: no usable MPI build" cm.log || { cat cm.log; echo "no reason for nosuchmpi"; exit 1; }
fi
if cmake_consumer -DTOPOMAP_TEST_MPI= -DTOPOMAP_TEST_VERSION=9.0; then echo "find_package(topomap 9.0) succeeded"; exit 1; fi
grep -q "topomapConfig.cmake, version: $ver" cm.log || { cat cm.log; echo "find_package(topomap 9.0): not refused for its version"; exit 1; }

# Man pages: one per command of `topomap --help` plus topomap(1); no groff
# warning; identical to what gen-man.py makes from the installed binary; every
# option of the command's --help on its page.
cmds=$("$P/bin/topomap" --help | sed -n '/^[Cc]ommands:/,/^$/p' | awk 'NR > 1 && NF {print $1}' | grep -v '^version$')
want_pages=$(printf 'topomap.1\n'; for c in $cmds; do echo "topomap-$c.1"; done)
[ "$(ls "$P/share/man/man1" | sort)" = "$(echo "$want_pages" | sort)" ] ||
    { echo "man pages: $(ls "$P/share/man/man1" | tr '\n' ' '), expected: $(echo $want_pages)"; exit 1; }
python3 "$src/tools/gen-man.py" "$P/bin/topomap" regen
for p in $want_pages; do
    cmp -s "regen/$p" "$P/share/man/man1/$p" || { echo "$p differs from the installed topomap's --help"; exit 1; }
    LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$P/share/man/man1/$p" > /dev/null 2> groff.txt
    [ ! -s groff.txt ] || { echo "$p: groff warnings:"; cat groff.txt; exit 1; }
    MANWIDTH=200 man -l "$P/share/man/man1/$p" 2>/dev/null | col -b > page.txt
    c=${p#topomap}; c=${c#-}; c=${c%.1}
    "$P/bin/topomap" $c --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u > opts.txt
    while read -r o; do
        grep -q -- "$o" page.txt || { echo "$p: $o of '$c --help' missing"; exit 1; }
    done < opts.txt
    grep -q "^NAME" page.txt && grep -q "^SYNOPSIS" page.txt || { echo "$p: no NAME or SYNOPSIS"; exit 1; }
    [ "$p" = topomap.1 ] || [ "$p" = topomap-slurm.1 ] || [ "$(wc -l < opts.txt)" -ge 5 ] || { echo "$p: only $(wc -l < opts.txt) options in --help?"; exit 1; }
done
MANPATH="$P/share/man" man -w topomap-map > /dev/null || { echo "man -w topomap-map does not find the page"; exit 1; }

# Bash completion.
comp="$P/share/bash-completion/completions/topomap"
complete_words() {  # complete_words WORD... : COMPREPLY for the last word
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _topomap; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$comp" topomap "$@" | sort
}
bash -c 'source "$1"; complete -p topomap' _ "$comp" | grep -q -- '-F _topomap topomap' ||
    { echo "completion does not register _topomap"; exit 1; }
[ "$(complete_words '' | tr '\n' ' ')" = "$(printf '%s\n' $cmds version --help --version | sort | tr '\n' ' ')" ] ||
    { echo "top-level completion: $(complete_words '' | tr '\n' ' ')"; exit 1; }
for c in $cmds; do
    # sub-commands: topo's share one option list, workload's have their own
    subs=-; [ "$c" = topo ] && subs=info; [ "$c" = workload ] && subs="eval replay"
    [ "$c" = slurm ] && subs=snapshot
    : > offered.txt
    for s in $subs; do
        [ "$s" = - ] && s=
        complete_words $c $s -- > sub-offered.txt
        cat sub-offered.txt >> offered.txt
        while read -r o; do
            set +e; "$P/bin/topomap" $c $s "$o" > /dev/null 2> err.txt; set -e
            ! grep -q "unknown or ambiguous option" err.txt || { echo "completion offers '$c $s $o': $(cat err.txt)"; exit 1; }
        done < sub-offered.txt
    done
    sort -u offered.txt -o offered.txt
    "$P/bin/topomap" $c --help | sed -n '/^usage:/,/^$/p' | grep -o -- '--[a-z][a-z0-9-]*' | sort -u > usage-opts.txt
    # (slurm snapshot has two options)
    [ "$c" = slurm ] || { [ "$(wc -l < offered.txt)" -ge 5 ] && [ "$(wc -l < usage-opts.txt)" -ge 3 ]; } ||
        { echo "$c: $(wc -l < offered.txt) options offered, $(wc -l < usage-opts.txt) in usage"; exit 1; }
    missing=$(comm -23 usage-opts.txt offered.txt)
    [ -z "$missing" ] || { echo "$c: completion lacks $missing"; exit 1; }
done
[ "$(complete_words workload replay --policy '' | tr '\n' ' ')" = "all as-recorded random slurm-tree topomap " ] ||
    { echo "workload replay --policy: $(complete_words workload replay --policy '')"; exit 1; }
[ -z "$(complete_words workload eval --pol)" ] || { echo "workload eval offers --policy"; exit 1; }
[ "$(complete_words map --format '' | tr '\n' ' ')" = "mpich openmpi plain slurm smpi " ] ||
    { echo "map --format: $(complete_words map --format '')"; exit 1; }
[ "$(complete_words map --strategy topd | tr '\n' ' ')" = "topdown topdown-c topdown-ms " ] ||
    { echo "map --strategy topd: $(complete_words map --strategy topd)"; exit 1; }
[ "$(complete_words topo '' | tr '\n' ' ')" = "--help export info " ] || { echo "topo: $(complete_words topo '')"; exit 1; }
touch my-fabric.topo
[ "$(complete_words eval --topology my-fab)" = my-fabric.topo ] || { echo "eval --topology: no file completion"; exit 1; }
[ -z "$(complete_words map --threads '')" ] || { echo "map --threads completes something"; exit 1; }

# ---- 3. DESTDIR staging with a multiarch LIBDIR, and uninstall -----------------
ma=/usr/lib/x86_64-linux-gnu
mk install DESTDIR="$tmp/stage" PREFIX=/usr LIBDIR=$ma
[ -z "$(cd stage && find . -mindepth 1 -maxdepth 1 ! -name usr)" ] || { echo "DESTDIR: files outside usr/"; exit 1; }
[ -f "stage$ma/libtopomap.so.$ver" ] && [ -f "stage$ma/pkgconfig/topomap.pc" ] && [ -f "stage$ma/cmake/topomap/topomapConfig.cmake" ] ||
    { echo "DESTDIR: not in LIBDIR"; (cd stage && find . | sort); exit 1; }
grep -qx "libdir=$ma" "stage$ma/pkgconfig/topomap.pc" || { echo "topomap.pc libdir is not $ma"; exit 1; }
! grep -rq "$tmp" stage || { echo "DESTDIR leaked into an installed file: $(grep -rl "$tmp" stage)"; exit 1; }
for f in $flavors; do
    [ -f "stage$ma/topomap-mpi-$f/libtopomap_mpi.so" ] && grep -q "mpilibdir=\${libdir}/topomap-mpi-$f" "stage$ma/pkgconfig/topomap-mpi-$f.pc" ||
        { echo "DESTDIR: $f build or its .pc"; exit 1; }
done
mk uninstall DESTDIR="$tmp/stage" PREFIX=/usr LIBDIR=$ma
left=$(cd stage && find . ! -type d)
[ -z "$left" ] || { echo "make uninstall left: $left"; exit 1; }

# ---- 4. relocated: staged with DESTDIR, moved elsewhere, then used -------------
# The CMake package finds everything from its own place (and the .pc files
# from ${pcfiledir}, but for PREFIX=/usr): consumers built against the moved
# tree give the CLI's figures and load the moved libraries (issue 37).
# moved_consumers TREE LABEL: CMake (and the MPI component) against TREE
moved_consumers() {
    local tree=$1 label=$2 cmdir
    cmdir=cm-$(basename "$tree")
    P=$tree CM=$cmdir cmake_consumer || { cat cm.log; echo "$label: CMake consumer failed"; exit 1; }
    grep -q "topomap_DIR:PATH=$tree/" "$cmdir/CMakeCache.txt" || { grep topomap_DIR "$cmdir/CMakeCache.txt"; echo "$label: package not found in the moved tree"; exit 1; }
    ldd "$cmdir/consumer" | grep -q "libtopomap.so.0 => $tree/" || { ldd "$cmdir/consumer"; echo "$label: libtopomap not from the moved tree"; exit 1; }
    same_figures "$cmdir/consumer" "$label: CMake topomap::topomap"
    if [ -n "$first" ]; then
        P=$tree CM=$cmdir cmake_consumer "-DTOPOMAP_TEST_MPI=$first" || { cat cm.log; echo "$label: CMake MPI consumer failed"; exit 1; }
        ldd "$cmdir/mpi_consumer" | grep -q "libtopomap_mpi.so => $tree/" ||
            { ldd "$cmdir/mpi_consumer"; echo "$label: libtopomap_mpi not from the moved tree"; exit 1; }
        # shellcheck disable=SC2046
        expect_exit 0 timeout 60 $(mpirun_of "$first") -np 2 "$cmdir/mpi_consumer"
        expect_in "ring of 2: ok" "$OUT"
    fi
}
first=$(echo "$flavors" | head -1)
away=/nonexistent-topomap-prefix-$$   # never there: the files cannot fall back on it
mk install DESTDIR="$tmp/stage2" PREFIX="$away"
mkdir -p moved && mv "stage2$away" moved/tm && rm -rf stage2
M=$tmp/moved/tm
moved_consumers "$M" "moved PREFIX tree"
# pkg-config, shared and static, from ${pcfiledir}
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror -o consumer-moved "$src/tests/install/consumer.c" \
    $(PKG_CONFIG_PATH="$M/lib/pkgconfig" pkg-config --cflags --libs topomap) -Wl,-rpath,"$M/lib"
ldd consumer-moved | grep -q "libtopomap.so.0 => $M/lib/" || { ldd consumer-moved; echo "pkg-config: libtopomap not from the moved tree"; exit 1; }
same_figures ./consumer-moved "moved tree: pkg-config"
static=$(PKG_CONFIG_PATH="$M/lib/pkgconfig" pkg-config --static --libs topomap | sed 's/-ltopomap\b/-Wl,-Bstatic -ltopomap -Wl,-Bdynamic/')
# shellcheck disable=SC2046,SC2086
cc -std=c11 -Wall -Werror -o consumer-moved-static "$src/tests/install/consumer.c" \
    $(PKG_CONFIG_PATH="$M/lib/pkgconfig" pkg-config --cflags topomap) $static
same_figures ./consumer-moved-static "moved tree: pkg-config --static"
for f in $flavors; do
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Werror -o "mpi-moved-$f" "$src/tests/install/mpi_consumer.c" \
        $(PKG_CONFIG_PATH="$M/lib/pkgconfig" pkg-config --cflags --libs "topomap-mpi-$f")
    [ "$(loaded "mpi-moved-$f" libtopomap_mpi.so)" = "$M/lib/topomap-mpi-$f/libtopomap_mpi.so" ] ||
        { ldd "mpi-moved-$f"; echo "pkg-config topomap-mpi-$f: not from the moved tree"; exit 1; }
done
# found through a symbolic link that crosses prefixes (as /lib -> usr/lib on a merged /usr:
# lnk/lib/cmake/topomap is $P's, lnk/include does not exist): the install's own prefix
mkdir lnk && ln -s "$P/lib" lnk/lib
P=$tmp/lnk CM=cm-lnk cmake_consumer || { cat cm.log; echo "config found through a symlinked lib/: failed"; exit 1; }
same_figures cm-lnk/consumer "CMake through a symlinked lib/"
# a distribution layout (PREFIX=/usr, multiarch LIBDIR) unpacked elsewhere: CMake finds it
# (its .pc files keep the absolute /usr paths, section 3)
mk install DESTDIR="$tmp/stage3" PREFIX=/usr LIBDIR=$ma
mv stage3/usr moved/usr && rm -rf stage3
moved_consumers "$tmp/moved/usr" "moved /usr tree"
echo "install: $(cd "$P" && find . ! -type d | wc -l) files; pkg-config, static, CMake consumers and MPI ($(echo $flavors)) ok; $(echo $want_pages | wc -w) man pages; completion ok"
