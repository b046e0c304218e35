#!/usr/bin/env bash
# The Makefile's dependency steps (issue 37: a quiet `make`).  A plain `make` installs nothing:
# it checks the build dependencies (tools/check-build-deps.sh) and, when one is missing, names
# it with its Debian package and how to get it, exits non-zero and builds nothing.  Only the
# README's two commands (`make demo`, `make test`) and `make deps` run tools/install-deps.sh;
# INSTALL_DEPS=no (package builds) never does.  The install step looks for pkg-config before
# running it (a fresh Debian 12 has none: the first line of `make demo` was "/bin/sh: 3:
# pkg-config: not found", issue 36), and its stamp depends on install-deps.sh, so that a package
# added there is installed by the next make demo / make test.  Run on a copy of the Makefile
# whose install-deps.sh and tests/run-stages.sh are stand-ins, with a PATH without pkg-config
# or a C compiler (then with stand-ins that lack jansson and METIS).
set -eu
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
make=$(command -v make) || { echo "make missing"; exit 77; }
if sanitized; then
    echo "sanitizer build: the Makefile's deps steps do not depend on the build (plain build)"
    exit 77
fi
# a make of its own (env -i below: not a job of the make that runs the tests, and without
# the BUILD=build-asan SAN=1 that make exports under test-asan)
unset MAKEFLAGS MFLAGS MAKELEVEL

mkdir -p tree/tools tree/tests tree/include/topomap tree/src/x bin fake
cp "$src/Makefile" tree/
cp "$src/include/topomap/topomap.h" tree/include/topomap/
cp "$src/tools/check-build-deps.sh" tree/tools/
echo 'int x(void);' > tree/src/x/x.c   # one library object: what `make` would compile first
printf '#!/bin/sh\necho "install-deps stand-in ran" >> "$(dirname "$0")/../ran.txt"\n' > tree/tools/install-deps.sh
printf '#!/bin/sh\necho "test stages ran"\n' > tree/tests/run-stages.sh
chmod +x tree/tools/install-deps.sh tree/tests/run-stages.sh
# only what the recipes need besides the tools they look for (no pkg-config, cc, clang,
# chromium, cmake, man, mpicc)
for c in sh mkdir touch sed cat dirname; do ln -s "$(command -v $c)" bin/$c; done
# stand-ins: a pkg-config that knows igraph and libxml-2.0 only, a cc that finds no header
printf '#!/bin/sh\n[ "$1" = --exists ] || exit 1\nshift\nfor m; do case $m in igraph|libxml-2.0) ;; *) exit 1;; esac; done\n' > fake/pkg-config
printf '#!/bin/sh\nexit 1\n' > fake/cc
chmod +x fake/pkg-config fake/cc
ran() { if [ -f tree/ran.txt ]; then wc -l < tree/ran.txt; else echo 0; fi; }
m() { env -i PATH="$PWD/bin" "$make" -C tree --no-print-directory "$@"; }

step "plain make, nothing there: installs nothing, says what is missing and how to get it"
expect_exit 2 m
expect_in "make: missing build dependencies:" "$ERR"
expect_in "the C compiler 'cc' (Debian: build-essential)" "$ERR"
expect_in "pkg-config (without it the modules igraph libxml-2.0 jansson yaml-0.1 cannot be looked for) (Debian: pkg-config)" "$ERR"
expect_in "make deps" "$ERR"
expect_in "sudo apt-get install build-essential pkg-config libigraph-dev libxml2-dev libjansson-dev libyaml-dev" "$ERR"
case "$OUT$ERR" in *"not found"*) echo "make printed 'not found': $OUT$ERR"; exit 1;; esac
[ "$(ran)" = 0 ] || { echo "plain make ran install-deps.sh"; exit 1; }
[ ! -e tree/build/obj ] && [ ! -e tree/build/.deps-ok ] || { echo "plain make built something"; ls -aR tree/build; exit 1; }

step "plain make, jansson, libyaml and METIS missing: exactly those, with their packages"
expect_exit 2 env -i PATH="$PWD/fake:$PWD/bin" "$make" -C tree --no-print-directory all
expect_in "pkg-config module jansson (Debian: libjansson-dev)" "$ERR"
expect_in "METIS (metis.h) (Debian: libmetis-dev)" "$ERR"
expect_in "pkg-config module yaml-0.1 (Debian: libyaml-dev)" "$ERR"
expect_in "sudo apt-get install libjansson-dev libyaml-dev libmetis-dev" "$ERR"
case "$ERR" in *igraph*|*libxml*|*"C compiler"*) echo "names what is there: $ERR"; exit 1;; esac
[ "$(ran)" = 0 ] && [ ! -e tree/build/obj ]

