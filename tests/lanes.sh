# lanes.sh - runs test items a few at a time (sourced by tests/run-unit.sh and
# tests/cli/run.sh).  Most tests use one core; on the 2-core machines of CI
# running two at a time keeps `make test` inside its 15 minutes.
#
#   lanes_run JOBS DIR ITEM...   runs `lane_one ITEM` (a function the caller
#                                defines) for every item, JOBS at a time,
#                                the longest first (lanes_order);
#                                item number i leaves its output (stdout and
#                                stderr) in DIR/i.out, its exit code in
#                                DIR/i.rc and its wall seconds in DIR/i.secs.
#
# TM_TEST_JOBS sets JOBS (tm_test_jobs: default 2, 1 runs them one by one).
# Tests that measure wall time or start MPI jobs say `tm-test: serial` in
# their first lines and the runners run them alone (lanes_serial).

tm_test_jobs() {
    local j=${TM_TEST_JOBS:-2}
    case $j in '' | *[!0-9]* | 0) j=1 ;; esac
    echo "$j"
}

# True when file $1 asks to run alone (a `tm-test: serial` line near its top).
lanes_serial() {
    head -n 20 "$1" 2>/dev/null | grep -q 'tm-test: serial'
}

# The indices (0-based, one per line) of items $@ in the order they start: longest first by
# the costs file (tests/lanes-costs.txt, "NAME SECONDS" per line, NAME the item's basename;
# TM_LANES_COSTS names another), the items it does not list after them in the order given.
# With the long items first, the lanes end together: in the order of the files, a long test
# that started last kept one core busy alone for a minute.
lanes_order() {
    local costs=${TM_LANES_COSTS:-$(dirname "${BASH_SOURCE[0]}")/lanes-costs.txt} i=0 item
    for item in "$@"; do
        printf '%s %s\n' "$i" "${item##*/}"
        i=$((i + 1))
    done | awk -v f="$costs" '
        BEGIN { while ((getline l < f) > 0) if (l !~ /^#/ && split(l, a, " ") == 2) c[a[1]] = a[2] }
        { print (($2 in c) ? c[$2] : -1), $1 }' | sort -s -k1,1gr -k2,2n | awk '{ print $2 }'
}

lanes_run() {
    local jobs=$1 dir=$2 i running=0 item
    shift 2
    local items=("$@")
    for i in $(lanes_order "$@"); do
        item=${items[$i]}
        (
            t0=$(date +%s.%N)
            lane_one "$item" > "$dir/$i.out" 2>&1
            echo $? > "$dir/$i.rc"
            awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {print b - a}' > "$dir/$i.secs"
        ) &
        running=$((running + 1))
        if [ "$running" -ge "$jobs" ]; then
            wait -n
            running=$((running - 1))
        fi
    done
    wait
}
