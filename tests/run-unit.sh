#!/usr/bin/env bash
# Runs every CMocka unit-test binary given; fails if any fails.  The
# closing line "N passed, N failed" counts test binaries' cases.
set -u
build=$1; shift
export TM_TEST_DATA=$(cd "$(dirname "$0")" && pwd)/data
pass=0; fail=0; failed_bins=()
for t in "$@"; do
    t0=$(date +%s.%N)
    out=$("$t" 2>&1); rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
    pass=$((pass + p)); fail=$((fail + f))
    if [ $rc -ne 0 ]; then
        printf '%s\n' "$out"
        failed_bins+=("$t")
        [ "$f" -eq 0 ] && fail=$((fail + 1))
    else
        printf '%-40s %4d passed %6.1f s\n' "$(basename "$t")" "$p" "$secs"
    fi
done
echo "unit: $pass passed, $fail failed"
[ -n "${TM_TEST_TALLY:-}" ] && echo "$pass $fail" >> "$TM_TEST_TALLY"
[ ${#failed_bins[@]} -eq 0 ] || { echo "failing: ${failed_bins[*]}"; exit 1; }
