#!/bin/sh
# check-build-deps.sh - are the build dependencies of `make` (libtopomap and
# the topomap CLI) here?  Installs nothing: a plain `make` must not run apt
# (issue 37).  Prints nothing and exits 0 when everything is found; else
# names each missing piece with its Debian package and how to get them all
# (on stderr), and exits 1.
#
#   tools/check-build-deps.sh CC [CFLAGS...]           (the Makefile's check before building)
#   tools/check-build-deps.sh --tests CC [CFLAGS...]   (before the unit tests: CMocka too)
#
# What is looked for: the C compiler CC, pkg-config, the pkg-config modules
# igraph, libxml-2.0, jansson and yaml-0.1, and METIS's header (metis.h, found by CC
# with CFLAGS, so a METIS outside /usr/include given with -I counts).  The
# test tools (clang, MPI, Chromium, Slurm, ...) are not build dependencies:
# `make test` installs them (tools/install-deps.sh); --tests adds CMocka, which
# the unit tests are compiled with.
set -u
tests=
[ "${1:-}" = --tests ] && { tests=yes; shift; }
cc=${1:-cc}
[ $# -gt 0 ] && shift
missing=   # "what (package)" lines
pkgs=      # the Debian packages that provide them
add() { missing="$missing
  $1 (Debian: $2)"; pkgs="$pkgs $2"; }

modules="igraph:libigraph-dev libxml-2.0:libxml2-dev jansson:libjansson-dev yaml-0.1:libyaml-dev"
[ -n "$tests" ] && modules="$modules cmocka:libcmocka-dev"
have_cc=yes
# CC may carry words ("ccache gcc"): the first is the program
# shellcheck disable=SC2086
command -v ${cc%% *} >/dev/null 2>&1 || { add "the C compiler '$cc'" build-essential; have_cc=; }
if command -v pkg-config >/dev/null 2>&1; then
    for m in $modules; do
        pkg-config --exists "${m%%:*}" || add "pkg-config module ${m%%:*}" "${m#*:}"
    done
else
    add "pkg-config (without it the modules$(for m in $modules; do printf ' %s' "${m%%:*}"; done) cannot be looked for)" pkg-config
    for m in $modules; do pkgs="$pkgs ${m#*:}"; done
fi
if [ -n "$have_cc" ]; then
    # shellcheck disable=SC2086
    printf '#include <metis.h>\n' | $cc "$@" -E -x c - >/dev/null 2>&1 || add "METIS (metis.h)" libmetis-dev
fi

[ -z "$missing" ] && exit 0
exec 1>&2
echo "make: missing build dependencies:$missing"
echo "make: nothing was built.  Install them with one of:"
echo "  make deps                      (runs tools/install-deps.sh: apt, with sudo when not root;"
echo "                                  also the test tools; 'make demo' and 'make test' do it too)"
echo "  sudo apt-get install$pkgs"
exit 1
