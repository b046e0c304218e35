#!/usr/bin/env bash
# The deps step of the Makefile on a machine without pkg-config (a fresh Debian 12, issue 36):
# the first line of `make demo` was "/bin/sh: 3: pkg-config: not found".  The step must look
# for pkg-config before running it and call tools/install-deps.sh; and the stamp depends on
# install-deps.sh, so that a package added there is installed by the next make.  Run on a copy
# of the Makefile whose install-deps.sh is a stand-in, with a PATH without pkg-config.
set -eu
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
make=$(command -v make) || { echo "make missing"; exit 77; }
if sanitized; then
    echo "sanitizer build: the Makefile's deps step does not depend on the build (plain build)"
    exit 77
fi
# a make of its own (env -i below: not a job of the make that runs the tests, and without
# the BUILD=build-asan SAN=1 that make exports under test-asan)
unset MAKEFLAGS MFLAGS MAKELEVEL

mkdir -p tree/tools tree/include/topomap bin
cp "$src/Makefile" tree/
cp "$src/include/topomap/topomap.h" tree/include/topomap/
cat > tree/tools/install-deps.sh <<'EOF'
#!/bin/sh
echo "install-deps stand-in ran" >> "$(dirname "$0")/../ran.txt"
EOF
chmod +x tree/tools/install-deps.sh
# only what the recipe needs besides the tools it looks for (no pkg-config, clang, chromium,
# cmake, man, mpicc)
for c in sh mkdir touch sed cat dirname; do ln -s "$(command -v $c)" bin/$c; done

step "no pkg-config: the deps step says nothing about it and installs"
expect_exit 0 env -i PATH="$PWD/bin" "$make" -C tree --no-print-directory build/.deps-ok
case "$OUT$ERR" in *"not found"*) echo "the deps step printed 'not found': $OUT$ERR"; exit 1;; esac
[ "$(cat tree/ran.txt)" = "install-deps stand-in ran" ]
[ -f tree/build/.deps-ok ]
step "up to date: nothing runs; install-deps.sh changed: it runs again"
expect_exit 0 env -i PATH="$PWD/bin" "$make" -C tree --no-print-directory build/.deps-ok
[ "$(wc -l < tree/ran.txt)" = 1 ]
touch -d '+1 minute' tree/tools/install-deps.sh
expect_exit 0 env -i PATH="$PWD/bin" "$make" -C tree --no-print-directory build/.deps-ok
[ "$(wc -l < tree/ran.txt)" = 2 ]
step "INSTALL_DEPS=no (package builds) without pkg-config: a clear error, not 'not found'"
rm -f tree/build/.deps-ok
expect_exit 2 env -i PATH="$PWD/bin" "$make" -C tree --no-print-directory INSTALL_DEPS=no build/.deps-ok
expect_in "make: igraph, libxml-2.0 or jansson not found by pkg-config" "$OUT"
case "$ERR" in *"pkg-config: not found"*) echo "$ERR"; exit 1;; esac
[ "$(wc -l < tree/ran.txt)" = 2 ]

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
