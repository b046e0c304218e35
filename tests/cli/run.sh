#!/usr/bin/env bash
# Runs every CLI end-to-end test tests/cli/tNN-*.sh with TOPOMAP set to the
# binary under test.  Each test script exits 0 on success, 77 when it is
# skipped (a tool it needs is missing; it says which), anything else on
# failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
export TM_TEST_DATA="$here/../data"
export TOPO_DIR="$here/../../topologies"
: "${TOPOMAP:?TOPOMAP must name the binary}"
pass=0; fail=0; skip=0; failed=()
for t in "$here"/t[0-9]*.sh; do
    [ -e "$t" ] || continue
    tmp=$(mktemp -d)
    t0=$(date +%s.%N)
    if out=$(cd "$tmp" && bash "$t" 2>&1); then
        pass=$((pass + 1))
        # the seconds each test took: keeps the 15-minute budget visible
        printf 'ok   %-28s %6.1f s\n' "$(basename "$t")" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')"
    elif [ $? -eq 77 ]; then
        skip=$((skip + 1)); printf 'skip %s: %s\n' "$(basename "$t")" "$out"
    else
        fail=$((fail + 1)); failed+=("$(basename "$t")")
        printf 'FAIL %s\n%s\n' "$(basename "$t")" "$out"
    fi
    rm -rf "$tmp"
done
echo "cli: $pass passed, $fail failed, $skip skipped"
[ -n "${TM_TEST_TALLY:-}" ] && echo "$pass $fail" >> "$TM_TEST_TALLY"
[ "$fail" -eq 0 ]
