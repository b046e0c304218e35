#!/usr/bin/env bash
# topomap study: bad options are usage errors (exit 1, one line ending in
# the --help hint), names the topology lacks are input errors (exit 2),
# and a failed study writes no output file.
set -eu
. "$(dirname "$0")/lib.sh"
printf '0 1 1\n' > c.edges
T='fattree:k=2,n=2'
usage() {
    expect_exit 1 "$TOPOMAP" study "$@"
    expect_in "(see 'topomap study --help')" "$ERR"
    [ "$(wc -l < stderr.txt)" = 1 ] || { echo "not one line: $ERR"; exit 1; }
    [ ! -s stdout.txt ]
}
usage --comm c.edges
usage --topology $T
usage --topology $T --comm c.edges --fail-links 0%
usage --topology $T --comm c.edges --fail-links 150%
usage --topology $T --comm c.edges --fail-links abc
usage --topology $T --comm c.edges --fail-links 5%,
usage --topology $T --comm c.edges --seeds 0
usage --topology $T --comm c.edges --scale-capacity 2=0
usage --topology $T --comm c.edges --scale-capacity x=1
usage --topology $T --comm c.edges --scale-capacity 2
usage --topology $T --comm c.edges --scale-capacity 2=0.5,,3=1
usage --topology $T --comm c.edges --fail-link sw-l1-000
usage --topology $T --comm c.edges --fail-switch ,
usage --topology $T --comm c.edges --strategy bogus
usage --topology $T --comm c.edges --strategy mm
usage --topology $T --comm c.edges --routing bogus
usage --topology $T --comm c.edges --slots 0
usage --topology $T --comm c.edges --out x.txt
usage --topology $T --comm c.edges --threads -1
usage --topology $T --comm c.edges --objective fast
usage --topology $T --comm c.edges --hierarchy 4:4
usage --topology $T --comm c.edges --nosuch
usage --topology $T --comm c.edges extra
expect_exit 1 "$TOPOMAP" study --topology torus:4x0 --comm c.edges
expect_in "dimension 2 is 0" "$ERR"
# a level the topology lacks is a usage error naming it (after loading)
expect_exit 1 "$TOPOMAP" study --topology $T --comm c.edges --scale-capacity 3=0.5 --out no.csv
expect_in "no cable at level 3" "$ERR"
[ ! -e no.csv ]
# dor needs a grid
expect_exit 1 "$TOPOMAP" study --topology $T --comm c.edges --routing dor
# names the topology lacks: input errors, and no output at all
expect_exit 2 "$TOPOMAP" study --topology $T --comm c.edges --fail-switch sw-l9-000 --out no.csv
expect_in "'sw-l9-000' is not a switch" "$ERR"
[ ! -e no.csv ] && [ ! -s stdout.txt ]
expect_exit 2 "$TOPOMAP" study --topology $T --comm c.edges --fail-switch n0000
expect_exit 2 "$TOPOMAP" study --topology $T --comm c.edges --fail-link n0000:sw-l2-000 --out no.json
expect_in "no working cable joins 'n0000:sw-l2-000'" "$ERR"
[ ! -e no.json ]
expect_exit 2 "$TOPOMAP" study --topology $T --comm c.edges --fail-link a:b
expect_exit 2 "$TOPOMAP" study --topology nosuch.topo --comm c.edges
expect_exit 2 "$TOPOMAP" study --topology $T --comm nosuch.edges
expect_exit 2 "$TOPOMAP" study --topology $T --comm c.edges --alloc nosuchhost
expect_exit 2 "$TOPOMAP" study --topology $T --comm c.edges --out nosuchdir/x.csv
# one error line, after the progress lines of the runs (stderr is not a terminal)
[ "$(grep -vc '^study: [0-9]*/[0-9]* runs done' stderr.txt)" = 1 ]
tail -n 1 stderr.txt | grep -q '^topomap study: nosuchdir/x.csv'
# an existing output survives a failing study
echo keep > old.csv
expect_exit 2 "$TOPOMAP" study --topology $T --comm c.edges --fail-switch nosuch --out old.csv
[ "$(cat old.csv)" = keep ]
# --help is the option reference
expect_exit 0 "$TOPOMAP" study --help
expect_in "--fail-links P%" "$OUT"
expect_in "--scale-capacity" "$OUT"
expect_exit 0 "$TOPOMAP" --help
expect_in "study" "$OUT"
