#!/usr/bin/env bash
# run.sh - builds and runs the libFuzzer targets (called by `make fuzz` and
# `make fuzz-smoke` from the repository root).
#
#   tests/fuzz/run.sh BUILD MODE SECONDS [TARGET...]
#     MODE smoke : replay tests/fuzz/regressions/<target>/*, then fuzz SECONDS
#     MODE run   : replay, then fuzz SECONDS (a campaign; corpus kept)
#     MODE replay: only replay the regression files
#   env: FUZZ_JOBS (targets run at once, default 1), FUZZ_MAXLEN (65536),
#        FUZZ_REQUIRE_ALL=1 (a target whose reader is not in the library yet
#        fails instead of being skipped), MAKE.
#
# Corpora are seeded at run time into BUILD/corpus/<target>/ from
# tests/fuzz/seeds/<target>/ and the globs of tests/fuzz/seeds.conf (test
# data, including the real inputs under tests/data/real); crashes land in
# BUILD/artifacts/<target>/.
# Every fuzzer runs under `nice -n 19`.  The last line per target gives
# libFuzzer's final figures: executions, coverage (cov) and features (ft).
set -u
shopt -s nullglob globstar

build=$1 mode=$2 secs=$3
shift 3
MAKE=${MAKE:-make}
jobs=${FUZZ_JOBS:-1}
maxlen=${FUZZ_MAXLEN:-65536}
here=tests/fuzz

if [ $# -gt 0 ]; then
    targets=("$@")
else
    targets=()
    for s in "$here"/fuzz_*.c; do targets+=("$(basename "$s" .c)"); done
fi
mkdir -p "$build/logs" "$build/corpus" "$build/artifacts"

# Seed files of a target: its seeds dir plus the globs of seeds.conf
# ("target glob..." lines, relative to the repository root).
seed_files() {
    local t=$1 line g globs
    for g in "$here/seeds/$t"/*; do printf '%s\n' "$g"; done
    while read -r line; do
        case "$line" in "$t "*) ;; *) continue ;; esac
        read -ra globs <<<"${line#"$t "}"
        for g in "${globs[@]}"; do
            # shellcheck disable=SC2086
            printf '%s\n' $g
        done
    done <"$here/seeds.conf"
}

seed_corpus() {
    local t=$1 dir=$2 f
    mkdir -p "$dir"
    seed_files "$t" | while read -r f; do
        [ -f "$f" ] || continue
        [ "$(stat -c %s "$f")" -le "$maxlen" ] || continue
        cp "$f" "$dir/seed-$(sha1sum "$f" | cut -c1-16)"
    done
}

# The lines of a failing run's log that say what happened (the full log
# stays in BUILD/logs/).
report() {
    grep -E "contract violated|ERROR:|runtime error|SUMMARY|^    #[0-9] |Test unit written|Running:|Executed" "$1" |
        grep -v "in fuzzer::" | head -n 30
}

# A failure line for `make test`'s summary (TM_TEST_FAILURES, tests/run-stages.sh).
record() {
    [ -z "${TM_TEST_FAILURES:-}" ] || echo "fuzz $*" >> "$TM_TEST_FAILURES"
}

# Runs one target; prints one summary line (and the log on failure).
run_target() {
    local t=$1 bin=$build/fuzz/$t log=$build/logs/$t.log rc=0
    local blog=$build/logs/$t.build.log
    if ! $MAKE -s BUILD="$build" SAN=fuzz "$bin" >"$blog" 2>&1; then
        # A reader whose header or code has not landed yet: skip, naming it.
        if grep -Eq "(undefined reference to \`|implicit declaration of function .)tm_" "$blog" &&
            [ "${FUZZ_REQUIRE_ALL:-0}" != 1 ]; then
            echo "SKIP $t: reader not in the library yet ($(grep -Eo "(undefined reference to \`|implicit declaration of function .)tm_[a-z0-9_]*" "$blog" |
                sed 's/.*[`'"'"'‘]//' | sort -u | tr '\n' ' '))"
            return 0
        fi
        cat "$blog"
        echo "FAIL $t: build"
        record "$t: build failed: $(grep -m 1 'error' "$blog" | cut -c1-140)"
        return 1
    fi
    local regs=("$here/regressions/$t"/*)
    if [ ${#regs[@]} -gt 0 ]; then
        if ! "$bin" -timeout=20 -rss_limit_mb=2048 "${regs[@]}" >"$build/logs/$t.replay.log" 2>&1; then
            report "$build/logs/$t.replay.log"
            echo "FAIL $t: a regression input fails again"
            record "$t: a regression input fails again: $(grep -m 1 -E 'ERROR|runtime error' "$build/logs/$t.replay.log" | cut -c1-140)"
            return 1
        fi
    fi
    if [ "$mode" = replay ]; then
        echo "ok   $t: ${#regs[@]} regression inputs"
        return 0
    fi
    local corpus=$build/corpus/$t dict=()
    seed_corpus "$t" "$corpus"
    [ -f "$here/dict/$t.dict" ] && dict=(-dict="$here/dict/$t.dict")
    mkdir -p "$build/artifacts/$t"
    nice -n 19 "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -malloc_limit_mb=1024 -max_len="$maxlen" -print_final_stats=1 -close_fd_mask=1 \
        -artifact_prefix="$build/artifacts/$t/" "${dict[@]}" "$corpus" >"$log" 2>&1 || rc=$?
    local execs cov ft
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    if [ $rc -ne 0 ]; then
        report "$log"
        echo "FAIL $t: crash after ${execs:-?} executions; input in $build/artifacts/$t/"
        record "$t: crash after ${execs:-?} executions ($(grep -m 1 -E 'ERROR|runtime error' "$log" | cut -c1-120)); input in $build/artifacts/$t/"
        return 1
    fi
    printf 'ok   %-18s %4ss  execs=%-9s cov=%-6s ft=%-6s corpus=%s\n' "$t" "$secs" "${execs:-?}" \
        "${cov:-?}" "${ft:-?}" "$(ls "$corpus" | wc -l)"
}

fail=0
running=0
for t in "${targets[@]}"; do
    if [ "$jobs" -le 1 ]; then
        run_target "$t" || fail=$((fail + 1))
        continue
    fi
    if [ "$running" -ge "$jobs" ]; then
        wait -n || fail=$((fail + 1))
        running=$((running - 1))
    fi
    run_target "$t" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || fail=$((fail + 1))
    running=$((running - 1))
done
echo "fuzz ($mode, ${secs}s per target): ${#targets[@]} targets, $fail failed"
[ "$fail" -eq 0 ]
