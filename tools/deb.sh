#!/usr/bin/env bash
# make deb: builds the Debian packages (debian/) from a copy of the tree in
# build/deb/src (dpkg-buildpackage -us -uc -b: the source tree stays clean),
# runs lintian on them (any error fails), then unpacks every .deb with
# dpkg -x into the clean directory build/deb/root and checks it there: the
# unpacked topomap prints the version of include/topomap/topomap.h, and a
# program built with the unpacked topomap.pc against the unpacked
# libtopomap.so.0 runs.  Build dependencies: `make deps FOR=deb`
# (tools/install-deps.sh --deb) and the ordinary ones.  The .debs are left in build/deb/.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
out=$src/build/deb
ver=$(sed -n 's/^#define TOPOMAP_VERSION "\(.*\)"/\1/p' include/topomap/topomap.h)
deb_ver=$(dpkg-parsechangelog -l debian/changelog -S Version)
[ "$deb_ver" = "$ver" ] || { echo "deb: debian/changelog is $deb_ver, TOPOMAP_VERSION is $ver"; exit 1; }
# checked, never installed (issue 37: only make deps, demo and test install)
command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null && command -v lintian >/dev/null &&
    command -v fakeroot >/dev/null || {
    echo "deb: the packaging tools (dpkg-buildpackage, debhelper, lintian, fakeroot) are not all" \
        "installed: 'make deps FOR=deb' installs them (tools/install-deps.sh --deb)"
    exit 2
}

rm -rf "$out" && mkdir -p "$out/src/topomap-$ver"
# The files of the checkout (tracked, and new ones not ignored): no build trees.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z -co --exclude-standard | xargs -0 cp --parents -t "$out/src/topomap-$ver"
else
    tar -C "$src" --exclude='./build*' -cf - . | tar -C "$out/src/topomap-$ver" -xf -
fi
t0=$(date +%s)
(cd "$out/src/topomap-$ver" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; echo "deb: dpkg-buildpackage failed (log: $out/build.log)"; exit 1; }
echo "deb: built in $(( $(date +%s) - t0 )) s: $(cd "$out/src" && ls *.deb | tr '\n' ' ')"
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out/"
changes=$(ls "$out"/*.changes)
lintian --fail-on error --tag-display-limit 0 "$changes" | tee "$out/lintian.txt" ||
    { echo "deb: lintian errors (above)"; exit 1; }
echo "deb: lintian: $(grep -c '^E:' "$out/lintian.txt" || true) errors, $(grep -c '^W:' "$out/lintian.txt" || true) warnings"

root=$out/root
rm -rf "$root" && mkdir -p "$root"
for d in "$out"/*.deb; do dpkg -x "$d" "$root"; done
ma=$(dpkg-architecture -q DEB_HOST_MULTIARCH)
got=$("$root/usr/bin/topomap" --version)
[ "$got" = "topomap $ver" ] || { echo "deb: unpacked topomap --version says '$got'"; exit 1; }
echo "deb: $root/usr/bin/topomap --version: $got"
cc -std=c11 -o "$out/consumer" tests/install/consumer.c \
    $(PKG_CONFIG_PATH="$root/usr/lib/$ma/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root" pkg-config --cflags --libs topomap)
# ldd's whole output first: with pipefail, `ldd | grep -q` fails when grep
# stops reading at the match and ldd dies of SIGPIPE (seen in CI)
libs=$(LD_LIBRARY_PATH="$root/usr/lib/$ma" ldd "$out/consumer")
grep -qF "$root/usr/lib/$ma/libtopomap.so.0" <<<"$libs" ||
    { echo "deb: the consumer does not load the unpacked libtopomap.so.0"; exit 1; }
echo "deb: consumer against the unpacked libtopomap-dev: $(LD_LIBRARY_PATH="$root/usr/lib/$ma" "$out/consumer")"
