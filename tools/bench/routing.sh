#!/usr/bin/env bash
# routing.sh - the measured table of docs/routing.md: max congestion of
# consecutive and mapped placements of real matrices under ECMP and under
# the fabric's real forwarding tables (plafrim, plafrim2) or the emulated
# OpenSM engines (generated fat-trees).  Usage: tools/bench/routing.sh
# [BUILD_DIR]; prints markdown rows.  The mapped placement is `topomap
# map` optimising under the routing of its row (default strategies,
# refinement limited to TM_ROUTING_LIMIT seconds, default 10, so that the
# table takes minutes on a shared machine).  TM_ROUTING_ONLY=R keeps only the
# rows of routing R (e.g. updn) to add a model's rows without rerunning all.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/build}/topomap
r=$root/tests/data/real/data
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
m=$r/commmatrix
row() { # fabric-label topology routing matrix-label matrix [options of map and eval]
    local label=$1 topo=$2 routing=$3 mlabel=$4 comm=$5; shift 5
    local rlabel=$routing
    case $routing in lft:*) rlabel=lft;; esac
    [ -n "${TM_ROUTING_ONLY:-}" ] && [ "$rlabel" != "$TM_ROUTING_ONLY" ] && return 0
    local mapped="$work/map.txt" common=()
    [ $# -gt 0 ] && common=("$@")
    for place in consecutive mapped; do
        local extra=()
        if [ $place = mapped ]; then
            "$bin" map --topology "$topo" --comm "$comm" --routing "$routing" --out "$mapped" \
                --quiet --time-limit "${TM_ROUTING_LIMIT:-10}" "${common[@]}" >/dev/null 2>"$work/err" || { echo "| $label | $mlabel | $place | $rlabel | map failed: $(head -c 160 "$work/err") |"; continue; }
            extra=(--mapping "$mapped")
        fi
        if ! "$bin" eval --topology "$topo" --comm "$comm" --routing "$routing" "${extra[@]}" \
                "${common[@]}" --compare-routing --json >"$work/out.json" 2>"$work/err"; then
            echo "| $label | $mlabel | $place | $rlabel | eval failed: $(head -c 160 "$work/err") |"
            continue
        fi
        python3 - "$label" "$mlabel" "$place" "$routing" "$work/out.json" <<'PY'
import json, sys
label, ml, place, routing, path = sys.argv[1:]
d = json.load(open(path)); c = d["compare_routing"]
r = routing.split("/")[-1] if routing.startswith("lft:") else routing
print("| %s | %s | %s | %s | %.4g | %.4g | %.2f | %.3f |" % (label, ml, place, "lft" if routing.startswith("lft:") else routing,
      c["ecmp"]["max_congestion"], c["routed"]["max_congestion"], c["congestion_ratio"],
      c["routed"]["avg_dilation"]))
PY
    done
}
echo "| fabric | matrix | placement | routing | max congestion ECMP | max congestion routed | routed / ECMP | avg dilation |"
echo "|---|---|---|---|---|---|---|---|"
pf=$r/ibnetdiscover_p/plafrim/ib-subnet-fe80_0000_0000_0000.txt
pf2=$r/ibnetdiscover_p/plafrim2/ib-subnet-fe80_0000_0000_0000.txt
# plafrim2's table of switch LID 60 has no entry above LID 0x3f and lists
# 0x3f itself with conflicting ports (damaged, PROVENANCE.md): only the 54
# hosts with LIDs below 0x3f can be reached from everywhere, so its rows
# run on them with 2 slots per host.
grep '^CA' "$pf2" | awk '$2 < 63 { match($0, /\( \047[^ \047]+/); print substr($0, RSTART + 3, RLENGTH - 3) }' |
    sort -u > "$work/plafrim2-hosts"
for mat in "lulesh_64:$m/cnca_mpiP_cm/lulesh_64.graphStats.txt" "cg_64:$m/maplib/cg/comm_matrix.p2p.size.csv" \
           "amg_64:$m/maplib/amg/comm_matrix.p2p.size.csv" "btmz_64:$m/maplib/btmz/comm_matrix.p2p.size.csv"; do
    row plafrim "$pf" "lft:$r/ibroute_lft/plafrim" "${mat%%:*}" "${mat#*:}"
    row plafrim "$pf" minhop "${mat%%:*}" "${mat#*:}"
    # no plafrim switch passes OpenSM's automatic root test: its two spines are the roots
    row plafrim "$pf" updn "${mat%%:*}" "${mat#*:}" --root S-0008f10500108500,S-0008f10500108548
    row "plafrim2 (subnet 0, 54 hosts x 2)" "$pf2" "lft:$r/ibroute_lft/plafrim2" "${mat%%:*}" "${mat#*:}" \
        --alloc "$work/plafrim2-hosts" --slots 2
    for rt in ftree minhop updn ecmp; do
        row "fattree:k=4,n=3" fattree:k=4,n=3 $rt "${mat%%:*}" "${mat#*:}"
    done
done
for rt in ftree minhop updn ecmp; do
    row "fattree:k=32,n=2" fattree:k=32,n=2 $rt npb_cg_C_1024 "$m/cnca_mpiP_cm/npb_cg_C_1024.graphStats.txt"
done
