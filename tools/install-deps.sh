#!/usr/bin/env bash
# Installs the build and test dependencies of topomap on Debian 12 with apt
# (Open MPI and MPICH side by side: libtopomap_mpi is built for each, docs/mpi.md).
# Idempotent: does nothing when everything is already there.  Run by `make
# deps`, `make demo` and `make test` (never by a plain `make`, which only
# checks the build dependencies: tools/check-build-deps.sh).
set -euo pipefail

pkgs=(build-essential pkg-config libigraph-dev libmetis-dev libxml2-dev libjansson-dev libyaml-dev libcmocka-dev
      clang libclang-rt-14-dev valgrind python3
      libopenmpi-dev openmpi-bin libmpich-dev mpich  # libtopomap_mpi, tests/cli/t60, t61
      chromium  # tests/cli/t32-report.sh renders the HTML report headless
      slurmctld slurm-client  # tests/cli/t06-slurm-ctld.sh: the real controller reads the export
      slurmd  # tests/cli/t47-slurm-array.sh: a local node runs a study's shards as a job array
      # tests/cli/t70-install.sh: CMake and pkg-config consumers, `man -l`, and a
      # `pkg-config --static` link: the -dev package of every library in the Libs.private
      # of Debian's igraph.pc (-lgmp -lblas -lglpk -llapack -larpack -lplfit) and
      # libxml-2.0.pc (-licu* -lz -llzma); libxml2-dev brings libicu-dev only, so a fresh
      # bookworm lacks liblzma-dev and zlib1g-dev (ld: cannot find -llzma, issue 36)
      cmake man-db libglpk-dev libarpack2-dev libplfit-dev libgmp-dev libblas-dev liblapack-dev
      libicu-dev liblzma-dev zlib1g-dev
      # the Python module (python/, docs/python.md) and tests/cli/t75-python.sh; pycparser
      # (cffi's own parser) reads the C headers when the module is built (_cdefgen.py)
      # python3-pil and numpy: tests/cli/pngstat.py decodes the reports' screenshots
      python3-venv python3-pip python3-setuptools python3-wheel python3-cffi python3-pycparser
      python3-numpy python3-scipy python3-pandas python3-networkx python3-matplotlib python3-pil
      python3-pytest
      libsimgrid-dev)  # SimGrid's smpicc/smpirun: tests/cli/t35-simgrid.sh, make bench-sim
# `make bench` only: Scotch (side-by-side QAP runs) and gpmetis (instance generator)
if [ "${1:-}" = "--bench" ]; then pkgs+=(scotch metis); fi
# `make deb` only: dpkg-buildpackage, debhelper (compat 13) and lintian
if [ "${1:-}" = "--deb" ]; then pkgs+=(dpkg-dev debhelper devscripts lintian fakeroot); fi
# `make bench-sim`: SimGrid only (already in the default list; --sim checks
# and installs just that, without the rest)
if [ "${1:-}" = "--sim" ]; then pkgs=(libsimgrid-dev); fi
missing=()
for p in "${pkgs[@]}"; do
    [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
SUDO=
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
