# lanes.sh - runs test items a few at a time (sourced by tests/run-unit.sh and
# tests/cli/run.sh).  Most tests use one core; on the 2-core machines of CI
# running two at a time keeps `make test` inside its 15 minutes.
#
#   lanes_run JOBS DIR ITEM...   runs `lane_one ITEM` (a function the caller
#                                defines) for every item, JOBS at a time;
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

lanes_run() {
    local jobs=$1 dir=$2 i=0 running=0 item
    shift 2
    for item in "$@"; do
        (
            t0=$(date +%s.%N)
            lane_one "$item" > "$dir/$i.out" 2>&1
            echo $? > "$dir/$i.rc"
            awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {print b - a}' > "$dir/$i.secs"
        ) &
        i=$((i + 1))
        running=$((running + 1))
        if [ "$running" -ge "$jobs" ]; then
            wait -n
            running=$((running - 1))
        fi
    done
    wait
}
