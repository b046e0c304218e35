#!/usr/bin/env bash
# topo export --format slurm read by the real controller: Debian's slurmctld (Slurm 22.05,
# topology/tree, nodes State=CLOUD, auth/none, no slurmd) must accept every file without a
# topology warning, and `sbatch --test-only -N2 -w A,B` must start a job on host pairs (all
# pairs of small fabrics, a seeded sample of big ones: slurm_ctld.py) and on all hosts.
# Cases: PSMN X5, the other real dumps of the tests, a core switch with hosts above six
# leaves, topomap's example specs and generated fat-trees, Clos and a dragonfly.  A control
# file with two unconnected leaves must be warned about and refused, or the check is blind.
# Skipped (77) only when slurmctld or sbatch is not installed (tools/install-deps.sh installs
# both).
set -eu
. "$(dirname "$0")/lib.sh"
# Not under the sanitizers (make test-asan): the export under the sanitizers is t05; the controller run is the same on the plain build.
if sanitized; then
    echo "sanitizer build: tested on the plain build"
    exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
for t in slurmctld sbatch scontrol; do
    command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] ||
        { echo "$t not installed (tools/install-deps.sh installs slurmctld and slurm-client)"; exit 77; }
done
real="$TM_TEST_DATA/real/data"
n=0
check() { # NAME TOPOMAP-TOPOLOGY-ARGS...
    local name=$1; shift
    expect_exit 0 "$TOPOMAP" topo export "$@" --format slurm --out "$name.conf"
    python3 "$here/slurm_ctld.py" ctld "$name" "$name.conf"
    n=$((n + 1))
}
check x5 --topology "$TOPO_DIR/psmn-x5/X5.topofile" --node-name-map "$TOPO_DIR/psmn-x5/X5.map"
# any other dump in topologies/ (with its .map when it has one), if it is connected
for f in "$TOPO_DIR"/*/*.topofile "$TOPO_DIR"/*/*.topo; do
    [ -f "$f" ] && [ "$f" != "$TOPO_DIR/psmn-x5/X5.topofile" ] || continue
    args=(--topology "$f"); [ -f "${f%.*}.map" ] && args+=(--node-name-map "${f%.*}.map")
    parts=$("$TOPOMAP" topo info "${args[@]}" --json --no-diameter 2>/dev/null | json_py "len(d['parts'])")
    [ "$parts" = 1 ] && check "dump-$(basename "$(dirname "$f")")-$(basename "${f%.*}")" "${args[@]}"
done
check plafrim --topology "$real/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt"
check plafrim2-0 --topology "$real/ibnetdiscover_p/plafrim2/ib-subnet-fe80_0000_0000_0000.txt"
check plafrim2-1 --topology "$real/ibnetdiscover_p/plafrim2/ib-subnet-fe80_0000_0000_0001.txt"
check jabl-1 --topology "$real/ibnetdiscover/jabl_ibtopotool/1.topo"
check jabl-3 --topology "$real/ibnetdiscover/jabl_ibtopotool/3.topo"
check ibsim-4hca --topology "$real/ibnetdiscover/ibsim_net/net.2sw2path4hca"
check k4n3-full --topology "$real/ibnetdiscover/synthetic/k-4-n-3-Full.topo"
check mixed-core --topology "$TM_TEST_DATA/slurm/mixed-core.xml"
check small-cluster --topology "$TOPO_DIR/examples/small-cluster.xml"
check two-islands --topology "$TOPO_DIR/examples/two-islands.xml"
check fattree-4-3 --topology fattree:k=4,n=3
check fattree-2-2 --topology fattree:k=2,n=2
check clos --topology clos:leaves=4,hosts_per_leaf=6,spines=3
check clos3 --topology clos3:pods=3,leaves=2,hosts_per_leaf=4
check dragonfly --topology dragonfly:h=2
# multi-rail hosts: each listed once, on its first rail's leaf (the other planes reach no host)
check rails --topology fattree:k=4,n=3,rails=4
check jabl-3-rails --topology "$real/ibnetdiscover/jabl_ibtopotool/3.topo" \
    --node-name-map "$TM_TEST_DATA/ib/multirail/3-rails.map"
[ "$(grep -c '^SwitchName=rail0-sw-l1-[0-9]* Nodes=' rails.conf)" = 16 ]
if grep -q 'rail[1-3]-' rails.conf; then echo "other planes written: $(cat rails.conf)"; exit 1; fi

# what the export did for the mixed fabric and X5 (docs/slurm.md)
expect_in "SwitchName=core Switches=core-hosts,leaf[1-6]" "$(cat mixed-core.conf)"
expect_in "SwitchName=core-hosts Nodes=login1,stor1" "$(cat mixed-core.conf)"
expect_in "SwitchName=topomap-root Switches=S-0008f10500108098,S-0008f10500108c5c,S-0008f105001086a2" \
    "$(cat x5.conf)"

# control: two leaves that no switch joins; Slurm warns and refuses the pair across them
printf 'SwitchName=a Nodes=h[1-2]\nSwitchName=b Nodes=h[3-4]\n' > control.conf
python3 "$here/slurm_ctld.py" ctld control control.conf --expect-refused h1,h3
echo "$n fabrics accepted"
