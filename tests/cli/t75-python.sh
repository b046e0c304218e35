#!/usr/bin/env bash
# The Python module (python/, docs/python.md) as a user installs it: a venv
# over Debian's packages (python3-numpy, -cffi, -scipy, -pandas, -networkx,
# -pytest from tools/install-deps.sh), `pip install` offline, then its
# pytest suite (python/tests/) against the library under test, comparing
# every figure with this CLI's JSON.  Skipped (77) only when python3-venv is
# missing.
set -eu
. "$(dirname "$0")/lib.sh"   # the failing step in make test's summary
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
lib=${TOPOMAP_LIB:-$(dirname "${TOPOMAP_REAL:-$TOPOMAP}")/libtopomap.so}
py=/usr/bin/python3   # Debian's python3: its dist-packages hold the dependencies
[ -f "$lib" ] || { echo "no shared library at $lib (set TOPOMAP_LIB)"; exit 1; }
# Not under the sanitizers (make test-asan): the module is tested on the plain build, and the
# public calls it makes are unit-tested under ASan/UBSan (test_study, test_metrics, ...).
if nm -D --undefined-only "$lib" 2>/dev/null | grep -q -E '__(asan|tsan|ubsan)_'; then
    echo "sanitizer build: tested on the plain build"
    exit 77
fi
if ! "$py" -c 'import ensurepip, venv' 2>/dev/null; then
    echo "python3-venv is missing (tools/install-deps.sh installs it)"; exit 77
fi

# A copy of python/: pip builds in the source directory, keep the checkout clean.
# The module's C declarations are made from the headers of the library under
# test when it is built (topomap/_cdefgen.py; the copy has no ../include).
cp -r "$root/python" src
rm -rf src/build src/*.egg-info src/topomap/_paths.py src/topomap/_cdef.py
"$py" -m venv --system-site-packages venv
# without headers the build stops, saying where it looked and how to name them
if TOPOMAP_INCLUDE=$PWD/nowhere venv/bin/pip install --quiet --no-index --no-build-isolation \
        ./src > nohdr.txt 2>&1; then
    echo "the module was built without headers"; exit 1
fi
grep -q "TOPOMAP_INCLUDE=$PWD/nowhere holds no topomap/topomap.h" nohdr.txt ||
    { cat nohdr.txt; echo "no word of the missing headers"; exit 1; }
rm -rf src/build src/*.egg-info
TOPOMAP_INCLUDE="$root/include" venv/bin/pip install --quiet --no-index --no-build-isolation ./src

# make valgrind wraps the CLI (TOPOMAP_REAL is the binary): the module's
# comparisons run the binary itself, valgrind is about the CLI's own runs
env=(TOPOMAP_LIBRARY="$lib" TOPOMAP="${TOPOMAP_REAL:-$TOPOMAP}" TOPOMAP_SOURCE="$root")
# The installed package is imported (not src/): run from elsewhere.
mkdir run && cd run
env "${env[@]}" ../venv/bin/python -m pytest -q -p no:cacheprovider -c ../src/pyproject.toml \
    --rootdir ../src ../src/tests
# The module loads the library it was told to (not some other installed one), with
# the declarations made at install time from the headers under test.
env "${env[@]}" ../venv/bin/python -c 'import sys, topomap; sys.exit(topomap.LIBRARY_PATH != sys.argv[1])' "$lib"
env "${env[@]}" ../venv/bin/python -c 'import sys, topomap._cdef as c; sys.exit(c.HEADERS != sys.argv[1])' "$root/include"

# The example of docs/python.md runs as shown there (one strategy here, to
# stay short) and draws its figure: a PNG of the expected size with the
# two bar colours in it.
env "${env[@]}" ../venv/bin/python ../src/examples/tapering.py taper.png --strategy identity > taper.txt
grep -q '^     4:1 ' taper.txt || { cat taper.txt; echo "no 4:1 row"; exit 1; }
read -r w h ncol nonwhite grey blue < <("$here/pngstat.py" taper.png '#9e9e9e' '#1f77b4')
[ "$w" = 720 ] && [ "$h" = 288 ] && [ "$grey" -gt 1000 ] && [ "$blue" -gt 1000 ] ||
    { echo "taper.png: $w x $h, $ncol colours, grey $grey, blue $blue"; exit 1; }
