#!/usr/bin/env bash
# Failing runs leave an existing output intact and no temporary file:
# bad input, an output path in a missing directory, an output path that is
# a directory; device targets (/dev/null) are written in place.
set -eu
. "$(dirname "$0")/lib.sh"
d=$TM_TEST_DATA/cli
no_tmp() { [ -z "$(find . -name '.*.tmp.*')" ] || { echo "temporary left: $(find . -name '.*.tmp.*')"; exit 1; }; }

expect_exit 0 "$TOPOMAP" map --topology $d/star.graphml --comm $d/three.edges --out r.txt
cp r.txt good.txt
# malformed communication graph (line 2): exit 2, r.txt untouched
printf '0 1 20\n0 x 10\n' > bad.edges
expect_exit 2 "$TOPOMAP" map --topology $d/star.graphml --comm bad.edges --out r.txt
expect_in "bad.edges:2:" "$ERR"
cmp r.txt good.txt
no_tmp
# an unknown host in the allocation, found after topology and comm were read
expect_exit 2 "$TOPOMAP" map --topology $d/star.graphml --comm $d/three.edges --alloc a,zzz --out r.txt
cmp r.txt good.txt
no_tmp
# output in a directory that does not exist: nothing created
expect_exit 2 "$TOPOMAP" map --topology $d/star.graphml --comm $d/three.edges --out nodir/r.txt
expect_in "nodir/r.txt: cannot create output file: No such file or directory" "$ERR"
[ ! -e nodir ]
# output path is a directory: refused, directory untouched
mkdir outdir
expect_exit 2 "$TOPOMAP" map --topology $d/star.graphml --comm $d/three.edges --out outdir
expect_in "outdir: cannot write output file: is a directory" "$ERR"
[ -d outdir ] && [ -z "$(ls -A outdir)" ]
no_tmp
# topo export failing on bad input keeps the previous export
expect_exit 0 "$TOPOMAP" topo export --topology mesh:2x2 --format graphml --out net.graphml
cp net.graphml net.ref
expect_exit 1 "$TOPOMAP" topo export --topology mesh:0x2 --format graphml --out net.graphml
cmp net.graphml net.ref
no_tmp
# a device target is written in place (through a link, so that a
# regression cannot replace the real /dev/null when tests run as root)
ln -s /dev/null devnull
expect_exit 0 "$TOPOMAP" map --topology $d/star.graphml --comm $d/three.edges --out devnull
[ -L devnull ] && [ -c /dev/null ]
no_tmp
# a write that fails after the output was opened (a full device): exit 2
ln -s /dev/full devfull
expect_exit 2 "$TOPOMAP" map --topology $d/star.graphml --comm $d/three.edges --out devfull
expect_in "write error" "$ERR"
[ -L devfull ] && [ -c /dev/full ]
no_tmp
