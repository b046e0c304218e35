#!/usr/bin/env bash
# Runs every CMocka unit-test binary given; fails if any fails.  The
# closing line "N passed, N failed" counts test binaries' cases.  With
# TM_TEST_FAILURES set (make test, tests/run-stages.sh), each failed case
# is appended there as "unit test_x: case: file:line (message)", or the
# case that was running when the binary died (a crash, a sanitizer report).
# Two binaries run at a time (TM_TEST_JOBS, tests/lanes.sh).
set -u

# The failed cases of a binary's output ($1: output, $2: exit code).
failed_cases() {
    printf '%s\n' "$1" | awk -v rc="$2" '
        /^\[ RUN      \] / { cur = $4; msg = ""; loc = ""; open = 1; next }
        /^\[  ERROR   \] --- / && msg == "" { msg = substr($0, 18) }
        /^\[   LINE   \] --- / && loc == "" { loc = substr($0, 18); sub(/: error:.*/, "", loc) }
        /^\[       OK \] / { open = 0 }
        /^\[  FAILED  \] / && open && $4 == cur {
            printf "%s: %s%s\n", cur, loc != "" ? loc : "failed", msg != "" ? " (" substr(msg, 1, 120) ")" : ""
            open = 0; n++ }
        END { if (open) printf "%s: did not finish (exit %d: crash or sanitizer report)\n", cur, rc
              else if (!n) printf "exit %d before or after the cases\n", rc }'
}
build=$1; shift
export TM_TEST_DATA=$(cd "$(dirname "$0")" && pwd)/data
. "$(dirname "$0")/lanes.sh"
pass=0; fail=0; failed_bins=()
lane_one() { "$1"; }
# two binaries at a time (TM_TEST_JOBS, tests/lanes.sh), the results in order
res=$(mktemp -d)
lanes_run "$(tm_test_jobs)" "$res" "$@"
i=0
for t in "$@"; do
    out=$(cat "$res/$i.out"); rc=$(cat "$res/$i.rc"); secs=$(cat "$res/$i.secs")
    i=$((i + 1))
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
    pass=$((pass + p)); fail=$((fail + f))
    if [ $rc -ne 0 ]; then
        printf '%s\n' "$out"
        failed_bins+=("$t")
        [ "$f" -eq 0 ] && fail=$((fail + 1))
        [ -n "${TM_TEST_FAILURES:-}" ] && failed_cases "$out" "$rc" |
            sed "s|^|${TM_TEST_STAGE:+$TM_TEST_STAGE }unit $(basename "$t"): |" >> "$TM_TEST_FAILURES"
    else
        printf '%-40s %4d passed %6.1f s\n' "$(basename "$t")" "$p" "$secs"
    fi
done
rm -rf "$res"
echo "unit: $pass passed, $fail failed"
[ -n "${TM_TEST_TALLY:-}" ] && echo "$pass $fail" >> "$TM_TEST_TALLY"
[ ${#failed_bins[@]} -eq 0 ] || { echo "failing: ${failed_bins[*]}"; exit 1; }
