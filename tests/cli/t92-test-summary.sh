#!/usr/bin/env bash
# `make test` runs every stage even when one fails and ends with one summary naming each failed
# test and the step inside it (issue 36): the CLI runner records the step lib.sh reports, the
# unit runner the failed CMocka case with its file:line, and tests/run-stages.sh runs every
# stage and lists what failed.  Checked on planted tests and a stand-in for make.
set -eu
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
if sanitized; then
    echo "sanitizer build: the test runners do not depend on the build (plain build)"
    exit 77
fi
# the runners below are ours, not the make test that runs this one: its tally, failure list
# and stage must not be touched (they are set explicitly where a run needs them)
unset TM_TEST_TALLY TM_TEST_FAILURES TM_TEST_STAGE

step "the CLI runner: a failing step is named by its line, its label and its command"
mkdir -p cli
cp "$src/tests/cli/run.sh" "$src/tests/cli/lib.sh" cli/
cp "$src/tests/lanes.sh" "$src/tests/direct-python.sh" .
cat > cli/t01-pass.sh <<'EOF'
set -eu
. "$(dirname "$0")/lib.sh"
echo fine
EOF
cat > cli/t02-labelled.sh <<'EOF'
set -eu
. "$(dirname "$0")/lib.sh"
step "copy the inputs"
true
step "the figures match"
x=1
[ "$x" = 2 ]
echo never
EOF
cat > cli/t03-commented.sh <<'EOF'
set -eu
. "$(dirname "$0")/lib.sh"
# a first block
true
# the static link of the consumer
check() { echo "ld: cannot find -llzma"; return 1; }
check --static \
    -o consumer
EOF
cat > cli/t04-skip.sh <<'EOF'
. "$(dirname "$0")/lib.sh"
echo "no tool"; exit 77
EOF
cat > cli/t05-nolib.sh <<'EOF'
echo "something went wrong"
exit 3
EOF
cat > cli/t06-expect.sh <<'EOF'
set -eu
. "$(dirname "$0")/lib.sh"
step "the error names the option"
expect_exit 0 false
EOF
# two at a time, a serial one alone: the one marked serial sees no other test running
cat > cli/t07-serial.sh <<'EOF'
# tm-test: serial (a planted one)
ls "$(dirname "$0")"/../running.* 2>/dev/null && exit 1
echo alone
EOF
for k in 1 2 3; do
    printf 'touch "$(dirname "$0")/../running.$$"; sleep 0.5; rm "$(dirname "$0")/../running.$$"\n' \
        > cli/t0${k}x-slow.sh
done
: > failures
expect_exit 1 env TOPOMAP=/bin/true TM_TEST_FAILURES="$PWD/failures" TM_TEST_STAGE=asan TM_TEST_TALLY="$PWD/tally" bash cli/run.sh
[ "$(cat tally)" = "5 4" ]
expect_in "cli: 5 passed, 4 failed, 1 skipped (failed: t02-labelled.sh t03-commented.sh t05-nolib.sh t06-expect.sh)" "$OUT"
# the results in the order of the files, whichever finished first
[ "$(printf '%s\n' "$OUT" | sed -n 's/^\(ok\|FAIL\|skip\) *\(t[0-9a-z]*\)-.*/\2/p' | tr '\n' ' ')" = \
  "t01 t01x t02 t02x t03 t03x t04 t05 t06 t07 " ]
expect_in "step failed: t02-labelled.sh:7 [the figures match]: [ \"\$x\" = 2 ] (exit 1)" "$OUT"
cat > want <<'EOF'
asan cli t02-labelled.sh:7 [the figures match]: [ "$x" = 2 ] (exit 1)
asan cli t03-commented.sh:7 [the static link of the consumer]: check --static \ (exit 1)
asan cli t05-nolib.sh: exit 3, no step recorded; last line: something went wrong
asan cli t06-expect.sh:4 [the error names the option]: expect_exit 0 false (exit 1)
EOF
diff want failures

step "the unit runner: the failed case, its file:line and message; a case that did not finish"
cat > test_fake <<'EOF'
#!/bin/sh
cat <<'OUT'
[==========] tests: Running 3 test(s).
[ RUN      ] test_a
[       OK ] test_a
[ RUN      ] test_b
[  ERROR   ] --- 0x1 != 0x2
[   LINE   ] --- tests/unit/test_fake.c:42: error: Failure!
[  FAILED  ] test_b
[ RUN      ] test_c
[       OK ] test_c
[==========] tests: 3 test(s) run.
[  PASSED  ] 2 test(s).
[  FAILED  ] 1 test(s), listed below:
[  FAILED  ] test_b
OUT
exit 1
EOF
cat > test_crash <<'EOF'
#!/bin/sh
printf '[==========] tests: Running 2 test(s).\n[ RUN      ] test_x\n[       OK ] test_x\n[ RUN      ] test_y\n'
exit 66
EOF
chmod +x test_fake test_crash
: > failures
expect_exit 1 env TM_TEST_FAILURES="$PWD/failures" TM_TEST_STAGE=tsan bash "$src/tests/run-unit.sh" . ./test_fake ./test_crash
expect_in "unit: 2 passed, 2 failed" "$OUT"
cat > want <<'EOF'
tsan unit test_fake: test_b: tests/unit/test_fake.c:42 (0x1 != 0x2)
tsan unit test_crash: test_y: did not finish (exit 66: crash or sanitizer report)
EOF
diff want failures

step "run-stages.sh: every stage runs after a failure, one summary, exit 1"
cat > fakemake <<'EOF'
#!/bin/sh
# a stand-in for make: logs the stage, fails two of them
for a; do t=$a; done
echo "$t ${TM_TEST_STAGE:-}" >> stages.txt
case $t in
test-unit) echo "unit test_metis: test_pool: tests/unit/test_metis.c:9 (boom)" >> "$TM_TEST_FAILURES"; exit 1 ;;
test-asan) echo "cc: error: unrecognized option"; exit 2 ;;
esac
echo "$t fine"
EOF
chmod +x fakemake
expect_exit 1 env MAKE="$PWD/fakemake" TM_STAGES_DIR=out bash "$src/tests/run-stages.sh"
[ "$(cut -d' ' -f1 stages.txt | tr '\n' ' ')" = "test-build check-layers test-unit test-cli test-asan test-tsan fuzz-smoke " ]
grep -q '^test-asan asan$' stages.txt && grep -q '^test-tsan tsan$' stages.txt
expect_in "==== make test: summary" "$OUT"
expect_in "FAILED  unit" "$OUT"
expect_in "FAILED  asan" "$OUT"
expect_in "ok      fuzz" "$OUT"
expect_in "failed (2):
  unit test_metis: test_pool: tests/unit/test_metis.c:9 (boom)
  asan: '$PWD/fakemake test-asan' failed (exit 2): cc: error: unrecognized option" "$OUT"
[ "$(tail -n 1 stdout.txt)" = "make test: FAILED: 2 failure(s) in 2 of 7 stages (listed above)" ]
# and when everything passes
cat > fakemake <<'EOF'
#!/bin/sh
exit 0
EOF
expect_exit 0 env MAKE="$PWD/fakemake" TM_STAGES_DIR=out bash "$src/tests/run-stages.sh"
[ "$(tail -n 1 stdout.txt)" = "make test: all 7 stages passed" ]
