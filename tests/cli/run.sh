#!/usr/bin/env bash
# Runs every CLI end-to-end test tests/cli/tNN-*.sh with TOPOMAP set to the
# binary under test.  Each test script exits 0 on success, 77 when it is
# skipped (a tool it needs is missing; it says which), anything else on
# failure.  A failing test that sources lib.sh prints "step failed:
# t.sh:LINE [label]: command (exit N)"; with TM_TEST_FAILURES set (make
# test, tests/run-stages.sh) that line, or the test's last output line, is
# appended there for the summary.  Two tests run at a time (TM_TEST_JOBS,
# tests/lanes.sh); a test with a `tm-test: serial` line runs alone.
set -u
here=$(cd "$(dirname "$0")" && pwd)
export TM_TEST_DATA="$here/../data"
export TOPO_DIR="$here/../../topologies"
: "${TOPOMAP:?TOPOMAP must name the binary}"
. "$here/../lanes.sh"
. "$here/../direct-python.sh"
pass=0; fail=0; skip=0; failed=()
lane_one() {
    local tmp rc
    tmp=$(mktemp -d)
    (cd "$tmp" && bash "$1"); rc=$?
    rm -rf "$tmp"
    return $rc
}
# the tests two at a time (TM_TEST_JOBS), then those marked serial alone;
# the results in the order of the files
par=(); ser=()
for t in "$here"/t[0-9]*.sh; do
    [ -e "$t" ] || continue
    if lanes_serial "$t"; then ser+=("$t"); else par+=("$t"); fi
done
res=$(mktemp -d)
mkdir "$res/p" "$res/s"
tm_direct_python "$res/python"
lanes_run "$(tm_test_jobs)" "$res/p" ${par[@]+"${par[@]}"}
lanes_run 1 "$res/s" ${ser[@]+"${ser[@]}"}
i=0; j=0
for t in "$here"/t[0-9]*.sh; do
    [ -e "$t" ] || continue
    if lanes_serial "$t"; then d=$res/s/$j; j=$((j + 1)); else d=$res/p/$i; i=$((i + 1)); fi
    out=$(cat "$d.out"); rc=$(cat "$d.rc")
    if [ "$rc" -eq 0 ]; then
        pass=$((pass + 1))
        # the seconds each test took: keeps the 15-minute budget visible
        printf 'ok   %-28s %6.1f s\n' "$(basename "$t")" "$(cat "$d.secs")"
    elif [ "$rc" -eq 77 ]; then
        skip=$((skip + 1)); printf 'skip %s: %s\n' "$(basename "$t")" "$out"
    else
        fail=$((fail + 1)); failed+=("$(basename "$t")")
        printf 'FAIL %s\n%s\n' "$(basename "$t")" "$out"
        where=$(printf '%s\n' "$out" | sed -n 's/^step failed: //p' | tail -n 1)
        [ -n "$where" ] || where="$(basename "$t"): exit $rc, no step recorded; last line: $(printf '%s\n' "$out" | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-140)"
        [ -z "${TM_TEST_FAILURES:-}" ] || echo "${TM_TEST_STAGE:+$TM_TEST_STAGE }cli $where" >> "$TM_TEST_FAILURES"
    fi
done
rm -rf "$res"
echo "cli: $pass passed, $fail failed, $skip skipped${failed[*]:+ (failed: ${failed[*]})}"
[ -n "${TM_TEST_TALLY:-}" ] && echo "$pass $fail" >> "$TM_TEST_TALLY"
[ "$fail" -eq 0 ]
