#!/usr/bin/env bash
# run-stages.sh - `make test`: runs every stage, also after one failed, and ends with one
# summary: each stage's result and time, then each failed test with the step inside it that
# failed, then the case tally.  Exit 1 if anything failed.
#
#   MAKE=make tests/run-stages.sh        (from the repository root; the Makefile's `test`)
#
# Stages (Makefile targets): test-build (every tree compiled first), check-layers (on the
# objects just built), test-unit, test-cli, test-asan (unit + CLI under ASan/UBSan/LSan),
# test-tsan, fuzz-smoke.  The suite
# runners (tests/run-unit.sh, tests/cli/run.sh, tests/fuzz/run.sh, the sanitizer targets)
# append one line per failed test to $TM_TEST_FAILURES, prefixed by $TM_TEST_STAGE when it is
# set ("asan", "tsan"); a stage that fails without such a line (a compile error, the layer
# check) is listed with the first error line of its output.
set -u
MAKE=${MAKE:-make}
out=${TM_STAGES_DIR:-build}
mkdir -p "$out/stage-logs"
out=$(cd "$out" && pwd)
export TM_TEST_FAILURES=$out/test-failures TM_TEST_TALLY=$out/test-tally
rm -f "$TM_TEST_FAILURES" "$TM_TEST_TALLY" "$out"/stage-logs/*.log
touch "$TM_TEST_FAILURES"
. "$(dirname "$0")/direct-python.sh"
tm_direct_python "$out/python"

# name target stage-prefix
stages=(
    "build test-build -"
    "layers check-layers -"
    "unit test-unit -"
    "cli test-cli -"
    "asan test-asan asan"
    "tsan test-tsan tsan"
    "fuzz fuzz-smoke -"
)
if [ -n "${TM_STAGES:-}" ]; then   # TM_STAGES="unit cli": only those (tests, debugging)
    sel=()
    for s in "${stages[@]}"; do
        case " $TM_STAGES " in *" ${s%% *} "*) sel+=("$s") ;; esac
    done
    stages=("${sel[@]}")
fi

results=()
t_all=$(date +%s.%N)
for s in "${stages[@]}"; do
    read -r name target prefix <<<"$s"
    [ "$prefix" = - ] && prefix=
    log=$out/stage-logs/$name.log
    before=$(wc -l < "$TM_TEST_FAILURES")
    echo "==== make test: stage $name ($MAKE $target)"
    t0=$(date +%s.%N)
    TM_TEST_STAGE=$prefix $MAKE --no-print-directory "$target" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
    if [ "$rc" -eq 0 ]; then
        results+=("ok      $name|$secs")
        continue
    fi
    results+=("FAILED  $name|$secs")
    # a failure no runner described: the stage and the first error line of its output
    if [ "$(wc -l < "$TM_TEST_FAILURES")" -eq "$before" ]; then
        first=$(grep -m 1 -E '(error|Error|ERROR|FAIL)[: ]' "$log" || tail -n 1 "$log")
        echo "$name: '$MAKE $target' failed (exit $rc): $(printf '%s' "$first" | cut -c1-160)" \
            >> "$TM_TEST_FAILURES"
    fi
done
secs_all=$(awk -v a="$t_all" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}')

echo
echo "==== make test: summary ($secs_all s; each stage's output: $out/stage-logs/)"
n_failed_stages=0
for r in "${results[@]}"; do
    printf '  %-22s %8s s\n' "${r%%|*}" "${r#*|}"
    case "$r" in FAILED*) n_failed_stages=$((n_failed_stages + 1)) ;; esac
done
n_fail=$(wc -l < "$TM_TEST_FAILURES")
if [ "$n_fail" -gt 0 ]; then
    echo "failed ($n_fail):"
    sed 's/^/  /' "$TM_TEST_FAILURES"
fi
[ -s "$TM_TEST_TALLY" ] &&
    awk '{p += $1; f += $2} END {printf "test: %d passed, %d failed (unit and CLI cases, plain and under the sanitizers)\n", p, f}' "$TM_TEST_TALLY"
if [ "$n_failed_stages" -eq 0 ] && [ "$n_fail" -eq 0 ]; then
    echo "make test: all ${#results[@]} stages passed"
    exit 0
fi
echo "make test: FAILED: $n_fail failure(s) in $n_failed_stages of ${#results[@]} stages (listed above)"
exit 1
