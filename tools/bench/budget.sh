#!/bin/sh
# budget.sh - `make bench-budget`: quality against wall time, topomap's
# default, efforts and --time-limit curve beside Scotch's three strategies
# on seven instances, all in one run (tools/bench/budget.py says what and
# how; docs/performance.md "Effort and time" has the table).
#
#   tools/bench/budget.sh [BUILD [THREADS]]      (build, 2 threads)
#   BIG=0 tools/bench/budget.sh                  (without the 131,072-task case: ~10 min less)
#   REPS=1 tools/bench/budget.sh                 (one run per timed point instead of 3)
set -eu
BUILD=${1:-build}
THREADS=${2:-2}
command -v scotch_gmap >/dev/null || {
    echo "budget.sh: Scotch (scotch_gmap) is not installed: 'make deps FOR=bench' installs it"; exit 2; }
exec python3 tools/bench/budget.py "$BUILD" --threads "$THREADS" --reps "${REPS:-3}" \
    $([ "${BIG:-1}" = 0 ] && echo --no-big)
