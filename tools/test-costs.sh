#!/usr/bin/env bash
# test-costs.sh - writes tests/lanes-costs.txt, the order in which the test runners start
# tests (tests/lanes.sh: longest first), from the stage logs of a `make test` run.
#
#   tools/test-costs.sh [STAGE-LOG-DIR]     (default build/stage-logs)
#
# A test's cost is its seconds in the plain stage plus under ASan (the unit and CLI lines
# of unit.log, cli.log and asan.log).  Run it after adding a long test or making one
# shorter; a test the file does not list starts after the listed ones.
set -euo pipefail
cd "$(dirname "$0")/.."
logs=${1:-build/stage-logs}
for f in unit cli asan; do
    [ -f "$logs/$f.log" ] || { echo "test-costs: no $logs/$f.log (run make test first)" >&2; exit 1; }
done
out=tests/lanes-costs.txt
{
    echo "# NAME SECONDS: the plain and ASan seconds of a make test run (tools/test-costs.sh)"
    cat "$logs/unit.log" "$logs/cli.log" "$logs/asan.log" | awk '
        /^test_[A-Za-z0-9_]+ +[0-9]+ passed +[0-9.]+ s$/ { c[$1] += $4 }
        /^ok +t[0-9]+-[A-Za-z0-9_-]+\.sh +[0-9.]+ s$/ { c[$2] += $3 }
        END { for (n in c) printf "%s %.1f\n", n, c[n] }' | sort -k2,2gr -k1,1
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "test-costs: $(($(wc -l < "$out") - 1)) tests in $out"