step "make test installs (no pkg-config: nothing said about it), then runs the stages"
expect_exit 0 m test
case "$OUT$ERR" in *"not found"*) echo "the install step printed 'not found': $OUT$ERR"; exit 1;; esac
[ "$(cat tree/ran.txt)" = "install-deps stand-in ran" ]
expect_in "test stages ran" "$OUT"
step "up to date: make test installs nothing; install-deps.sh changed: make demo installs, then checks"
expect_exit 0 m test
[ "$(ran)" = 1 ]
touch -d '+1 minute' tree/tools/install-deps.sh
expect_exit 2 m demo    # installs, then its build stops at the check (the stand-in installed nothing)
[ "$(ran)" = 2 ]
expect_in "make: missing build dependencies:" "$ERR"
step "make deps always runs install-deps.sh (it installs only what is missing)"
expect_exit 0 m deps
[ "$(ran)" = 3 ]

step "INSTALL_DEPS=no (package builds): make test and make deps install nothing, make names what is missing"
rm -f tree/build/.deps-installed
expect_exit 0 m INSTALL_DEPS=no test
expect_in "INSTALL_DEPS=no: nothing installed" "$OUT"
expect_exit 0 m INSTALL_DEPS=no deps
[ "$(ran)" = 3 ]
expect_exit 2 m INSTALL_DEPS=no all
expect_in "make: missing build dependencies:" "$ERR"
case "$ERR" in *"pkg-config: not found"*) echo "$ERR"; exit 1;; esac

step "make deps FOR=bench|sim|deb installs a target's own tools; those targets only check"
printf '#!/bin/sh\necho "install-deps stand-in ran $*" >> "$(dirname "$0")/../ran.txt"\n' > tree/tools/install-deps.sh
expect_exit 0 m deps FOR=bench
[ "$(tail -n 1 tree/ran.txt)" = "install-deps stand-in ran --bench" ]
expect_exit 2 m deps FOR=scotch
expect_in "make deps: FOR=scotch: bench, sim or deb" "$OUT"
expect_exit 0 m INSTALL_DEPS=no deps FOR=sim
[ "$(ran)" = 4 ]
# bench-sim's first program: SimGrid missing is said, nothing installed (the recipe checks
# smpicc before it compiles)
mkdir -p tree/examples && : > tree/examples/halo3d.c && : > tree/examples/commstat.h
expect_exit 2 m build/sim/halo3d
expect_in "SimGrid (smpicc) is not installed: 'make deps FOR=sim' installs it" "$OUT"
[ "$(ran)" = 4 ]

step "no mpicc: make says so (with no MPI the flavour list was ' ', taken for one, and mpi was silent)"
expect_exit 0 env -i PATH="$PWD/bin" "$make" -C tree --no-print-directory mpi
expect_in "make: no mpicc found: libtopomap_mpi not built" "$OUT"

step "install-deps.sh lists the -dev package of every library a static link names"
# pkg-config --static --libs of what libtopomap.a needs (tests/cli/t70-install.sh links it):
# every -lNAME has a libNAME.so whose package install-deps.sh lists (or the C/C++ toolchain's)
if command -v pkg-config >/dev/null && command -v dpkg >/dev/null; then
    listed=$(sed 's/#.*//' "$src/tools/install-deps.sh" | sed -n '/^pkgs=(/,/)/p')
    for l in $(pkg-config --static --libs-only-l igraph libxml-2.0 | tr ' ' '\n' | sed -n 's/^-l//p' | sort -u); do
        case $l in m|pthread|stdc++|gomp|dl|rt) continue ;; esac   # build-essential's
        so=$(realpath -s "$(gcc -print-file-name=lib$l.so)")
        # the -dev package of the link or of a link it leads through (BLAS and LAPACK go
        # through /etc/alternatives)
        pkg= f=$so
        while [ -z "$pkg" ] && [ -n "$f" ]; do
            pkg=$(dpkg -S "$f" 2>/dev/null | cut -d: -f1 | grep -- '-dev$' | head -n 1 || true)
            [ -L "$f" ] && f=$(cd "$(dirname "$f")" && realpath -s "$(readlink "$f")") || f=
        done
        [ -n "$pkg" ] || { echo "-l$l: no package owns $so"; exit 1; }
        case " $(echo $listed) " in *" $pkg "*) ;; *) echo "-l$l ($pkg) is not in tools/install-deps.sh"; exit 1;; esac
    done
fi
